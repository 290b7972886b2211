/**
 * The fluid time estimate of a set of simultaneous checkpoints (docs/science.md §4.2, the progression
 * of [Y-thesis] Algorithm 1 lines 10–17): phase k runs the m_k = m − k + 1 largest at
 * bw(m_k, V_k)/m_k each, V_k = Σ_{j ≥ k} (r_j − r_{k−1}) the remaining volume, for
 * (r_k − r_{k−1}) MB; the rate is re-evaluated only at completions, exactly as the
 * execution (`fluid-device.ts`) does, so with the same model as truth a fluid-feasible set
 * never misses its deadline. O(m), at most m evaluations (none for the zero-length phases
 * of equal sizes); stops as soon as the running total passes the budget.
 */
import type { TimeEstimator } from "./time-estimator";

export const fluidEstimator: TimeEstimator = {
  name: "fluid",
  // Parenthesised: compiled with the module (see schedule-ckpt.ts, "Cold start").
  finishTimeS: (function finishTimeS(set, extraMb, budgetS, bandwidth) {
    const sizes = set.sizesMb;
    const count = set.count;
    let extraPending = extraMb > 0;
    let running = extraPending ? count + 1 : count;
    const totalMb = set.sumMb + (extraPending ? extraMb : 0);
    let previousMb = 0;
    let finishedMb = 0;
    let timeS = 0;
    let next = 0;
    while (running > 0) {
      let sizeMb: number;
      // Stryker disable next-line EqualityOperator: an extra as large as the next size gives the same sequence of sizes in either order.
      if (extraPending && (next >= count || extraMb <= sizes[next]!)) {
        sizeMb = extraMb;
        extraPending = false;
      } else {
        sizeMb = sizes[next++]!;
      }
      if (sizeMb > previousMb) {
        const remainingVolumeMb = totalMb - finishedMb - running * previousMb;
        const bw = bandwidth.bandwidthMbPerS(running, remainingVolumeMb / 1000);
        if (!(bw > 0)) return Infinity;
        timeS += ((sizeMb - previousMb) * running) / bw;
        if (timeS > budgetS) return timeS;
        previousMb = sizeMb;
      }
      finishedMb += sizeMb;
      running--;
    }
    return timeS;
  }),
};
