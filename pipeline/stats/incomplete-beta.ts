/**
 * The regularised incomplete beta function I_x(a, b), the building block of Student's t
 * distribution (needed for the coefficients' confidence intervals; simple-statistics has
 * no t CDF).
 *
 * Method: the continued fraction of Numerical Recipes (3rd ed., §6.4, eq. 6.4.5) evaluated
 * by the modified Lentz algorithm, on whichever of I_x(a, b) and 1 − I_{1−x}(b, a)
 * converges fast (x below or above (a + 1) / (a + b + 2)); it needs O(√max(a, b))
 * iterations. ln B(a, b) comes from simple-statistics' `gammaln` (Lanczos, ~1e-15
 * relative), except when one argument is large (the t distribution with many degrees of
 * freedom has a = ν/2 up to ~10^5): there ln Γ(a) − ln Γ(a + b) is a difference of two
 * huge numbers that loses ~|ln Γ(a)|·ε, so it is taken from Stirling's series instead,
 * where nothing cancels.
 *
 * Decision: callers may pass `y = 1 − x` computed without cancellation (for the t
 * distribution, `t² / (ν + t²)` next to `ν / (ν + t²)`), so that tails near x = 1 keep
 * their relative accuracy.
 */
import { gammaln } from "simple-statistics";

const MAX_ITERATIONS = 100_000;
const RELATIVE_TOLERANCE = 1e-16;
const TINY = 1e-300;

/** Stirling's series remainder: ln Γ(z) − [(z − ½) ln z − z + ½ ln 2π], for z ≥ 20 (error < 1e-17). */
function stirlingRemainder(z: number): number {
  const inverse = 1 / z;
  const inverse2 = inverse * inverse;
  return inverse * (1 / 12 - inverse2 * (1 / 360 - inverse2 * (1 / 1260 - inverse2 * (1 / 1680 - inverse2 / 1188))));
}

/** ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b), without cancellation when max(a, b) is large. */
export function logBeta(a: number, b: number): number {
  const large = Math.max(a, b);
  const small = Math.min(a, b);
  if (large < 20) return gammaln(a) + gammaln(b) - gammaln(a + b);
  // ln Γ(L) − ln Γ(L + s) = −(L − ½)·ln(1 + s/L) − s·ln(L + s) + s + R(L) − R(L + s)
  return (
    gammaln(small) -
    (large - 0.5) * Math.log1p(small / large) -
    small * Math.log(large + small) +
    small +
    stirlingRemainder(large) -
    stirlingRemainder(large + small)
  );
}

/** The continued fraction of I_x(a, b) (without its prefactor), by modified Lentz. */
function continuedFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) <= RELATIVE_TOLERANCE) return h;
  }
  throw new RangeError(`incomplete beta: continued fraction did not converge for x=${x}, a=${a}, b=${b}`);
}

/**
 * I_x(a, b) for a, b > 0 and x ∈ [0, 1]; `y` is 1 − x (pass it when you can compute it
 * without cancellation).
 * @example regularizedIncompleteBeta(0.5, 2, 3) // 0.6875
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number, y: number = 1 - x): number {
  if (!(a > 0) || !(b > 0) || !Number.isFinite(a) || !Number.isFinite(b)) {
    throw new RangeError(`incomplete beta: a and b must be finite and > 0, got a=${a}, b=${b}`);
  }
  if (!(x >= 0 && x <= 1)) throw new RangeError(`incomplete beta: x must be in [0, 1], got ${x}`);
  if (x === 0) return 0;
  if (y === 0) return 1;
  // ln x from y when x is near 1 (and vice versa): with a ~ 10^5, an ulp of x would cost 1e-11.
  const logX = x > 0.5 ? Math.log1p(-y) : Math.log(x);
  const logY = y > 0.5 ? Math.log1p(-x) : Math.log(y);
  const logFront = a * logX + b * logY - logBeta(a, b);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * continuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * continuedFraction(y, b, a)) / b;
}
