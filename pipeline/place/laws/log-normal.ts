/**
 * The log-normal law: ln T ~ Normal(μ, σ²) with T in seconds (docs/science.md §5.5, "any law").
 *
 * F(t) = Φ((ln t − μ)/σ); since t f(t) is e^{μ+σ²/2} times the density of a log-normal
 * with mean parameter μ + σ², ∫_0^t s f(s) ds = e^{μ+σ²/2} Φ((ln t − μ − σ²)/σ) and the upper
 * part uses Φ of the negated argument; Φ is exact in both tails (stats/standard-normal.ts).
 */
import { InputError } from "../../shared/errors";
import type { Random } from "../../shared/random";
import type { FailureLaw, LogNormalSpec } from "./failure-law";
import { standardNormalCdf } from "../../stats/standard-normal";

export function logNormalLaw(spec: LogNormalSpec): FailureLaw {
  const { mu, sigma } = spec;
  if (!Number.isFinite(mu)) throw new InputError(`log-normal law: mu must be a finite number (mean of ln seconds), got ${mu}; e.g. lognormal:mu=8,sigma=1.5`);
  if (!(sigma > 0) || !Number.isFinite(sigma)) {
    throw new InputError(`log-normal law: sigma must be a finite number > 0, got ${sigma}; e.g. lognormal:mu=8,sigma=1.5`);
  }
  const mean = Math.exp(mu + (sigma * sigma) / 2);
  if (!Number.isFinite(mean)) throw new InputError(`log-normal law: the mean e^(mu + sigma²/2) overflows for mu=${mu}, sigma=${sigma}`);
  const standardized = (t: number) => (Math.log(t) - mu) / sigma;
  return {
    spec,
    description: `log-normal(mu ${mu}, sigma ${sigma}; median ${Number(Math.exp(mu).toPrecision(6))} s)`,
    meanSeconds: mean,
    cdf: (t) => (t <= 0 ? 0 : standardNormalCdf(standardized(t))),
    survival: (t) => (t <= 0 ? 1 : standardNormalCdf(-standardized(t))),
    pdf(t) {
      if (t <= 0) return 0;
      const z = standardized(t);
      return Math.exp(-0.5 * z * z) / (t * sigma * Math.sqrt(2 * Math.PI));
    },
    partialExpectation: (t) => (t <= 0 ? 0 : mean * standardNormalCdf(standardized(t) - sigma)),
    upperPartialExpectation: (t) => (t <= 0 ? mean : mean * standardNormalCdf(sigma - standardized(t))),
    sample: (random: Random) => Math.exp(mu + sigma * random.normal()),
  };
}
