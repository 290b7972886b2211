/**
 * The residual law of a failure law at age a: the law of T − a given T > a, the time to
 * failure of a host that has already been up for a (docs/science.md §6.1.4, the policies'
 * `failureLawForPolicy = "availability-aged"` and `"lifetime"`). With S the base law's
 * survival and S(a) > 0:
 *
 *     F_a(t) = P(a < T ≤ a + t) / S(a),      S_a(t) = S(a + t) / S(a),      f_a(t) = f(a + t) / S(a),
 *     ∫_0^t s f_a(s) ds = ∫_a^{a+t} (u − a) f(u) du / S(a),
 *     ∫_t^∞ s f_a(s) ds = [∫_{a+t}^∞ u f(u) du − a·S(a + t)] / S(a),      mean = [∫_a^∞ u f(u) du − a·S(a)] / S(a).
 *
 * From the base law's closed forms (failure-law.ts's tail-aware differences), except where
 * they cancel: for t ≤ a the partial expectation ∫ u f − a·ΔF loses about log10(a/t) digits
 * (a = 500 h, t = 1 s: 6 of them), and ΔF = F(a + t) − F(a) some, so there F_a and the partial
 * expectation are integrated numerically (quadrature.ts: (u − a) f(u) ≥ 0, nothing cancels) for
 * the analytic laws; the empirical law (kinks at its observations) keeps the closed form and
 * its cancellation. The tests ask 1e-8 relative against mpmath. At a = 0 it is the base law.
 * An age the base law gives no chance of reaching (S(a) = 0: an empirical law past its
 * largest observation) is refused.
 */
import { InputError } from "../../shared/errors";
import type { Random } from "../../shared/random";
import { partialExpectationBetween, probabilityBetween, type FailureLaw } from "./failure-law";
import { integrate, isAnalyticLaw } from "./quadrature";
import { tabulateAscending } from "./tabulate-law";

export function residualLaw(base: FailureLaw, ageSeconds: number): FailureLaw {
  if (!(ageSeconds >= 0) || !Number.isFinite(ageSeconds)) throw new InputError(`residual law: the age must be a finite number of seconds ≥ 0, got ${ageSeconds}`);
  const a = ageSeconds;
  const survivalAtAge = base.survival(a);
  if (!(survivalAtAge > 0)) {
    throw new InputError(`residual law of ${base.description} at age ${a} s: the base law gives P(T > ${a} s) = 0, so no host survives to that age; use a smaller age`);
  }
  const numeric = isAnalyticLaw(base.spec);
  const density = (u: number) => base.pdf(u);
  const lostWork = (u: number) => (u - a) * base.pdf(u);
  /** P(a < T ≤ a + t) and ∫_a^{a+t} (u − a) f(u) du, before dividing by S(a). */
  const massBetween = (t: number) => (numeric && t <= a ? integrate(density, a, a + t) : probabilityBetween(base, a, a + t));
  const momentBetween = (t: number) =>
    numeric && t <= a ? integrate(lostWork, a, a + t) : partialExpectationBetween(base, a, a + t) - a * probabilityBetween(base, a, a + t);
  const cdf = (t: number) => (t <= 0 ? 0 : Math.min(1, massBetween(t) / survivalAtAge));
  const partialExpectation = (t: number) => (t <= 0 ? 0 : Math.max(0, momentBetween(t) / survivalAtAge));
  const mean = Math.max(0, (base.upperPartialExpectation(a) - a * survivalAtAge) / survivalAtAge);
  return {
    spec: { kind: "residual", base: base.spec, ageSeconds: a },
    description: a === 0 ? base.description : `${base.description} at age ${Number(a.toPrecision(6))} s`,
    meanSeconds: mean,
    cdf,
    survival: (t) => (t <= 0 ? 1 : Math.min(1, base.survival(a + t) / survivalAtAge)),
    pdf: (t) => (t < 0 ? 0 : base.pdf(a + t) / survivalAtAge),
    partialExpectation,
    upperPartialExpectation: (t) => (t <= 0 ? mean : Math.max(0, (base.upperPartialExpectation(a + t) - a * base.survival(a + t)) / survivalAtAge)),
    tabulate(times, cdfOut, partialExpectationOut) {
      // In increasing order, so that the numerical part (t ≤ a, the first times) integrates across them once.
      let mass = 0;
      let moment = 0;
      tabulateAscending(times, cdfOut, partialExpectationOut, (previous, t, i) => {
        if (numeric && t <= a) {
          mass += integrate(density, a + previous, a + t);
          moment += integrate(lostWork, a + previous, a + t);
          cdfOut[i] = Math.min(1, mass / survivalAtAge);
          partialExpectationOut[i] = Math.max(0, moment / survivalAtAge);
        } else {
          cdfOut[i] = cdf(t);
          partialExpectationOut[i] = partialExpectation(t);
        }
      });
    },
    sample(random: Random) {
      // Inversion by bisection on F_a: rejection from the base would take 1/S(a) draws on average.
      const u = random.next();
      let high = Math.max(1, mean);
      while (cdf(high) < u && high < 1e300) high *= 2;
      let low = 0;
      for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
        const mid = (low + high) / 2;
        if (cdf(mid) < u) low = mid;
        else high = mid;
      }
      return (low + high) / 2;
    },
  };
}
