/**
 * Which measurements the fit uses (SPEC §3.1): the per-(m, v) means, as the papers did
 * (they kept the mean of > 100 repetitions), or every run; and only the points up to and
 * including each size series' peak (the papers' rule: after the peak the device collapses
 * and behaviour is unpredictable), or all of them.
 *
 * Runs of mixed sizes are never fit points: they are the validation runs (SPEC §3.4).
 */
import type { Observations } from "../ingest/observations";
import { InputError } from "../shared/errors";
import type { FitSample } from "./least-squares";

export type FitPointKind = "means" | "runs";

export interface FitPointSelection {
  /** "means": one point per (m, v) cell; "runs": one point per run. */
  points: FitPointKind;
  /** Keep only points with m ≤ their series' peak ī (default true). */
  upToPeak: boolean;
}

export const DEFAULT_FIT_POINT_SELECTION: FitPointSelection = { points: "means", upToPeak: true };

export interface FitPoint extends FitSample {
  /** The size series' application size v, MB. */
  sizeMb: number;
  /** Runs behind this point: the cell's count for a mean, 1 for a run. */
  runCount: number;
  /** The run's id, when points are runs. */
  runId?: string;
}

/** The fit points of `observations`, in the order of their series and runs. */
export function selectFitPoints(observations: Observations, selection: FitPointSelection = DEFAULT_FIT_POINT_SELECTION): FitPoint[] {
  const points: FitPoint[] = [];
  if (selection.points === "means") {
    for (const series of observations.series) {
      for (const point of series.points) {
        if (selection.upToPeak && point.m > series.peak.m) continue;
        points.push({ m: point.m, vGb: point.vGb, bwMbPerS: point.meanBwMbPerS, sizeMb: series.sizeMb, runCount: point.count });
      }
    }
    return points;
  }
  const peakMBySize = new Map(observations.series.map((series) => [series.sizeMb, series.peak.m]));
  for (const run of observations.runs) {
    if (run.uniformSizeMb === null) continue;
    const peakM = peakMBySize.get(run.uniformSizeMb);
    if (peakM === undefined) {
      throw new InputError(
        `run "${run.runId}" has processes of one size, ${run.uniformSizeMb} MB, but the observations have no size series of that size (series: ${[...peakMBySize.keys()].join(", ")} MB). Observations must come from \`ckpt ingest\`, which builds a series for every size of its uniform runs.`,
      );
    }
    if (selection.upToPeak && run.m > peakM) continue;
    points.push({ m: run.m, vGb: run.vGb, bwMbPerS: run.aggregatedBwMbPerS, sizeMb: run.uniformSizeMb, runCount: 1, runId: run.runId });
  }
  return points;
}
