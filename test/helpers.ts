/** Float comparison with an explicit relative tolerance (and an absolute floor near zero). */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { InputError } from "../pipeline/shared/errors";

export function expectClose(actual: number, expected: number, relative = 1e-9, absolute = 1e-12): void {
  const tolerance = Math.max(absolute, relative * Math.abs(expected));
  if (!(Math.abs(actual - expected) <= tolerance)) {
    expect.fail(`expected ${actual} to be within ${tolerance} of ${expected} (relative ${relative})`);
  }
}

/** The message of the InputError `check` throws (the test fails if it throws none, or another error). */
export function refusal(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

/** Every TypeScript file below `dir`. */
export function typeScriptSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? typeScriptSources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/**
 * The timeout of a test that runs the whole pipeline (or several of its runs): a guard
 * against a hang, not a speed check. A run takes about 50 s on an idle two-core machine and
 * three times that when other work keeps both cores busy; the guard sits far above both.
 */
export const WHOLE_PIPELINE_TIMEOUT_MS = 900_000;
