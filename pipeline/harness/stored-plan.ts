/** The plan a sweep folder was started with (`<out>/plan.json`), checked to be one. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../shared/errors";
import type { SweepPlan } from "./plan-sweep";

export function storedPlanPath(outDir: string): string {
  return join(outDir, "plan.json");
}

/** The stored plan, or null when the folder holds none; an InputError when plan.json is something else. */
export function readStoredPlan(outDir: string): SweepPlan | null {
  const path = storedPlanPath(outDir);
  if (!existsSync(path)) return null;
  try {
    const plan = JSON.parse(readFileSync(path, "utf8")) as SweepPlan;
    if (plan?.schema === "ckpt-lab/harness-plan@1" && Array.isArray(plan.combinations) && typeof plan.sweepSha256 === "string") return plan;
    throw new Error(`expected "schema": "ckpt-lab/harness-plan@1"`);
  } catch (error) {
    throw new InputError(`${path} is not a harness plan (${(error as Error).message}); --out must be a folder made by \`ckpt harness run\`, or a new one`, {
      cause: error,
    });
  }
}
