/** The exact 0/1 knapsack behind the CTNYS upper bound. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { knapsack01 } from "../../pipeline/schedule";
import { expectClose } from "../helpers";

function bruteForce(weights: number[], values: number[], capacity: number): number {
  let best = 0;
  for (let mask = 0; mask < 1 << weights.length; mask++) {
    let w = 0;
    let v = 0;
    for (let i = 0; i < weights.length; i++) if (mask & (1 << i)) (w += weights[i]!), (v += values[i]!);
    if (w <= capacity && v > best) best = v;
  }
  return best;
}

const itemsArbitrary = fc.array(fc.tuple(fc.double({ min: 1, max: 100, noNaN: true }), fc.integer({ min: 0, max: 100 })), { maxLength: 14 });

describe("knapsack01", () => {
  it("equals brute force", () => {
    fc.assert(
      fc.property(itemsArbitrary, fc.double({ min: 0, max: 400, noNaN: true }), (items, capacity) => {
        const result = knapsack01(items.map((i) => i[0]), items.map((i) => i[1]), capacity);
        expect(result.exact).toBe(true);
        expectClose(result.value, bruteForce(items.map((i) => i[0]), items.map((i) => i[1]), capacity), 1e-12, 1e-9);
        expect(result.chosen.reduce((a, i) => a + items[i]![0], 0)).toBeLessThanOrEqual(capacity);
        expectClose(result.chosen.reduce((a, i) => a + items[i]![1], 0), result.value, 1e-12, 1e-9);
      }),
      { seed: 11, numRuns: 200 },
    );
  });

  it("when stopped by its node limit, still bounds the optimum from above", () => {
    fc.assert(
      fc.property(itemsArbitrary, fc.double({ min: 0, max: 400, noNaN: true }), (items, capacity) => {
        const result = knapsack01(items.map((i) => i[0]), items.map((i) => i[1]), capacity, 3);
        const optimum = bruteForce(items.map((i) => i[0]), items.map((i) => i[1]), capacity);
        expect(result.upperBound).toBeGreaterThanOrEqual(optimum - 1e-9);
        expect(result.value).toBeLessThanOrEqual(optimum + 1e-9);
      }),
      { seed: 12, numRuns: 200 },
    );
  });

  it("by hand: the fractional bound is not the answer", () => {
    // capacity 50; (w, v) = (30, 60), (25, 45), (25, 45): LP bound 60 + 20·45/25 = 96, 0/1 optimum 90.
    expect(knapsack01([30, 25, 25], [60, 45, 45], 50)).toMatchObject({ value: 90, chosen: [1, 2], exact: true, upperBound: 90 });
  });

  it("by hand: stopped by its node limit, the bound is the largest Dantzig bound left open", () => {
    // The same items. Limit 0: the root (node 1) is past it; its bound 96 is open, nothing found.
    expect(knapsack01([30, 25, 25], [60, 45, 45], 50, 0)).toEqual({ value: 0, chosen: [], exact: false, upperBound: 96, nodes: 1 });
    // Limit 1: the root, then its include child (node 2: item 0 taken, 60; bound 60 + 20 · 45/25 = 96, past the
    // limit), then the exclude child (node 3: bound 0 + 45 + 45 = 90): the best found is 60, the bound 96.
    expect(knapsack01([30, 25, 25], [60, 45, 45], 50, 1)).toEqual({ value: 60, chosen: [0], exact: false, upperBound: 96, nodes: 3 });
    // Items that cannot help are left out before the search: too heavy (60 > 50) or worth nothing. One item
    // left: the root, its include child (5) and its exclude child (0), 3 nodes.
    expect(knapsack01([60, 10, 10], [1000, 0, 5], 50)).toEqual({ value: 5, chosen: [2], exact: true, upperBound: 5, nodes: 3 });
  });

  it("by hand: an item as heavy as the room is taken, whole", () => {
    // One item of 10 MB, capacity 10: it fits exactly (10 ≤ 10), value 5. Nodes: the root, its include child, its exclude child.
    expect(knapsack01([10], [5], 10)).toEqual({ value: 5, chosen: [0], exact: true, upperBound: 5, nodes: 3 });
    // The second item exactly fills what the first leaves (30 + 20 = 50): 60 + 45 = 105, both taken.
    expect(knapsack01([30, 20], [60, 45], 50)).toMatchObject({ value: 105, chosen: [0, 1], exact: true });
  });

  it("by hand: the chosen indices are the input's, ascending, though the search takes the better ratio first", () => {
    // Ratios 1/10 and 5/10: the search includes item 1 before item 0; both fit in 20.
    expect(knapsack01([10, 10], [1, 5], 20)).toMatchObject({ value: 6, chosen: [0, 1], exact: true });
  });

  it("by hand: of two sets of equal value the first found is kept", () => {
    // By ratio: item 1 (3, 4), item 3 (3, 4), item 2 (3, 3), item 0 (4, 2); capacity 4 holds one item of 3.
    // {1} (4) is found first; excluding item 1 leaves a bound of 4 + 1 · 3/3 = 5 > 4, so the search goes on
    // and meets {3} (4 again), which does not replace it.
    expect(knapsack01([4, 3, 3, 3], [2, 4, 3, 4], 4)).toMatchObject({ value: 4, chosen: [1], exact: true });
  });

  it("by hand: a subtree whose bound only equals the best is pruned", () => {
    // By ratio P (2, 3), Q (3, 4), R (4, 3); capacity 8. Nodes: the root, +P, +P+Q (7, the optimum), its leaf,
    // +P−Q (bound 3 + 3 = 6 ≤ 7), −P (bound Q + R = 4 + 3 = 7, only equal to the best: pruned): 6 nodes.
    expect(knapsack01([3, 2, 4], [4, 3, 3], 8)).toEqual({ value: 7, chosen: [0, 1], exact: true, upperBound: 7, nodes: 6 });
  });

  it("by hand: stopped by its node limit, a bound left open after the first can be the largest", () => {
    // By ratio: item 2 (5, 4), item 1 (8, 6), item 0 (9, 1); capacity 11, node limit 2. Node 1: the root
    // (bound 4 + 6 · 6/8 = 8.5); node 2: item 2 taken (4, the best found; item 1 does not fit in 6); node 3:
    // item 1 left out, past the limit, bound 4 + 6 · 1/9 = 4.667 left open; node 4: item 2 left out, bound
    // 6 + 3 · 1/9 = 6.333 left open. The bound is the larger, 19/3.
    const result = knapsack01([9, 8, 5], [1, 6, 4], 11, 2);
    expect(result).toMatchObject({ value: 4, chosen: [2], exact: false, nodes: 4 });
    expectClose(result.upperBound, 19 / 3, 1e-15);
  });
});

