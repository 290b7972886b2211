/**
 * The exponential law, f(t) = λ e^{−λt} (docs/science.md §5.5), memoryless: the case Young's and
 * Daly's periods are derived for.
 *
 * ∫_0^t s f(s) ds = (1/λ) P(2, λt) (series for small λt, no cancellation) and
 * ∫_t^∞ s f(s) ds = e^{−λt} (t + 1/λ).
 */
import { InputError } from "../../shared/errors";
import type { Random } from "../../shared/random";
import type { ExponentialSpec, FailureLaw } from "./failure-law";
import { regularizedGammaP } from "../../stats/incomplete-gamma";

const LOG_GAMMA_TWO = 0; // ln Γ(2) = ln 1

export function exponentialLaw(spec: ExponentialSpec): FailureLaw {
  const rate = spec.ratePerSecond;
  if (!(rate > 0) || !Number.isFinite(rate)) {
    throw new InputError(`exponential law: rate must be a finite number > 0 (per second), got ${rate}; e.g. exp:rate=1e-4 or exp:mean=10000`);
  }
  const mean = 1 / rate;
  return {
    spec,
    description: `exponential(rate ${Number(rate.toPrecision(6))}/s, mean ${Number(mean.toPrecision(6))} s)`,
    meanSeconds: mean,
    cdf: (t) => (t <= 0 ? 0 : -Math.expm1(-rate * t)),
    survival: (t) => (t <= 0 ? 1 : Math.exp(-rate * t)),
    pdf: (t) => (t < 0 ? 0 : rate * Math.exp(-rate * t)),
    partialExpectation: (t) => (t <= 0 ? 0 : mean * regularizedGammaP(2, rate * t, LOG_GAMMA_TWO)),
    upperPartialExpectation: (t) => (t <= 0 ? mean : Math.exp(-rate * t) * (t + mean)),
    sample: (random: Random) => -Math.log1p(-random.next()) * mean,
  };
}
