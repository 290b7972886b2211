/**
 * Competing risks: the law of T = min(T_1, …, T_k) for independent times to failure, e.g. the
 * end of a host's availability interval and the end of its lifetime, whichever comes first
 * (docs/science.md §6.1.4, `failureLawForPolicy = "competing"`).
 *
 *     S(t) = Π S_i(t),   F(t) = 1 − Π (1 − F_i(t)) = −expm1(Σ log1p(−F_i(t))),   f(t) = Σ_i f_i(t) Π_{j≠i} S_j(t),
 *     ∫_0^t s f(s) ds = t·F(t) − ∫_0^t F(u) du,   ∫_t^∞ s f(s) ds = t·S(t) + ∫_t^∞ S(u) du,   mean = ∫_0^∞ S(u) du.
 *
 * The product has no closed-form moments, so the integrals are numerical (quadrature.ts,
 * adaptive Gauss–Legendre, 1e-13 per panel; the tests ask 1e-8 against mpmath). That needs
 * laws analytic on (0, ∞): competing risks with an empirical law (kinks at its observations)
 * are refused rather than integrated roughly.
 *
 * `tabulate` sorts the times and integrates F once across them (the DP's law tables): one
 * adaptive panel or so per time, plus ~90 geometric panels down to 0 once.
 */
import { InputError } from "../../shared/errors";
import type { Random } from "../../shared/random";
import type { FailureLaw } from "./failure-law";
import { integrate, integrateFromZero, integrateToInfinity, isAnalyticLaw } from "./quadrature";
import { tabulateAscending } from "./tabulate-law";

export function competingLaw(laws: readonly FailureLaw[]): FailureLaw {
  if (laws.length === 0) throw new InputError("competing risks: give at least one law");
  for (const law of laws) {
    if (!isAnalyticLaw(law.spec)) {
      throw new InputError(`competing risks with ${law.description}: its CDF has kinks (an empirical law), which the numerical integration of the combined law cannot resolve; use one law alone`);
    }
  }
  const survival = (t: number) => {
    if (t <= 0) return 1;
    let s = 1;
    for (const law of laws) s *= law.survival(t);
    return s;
  };
  const cdf = (t: number) => {
    if (t <= 0) return 0;
    let logSurvival = 0;
    for (const law of laws) logSurvival += Math.log1p(-law.cdf(t));
    // Near 1 the product of survivals keeps its own accuracy; near 0 the sum of logs does.
    return logSurvival < -0.7 ? 1 - survival(t) : -Math.expm1(logSurvival);
  };
  const mean = integrateFromZero(survival, 1) + integrateToInfinity(survival, 1);
  return {
    spec: { kind: "competing", laws: laws.map((law) => law.spec) },
    description: `competing risks of ${laws.map((law) => law.description).join(" and ")}`,
    meanSeconds: mean,
    cdf,
    survival,
    pdf(t) {
      if (t < 0) return 0;
      let sum = 0;
      for (let i = 0; i < laws.length; i++) {
        let term = laws[i]!.pdf(t);
        for (let j = 0; j < laws.length; j++) if (j !== i) term *= laws[j]!.survival(t);
        sum += term;
      }
      return sum;
    },
    partialExpectation: (t) => (t <= 0 ? 0 : Math.max(0, t * cdf(t) - integrateFromZero(cdf, t))),
    upperPartialExpectation: (t) => (t <= 0 ? mean : t * survival(t) + integrateToInfinity(survival, t)),
    sample: (random: Random) => Math.min(...laws.map((law) => law.sample(random))),
    tabulate(times, cdfOut, partialExpectationOut) {
      let integral = 0; // ∫_0^{previous} F
      tabulateAscending(times, cdfOut, partialExpectationOut, (previous, t, i) => {
        integral += previous === 0 ? integrateFromZero(cdf, t) : integrate(cdf, previous, t);
        const f = cdf(t);
        cdfOut[i] = f;
        partialExpectationOut[i] = Math.max(0, t * f - integral);
      });
    },
  };
}
