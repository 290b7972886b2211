/**
 * The general quadratic of [Y-thesis] eq. 4.1 (docs/science.md §3.2): all nine terms
 * `a_ij m^i V^j`, 0 ≤ i, j ≤ 2, fitted by ordinary least squares.
 */
import { polynomialForm } from "./polynomial-form";
import { FULL_TERMS } from "./polynomial-terms";

// Parenthesised: compiled with the module. Horner in m over quadratics in V; the order of
// operations is the one earlier versions used (same numbers to the last digit).
const evaluateFull = (function evaluateFull(k: Float64Array, m: number, v: number): number {
  const m2 = m * m;
  const v2 = v * v;
  return k[0]! + k[1]! * v + k[2]! * v2 + m * (k[3]! + k[4]! * v + k[5]! * v2) + m2 * (k[6]! + k[7]! * v + k[8]! * v2);
});

export const FULL_FORM = polynomialForm({
  name: "full",
  title: "the general nine-term quadratic in m and V",
  source: "[Y-thesis] eq. 4.1",
  terms: FULL_TERMS,
  evaluate: evaluateFull,
});
