/**
 * Costs as whole quanta, as the variable-cost DP needs them ([BTW10] Prop. 1 assumes
 * integer costs; [BKT] Table II uses a 1-minute quantum).
 *
 * Decision: a cost that is not a multiple of the quantum is rounded to the nearest
 * multiple by default (ties up), or up with `rounding: "up"` (never under-prices a
 * checkpoint); the result says how many costs moved and by how much at most, so the
 * caller can tell the user. A cost within 1e-9 relative of a multiple is taken as exact
 * (decimal inputs such as 0.3 s with a 0.1 s quantum).
 */
import { requirePositive } from "../shared/errors";

export type CostRounding = "nearest" | "up";

export interface QuantizedCosts {
  /** c_j in quanta (non-negative integers). */
  costsQuanta: number[];
  /** c_j in seconds after rounding (= quanta × quantum). */
  costsSeconds: number[];
  quantumSeconds: number;
  rounding: CostRounding;
  /** How many costs were not multiples of the quantum. */
  roundedCount: number;
  /** The largest |rounded − original| in seconds. */
  maxRoundingSeconds: number;
}

export function quantizeCosts(costsSeconds: number[], quantumSeconds: number, rounding: CostRounding = "nearest"): QuantizedCosts {
  requirePositive("the cost quantum (--quantum, seconds)", quantumSeconds);
  let roundedCount = 0;
  let maxRoundingSeconds = 0;
  const costsQuanta = costsSeconds.map((c) => {
    const ratio = c / quantumSeconds;
    const nearest = Math.round(ratio);
    if (Math.abs(ratio - nearest) <= 1e-9 * Math.max(1, Math.abs(ratio))) return nearest;
    const q = rounding === "up" ? Math.ceil(ratio) : Math.floor(ratio + 0.5);
    roundedCount += 1;
    maxRoundingSeconds = Math.max(maxRoundingSeconds, Math.abs(q * quantumSeconds - c));
    return q;
  });
  return {
    costsQuanta,
    costsSeconds: costsQuanta.map((q) => q * quantumSeconds),
    quantumSeconds,
    rounding,
    roundedCount,
    maxRoundingSeconds,
  };
}

/** A one-line explanation of the rounding for warnings, or null when nothing moved. */
export function describeRounding(q: QuantizedCosts): string | null {
  if (q.roundedCount === 0) return null;
  return `${q.roundedCount} checkpoint cost(s) are not multiples of the ${q.quantumSeconds} s quantum; rounded ${
    q.rounding === "up" ? "up" : "to the nearest multiple"
  } (largest change ${Number(q.maxRoundingSeconds.toPrecision(4))} s). The DP and every policy's waste use the rounded costs; use a smaller --quantum for finer costs.`;
}
