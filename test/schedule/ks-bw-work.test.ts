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
