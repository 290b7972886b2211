/**
 * The papers' form ([Y11] eq. 4, [Y-thesis] eq. 4.2; docs/science.md §3.2): five terms of
 * the general quadratic, `bw(m, V) = a·m²V² + b·m² + c·V² + d·m + e`, fitted by ordinary
 * least squares. bw(0, 0) = e, which index_bw_max reads as the idle device's bandwidth
 * (docs/science.md §4.3).
 */
import { polynomialForm } from "./polynomial-form";
import { PAPER_TERMS } from "./polynomial-terms";

// Parenthesised: compiled with the module (see schedule/schedule-ckpt.ts, "Cold start").
// The expression and its order of operations are those the published numbers were
// reproduced with: keep them, or the reproduction's last digits move.
const evaluatePaper = (function evaluatePaper(k: Float64Array, m: number, v: number): number {
  const m2 = m * m;
  const v2 = v * v;
  return k[0]! * m2 * v2 + k[1]! * m2 + k[2]! * v2 + k[3]! * m + k[4]!;
});

export const PAPER_FORM = polynomialForm({
  name: "paper",
  title: "the papers' five-term quadratic in m and V",
  source: "[Y11] eq. 4, [Y-thesis] eq. 4.2",
  terms: PAPER_TERMS,
  evaluate: evaluatePaper,
});
