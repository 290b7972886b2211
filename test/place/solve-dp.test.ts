/**
 * The DP placer's choices by hand (solve-dp.ts, objective.ts): which DP solves a job, the
 * costs it solves it with, and the weights α, β it refuses ([BTW10] §2: α ∈ (0, 1],
 * β ∈ [0, 1]).
 */
import { describe, expect, it } from "vitest";
import { createLaw } from "../../pipeline/place/laws";
import { validateWasteWeights } from "../../pipeline/place/objective";
import { prepareDpJob, solveDp } from "../../pipeline/place/solve-dp";
import { refusal } from "../helpers";

const law = createLaw({ kind: "exponential", ratePerSecond: 1e-3 });

describe("prepareDpJob", () => {
  it("equal costs: the constant-cost DP, on the job as given", () => {
    const job = { slicesSeconds: [100, 200], costsSeconds: [50, 50] };
    expect(prepareDpJob(job, 60)).toEqual({ solver: "constant-cost", quantization: null, solvedJob: job });
  });

  it("unequal costs: the variable-cost DP on the costs rounded to quanta (50 s and 70 s of 60 s: 1 quantum each, or 1 and 2 rounded up)", () => {
    const job = { slicesSeconds: [100, 200], costsSeconds: [50, 70] };
    const nearest = prepareDpJob(job, 60);
    expect(nearest.solver).toBe("variable-cost");
    expect(nearest.quantization).toMatchObject({ costsQuanta: [1, 1], costsSeconds: [60, 60], rounding: "nearest", roundedCount: 2, maxRoundingSeconds: 10 });
    expect(nearest.solvedJob).toEqual({ slicesSeconds: [100, 200], costsSeconds: [60, 60] });
    const up = prepareDpJob(job, 60, "up");
    expect(up.quantization).toMatchObject({ costsQuanta: [1, 2], costsSeconds: [60, 120], rounding: "up", maxRoundingSeconds: 50 });
    expect(up.solvedJob.costsSeconds).toEqual([60, 120]);
  });

  it("refuses a quantum that is not positive", () => {
    expect(refusal(() => prepareDpJob({ slicesSeconds: [100], costsSeconds: [50] }, 0))).toMatch(/the cost quantum \(--quantum, seconds\)/);
  });
});

describe("solveDp", () => {
  it("solves the rounded job and says how: rounded up, costs 60 s and 120 s", () => {
    const solution = solveDp({ slicesSeconds: [100, 200], costsSeconds: [50, 70] }, law, { alpha: 1, beta: 0, objective: "paper", quantumSeconds: 60, rounding: "up" });
    expect(solution).toMatchObject({ solver: "variable-cost", objective: "paper", solvedJob: { costsSeconds: [60, 120] } });
    expect(solution.quantization!.costsQuanta).toEqual([1, 2]);
    // Costs S = (0, 1, 3) quanta: 2 · 4 = 8 law calls at the 4 reachable states (as in dp-counters.test.ts).
    expect(solution.stats.lawEvaluations).toBe(8);
  });

  it("passes the time offset on to the DP", () => {
    const job = { slicesSeconds: [100, 200], costsSeconds: [60, 60] };
    const options = { alpha: 1, beta: 0, objective: "paper" as const, quantumSeconds: 60 };
    // The exponential law's density d later is e^{−λd} times its density (memoryless): every schedule's waste,
    // and so the optimum, scales by e^{−λd} = e^{−1} for d = 1000 s at λ = 10⁻³/s, with the same checkpoints.
    const atZero = solveDp(job, law, options);
    const offset = solveDp(job, law, { ...options, timeOffsetSeconds: 1000 });
    expect(offset.checkpoints).toEqual(atZero.checkpoints);
    expect(offset.expectedWaste / atZero.expectedWaste).toBeCloseTo(Math.exp(-1), 12);
  });
});

describe("the weights α and β", () => {
  it("accepts α in (0, 1] and β in [0, 1]", () => {
    expect(validateWasteWeights({ alpha: 1, beta: 0 })).toEqual({ alpha: 1, beta: 0 });
    expect(validateWasteWeights({ alpha: 0.5, beta: 1 })).toEqual({ alpha: 0.5, beta: 1 });
  });

  it("refuses α ∉ (0, 1] and β ∉ [0, 1], saying what each means", () => {
    for (const alpha of [0, -0.5, 1.5, NaN]) {
      expect(refusal(() => validateWasteWeights({ alpha, beta: 0 }))).toBe(
        `α (--alpha) must be in (0, 1] (the fraction of lost time that counts as waste), got ${alpha}; [BKT] uses 1`,
      );
    }
    for (const beta of [-0.1, 1.1, NaN]) {
      expect(refusal(() => validateWasteWeights({ alpha: 1, beta }))).toBe(
        `β (--beta) must be in [0, 1] (0: a failure is seen at once, 1: only at the next checkpoint), got ${beta}`,
      );
    }
    expect(refusal(() => solveDp({ slicesSeconds: [100], costsSeconds: [60] }, law, { alpha: 2, beta: 0, objective: "paper", quantumSeconds: 60 }))).toMatch(/^α \(--alpha\)/);
  });
});
