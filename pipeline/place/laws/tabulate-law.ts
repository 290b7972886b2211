/**
 * A law's F(t) and ∫_0^t s f(s) ds at many times at once, as the DP's law tables need them
 * (variable-cost-dp.ts): through the law's own `tabulate` when it has one (it shares work
 * between the two, with the same numbers), else one call of each function per time. O(count)
 * law evaluations.
 */
import type { FailureLaw } from "./failure-law";

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
