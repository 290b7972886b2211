/**
 * The order ScheduleCkpt considers applications in (docs/science.md §4.3, [Y11] §5): decreasing
 * `p_i` (criterion "p") or decreasing `p_i / s_i` (criterion "density", with the original
 * image size), ties broken by input index. Computed once per run: the order of E' never
 * changes, applications only leave it. O(n log n), by a merge sort (stable, so equal keys
 * keep the index order).
 */
export type Criterion = "p" | "density";
export const CRITERIA: readonly Criterion[] = ["p", "density"];

/** The buffers of one sort (`key`, `from`, `to`), for callers that sort many times or time it. */
export interface OrderWorkspace {
  readonly key: Float64Array;
  readonly from: Int32Array;
  readonly to: Int32Array;
}

export function createOrderWorkspace(n: number): OrderWorkspace {
  return { key: new Float64Array(n), from: new Int32Array(n), to: new Int32Array(n) };
}

/**
 * Indices 0..n−1 in criterion order. With a `workspace` (of capacity n) nothing is allocated:
 * the result is one of its arrays, valid until the next call with it.
 */
// Parenthesised so that V8 compiles it with the module, not on the first decision (see schedule-ckpt.ts, "Cold start").
export const criterionOrder = (function criterionOrder(pS: Float64Array, sizesMb: Float64Array, criterion: Criterion, workspace: OrderWorkspace = createOrderWorkspace(pS.length)): Int32Array {
  const n = pS.length;
  const key = workspace.key;
  for (let i = 0; i < n; i++) key[i] = criterion === "p" ? pS[i]! : pS[i]! / sizesMb[i]!;
  // A stable bottom-up merge sort by decreasing key from the identity order, so ties keep
  // the index order; no comparator callback (a sorted typed array calls one per comparison).
  let from = workspace.from;
  for (let i = 0; i < n; i++) from[i] = i;
  let to = workspace.to;
  for (let width = 1; width < n; width *= 2) {
    for (let low = 0; low < n; low += 2 * width) {
      const middle = Math.min(low + width, n);
      const high = Math.min(low + 2 * width, n);
      let i = low;
      let j = middle;
      let k = low;
      while (i < middle && j < high) to[k++] = key[from[j]!]! > key[from[i]!]! ? from[j++]! : from[i++]!;
      while (i < middle) to[k++] = from[i++]!;
      while (j < high) to[k++] = from[j++]!;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  return from;
});
