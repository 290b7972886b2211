/**
 * A law's F(t) and ∫_0^t s f(s) ds at many times at once, as the DP's law tables need them
 * (variable-cost-dp.ts): through the law's own `tabulate` when it has one (it shares work
 * between the two, with the same numbers), else one call of each function per time. O(count)
 * law evaluations. `tabulateAscending` is the skeleton of the laws' own `tabulate` that
 * integrate numerically (competing.ts, residual.ts): the times in increasing order, so that
 * each integral runs from the previous time to the next, once across them all.
 */
import type { FailureLaw } from "./failure-law";

/**
 * Visit the positive times in increasing order (ties in index order, as a stable sort gives
 * them), `step(previousS, tS, i)` writing entry i of both outputs, `previousS` the last positive
 * time visited before (0 at first); a time ≤ 0 gets F = 0 and a partial expectation of 0.
 */
export function tabulateAscending(
  times: Float64Array,
  cdfOut: Float64Array,
  partialExpectationOut: Float64Array,
  step: (previousS: number, tS: number, i: number) => void,
): void {
  const order = Array.from(times.keys()).sort((i, j) => times[i]! - times[j]!);
  let previous = 0;
  for (const i of order) {
    const t = times[i]!;
    if (t <= 0) {
      cdfOut[i] = 0;
      partialExpectationOut[i] = 0;
      continue;
    }
    step(previous, t, i);
    previous = t;
  }
}

export function tabulateLaw(law: FailureLaw, times: Float64Array, cdf: Float64Array, partialExpectation: Float64Array): void {
  if (law.tabulate !== undefined) {
    law.tabulate(times, cdf, partialExpectation);
    return;
  }
  for (let i = 0; i < times.length; i++) {
    cdf[i] = law.cdf(times[i]!);
    partialExpectation[i] = law.partialExpectation(times[i]!);
  }
}
