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
 */
import { predict, type BandwidthModel } from "../fit/model";
import { InputError, requireNonNegative } from "../shared/errors";

export interface SizeCostOptions {
  model: BandwidthModel;
  /** m, the number of nodes checkpointing at the same time (≥ 1). */
  nodes: number;
  /** Fixed cost added to every checkpoint, seconds. */
  latencySeconds: number;
}

export interface SizeCosts {
  costsSeconds: number[];
  warnings: string[];
}

export function costsFromSizes(sizesMb: number[], { model, nodes, latencySeconds }: SizeCostOptions): SizeCosts {
  if (!Number.isInteger(nodes) || nodes < 1) throw new InputError(`--nodes must be an integer ≥ 1 (nodes checkpointing together), got ${nodes}`);
  requireNonNegative("--latency (seconds)", latencySeconds);
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
    return sizeMb / (prediction.bandwidthMbPerS / nodes) + latencySeconds;
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
