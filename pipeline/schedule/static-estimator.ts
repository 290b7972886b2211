/**
 * The static time estimate of a set of simultaneous checkpoints ([Y11] eq. 2, [Y-thesis]
 * eq. 5.3 and Annex A; docs/science.md §4.2): m · max s / bw(m, Σ s), every checkpoint at the rate
 * bw(m, V)/m for as long as the largest needs. The paper's formula, ScheduleCkpt's default.
 * It ignores that the rate rises as the smaller ones finish, so it is usually pessimistic;
 * with a model whose per-process rate is not monotone it can be optimistic, which is why
 * runs count the checkpoints that actually miss the deadline rather than assume none do.
 * O(1) and one bandwidth evaluation.
 */
import { largestSize } from "./size-set";
import type { TimeEstimator } from "./time-estimator";

export const staticEstimator: TimeEstimator = {
  name: "static",
  // Parenthesised: compiled with the module (see schedule-ckpt.ts, "Cold start").
  finishTimeS: (function finishTimeS(set, extraMb, _budgetS, bandwidth) {
    const hasExtra = extraMb > 0;
    const m = hasExtra ? set.count + 1 : set.count;
    if (m === 0) return 0;
    let largest = largestSize(set);
    // Stryker disable next-line EqualityOperator: at equality largest is extraMb either way.
    if (extraMb > largest) largest = extraMb;
    const bw = bandwidth.bandwidthMbPerS(m, (set.sumMb + (hasExtra ? extraMb : 0)) / 1000);
    return bw > 0 ? (largest * m) / bw : Infinity;
  }),
};
