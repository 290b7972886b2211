/**
 * What the DPs report besides the schedule, counted by hand from their recurrences
 * (docs/science.md §5.2; the counts in the docblocks of constant-cost-dp.ts and
 * variable-cost-dp.ts): the states, the reachable states where the law is evaluated, the
 * transitions the inner loop examines, the progress reports, and the refusal of costs
 * that are not whole quanta. The schedules themselves are checked against brute force in
 * dp.test.ts; these counters are what `ckpt place` prints as the work done.
 */
import { describe, expect, it } from "vitest";
import { constantCostDp } from "../../pipeline/place/constant-cost-dp";
import { DP_BYTES_PER_STATE } from "../../pipeline/place/dp-memory";
import { createLaw } from "../../pipeline/place/laws";
import { variableCostDp } from "../../pipeline/place/variable-cost-dp";
import { expectClose, refusal } from "../helpers";

const law = createLaw({ kind: "exponential", ratePerSecond: 1e-3 });
const weights = { alpha: 1, beta: 0 };

describe("the constant-cost DP's counters, n = 3 slices", () => {
  const slicesSeconds = [100, 200, 300];

  it("states (n + 1)² = 16, reachable 1 + n(n + 1)/2 = 7, two law calls per reachable state but the start, Σ_l Σ_{k≤l} (l − k + 1) = 10 transitions", () => {
    const progress: number[] = [];
    const { stats, checkpoints } = constantCostDp({ slicesSeconds, costSeconds: 10, law, ...weights, objective: "paper", onProgress: (f) => progress.push(f) });
    // l = 1: 1; l = 2: 2 + 1; l = 3: 3 + 2 + 1.
    expect(stats).toMatchObject({ states: 16, reachableStates: 7, transitions: 10, lawEvaluations: 12, memoryBytes: 16 * DP_BYTES_PER_STATE });
    expect(checkpoints[checkpoints.length - 1]).toBe(3);
    // Rows cost ∝ l², so the share done after row l is (l/3)³: 1/27 < 0.1 (no report), 8/27 ≥ 0.1, then 1 ≥ 0.2.
    expect(progress).toHaveLength(2);
    expectClose(progress[0]!, 8 / 27, 1e-15);
    expect(progress[1]).toBe(1);
  });

  it("a time offset adds the start state's two law calls", () => {
    const { stats } = constantCostDp({ slicesSeconds, costSeconds: 10, law, ...weights, objective: "paper", timeOffsetSeconds: 50 });
    expect(stats.lawEvaluations).toBe(14);
  });
});

describe("the variable-cost DP's counters, costs of 1 and 2 quanta", () => {
  // S = (0, 1, 3): states (n + 1)(S_n + 1) = 3 · 4 = 12. Reachable: (0, 0), (1, θ = 1), (2, θ = 2) from the start
  // and (2, θ = 3) from (1, 1): 4, each with one F and one ∫ t f.
  // Transitions: row 1, θ = 1: r ∈ {0}; row 2, θ = 2: r ∈ {0, 1} (σ = 0 from the first row holding it); θ = 3: r ∈ {1}: 4.
  const job = { slicesSeconds: [100, 200], costsQuanta: [1, 2], quantumSeconds: 5 };

  it("counts 12 states, 4 reachable, 8 law calls and 4 transitions; reports 1/5 then all of the work", () => {
    const progress: number[] = [];
    const { stats, checkpoints } = variableCostDp({ ...job, law, ...weights, objective: "paper", onProgress: (f) => progress.push(f) });
    expect(stats).toMatchObject({ states: 12, reachableStates: 4, transitions: 4, lawEvaluations: 8, memoryBytes: 12 * DP_BYTES_PER_STATE });
    expect(checkpoints[checkpoints.length - 1]).toBe(2);
    // Work bound Σ_l l · (S_{l−1} + 1) = 1 · 1 + 2 · 2 = 5: after row 1, 1/5; after row 2, 5/5.
    expect(progress).toEqual([1 / 5, 1]);
  });

  it("with [BKT]'s eq. (4) as printed, the start's edge is counted apart: still 4 transitions", () => {
    // Row 1, θ = 1: the start's edge (1), then r from 1 to 0 (none); row 2, θ = 2: the start's edge, then r = 1; θ = 3: r = 1.
    const { stats } = variableCostDp({ ...job, law, ...weights, objective: "bkt", eq4: "as-printed" });
    expect(stats.transitions).toBe(4);
  });

  it("refuses a cost that is not a whole number of quanta, or below zero, naming the slice", () => {
    expect(refusal(() => variableCostDp({ ...job, costsQuanta: [1, 1.5], law, ...weights, objective: "paper" }))).toBe(
      "slice 2: the DP needs costs in whole quanta ≥ 0, got 1.5 (quantize-costs.ts rounds them)",
    );
    expect(refusal(() => variableCostDp({ ...job, costsQuanta: [-1, 2], law, ...weights, objective: "paper" }))).toBe(
      "slice 1: the DP needs costs in whole quanta ≥ 0, got -1 (quantize-costs.ts rounds them)",
    );
  });
});
