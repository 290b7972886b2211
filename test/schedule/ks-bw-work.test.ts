/**
 * ks_bw's work by hand: how many time estimates one decision makes, with and without its
 * pruning (ks-bw.ts: a subset, or the rest of its greedy scan, is abandoned once even every
 * remaining candidate could not beat the best strictly). Pruning never changes the decision
 * (properties.test.ts); here it must save exactly the estimates counted below. On a constant
 * device with the static estimator every estimate of a non-empty set is one bandwidth
 * evaluation, and the empty set needs none.
 */
import { describe, expect, it } from "vitest";
import { createBandwidthOracle, createKsBwWorkspace, createSizeSet, estimatorByName, ksBw, type SubsetEnumeration } from "../../pipeline/schedule";
import { constantModel } from "./models";

/** a (p 100 s, 10 MB) and b (p 50 s, 10 MB), nothing running, 100 s left: everything fits. */
function decide(k0: number, enumeration: SubsetEnumeration, prune: boolean) {
  const oracle = createBandwidthOracle(constantModel(10), "refuse");
  const workspace = createKsBwWorkspace(3);
  const value = ksBw(Int32Array.from([0, 1]), 0, 2, Float64Array.from([10, 10]), Float64Array.from([100, 50]), createSizeSet(3), 100, { k0, enumeration, prune }, estimatorByName("static"), oracle, workspace);
  return { value, selected: Array.from(workspace.selected.subarray(0, workspace.selectedCount)), estimates: oracle.counts().evaluations };
}

describe("ks_bw's estimates in one decision", () => {
  it("k0 = 1, up to k0: J = ∅ then the greedy adds a ({a}: 1 estimate) and b ({a, b}: 1); with pruning J = {a} and {b} are never tried", () => {
    // Σ p of the candidates is 150, reached by J = ∅: no J of size 1 can beat it strictly.
    expect(decide(1, "up-to-k0", true)).toEqual({ value: 150, selected: [0, 1], estimates: 2 });
    // Without pruning: J = {a} (its own estimate, then {a, b}) and J = {b} (then {a, b}): 4 more.
    expect(decide(1, "up-to-k0", false)).toEqual({ value: 150, selected: [0, 1], estimates: 6 });
  });

  it("exactly k0 = 1: J = {a} (1 estimate) completed by b (1); J = {b} pruned, or 2 more estimates without pruning", () => {
    expect(decide(1, "exactly-k0", true)).toEqual({ value: 150, selected: [0, 1], estimates: 2 });
    expect(decide(1, "exactly-k0", false)).toEqual({ value: 150, selected: [0, 1], estimates: 4 });
  });

  it("k0 = 0: the greedy alone, 2 estimates either way", () => {
    expect(decide(0, "up-to-k0", true)).toEqual({ value: 150, selected: [0, 1], estimates: 2 });
    expect(decide(0, "up-to-k0", false)).toEqual({ value: 150, selected: [0, 1], estimates: 2 });
  });
});

/** ks_bw once over candidates of the given p and sizes (in criterion order), nothing running, `budgetS` left. */
function decideOn(pS: number[], sizesMb: number[], budgetS: number, k0: number, enumeration: SubsetEnumeration, prune: boolean) {
  const oracle = createBandwidthOracle(constantModel(10), "strict");
  const n = pS.length;
  const workspace = createKsBwWorkspace(n);
  const candidates = Int32Array.from({ length: n }, (_, i) => i);
  const value = ksBw(candidates, 0, n, Float64Array.from(sizesMb), Float64Array.from(pS), createSizeSet(n), budgetS, { k0, enumeration, prune }, estimatorByName("static"), oracle, workspace);
  return { value, selected: Array.from(workspace.selected.subarray(0, workspace.selectedCount)), estimates: oracle.counts().evaluations };
}

describe("ks_bw's estimates, more candidates", () => {
  it("exactly k0 = 2 of four candidates: all C(4, 2) = 6 pairs, each 1 estimate and 2 for the greedy", () => {
    // Four 1 MB images, 100 s left: every set fits, so without pruning every pair is completed by the other two.
    expect(decideOn([4, 3, 2, 1], [1, 1, 1, 1], 100, 2, "exactly-k0", false)).toEqual({ value: 10, selected: [0, 1, 2, 3], estimates: 18 });
  });

  it("the greedy scan stops once the rest cannot beat the best", () => {
    // a (p 100, 10 MB), b (50, 10 MB), c (1, 100 MB); 10 s left at 10 MB/s; exactly k0 = 1. The static estimates:
    // {a} 1 s, {a, b} 2 s, {a, b, c} 30 s, {c} 10 s, {c, a} 20 s.
    // J = {a}: {a}, {a, b} fits, {a, b, c} does not: 150, 3 estimates. J = {b}: the same three sets, 150 again.
    // J = {c}: {c} fits (10 ≤ 10), {c, a} does not; then b could bring at most 1 + 50 = 51 ≤ 150: the scan stops,
    // 2 estimates (3 without pruning).
    expect(decideOn([100, 50, 1], [10, 10, 100], 10, 1, "exactly-k0", true)).toEqual({ value: 150, selected: [0, 1], estimates: 8 });
    expect(decideOn([100, 50, 1], [10, 10, 100], 10, 1, "exactly-k0", false)).toEqual({ value: 150, selected: [0, 1], estimates: 9 });
  });
});

