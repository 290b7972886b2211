/**
 * A trace split into a fitting half and a replay half, by run and by time: within each
 * (m, v) cell, its runs in the trace's order (the order they were measured: the harness
 * and the generators write runs as they end) — the earlier ones fit the model, the later
 * ones are replayed against the plans made from it. Splitting within cells keeps every
 * cell in both halves (a replay needs the whole grid, measured-bandwidth.ts), and time
 * order keeps a drift of the cluster on the honest side: plans are judged on runs
 * measured after the runs they were made from.
 *
 * Runs of mixed sizes (validation runs) have no cell: they stay with the fitting half.
 */
import type { RunObservation } from "../../ingest/observations";
import { InputError } from "../../shared/errors";

export interface RunSplit {
  fitting: RunObservation[];
  /** Per cell ("m/v"), its replay runs in time order. */
  replayByCell: Map<string, { m: number; sizeMb: number; runs: RunObservation[] }>;
  /** Replay runs per cell (the smallest cell's count): the releases a replay can make by repetition. */
  releases: number;
}

export const cellKey = (m: number, sizeMb: number): string => `${m}/${sizeMb}`;

/** The first `fittingRuns` of each cell's runs fit (the rest replay); cells need more than that many runs. */
export function splitRunsByTime(runs: readonly RunObservation[], fittingRuns: number): RunSplit {
  if (!Number.isInteger(fittingRuns) || fittingRuns < 1) throw new InputError(`the fitting half must take an integer ≥ 1 of each cell's runs, found ${fittingRuns}`);
  const split = splitByRank(runs, (rank) => rank > fittingRuns);
  const short = [...split.counts].filter(([, count]) => count <= fittingRuns).map(([key, count]) => `${key.replace("/", " × ")} MB (${count} runs)`);
  if (short.length > 0) {
    throw new InputError(`cells with no run left to replay after the first ${fittingRuns} of each: m × v = ${short.slice(0, 5).join(", ")}${short.length > 5 ? ", …" : ""}; fit on fewer runs per cell or measure more`);
  }
  return split.split;
}

/**
 * Fold `rank` (1-based) of a leave-one-repetition-out split: the rank-th run of each cell
 * replays, the others fit. For traces with too few runs per cell to halve (the measured NFS
 * campaign has 3): every repetition is replayed once, against a model fitted without it.
 */
export function splitRunsHoldingOut(runs: readonly RunObservation[], rank: number): RunSplit {
  const split = splitByRank(runs, (r) => r === rank);
  const short = [...split.counts].filter(([, count]) => count < rank).map(([key, count]) => `${key.replace("/", " × ")} MB (${count} runs)`);
  if (short.length > 0) throw new InputError(`cells without a run ${rank} to hold out: m × v = ${short.slice(0, 5).join(", ")}${short.length > 5 ? ", …" : ""}`);
  return split.split;
}

function splitByRank(runs: readonly RunObservation[], replays: (rank: number) => boolean): { split: RunSplit; counts: Map<string, number> } {
  const fitting: RunObservation[] = [];
  const seen = new Map<string, number>();
  const replayByCell: RunSplit["replayByCell"] = new Map();
  for (const run of runs) {
    if (run.uniformSizeMb === null) {
      fitting.push(run);
      continue;
    }
    const key = cellKey(run.m, run.uniformSizeMb);
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (!replays(count)) fitting.push(run);
    else {
      let cell = replayByCell.get(key);
      if (cell === undefined) replayByCell.set(key, (cell = { m: run.m, sizeMb: run.uniformSizeMb, runs: [] }));
      cell.runs.push(run);
    }
  }
  const releases = replayByCell.size > 0 ? Math.min(...[...replayByCell.values()].map((cell) => cell.runs.length)) : 0;
  return { split: { fitting, replayByCell, releases }, counts: seen };
}
