/**
 * Numerical integration for the laws without closed-form moments (competing.ts, and
 * residual.ts where its closed form would cancel): adaptive 8-point Gauss–Legendre.
 *
 * An interval [a, b] with 0 < a is first cut into geometric panels whose ends are in ratio
 * ≤ 1.5, so that an integrand analytic on (0, ∞) — every parametric law's density and CDF —
 * has its nearest singularity (at 0) at least 5 half-widths from a panel's centre. A panel is
 * then accepted when its 8-point rule agrees with the sum over its two halves to 1e-13
 * relative (or to 1e-16 of the whole integral, below which rounding decides), else both halves
 * are refined (at most 30 levels): a density that falls by e^20 across a panel (the far tail of
 * a Weibull of shape 2.5) needs a few levels, a smooth one none.
 * Cost: 24 evaluations per accepted panel; 8 for a panel short against its distance to 0.
 */
import type { LawSpec } from "./failure-law";

/** Gauss–Legendre nodes on [−1, 1] and weights, 8 points. */
const NODES = [-0.9602898564975363, -0.7966664774136267, -0.525532409916329, -0.1834346424956498, 0.1834346424956498, 0.525532409916329, 0.7966664774136267, 0.9602898564975363];
const WEIGHTS = [0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.362683783378362, 0.362683783378362, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763];
/** Largest ratio of a geometric panel's ends. */
const RATIO = 1.5;
const TOLERANCE = 1e-13;
const MAX_DEPTH = 30;

function gaussLegendre(f: (u: number) => number, a: number, b: number): number {
  const half = (b - a) / 2;
  const middle = (a + b) / 2;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += WEIGHTS[i]! * f(middle + half * NODES[i]!);
  return sum * half;
}

/** `floor`: an absolute error small against the whole integral, below which a panel is not refined (rounding would never let it meet the relative test). */
function adaptive(f: (u: number) => number, a: number, b: number, whole: number, depth: number, floor: number): number {
  const middle = (a + b) / 2;
  const left = gaussLegendre(f, a, middle);
  const right = gaussLegendre(f, middle, b);
  const halves = left + right;
  if (depth >= MAX_DEPTH || Math.abs(halves - whole) <= Math.max(TOLERANCE * Math.abs(halves), floor)) return halves;
  return adaptive(f, a, middle, left, depth + 1, floor) + adaptive(f, middle, b, right, depth + 1, floor);
}

/**
 * ∫_a^b f(u) du, 0 < a ≤ b (f analytic on (0, ∞)). A panel no wider than a tenth of its left
 * end (the DP's tables integrate across closely spaced times) has its singularity at ≥ 20
 * half-widths: one 8-point rule is exact to rounding there (error ~ 40^-16), no refinement.
 */
export function integrate(f: (u: number) => number, a: number, b: number): number {
  if (!(b > a)) return 0;
  if (b - a <= 0.1 * a) return gaussLegendre(f, a, b);
  const panels = Math.max(1, Math.ceil(Math.log(b / a) / Math.log(RATIO)));
  const step = Math.pow(b / a, 1 / panels);
  const ends = Array.from({ length: panels + 1 }, (_, k) => (k === 0 ? a : k === panels ? b : a * Math.pow(step, k)));
  const rough = ends.slice(1).map((right, k) => gaussLegendre(f, ends[k]!, right));
  const floor = 1e-16 * rough.reduce((s, x) => s + Math.abs(x), 0);
  let sum = 0;
  for (let k = 0; k < panels; k++) sum += adaptive(f, ends[k]!, ends[k + 1]!, rough[k]!, 0, floor);
  return sum;
}

/** Toward 0, panels stop at this fraction of t; what is left counts as a trapezoid. */
const SMALLEST = 1e-15;

/** ∫_0^t f(u) du for f bounded near 0 (a CDF, a survival function). */
export function integrateFromZero(f: (u: number) => number, t: number): number {
  if (!(t > 0)) return 0;
  const smallest = SMALLEST * t;
  return integrate(f, smallest, t) + (smallest * f(smallest)) / 2;
}

/** ∫_t^∞ f(u) du for f decreasing to 0 (a survival function): geometric panels upward until one adds nothing. */
export function integrateToInfinity(f: (u: number) => number, t: number): number {
  let sum = 0;
  let left = Math.max(t, 1e-300);
  for (let k = 0; k < 4000; k++) {
    const right = left * RATIO;
    const piece = integrate(f, left, right);
    sum += piece;
    if (piece <= 1e-17 * sum && f(right) * right <= 1e-17 * sum) break;
    left = right;
  }
  return sum;
}

/**
 * Whether a law's density is analytic on (0, ∞), as `integrate` needs: every parametric law
 * and what is derived from them; not the empirical law (piecewise linear CDF, kinks at its
 * observations).
 */
export function isAnalyticLaw(spec: LawSpec): boolean {
  if (spec.kind === "empirical") return false;
  if (spec.kind === "residual") return isAnalyticLaw(spec.base);
  if (spec.kind === "competing") return spec.laws.every(isAnalyticLaw);
  return true;
}
