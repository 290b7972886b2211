/**
 * The largest bandwidth the device can ever deliver on an instance: the supremum of
 * bw(m, V) (and of the per-process share bw(m, V)/m) over every state the fluid execution
 * can reach — m ∈ [1, n] concurrent checkpoints with a remaining volume V ∈ (0, Σ s] —
 * restricted to the fitted box's upper edges under the strict domain policy (states above
 * it are infeasible there, so the device never runs in them). Values ≤ 0 count as 0.
 *
 * Used by the upper bound (`upper-bound.ts`: in time T the device moves at most
 * T · max bw) and by the exact solver's pruning. Exact, not sampled: for each integer m
 * the model is a quadratic in V (both forms of docs/science.md §3.2 are), maximised in closed form at
 * the interval's ends or the vertex; the cap b_max applies. O(n) for n applications.
 */
import { termsOf, type BandwidthModel } from "../fit/model";
import type { DomainPolicy } from "./bandwidth-oracle";

export interface ReachableBandwidth {
  /** sup bw(m, V) over the reachable states, MB/s (0 when the model is nowhere usable). */
  bandwidthMaxMbPerS: number;
  /** Where the supremum is attained. */
  bandwidthMaxAt: { m: number; vGb: number } | null;
  /** sup bw(m, V)/m: the fastest any single checkpoint can go, MB/s. */
  perProcessMaxMbPerS: number;
  /** `perProcessMaxFromM[m]` = sup over m' ≥ m of bw(m', V)/m' (entry 0 = entry 1). */
  perProcessMaxFromM: number[];
  /** The region searched: m ∈ [1, mMax], V ∈ [0, vGbMax]. */
  region: { mMax: number; vGbMax: number };
  /**
   * Whether the per-process rate bw(m, V)/m never increases with m or V over the region
   * (checked exactly: per m the rate is a quadratic in V). True of the paper model. Then
   * adding a checkpoint to a set never makes its static estimate shorter, so static
   * infeasibility is inherited by supersets (the exact solver uses it to cut).
   */
  perProcessRateNonIncreasing: boolean;
}

/** max of c0 + c1 V + c2 V² over [0, vMax]. */
function maxOfQuadratic(c0: number, c1: number, c2: number, vMax: number): number {
  let best = Math.max(c0, c0 + c1 * vMax + c2 * vMax * vMax);
  if (c2 < 0) {
    const vertex = -c1 / (2 * c2);
    if (vertex > 0 && vertex < vMax) best = Math.max(best, c0 + c1 * vertex + c2 * vertex * vertex);
  }
  return best;
}

/** bw(m, V) = α + β V + γ V² for a fixed m. */
function coefficientsInV(model: BandwidthModel, m: number): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  for (const term of termsOf(model.form)) c[term.vPower]! += (model.coefficients[term.name] ?? 0) * m ** term.mPower;
  return c;
}

export function reachableBandwidth(
  model: BandwidthModel,
  policy: DomainPolicy,
  appCount: number,
  totalSizeMb: number,
): ReachableBandwidth {
  const strict = policy === "strict";
  const mMax = strict ? Math.min(appCount, Math.floor(model.domain.mMax)) : appCount;
  const vGbMax = strict ? Math.min(totalSizeMb / 1000, model.domain.vGbMax) : totalSizeMb / 1000;
  const cap = model.bandwidthCapMbPerS ?? Infinity;
  let best = 0;
  let bestAt: ReachableBandwidth["bandwidthMaxAt"] = null;
  const perProcess = new Array<number>(Math.max(mMax, 0) + 2).fill(0);
  for (let m = 1; m <= mMax; m++) {
    const [alpha, beta, gamma] = coefficientsInV(model, m);
    const candidates = [0, vGbMax];
    if (gamma < 0) {
      const vertex = -beta / (2 * gamma);
      if (vertex > 0 && vertex < vGbMax) candidates.push(vertex);
    }
    let bestHere = 0;
    let bestHereV = 0;
    for (const v of candidates) {
      const bw = Math.min(alpha + beta * v + gamma * v * v, cap);
      if (bw > bestHere) {
        bestHere = bw;
        bestHereV = v;
      }
    }
    perProcess[m] = bestHere / m;
    if (bestHere > best) {
      best = bestHere;
      bestAt = { m, vGb: bestHereV };
    }
  }
  // Monotone per-process rate: ∂/∂V (β + 2γV ≤ 0 at both ends) and m → m + 1 (the
  // difference of two quadratics in V is ≤ 0 on the interval). The cap b_max keeps both.
  let nonIncreasing = true;
  for (let m = 1; m <= mMax && nonIncreasing; m++) {
    const [alpha, beta, gamma] = coefficientsInV(model, m);
    const scale = Math.abs(alpha) + Math.abs(beta) + Math.abs(gamma);
    if (beta > 1e-12 * scale || beta + 2 * gamma * vGbMax > 1e-12 * scale) nonIncreasing = false;
    if (m < mMax) {
      const [a1, b1, g1] = coefficientsInV(model, m + 1);
      if (maxOfQuadratic(a1 / (m + 1) - alpha / m, b1 / (m + 1) - beta / m, g1 / (m + 1) - gamma / m, vGbMax) > 1e-12 * scale) nonIncreasing = false;
    }
  }
  for (let m = mMax - 1; m >= 1; m--) perProcess[m] = Math.max(perProcess[m]!, perProcess[m + 1]!);
  perProcess[0] = perProcess[1] ?? 0;
  return {
    bandwidthMaxMbPerS: best,
    bandwidthMaxAt: bestAt,
    perProcessMaxMbPerS: perProcess[0]!,
    perProcessMaxFromM: perProcess,
    region: { mMax, vGbMax },
    perProcessRateNonIncreasing: nonIncreasing,
  };
}
