/**
 * Exact 0/1 knapsack with real weights: maximise Σ value over a subset whose Σ weight ≤
 * capacity. Depth-first branch and bound in the manner of Horowitz & Sahni (items by
 * decreasing value/weight, include before exclude, Dantzig's fractional bound computed in
 * O(log n) from prefix sums), used by the CTNYS upper bound (`upper-bound.ts`).
 *
 * Decisions: weights are real (MB), so no pseudo-polynomial DP; the search is exact but
 * exponential in the worst case, hence a node limit. When it is hit the result is marked
 * `exact: false` and `upperBound` is the largest Dantzig bound of the unexplored subtrees
 * (or the incumbent): still a valid upper bound on the optimum, never an underestimate.
 * Items of weight > capacity or value ≤ 0 are left out (they can never help).
 */
export interface KnapsackResult {
  /** Best value found (the optimum when `exact`). */
  value: number;
  /** Input indices of the best subset, ascending. */
  chosen: number[];
  /** True when the search finished: `value` is the optimum. */
  exact: boolean;
  /** ≥ the optimum; equals `value` when `exact`. */
  upperBound: number;
  nodes: number;
}

/**
 * Dantzig's fractional bound for items sorted by decreasing value/weight: `bound(k, room)` is
 * the most items k, k+1, … can add within `room` when the last one may be taken in part —
 * whole items while they fit, then the fraction of the next that fills the room. O(log n)
 * per call from prefix sums made once (O(n)).
 */
export function dantzigBound(weights: Float64Array, values: Float64Array): (k: number, room: number) => number {
  const n = weights.length;
  const prefixW = new Float64Array(n + 1);
  const prefixV = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) {
    prefixW[k + 1] = prefixW[k]! + weights[k]!;
    prefixV[k + 1] = prefixV[k]! + values[k]!;
  }
  return (k, room) => {
    const limit = prefixW[k]! + room;
    let low = k;
    let high = n; // largest b with prefixW[b] ≤ limit
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (prefixW[mid]! <= limit) low = mid;
      else high = mid - 1;
    }
    const b = low;
    let bound = prefixV[b]! - prefixV[k]!;
    if (b < n) bound += ((limit - prefixW[b]!) * values[b]!) / weights[b]!;
    return bound;
  };
}

export function knapsack01(
  weights: ArrayLike<number>,
  values: ArrayLike<number>,
  capacity: number,
  nodeLimit = 5_000_000,
): KnapsackResult {
  const items: number[] = [];
  for (let i = 0; i < weights.length; i++) if (weights[i]! <= capacity && values[i]! > 0) items.push(i);
  items.sort((a, b) => values[b]! / weights[b]! - values[a]! / weights[a]! || a - b);
  const n = items.length;
  const w = Float64Array.from(items, (i) => weights[i]!);
  const v = Float64Array.from(items, (i) => values[i]!);
  const fractional = dantzigBound(w, v);
  // Depth-first over levels k = 0..n with an explicit stack (10 000 items overflowed the
  // call stack): at each level, enter the node, then its include child, then its exclude child.
  const stack = new Int32Array(n);
  const roomAt = new Float64Array(n + 1);
  const valueAt = new Float64Array(n + 1);
  const phase = new Uint8Array(n + 1); // 0: enter, 1: include child done, 2: both done
  const included = new Uint8Array(n + 1);
  let depth = 0;
  let best = 0;
  let bestSet: number[] = [];
  let nodes = 0;
  let aborted = false;
  let openBound = 0;
  let k = 0;
  roomAt[0] = capacity;
  while (k >= 0) {
    const room = roomAt[k]!;
    const value = valueAt[k]!;
    if (phase[k] === 0) {
      nodes++;
      if (value > best) {
        best = value;
        bestSet = Array.from(stack.subarray(0, depth));
      }
      let prune = k === n;
      if (!prune) {
        const bound = value + fractional(k, room);
        if (aborted) {
          if (bound > openBound) openBound = bound;
          prune = true;
        } else if (bound <= best) prune = true;
        else if (nodes > nodeLimit) {
          aborted = true;
          if (bound > openBound) openBound = bound;
          prune = true;
        }
      }
      if (prune) {
        k--;
        continue;
      }
      phase[k] = 1;
      if (w[k]! <= room) {
        stack[depth++] = k;
        included[k] = 1;
        roomAt[k + 1] = room - w[k]!;
        valueAt[k + 1] = value + v[k]!;
        phase[k + 1] = 0;
        k++;
        continue;
      }
    }
    if (phase[k] === 1) {
      if (included[k] === 1) {
        depth--;
        included[k] = 0;
      }
      phase[k] = 2;
      roomAt[k + 1] = room;
      valueAt[k + 1] = value;
      phase[k + 1] = 0;
      k++;
      continue;
    }
    k--;
  }
  return {
    value: best,
    chosen: bestSet.map((k) => items[k]!).sort((a, b) => a - b),
    exact: !aborted,
    upperBound: aborted ? Math.max(best, openBound) : best,
    nodes,
  };
}
