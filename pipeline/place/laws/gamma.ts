/**
 * The gamma law, f(t) = t^{k−1} e^{−t/θ} / (Γ(k) θ^k) (shape k, scale θ): one of the four
 * fitted availability models of the Failure Trace Archive's traces (data/availability/
 * fta-fitted-models.csv, "Gamma" rows), so that the simulators can run on them.
 *
 * F(t) = P(k, t/θ) and S(t) = Q(k, t/θ); since t f(t) = kθ times the gamma density of shape
 * k + 1, ∫_0^t s f(s) ds = kθ P(k+1, t/θ) and ∫_t^∞ s f(s) ds = kθ Q(k+1, t/θ), each exact in
 * its own tail (stats/incomplete-gamma.ts). Sampling: Marsaglia and Tsang's squeeze (ACM TOMS
 * 26(3), 2000) for k ≥ 1, and for k < 1 a draw of shape k + 1 times U^{1/k}.
 */
import { gammaln } from "simple-statistics";
import { InputError } from "../../shared/errors";
import type { Random } from "../../shared/random";
import type { FailureLaw, GammaSpec } from "./failure-law";
import { regularizedGammaP, regularizedGammaQ } from "../../stats/incomplete-gamma";

export function gammaLaw(spec: GammaSpec): FailureLaw {
  const { shape: k, scaleSeconds: theta } = spec;
  if (!(k > 0) || !Number.isFinite(k)) throw new InputError(`gamma law: shape must be a finite number > 0, got ${k}; e.g. gamma:shape=0.5,scale=20,unit=h`);
  if (!(theta > 0) || !Number.isFinite(theta)) throw new InputError(`gamma law: scale must be a finite number > 0 (seconds), got ${theta}; e.g. gamma:shape=0.5,scale=20,unit=h`);
  const mean = k * theta;
  const logGammaK = gammaln(k);
  const logGammaK1 = gammaln(k + 1);
  const draw = (random: Random, shape: number): number => {
    if (shape < 1) return draw(random, shape + 1) * Math.pow(1 - random.next(), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      const x = random.normal();
      const v = (1 + c * x) ** 3;
      if (v <= 0) continue;
      const u = 1 - random.next(); // in (0, 1]
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  return {
    spec,
    description: `gamma(shape ${k}, scale ${Number(theta.toPrecision(6))} s)`,
    meanSeconds: mean,
    cdf: (t) => (t <= 0 ? 0 : regularizedGammaP(k, t / theta, logGammaK)),
    survival: (t) => (t <= 0 ? 1 : regularizedGammaQ(k, t / theta, logGammaK)),
    pdf(t) {
      if (t < 0) return 0;
      if (t === 0) return k < 1 ? Infinity : k === 1 ? 1 / theta : 0;
      const x = t / theta;
      return Math.exp((k - 1) * Math.log(x) - x - logGammaK) / theta;
    },
    partialExpectation: (t) => (t <= 0 ? 0 : mean * regularizedGammaP(k + 1, t / theta, logGammaK1)),
    upperPartialExpectation: (t) => (t <= 0 ? mean : mean * regularizedGammaQ(k + 1, t / theta, logGammaK1)),
    sample: (random) => theta * draw(random, k),
  };
}
