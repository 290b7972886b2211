/**
 * A failure law: the distribution of the time to failure T of the host a job runs on
 * ([BTW10] §2, [BKT] §III; docs/science.md §5.1, §5.5). Times are in seconds.
 *
 * A law is described by plain, serialisable data (`LawSpec`, what artifacts and worker
 * threads carry) and evaluated through a `FailureLaw` built from it by `createLaw`. Every
 * function a placement needs is there in closed form, accurate to ≤ 1e-9 relative (checked
 * against mpmath quadrature at 50 digits, test/place/reference/):
 *
 * - `cdf` F(t) = P(T ≤ t) and `survival` S(t) = 1 − F(t), each accurate in its own tail;
 * - `pdf` f(t);
 * - `partialExpectation(t)` = ∫_0^t s f(s) ds = E[T · 1{T ≤ t}] and
 *   `upperPartialExpectation(t)` = ∫_t^∞ s f(s) ds, each accurate in its own tail;
 * - `meanSeconds` = ∫_0^∞ t f(t) dt (the MTTF of Young's and Daly's formulas);
 * - `sample(random)`, a draw of T for the Monte Carlo checks.
 */
import type { Random } from "../../shared/random";

export type LawSpec = ExponentialSpec | WeibullSpec | HyperExponentialSpec | LogNormalSpec | GammaSpec | EmpiricalSpec | ResidualSpec | CompetingSpec;

export interface ExponentialSpec {
  kind: "exponential";
  /** λ in 1/s. */
  ratePerSecond: number;
}

export interface WeibullSpec {
  kind: "weibull";
  /** k > 0 (k < 1: decreasing hazard, as the [BKT] availability law). */
  shape: number;
  /** λ in seconds. */
  scaleSeconds: number;
}

export interface HyperExponentialSpec {
  kind: "hyperexponential";
  /** Phase probabilities p_i (sum 1). */
  probabilities: number[];
  /** Phase rates in 1/s, after reading the parameters as `reading` says. */
  ratesPerSecond: number[];
  /** How the phase parameters μ_i were given: as rates (f = Σ p_i μ_i e^{−μ_i t}) or as means 1/rate. */
  reading: "rate" | "mean";
}

export interface LogNormalSpec {
  kind: "lognormal";
  /** μ and σ of ln(T / 1 s). */
  mu: number;
  sigma: number;
}

export interface GammaSpec {
  kind: "gamma";
  /** k > 0. */
  shape: number;
  /** θ in seconds (mean kθ). */
  scaleSeconds: number;
}

export interface EmpiricalSpec {
  kind: "empirical";
  /** Observed durations in seconds (e.g. availability intervals), all > 0. */
  durationsSeconds: number[];
  /** Where they came from (a file name), for reports. */
  source?: string;
}

/** The law of T − a given T > a: a host's remaining time once it has been up for a (residual.ts). */
export interface ResidualSpec {
  kind: "residual";
  base: LawSpec;
  ageSeconds: number;
}

/** The law of the smallest of independent times to failure (competing.ts). */
export interface CompetingSpec {
  kind: "competing";
  laws: LawSpec[];
}

export interface FailureLaw {
  readonly spec: LawSpec;
  /** One line for tables and reports, e.g. "Weibull(shape 0.431, scale 6055 s)". */
  readonly description: string;
  readonly meanSeconds: number;
  cdf(t: number): number;
  survival(t: number): number;
  pdf(t: number): number;
  partialExpectation(t: number): number;
  upperPartialExpectation(t: number): number;
  sample(random: Random): number;
  /**
   * Optional: F and ∫_0^t s f(s) ds at every time of `times`, the very numbers `cdf` and
   * `partialExpectation` give, for a law that computes both from one intermediate (the
   * Weibull's (t/λ)^k), or that integrates numerically across the sorted times at once (the
   * competing-risks law: the same numbers to rounding). Use `tabulateLaw`, which falls back on
   * the two functions.
   */
  tabulate?(times: Float64Array, cdf: Float64Array, partialExpectation: Float64Array): void;
}

/**
 * P(a < T ≤ b), from whichever of F and S keeps its relative accuracy (differences of
 * values near 1 would cancel).
 */
export function probabilityBetween(law: FailureLaw, a: number, b: number): number {
  if (!(b > a)) return 0;
  const lowerB = law.cdf(b);
  return lowerB <= 0.5 ? lowerB - law.cdf(a) : law.survival(a) - law.survival(b);
}

/** ∫_a^b t f(t) dt, from whichever tail keeps its relative accuracy. */
export function partialExpectationBetween(law: FailureLaw, a: number, b: number): number {
  if (!(b > a)) return 0;
  const lowerB = law.partialExpectation(b);
  return lowerB <= 0.5 * law.meanSeconds
    ? lowerB - law.partialExpectation(a)
    : law.upperPartialExpectation(a) - law.upperPartialExpectation(b);
}
