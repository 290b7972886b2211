/**
 * The bandwidth curve of a data set checkpointed by growing prefixes, and its peak (docs/science.md
 * §3.4, [Y11] Table 1, [Y-thesis] Table 4.2): for sizes s_1..s_n (MB), point i is
 * bw(i, Σ_{k≤i} s_k / 1000) (V in GB); the peak (ī, bw_ī) is its maximum.
 *
 * Decisions: the curve reports the polynomial's raw value, flagged `inDomain: false` when
 * (i, V) lies outside the model's fitted box; the peak is taken over usable values only
 * (finite and > 0, docs/science.md §3.2's extrapolation warning), the first i on ties. A data set on
 * which the model gives no usable value at all has no peak: that is refused.
 */
import { InputError } from "../shared/errors";
import { bandwidthEvaluator, inModelDomain, type BandwidthModel } from "./model";

export interface PeakCurvePoint {
  /** i: the number of applications checkpointed together. */
  m: number;
  /** Σ_{k≤i} s_k, MB. */
  sizeMb: number;
  /** bw(i, sizeMb / 1000), MB/s (raw: may be ≤ 0 far outside the domain). */
  bw: number;
  inDomain: boolean;
}

export interface PeakCurve {
  curve: PeakCurvePoint[];
  peak: { m: number; bw: number };
}

/**
 * @example peakCurve(PAPER_MODEL, [105, 451, 135]).peak // { m: 3, bw: … }
 */
export function peakCurve(model: BandwidthModel, sizesMb: readonly number[]): PeakCurve {
  if (sizesMb.length === 0) throw new InputError("no application sizes given: expected sizes in MB, e.g. 105,451,135");
  sizesMb.forEach((size, index) => {
    if (!Number.isFinite(size) || size <= 0) {
      throw new InputError(`application size ${index + 1} is ${size} MB: every size must be a finite number of MB > 0`);
    }
  });
  const bw = bandwidthEvaluator(model);
  const curve: PeakCurvePoint[] = [];
  let cumulativeMb = 0;
  let peak: { m: number; bw: number } | null = null;
  sizesMb.forEach((size, index) => {
    cumulativeMb += size;
    const m = index + 1;
    const vGb = cumulativeMb / 1000;
    const value = bw(m, vGb);
    curve.push({ m, sizeMb: cumulativeMb, bw: value, inDomain: inModelDomain(model, m, vGb) });
    if (Number.isFinite(value) && value > 0 && (peak === null || value > peak.bw)) peak = { m, bw: value };
  });
  if (peak === null) {
    throw new InputError(
      `the model "${model.name}" gives no positive bandwidth for any prefix of these ${sizesMb.length} sizes (values ${curve.map((point) => point.bw.toPrecision(4)).join(", ")} MB/s): the data set lies outside what the model can predict`,
    );
  }
  return { curve, peak };
}
