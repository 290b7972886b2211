/**
 * Student's t distribution with ν degrees of freedom: CDF, upper tail and quantile, for
 * the coefficients' confidence intervals (simple-statistics has no t CDF).
 *
 * - Upper tail: S(t) = ½ · I_{ν/(ν+t²)}(ν/2, ½) for t ≥ 0 (Abramowitz & Stegun 26.7.1
 *   with 26.5.27), through `regularizedIncompleteBeta`.
 * - Quantile: safeguarded Newton (Numerical Recipes' `rtsafe`) on S(t) = q inside a
 *   bracket [0, t_hi] found by doubling, started from the normal quantile (simple-statistics'
 *   `probit`) widened by the first Cornish–Fisher term. Working on the tail q = min(p, 1 − p)
 *   keeps small probabilities accurate; near the median the equation is written on
 *   P(0 < T ≤ t) = ½ · I_{t²/(ν+t²)}(½, ν/2) instead, which keeps t ≈ 0 accurate.
 *   Tested against mpmath at 50 digits (≤ 3e-13 relative for ν ≤ 10^5) and scipy.stats.t
 *   (test/fit/reference).
 */
import { probit } from "simple-statistics";
import { logBeta, regularizedIncompleteBeta } from "./incomplete-beta";

function requireDegreesOfFreedom(dof: number): void {
  if (!(dof > 0) || !Number.isFinite(dof)) throw new RangeError(`Student t: degrees of freedom must be finite and > 0, got ${dof}`);
}

/** P(T > t) for t ≥ 0. */
function upperTail(t: number, dof: number): number {
  const t2 = t * t;
  return 0.5 * regularizedIncompleteBeta(dof / (dof + t2), dof / 2, 0.5, t2 / (dof + t2));
}

/** P(0 < T ≤ t) = ½ − P(T > t) for t ≥ 0, without the cancellation near t = 0. */
function central(t: number, dof: number): number {
  const t2 = t * t;
  return 0.5 * regularizedIncompleteBeta(t2 / (dof + t2), 0.5, dof / 2, dof / (dof + t2));
}

function density(t: number, dof: number): number {
  // Γ((ν+1)/2) / (Γ(ν/2)·√(νπ)) = 1 / (√ν · B(ν/2, ½))
  const logNorm = -logBeta(dof / 2, 0.5) - 0.5 * Math.log(dof);
  return Math.exp(logNorm - ((dof + 1) / 2) * Math.log1p((t * t) / dof));
}

/** P(T ≤ t). */
export function studentTCdf(t: number, dof: number): number {
  requireDegreesOfFreedom(dof);
  if (Number.isNaN(t)) return NaN;
  return t >= 0 ? 1 - upperTail(t, dof) : upperTail(-t, dof);
}

/**
 * The t such that P(T ≤ t) = p.
 * @example studentTQuantile(0.975, 10) // 2.2281388519649385
 */
export function studentTQuantile(p: number, dof: number): number {
  requireDegreesOfFreedom(dof);
  if (!(p > 0 && p < 1)) throw new RangeError(`Student t quantile: p must be in (0, 1), got ${p}`);
  if (p === 0.5) return 0;
  const tail = p < 0.5 ? p : 1 - p;
  const sign = p < 0.5 ? -1 : 1;
  // Root of the decreasing f(t) = S(t) − tail on t ≥ 0 (f(0) = ½ − tail > 0). Near the
  // median S(t) ≈ ½ would cancel, so there f is computed as (½ − tail) − P(0 < T ≤ t),
  // where ½ − tail is exact (Sterbenz) for tail ≥ ¼.
  const centralTarget = 0.5 - tail;
  const f = tail >= 0.25 ? (t: number) => centralTarget - central(t, dof) : (t: number) => upperTail(t, dof) - tail;
  const z = -probit(tail);
  const guess = z + (z ** 3 + z) / (4 * dof);
  let low = 0;
  let high = Math.max(guess, 1);
  while (f(high) > 0) {
    low = high;
    high *= 2;
    if (!Number.isFinite(high)) throw new RangeError(`Student t quantile: no bracket for p=${p}, dof=${dof}`);
  }
  let t = guess > low && guess < high ? guess : (low + high) / 2;
  for (let iteration = 0; iteration < 200; iteration++) {
    const value = f(t);
    if (value === 0) break;
    if (value > 0) low = t;
    else high = t;
    let next = t + value / density(t, dof);
    if (!(next > low && next < high)) next = (low + high) / 2;
    const step = Math.abs(next - t);
    t = next;
    if (step <= 4 * Number.EPSILON * t || high - low <= 4 * Number.EPSILON * high) break;
  }
  return sign * t;
}
