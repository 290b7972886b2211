/**
 * A merged [DAS06] grid read as cells (period, machine set, bag, checkpoints, store) with
 * each policy's slowdown, and the trace it ran on: what both the RD rows (das06-rows.ts)
 * and the report's figures of the grid read from it.
 */
import type { MergedGroup, MergedSweep } from "../simulate/sweep/merge-sweep";

export const POLICIES = ["FCFS", "FCFS-AT", "FCFS-TR", "FCFS-PRDCT-DMD"];
export const SYNTHETIC = "runs on the SYNTHETIC classroom trace matched to [DAS06] §3.1 statistics (the paper's trace is not public)";

/**
 * Which trace a grid ran on, as its captions say it: the synthetic classroom trace (cells say
 * so with their `syntheticTrace` metric, or by naming no trace), or a real one.
 */
export function das06TraceLabel(merged: MergedSweep): string {
  const real = [...new Set(merged.groups.filter((g) => (g.metrics.syntheticTrace?.mean ?? (g.parameters.trace == null ? 1 : 0)) === 0).map((g) => String(g.parameters.trace)))];
  if (real.length === 0) return SYNTHETIC;
  return `runs on the availability trace ${real.join(", ")}${real.length < merged.groups.length && merged.groups.some((g) => g.parameters.trace == null) ? ` and, where no trace is named, ${SYNTHETIC}` : ""}`;
}

export interface Cell {
  period: string;
  set: string;
  tasks: number;
  cpu: number;
  checkpoints: number;
  store: string;
  group: MergedGroup;
}

export function cells(merged: MergedSweep): Cell[] {
  return merged.groups.map((group) => {
    const p = group.parameters;
    return { period: String(p.startTimes), set: String(p.machineSet), tasks: Number(p.tasks), cpu: Number(p.taskCpuS), checkpoints: Number(p.checkpoints), store: String(p.checkpointStore), group };
  });
}

export const slowdown = (c: Cell, policy: string) => c.group.policies?.[policy]?.slowdown?.mean ?? NaN;
