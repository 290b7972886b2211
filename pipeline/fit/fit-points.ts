/**
 * Which measurements the fit uses (docs/science.md §3.1): the per-(m, v) means, as the papers did
 * (they kept the mean of > 100 repetitions), or every run; and only the points up to and
 * including each size series' peak (the papers' rule: after the peak the device collapses
 * and behaviour is unpredictable), or all of them.
 *
 * Runs of mixed sizes are never fit points: they are the validation runs (docs/science.md §3.4).
 * When ingest grouped the series by run attributes (`groupBy`, e.g. one curve per
 * cluster), a run's peak is that of its own group's series; the fit itself pools them.
 *
 * The points are columns (typed arrays, one entry per point), not an array of objects:
 * with `--points runs` there are ~10^5 of them and the fit must stay within a few tens of
 * milliseconds, which allocating an object per point would not.
 */
import type { Observations } from "../ingest/observations";
import { InputError } from "../shared/errors";
import type { FitColumns } from "./least-squares";

export type FitPointKind = "means" | "runs";

export interface FitPointSelection {
  /** "means": one point per (m, v) cell; "runs": one point per run. */
  points: FitPointKind;
  /** Keep only points with m ≤ their series' peak ī (default true). */
  upToPeak: boolean;
}

export const DEFAULT_FIT_POINT_SELECTION: FitPointSelection = { points: "means", upToPeak: true };

/** Fit points as columns: entry i of every column describes point i. */
export interface FitPoints extends FitColumns {
  m: Float64Array;
  vGb: Float64Array;
  bwMbPerS: Float64Array;
  /** The size series' application size v, MB. */
  sizeMb: Float64Array;
  /** Runs behind each point: the cell's count for a mean, 1 for a run. */
  runCount: Float64Array;
  /** Each point's run id when points are runs, else null. */
  runId: string[] | null;
}

function allocate(length: number, withRunIds: boolean): FitPoints {
  return {
    m: new Float64Array(length),
    vGb: new Float64Array(length),
    bwMbPerS: new Float64Array(length),
    sizeMb: new Float64Array(length),
    runCount: new Float64Array(length),
    runId: withRunIds ? new Array<string>(length) : null,
  };
}

/** The first `length` points (views on the same buffers, no copy). */
function truncate(points: FitPoints, length: number): FitPoints {
  return {
    m: points.m.subarray(0, length),
    vGb: points.vGb.subarray(0, length),
    bwMbPerS: points.bwMbPerS.subarray(0, length),
    sizeMb: points.sizeMb.subarray(0, length),
    runCount: points.runCount.subarray(0, length),
    runId: points.runId === null || points.runId.length === length ? points.runId : points.runId.slice(0, length),
  };
}

/** The fit points of `observations`, in the order of their series and runs. */
export function selectFitPoints(observations: Observations, selection: FitPointSelection = DEFAULT_FIT_POINT_SELECTION): FitPoints {
  if (selection.points === "means") {
    const points = allocate(observations.series.reduce((n, s) => n + s.points.length, 0), false);
    let n = 0;
    for (const series of observations.series) {
      for (const point of series.points) {
        if (selection.upToPeak && point.m > series.peak.m) continue;
        points.m[n] = point.m;
        points.vGb[n] = point.vGb;
        points.bwMbPerS[n] = point.meanBwMbPerS;
        points.sizeMb[n] = series.sizeMb;
        points.runCount[n] = point.count;
        n += 1;
      }
    }
    return truncate(points, n);
  }
  const groupBy = observations.groupBy ?? [];
  // Ungrouped (the usual case), the size alone names the series: no string key per run.
  const seriesKey =
    groupBy.length === 0
      ? (_group: unknown, sizeMb: number): string | number => sizeMb
      : (group: Record<string, string | null | undefined> | undefined, sizeMb: number): string | number =>
          `${JSON.stringify(groupBy.map((name) => group?.[name] ?? null))} ${sizeMb}`;
  const peakMBySeries = new Map<string | number, number>(
    observations.series.map((series) => [seriesKey(series.group, series.sizeMb), series.peak.m]),
  );
  const points = allocate(observations.runs.length, true);
  let n = 0;
  for (const run of observations.runs) {
    if (run.uniformSizeMb === null) continue;
    const peakM = peakMBySeries.get(seriesKey(run.attributes, run.uniformSizeMb));
    if (peakM === undefined) {
      throw new InputError(
        `run "${run.runId}" has processes of one size, ${run.uniformSizeMb} MB${groupBy.length > 0 ? ` and ${JSON.stringify(groupBy.map((name) => run.attributes?.[name] ?? null))} for ${groupBy.join(", ")}` : ""}, but the observations have no size series for it. Observations must come from \`ckpt ingest\`, which builds a series for every size (and group) of its uniform runs.`,
      );
    }
    if (selection.upToPeak && run.m > peakM) continue;
    points.m[n] = run.m;
    points.vGb[n] = run.vGb;
    points.bwMbPerS[n] = run.aggregatedBwMbPerS;
    points.sizeMb[n] = run.uniformSizeMb;
    points.runCount[n] = 1;
    points.runId![n] = run.runId;
    n += 1;
  }
  return truncate(points, n);
}
