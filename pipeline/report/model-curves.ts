/**
 * Curves a bandwidth model predicts, as the papers draw them (SPEC §3.1, §3.4):
 *
 * - a size series: `m ↦ bw(m, m·v)` for m identical applications of v MB;
 * - a data set: `i ↦ bw(i, Σ_{k≤i} s_k)`, checkpointing the first i blocks;
 *
 * and the peak (ī, bw_ī) of such a curve: the first m with the largest bandwidth among the
 * points where the model gives a usable value (> 0; SPEC §3.2 says a value ≤ 0 means
 * "infeasible", never a bandwidth).
 */
import { bandwidthEvaluator, inModelDomain, type BandwidthModel } from "../fit/model";

export interface ModelCurvePoint {
  m: number;
  vGb: number;
  /** The polynomial's value in MB/s (may be ≤ 0 far outside the domain). */
  bwMbPerS: number;
  /** bw > 0 and finite. */
  usable: boolean;
  inDomain: boolean;
}

/** `m ↦ bw(m, m·v/1000)` for m = 1..mMax. */
export function sizeSeriesCurve(model: BandwidthModel, sizeMb: number, mMax: number): ModelCurvePoint[] {
  const bw = bandwidthEvaluator(model);
  const points: ModelCurvePoint[] = [];
  for (let m = 1; m <= mMax; m++) {
    const vGb = (m * sizeMb) / 1000;
    points.push(point(model, m, vGb, bw(m, vGb)));
  }
  return points;
}

/** `i ↦ bw(i, Σ_{k≤i} s_k / 1000)` for i = 1..sizes.length. */
export function cumulativeSizesCurve(model: BandwidthModel, sizesMb: readonly number[]): ModelCurvePoint[] {
  const bw = bandwidthEvaluator(model);
  let totalMb = 0;
  return sizesMb.map((sizeMb, index) => {
    totalMb += sizeMb;
    const vGb = totalMb / 1000;
    return point(model, index + 1, vGb, bw(index + 1, vGb));
  });
}

/** The first point with the largest usable bandwidth, or null when no point is usable. */
export function peakOf(points: readonly ModelCurvePoint[]): ModelCurvePoint | null {
  let best: ModelCurvePoint | null = null;
  for (const p of points) if (p.usable && (best === null || p.bwMbPerS > best.bwMbPerS)) best = p;
  return best;
}

function point(model: BandwidthModel, m: number, vGb: number, bwMbPerS: number): ModelCurvePoint {
  return { m, vGb, bwMbPerS, usable: Number.isFinite(bwMbPerS) && bwMbPerS > 0, inDomain: inModelDomain(model, m, vGb) };
}
