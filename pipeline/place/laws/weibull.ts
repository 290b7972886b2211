/**
 * The Weibull law, F(t) = 1 − exp(−(t/λ)^k) (docs/science.md §5.5; [BKT] Table I uses shape 0.431,
 * scale 1.682 h for SETI@home-like host availability).
 *
 * With z = (t/λ)^k and a = 1 + 1/k, the substitution u = z gives
 * ∫_0^t s f(s) ds = λ Γ(a) P(a, z) and ∫_t^∞ s f(s) ds = λ Γ(a) Q(a, z), with P and Q the
 * regularised incomplete gamma functions (stats/incomplete-gamma.ts), each exact in its own tail.
 * ln Γ(a) is computed once per law.
 */
import { InputError } from "../../shared/errors";
import type { Random } from "../../shared/random";
import type { FailureLaw, WeibullSpec } from "./failure-law";
import { regularizedGammaP, regularizedGammaQ } from "../../stats/incomplete-gamma";
import { gammaln } from "simple-statistics";

export function weibullLaw(spec: WeibullSpec): FailureLaw {
  const { shape, scaleSeconds: scale } = spec;
  if (!(shape > 0) || !Number.isFinite(shape)) {
    throw new InputError(`Weibull law: shape must be a finite number > 0, got ${shape}; e.g. weibull:shape=0.431,scale=6055`);
  }
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new InputError(`Weibull law: scale must be a finite number > 0 (seconds), got ${scale}; e.g. weibull:shape=0.431,scale=6055`);
  }
  const a = 1 + 1 / shape;
  const logGammaA = gammaln(a);
  const mean = scale * Math.exp(logGammaA);
  if (!Number.isFinite(mean)) throw new InputError(`Weibull law: shape ${shape} is too small, the mean overflows; use a shape ≥ 0.01`);
  const z = (t: number) => Math.pow(t / scale, shape);
  const cdf = (t: number) => (t <= 0 ? 0 : -Math.expm1(-z(t)));
  const partialExpectation = (t: number) => (t <= 0 ? 0 : mean * regularizedGammaP(a, z(t), logGammaA));
  return {
    spec,
    description: `Weibull(shape ${shape}, scale ${Number(scale.toPrecision(6))} s)`,
    meanSeconds: mean,
    cdf,
    survival: (t) => (t <= 0 ? 1 : Math.exp(-z(t))),
    pdf(t) {
      if (t < 0) return 0;
      if (t === 0) return shape < 1 ? Infinity : shape === 1 ? 1 / scale : 0;
      const zt = z(t);
      return (shape / t) * zt * Math.exp(-zt);
    },
    partialExpectation,
    upperPartialExpectation: (t) => (t <= 0 ? mean : mean * regularizedGammaQ(a, z(t), logGammaA)),
    sample: (random: Random) => scale * Math.pow(-Math.log1p(-random.next()), 1 / shape),
    // The DP's law tables: cdf and partialExpectation from one (t/λ)^k, the power being a third of the cost.
    tabulate(times, cdfOut, partialExpectationOut) {
      for (let i = 0; i < times.length; i++) {
        const t = times[i]!;
        if (t <= 0) {
          cdfOut[i] = cdf(t);
          partialExpectationOut[i] = partialExpectation(t);
          continue;
        }
        const zt = z(t);
        cdfOut[i] = -Math.expm1(-zt);
        partialExpectationOut[i] = mean * regularizedGammaP(a, zt, logGammaA);
      }
    },
  };
}
