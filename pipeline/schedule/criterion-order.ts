/**
 * The order ScheduleCkpt considers applications in (docs/science.md §4.3, [Y11] §5): decreasing
 * `p_i` (criterion "p") or decreasing `p_i / s_i` (criterion "density", with the original
 * image size), ties broken by input index. Computed once per run: the order of E' never
 * changes, applications only leave it. O(n log n).
 */
export type Criterion = "p" | "density";
export const CRITERIA: readonly Criterion[] = ["p", "density"];

/** Indices 0..n−1 in criterion order. */
// Parenthesised so that V8 compiles it with the module, not on the first decision (see schedule-ckpt.ts, "Cold start").
export const criterionOrder = (function criterionOrder(pS: Float64Array, sizesMb: Float64Array, criterion: Criterion): Int32Array {
  const n = pS.length;
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = criterion === "p" ? pS[i]! : pS[i]! / sizesMb[i]!;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => key[b]! - key[a]! || a - b);
});
