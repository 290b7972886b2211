/**
 * The largest bandwidth the device can ever deliver on an instance: the supremum of
 * bw(m, V) (and of the per-process share bw(m, V)/m) over every state the fluid execution
 * can reach — m ∈ [1, n] concurrent checkpoints with a remaining volume V ∈ (0, Σ s] —
 * restricted to the fitted box's upper edges under the domain policy `refuse` (states above
 * it are infeasible there, so the device never runs in them). Values ≤ 0 count as 0.
 *
 * Used by the upper bound (`upper-bound.ts`: in time T the device moves at most
 * T · max bw) and by the exact solver's pruning. Exact, not sampled: for each integer m
 * the model's form gives its supremum over V in closed form (`maximumOverV`: a quadratic's
 * ends or vertex for the papers' forms, docs/science.md §3.2; a power law's ends or a convex
 * function's stationary point for the project's, §3.5); the cap b_max applies. O(n) for n
 * applications.
 */
import { scheduleDomainPolicy, type ScheduleDomainPolicy } from "../bandwidth/outside-domain";
import { evaluationCoefficients, formOf, type BandwidthModel } from "../fit/model";

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
   * (proven by the form: `perProcessRateNonIncreasing`). True of the paper model. Then
   * adding a checkpoint to a set never makes its static estimate shorter, so static
   * infeasibility is inherited by supersets (the exact solver uses it to cut).
   */
  perProcessRateNonIncreasing: boolean;
}

export function reachableBandwidth(
  model: BandwidthModel,
  policy: ScheduleDomainPolicy,
  appCount: number,
  totalSizeMb: number,
): ReachableBandwidth {
  const refusesAbove = scheduleDomainPolicy(policy) === "refuse";
  const mMax = refusesAbove ? Math.min(appCount, Math.floor(model.domain.mMax)) : appCount;
  const vGbMax = refusesAbove ? Math.min(totalSizeMb / 1000, model.domain.vGbMax) : totalSizeMb / 1000;
  const cap = model.bandwidthCapMbPerS ?? Infinity;
  const form = formOf(model.form);
  const k = evaluationCoefficients(model);
  let best = 0;
  let bestAt: ReachableBandwidth["bandwidthMaxAt"] = null;
  const perProcess = new Array<number>(Math.max(mMax, 0) + 2).fill(0);
  for (let m = 1; m <= mMax; m++) {
    const here = form.maximumOverV(k, m, vGbMax, cap);
    perProcess[m] = here.bwMbPerS / m;
    if (here.bwMbPerS > best) {
      best = here.bwMbPerS;
      bestAt = { m, vGb: here.vGb };
    }
  }
  const nonIncreasing = form.perProcessRateNonIncreasing(k, mMax, vGbMax);
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
