/**
 * The device cap b_max (docs/science.md §3.2) estimated from the traces, for `ckpt fit
 * --cap-mb-per-s measured`: the largest mean aggregated bandwidth of a measured (m, V) cell
 * — the runs of one number of writers and one volume, pooled over every size series that
 * has them (ingest's groups included), the mixed-size validation runs not counted (they are
 * no cell).
 *
 * Why the largest cell mean, and not its upper confidence bound: the cap is the highest rate
 * the device was seen to sustain, the ceiling a plan may count on. The largest of many noisy
 * cell means already lies above the largest true mean on average (the maximum picks the
 * cells whose noise was upward), so it errs towards a cap too high, never cutting a fair
 * prediction at the best cell by much; an upper confidence bound would add a second margin
 * on the same side, of the width of the cell with the fewest runs, and a level to choose.
 */
import type { Observations } from "../ingest/observations";
import { InputError } from "../shared/errors";
import { selectFitPoints } from "./fit-points";
import { groupByDesignRow } from "./least-squares";

export interface MeasuredCap {
  capMbPerS: number;
  /** The cell it was measured at: m, V (GB) and its runs. */
  m: number;
  vGb: number;
  runCount: number;
}

/** The largest per-(m, V) cell mean of the observations' runs; refused when there is none. */
export function measuredBandwidthCap(observations: Observations): MeasuredCap {
  const runs = selectFitPoints(observations, { points: "runs", upToPeak: false });
  let best: MeasuredCap | null = null;
  for (const cell of groupByDesignRow(runs)) {
    if (best === null || cell.meanBwMbPerS > best.capMbPerS) best = { capMbPerS: cell.meanBwMbPerS, m: cell.m, vGb: cell.vGb, runCount: cell.count };
  }
  if (best === null || !(best.capMbPerS > 0)) {
    throw new InputError(
      `--cap-mb-per-s measured: the traces have no (m, V) cell with a bandwidth > 0 to take the device cap from` +
        `${best === null ? "" : ` (the largest cell mean is ${best.capMbPerS} MB/s)`}; declare the cap as a number (--cap-mb-per-s 950), or leave it out for none`,
    );
  }
  return best;
}
