/**
 * The sweep's trace, `<out>/trace.csv`: the rows of every done run, in plan order, in the
 * canonical CSV. Rebuilt from the runs' own trace files and replaced atomically after every
 * run, so it is always complete and never half-written; a run whose trace file is missing
 * or incomplete is not read back but reported, and the runner runs it again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../shared/atomic-write";
import type { CombinationState } from "./combination-state";
import type { SweepPlan } from "./plan-sweep";
import { checkedRunRows, traceHeader } from "./trace-rows";

export function combinedTracePath(outDir: string): string {
  return join(outDir, "trace.csv");
}

export interface CombinedTrace {
  runs: number;
  rows: number;
  /** Runs marked done whose trace file could not be used (to be run again). */
  unusable: string[];
}

export function writeCombinedTrace(outDir: string, plan: SweepPlan, states: readonly CombinationState[]): CombinedTrace {
  const stateById = new Map(states.map((s) => [s.id, s]));
  const lines = [traceHeader(plan.cluster)];
  const unusable: string[] = [];
  let runs = 0;
  for (const combination of plan.combinations) {
    const state = stateById.get(combination.id);
    if (state?.status !== "done" || state.runFolder === null) continue;
    let text: string;
    try {
      text = readFileSync(join(outDir, state.runFolder, "trace.csv"), "utf8");
    } catch {
      unusable.push(combination.id);
      continue;
    }
    const rows = checkedRunRows(text, combination, plan.cluster);
    if (rows === null) {
      unusable.push(combination.id);
      continue;
    }
    lines.push(...rows);
    runs += 1;
  }
  writeFileAtomic(combinedTracePath(outDir), `${lines.join("\n")}\n`);
  return { runs, rows: lines.length - 1, unusable };
}
