/**
 * The papers' error metric (docs/science.md §3.3, [Y-thesis] ch. 4):
 *
 *   E_global = (1 / Σ n̄_i) · Σ_i Σ_{j ≤ n̄_i} |y_ij − ŷ_ij| / y_ij × 100
 *
 * the mean absolute percentage error over every measured point up to each size's peak,
 * with ŷ_ij = bw(m_ij, m_ij·v_i). [Y-thesis] reports 4.02 % on its raw measurements.
 *
 * Decision: y_ij are the per-(m, v) means (the papers' measured points) and the points are
 * those up to each series' peak, whatever points the fit itself used (`--points runs`,
 * `--all-points`), so that E_global stays comparable with the papers' figure.
 */
import type { Observations } from "../ingest/observations";
import { InputError } from "../shared/errors";
import { bandwidthEvaluator, type BandwidthModel } from "./model";

export interface EGlobal {
  percent: number;
  /** Σ n̄_i: the points it averages over. */
  pointCount: number;
}

export function eGlobal(observations: Observations, model: Pick<BandwidthModel, "form" | "coefficients" | "bandwidthCapMbPerS">): EGlobal {
  const bw = bandwidthEvaluator(model);
  let sum = 0;
  let pointCount = 0;
  for (const series of observations.series) {
    for (const point of series.points) {
      if (point.m > series.peak.m) continue;
      if (!(point.meanBwMbPerS > 0)) {
        throw new InputError(`size series ${series.sizeMb} MB, m = ${point.m}: mean bandwidth ${point.meanBwMbPerS} MB/s must be > 0 for a percentage error`);
      }
      sum += Math.abs(point.meanBwMbPerS - bw(point.m, point.vGb)) / point.meanBwMbPerS;
      pointCount += 1;
    }
  }
  return { percent: pointCount === 0 ? NaN : (100 * sum) / pointCount, pointCount };
}
