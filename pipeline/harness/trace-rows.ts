/**
 * A finished run as rows of the canonical trace CSV (data/README.md): one row per process,
 * `run_id,node,m,size_mb,ckpt_mb,start_s,end_s`, then the harness's extra columns
 * `repetition,backend,sync` (and `cluster` when the sweep names one), which ingest keeps.
 *
 * `ckpt_mb` is the image's bytes / 10^6 (docs/science.md §2: MB = 10^6 bytes); times are seconds since
 * the run's barrier, to the microsecond. The command backend has no sync mode: "-".
 */
import { CANONICAL_COLUMNS } from "../ingest/observations";
import type { Combination } from "./plan-sweep";
import type { ProcessCheckpointResult } from "./run-result";

export const HARNESS_EXTRA_COLUMNS = ["repetition", "backend", "sync"] as const;

export function traceHeader(cluster: string | null): string {
  return [...CANONICAL_COLUMNS, ...HARNESS_EXTRA_COLUMNS, ...(cluster === null ? [] : ["cluster"])].join(",");
}

export function traceRows(combination: Combination, processes: readonly ProcessCheckpointResult[], cluster: string | null): string[] {
  return processes.map((p) =>
    [
      combination.id,
      p.node,
      combination.m,
      p.sizeMb,
      (p.ckptBytes / 1e6).toFixed(6),
      p.startS.toFixed(6),
      p.endS.toFixed(6),
      combination.repetition,
      combination.backend,
      combination.sync ?? "-",
      ...(cluster === null ? [] : [cluster]),
    ].join(","),
  );
}

/**
 * The rows of a run's own trace file, if it is complete and belongs to `combination`:
 * the expected header, exactly `m` rows, each of this run and with the header's field
 * count. Anything else (a file from a crashed write, hand-edited, another sweep's) is null.
 */
export function checkedRunRows(text: string, combination: Combination, cluster: string | null): string[] | null {
  if (!text.endsWith("\n")) return null;
  const lines = text.slice(0, -1).split("\n");
  if (lines[0] !== traceHeader(cluster)) return null;
  const rows = lines.slice(1);
  const fields = lines[0]!.split(",").length;
  if (rows.length !== combination.m) return null;
  const nodes = new Set<string>();
  for (const row of rows) {
    const cells = row.split(",");
    if (cells.length !== fields || cells[0] !== combination.id || Number(cells[2]) !== combination.m) return null;
    if (![3, 4, 5, 6].every((c) => Number.isFinite(Number(cells[c])) && cells[c] !== "")) return null;
    nodes.add(cells[1]!);
  }
  return nodes.size === rows.length ? rows : null;
}
