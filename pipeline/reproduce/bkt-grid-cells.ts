/**
 * A merged [BKT] grid read as cells (transient mode, clients, jobs), and the availability
 * trace its hosts follow: what both the RB rows (bkt-rows.ts) and the report's figures of
 * the grid read from it.
 */
import type { MergedGroup, MergedSweep } from "../simulate/sweep/merge-sweep";

/** The paper's client counts, in the order of the grid's (5000, 10000, 20000). */
export const PAPER_CLIENTS = [5000, 10000, 20000];

export interface Cell {
  transient: string;
  clients: number;
  jobs: number;
  group: MergedGroup;
}

/** The availability trace a [BKT] grid's hosts follow (and from which day), or null when they follow the laws. */
export function bktGridTrace(merged: MergedSweep): { file: string; startDays: number } | null {
  const parameters = merged.groups[0]?.parameters;
  return typeof parameters?.trace === "string" ? { file: parameters.trace, startDays: Number(parameters.traceStartDays ?? 0) } : null;
}

export function cells(merged: MergedSweep): Cell[] {
  return merged.groups.map((group) => ({
    // A grid that does not set it runs the default, suspend.
    transient: String(group.parameters.transient ?? "suspend"),
    clients: Number(group.parameters.clients),
    jobs: Number(group.parameters.jobs),
    group,
  }));
}

export function sortedUnique(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
