/**
 * Checkpoint costs from checkpoint sizes through the fitted bandwidth model (docs/science.md §5.1:
 * "size / bandwidth + latency — here the fitted bw model gives the bandwidth a node gets
 * when m others checkpoint with it"; the model is docs/science.md §3.2).
 *
 * With `nodes` = m nodes checkpointing the same size s MB together, the aggregated
 * bandwidth is bw(m, V) with V = m·s/1000 GB, shared equally ([Y-thesis] ch. 4 observed
 * equal sharing), so one node writes at bw/m MB/s and its checkpoint takes
 * c = s / (bw/m) + latency seconds. A size of 0 costs the latency alone. When the model
 * gives no usable bandwidth (≤ 0 outside its domain) the cost is refused, never computed;
 * a point outside the fitted domain is used but reported as an extrapolation.
 *
 * With `costQuantile` = q the cost is the q quantile of one burst's duration under the
 * model's predictive distribution (predictive-bandwidth.ts) instead of the mean: the
 * duration s·m / bw falls as the bandwidth rises, so its q quantile is s·m / bw_{1−q}, the
 * (1 − q) quantile of the burst's aggregated bandwidth. A plan on q = 0.95 counts every
 * checkpoint as long as 95 % of bursts at (m, V) stay within.
 */
import { predict, type BandwidthModel } from "../fit/model";
import { bandwidthQuantile } from "../fit/predictive-bandwidth";
import { InputError, requireNonNegative } from "../shared/errors";

export interface SizeCostOptions {
  model: BandwidthModel;
  /** m, the number of nodes checkpointing at the same time (≥ 1). */
  nodes: number;
  /** Fixed cost added to every checkpoint, seconds. */
  latencySeconds: number;
  /** q in (0, 1): cost at the q quantile of the burst's duration; absent: at the mean bandwidth. */
  costQuantile?: number;
}

export interface SizeCosts {
  costsSeconds: number[];
  warnings: string[];
}

export function costsFromSizes(sizesMb: number[], { model, nodes, latencySeconds, costQuantile }: SizeCostOptions): SizeCosts {
  if (!Number.isInteger(nodes) || nodes < 1) throw new InputError(`--nodes must be an integer ≥ 1 (nodes checkpointing together), got ${nodes}`);
  requireNonNegative("--latency (seconds)", latencySeconds);
  if (costQuantile !== undefined && !(costQuantile > 0 && costQuantile < 1)) {
    throw new InputError(`--cost-quantile must be a number strictly between 0 and 1 (e.g. 0.95), got ${costQuantile}`);
  }
  const outside: number[] = [];
  const costsSeconds = sizesMb.map((sizeMb, i) => {
    requireNonNegative(`slice ${i + 1}'s size_mb`, sizeMb);
    if (sizeMb === 0) return latencySeconds;
    const vGb = (nodes * sizeMb) / 1000;
    const prediction = predict(model, nodes, vGb);
    if (prediction.bandwidthMbPerS === null) {
      throw new InputError(
        `slice ${i + 1}: the bandwidth model "${model.name}" gives bw(m=${nodes}, V=${vGb} GB) = ${prediction.rawMbPerS} MB/s, not a usable bandwidth; ` +
          `give costs in seconds (a "c" column), fewer --nodes, or a model fitted on this range`,
      );
    }
    if (!prediction.inDomain) outside.push(i + 1);
    const bandwidthMbPerS = costQuantile === undefined ? prediction.bandwidthMbPerS : bandwidthQuantile(model, nodes, vGb, 1 - costQuantile);
    return sizeMb / (bandwidthMbPerS / nodes) + latencySeconds;
  });
  const warnings: string[] = [];
  if (outside.length > 0) {
    const d = model.domain;
    warnings.push(
      `${outside.length} slice size(s) (slices ${outside.slice(0, 5).join(", ")}${outside.length > 5 ? ", …" : ""}) put (m=${nodes}, V) outside the model's fitted domain ` +
        `m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${d.vGbMin}, ${d.vGbMax}] GB: their costs are extrapolations`,
    );
  }
  return { costsSeconds, warnings };
}
