/**
 * The fuzz suite's harness (issue #12): run a `ckpt` command in-process on generated input
 * files inside a sandbox folder and check the properties every command must keep whatever
 * its input:
 * - the exit code is 0, 1 or 2, and a non-zero exit says something on stderr;
 * - no stack trace (an error that is neither the user's input nor usage is a bug);
 * - no NaN or Infinity in what it prints or in the JSON it writes;
 * - nothing outside `--out` is created, changed or removed (the sandbox's other files, and
 *   the project's reports/).
 *
 * `FUZZ_SCALE` multiplies every property's number of runs: CI runs the suite as is (under
 * two minutes, fixed seeds); `npm run fuzz` runs it with FUZZ_SCALE=25 from a fresh seed.
 */
import { createHash, randomInt } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { expect } from "vitest";
import { projectRoot } from "../../pipeline/shared/version";
import { runCli } from "../cli-io";

export const FUZZ_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE ?? "1"));

/**
 * The long run's base seed: FC_SEED, or a fresh one (printed, so that a failure can be
 * rerun). Without it every property would fall back on test/setup.ts's fixed global seed
 * and each `npm run fuzz` would explore the same inputs.
 */
const LONG_RUN_SEED = FUZZ_SCALE > 1 ? Number(process.env.FC_SEED ?? randomInt(2 ** 31 - 1)) : null;
if (LONG_RUN_SEED !== null) console.log(`fuzz: ${FUZZ_SCALE}× the CI runs from seed ${LONG_RUN_SEED} (rerun: FC_SEED=${LONG_RUN_SEED} npm run fuzz)`);

/** fast-check parameters: `runs` runs from the fixed `seed`, or FUZZ_SCALE times more from the long run's seed. */
export function fuzzParameters(runs: number, seed: number): { numRuns: number; seed: number; endOnFailure: boolean } {
  return LONG_RUN_SEED !== null ? { numRuns: runs * FUZZ_SCALE, seed: LONG_RUN_SEED + seed, endOnFailure: true } : { numRuns: runs, seed, endOnFailure: true };
}

/** A property's runs as CI runs them (the global fixed seed), or scaled like `fuzzParameters` in a long run. */
export function scaledRuns(runs: number, seed: number): { numRuns: number; seed?: number } {
  return LONG_RUN_SEED !== null ? { numRuns: runs * FUZZ_SCALE, seed: LONG_RUN_SEED + seed } : { numRuns: runs };
}

/** Every file under `dir` with a hash of its content (folders as entries too). */
function snapshot(dir: string, skip: (path: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (skip(path)) continue;
      const stats = lstatSync(path);
      if (stats.isDirectory()) {
        out.set(relative(dir, path) + "/", "dir");
        walk(path);
      } else out.set(relative(dir, path), stats.isFile() ? createHash("sha256").update(readFileSync(path)).digest("hex") : "special");
    }
  };
  walk(dir);
  return out;
}

const STACK_TRACE = /\n\s+at .+[:(]\d+:\d+\)?/;
/** NaN or Infinity as a computed value: not inside a word, and not quoted (`found "NaN"` echoes the input). */
const NON_FINITE = /(^|[^A-Za-z"])(NaN|-?Infinity)([^A-Za-z"\\]|$)/m;

/**
 * What a command computed, without the input it quotes back: JSON minus its "raw" fields
 * (rejected lines as they were read), or the text as printed.
 */
function computed(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(value, (key, v) => (key === "raw" ? undefined : v));
}

export interface FuzzRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The sandbox folder (inputs are written there; `--out` should point inside it). */
  dir: string;
}

/**
 * Write `files` into a fresh sandbox, run `ckpt <argv(dir)>`, check the properties, and
 * return what it printed. `outputs` are the sandbox paths the command may write (its --out
 * and --rejects); their text is checked for NaN/Infinity too.
 */
export async function fuzzCli(
  files: Record<string, string | Buffer>,
  argv: (dir: string) => string[],
  outputs: string[] = [],
  /** Reads what the command wrote, before the sandbox is removed. */
  inspect?: (dir: string) => void,
): Promise<FuzzRun> {
  const dir = mkdtempSync(join(tmpdir(), "ckpt-fuzz-"));
  try {
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    const allowed = outputs.map((o) => join(dir, o));
    const mayWrite = (path: string) => allowed.some((a) => path === a || path.startsWith(`${a}/`) || path.startsWith(`${a}.`));
    const reports = join(projectRoot(), "reports");
    const before = snapshot(dir, mayWrite);
    const reportsBefore = snapshot(reports, () => false);
    const args = argv(dir);
    const { code, stdout, stderr } = await runCli(args);
    const context = `ckpt ${args.map((a) => JSON.stringify(a)).join(" ")}\nexit ${code}\nstderr: ${stderr.slice(0, 2000)}`;
    expect([0, 1, 2], context).toContain(code);
    if (code !== 0) expect(stderr.trim().length, context).toBeGreaterThan(0);
    expect(stderr, context).not.toMatch(STACK_TRACE);
    expect(computed(stdout), context).not.toMatch(NON_FINITE);
    // Computed outputs (JSON) only: rejects files quote the input lines as they were.
    for (const output of allowed.filter((o) => o.endsWith(".json"))) {
      if (existsSync(output) && lstatSync(output).isFile()) expect(computed(readFileSync(output, "utf8")), `${context}\n${output}`).not.toMatch(NON_FINITE);
    }
    expect(snapshot(dir, mayWrite), `${context}\nfiles outside the outputs changed`).toEqual(before);
    expect(snapshot(reports, () => false), `${context}\nreports/ changed`).toEqual(reportsBefore);
    inspect?.(dir);
    return { code, stdout, stderr, dir };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
