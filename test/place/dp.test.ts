import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { constantCostDp } from "../../pipeline/place/constant-cost-dp";
import { expectedWaste } from "../../pipeline/place/expected-waste";
import { createLaw } from "../../pipeline/place/laws";
import { placeJob } from "../../pipeline/place/place-job";
import { solveDp } from "../../pipeline/place/solve-dp";
import { variableCostDp } from "../../pipeline/place/variable-cost-dp";
import { expectClose } from "../helpers";
import { lawSpecArbitrary, objectiveArbitrary, QUANTUM_SECONDS, quantizedJobArbitrary, weightsArbitrary } from "./arbitraries";

/** Every schedule of an n-slice job: the subsets of {1..n−1}, each followed by n. */
function allSchedules(n: number): number[][] {
  const schedules: number[][] = [];
  for (let mask = 0; mask < 1 << (n - 1); mask++) {
    const schedule: number[] = [];
    for (let j = 1; j < n; j++) if (mask & (1 << (j - 1))) schedule.push(j);
    schedule.push(n);
    schedules.push(schedule);
  }
  return schedules;
}

describe("variable-cost DP ([BTW10] Prop. 1)", () => {
  it("equals brute force over all 2^(n−1) schedules for n ≤ 12, any law, both objectives", () => {
    fc.assert(
      fc.property(quantizedJobArbitrary(1, 12), lawSpecArbitrary, weightsArbitrary, objectiveArbitrary, (job, spec, weights, objective) => {
        const law = createLaw(spec);
        const solution = variableCostDp({ ...job, quantumSeconds: QUANTUM_SECONDS, law, ...weights, objective });
        const plainJob = { slicesSeconds: job.slicesSeconds, costsSeconds: job.costsQuanta.map((c) => c * QUANTUM_SECONDS) };
        let best = Infinity;
        for (const schedule of allSchedules(job.slicesSeconds.length)) {
          best = Math.min(best, expectedWaste(plainJob, schedule, law, weights)[objective]);
        }
        expectClose(solution.expectedWaste, best, 1e-9, 1e-9);
        // The schedule it returns has the waste it claims.
        expectClose(expectedWaste(plainJob, solution.checkpoints, law, weights)[objective], solution.expectedWaste, 1e-9, 1e-9);
        expect(solution.checkpoints[solution.checkpoints.length - 1]).toBe(job.slicesSeconds.length);
      }),
      { seed: 20240401, numRuns: 150 },
    );
  });

  it("equals the constant-cost DP when all costs are equal", () => {
    fc.assert(
      fc.property(
        quantizedJobArbitrary(1, 40),
        fc.integer({ min: 0, max: 20 }),
        lawSpecArbitrary,
        weightsArbitrary,
        objectiveArbitrary,
        (job, quanta, spec, weights, objective) => {
          const law = createLaw(spec);
          const n = job.slicesSeconds.length;
          const variable = variableCostDp({
            slicesSeconds: job.slicesSeconds,
            costsQuanta: new Array<number>(n).fill(quanta),
            quantumSeconds: QUANTUM_SECONDS,
            law,
            ...weights,
            objective,
          });
          const constant = constantCostDp({ slicesSeconds: job.slicesSeconds, costSeconds: quanta * QUANTUM_SECONDS, law, ...weights, objective });
          expectClose(variable.expectedWaste, constant.expectedWaste, 1e-9, 1e-9);
          const plainJob = { slicesSeconds: job.slicesSeconds, costsSeconds: new Array<number>(n).fill(quanta * QUANTUM_SECONDS) };
          expectClose(expectedWaste(plainJob, constant.checkpoints, law, weights)[objective], constant.expectedWaste, 1e-9, 1e-9);
        },
      ),
      { seed: 7, numRuns: 100 },
    );
  });

  it("is at most every baseline's waste under the objective it minimises", () => {
    fc.assert(
      fc.property(quantizedJobArbitrary(1, 40, 30), lawSpecArbitrary, weightsArbitrary, objectiveArbitrary, (job, spec, weights, objective) => {
        const law = createLaw(spec);
        const placement = placeJob(
          { slicesSeconds: job.slicesSeconds, costsSeconds: job.costsQuanta.map((c) => c * QUANTUM_SECONDS) },
          law,
          { ...weights, objective, quantumSeconds: QUANTUM_SECONDS, policies: ["dp", "young", "daly", "none"] },
        );
        const [dp, ...baselines] = placement.policies;
        expect(dp!.policy).toBe("dp");
        expect(baselines.length).toBe(5);
        for (const baseline of baselines) {
          expect(dp!.expectedWaste[objective]).toBeLessThanOrEqual(baseline.expectedWaste[objective] * (1 + 1e-12) + 1e-9);
        }
      }),
      { seed: 11, numRuns: 100 },
    );
  });

  it("checkpoints after every slice when checkpoints are free", () => {
    const law = createLaw({ kind: "weibull", shape: 0.7, scaleSeconds: 5000 });
    const slicesSeconds = [600, 1200, 300, 900, 1500];
    const solution = variableCostDp({ slicesSeconds, costsQuanta: [0, 0, 0, 0, 0], quantumSeconds: 60, law, alpha: 1, beta: 0, objective: "paper" });
    expect(solution.checkpoints).toEqual([1, 2, 3, 4, 5]);
  });

  it("places checkpoints where the hand-computed optimum is (two slices, exponential)", () => {
    // Two slices of 1000 s, costs 60 s each, exponential rate 1e-3, α = 1, β = 0.
    // Schedules: [2] wastes ∫_0^{2060} t f dt; [1,2] wastes ∫_0^{1060} t f + ∫_{1060}^{2120} (60 + t − 1060) f.
    const rate = 1e-3;
    const lower = (t: number) => (1 - Math.exp(-rate * t) * (1 + rate * t)) / rate;
    const cdf = (t: number) => 1 - Math.exp(-rate * t);
    const one = lower(2060);
    const two = lower(1060) + (lower(2120) - lower(1060)) + (60 - 1060) * (cdf(2120) - cdf(1060));
    const law = createLaw({ kind: "exponential", ratePerSecond: rate });
    const solution = solveDp({ slicesSeconds: [1000, 1000], costsSeconds: [60, 60] }, law, { alpha: 1, beta: 0, objective: "paper", quantumSeconds: 60 });
    expect(solution.solver).toBe("constant-cost");
    expectClose(solution.expectedWaste, Math.min(one, two), 1e-12);
    expect(solution.checkpoints).toEqual(two < one ? [1, 2] : [2]);
  });

  it("counts the complete objective's extra term: rare failures stop paying for checkpoints", () => {
    // With a mean time to failure 1000× the job, the paper objective still checkpoints
    // (its waste ignores the overhead of runs that succeed), the complete one does not.
    const law = createLaw({ kind: "exponential", ratePerSecond: 1 / 3.6e7 });
    const job = { slicesSeconds: new Array<number>(10).fill(3600), costsSeconds: new Array<number>(10).fill(60) };
    const paper = solveDp(job, law, { alpha: 1, beta: 0, objective: "paper", quantumSeconds: 60 });
    const complete = solveDp(job, law, { alpha: 1, beta: 0, objective: "complete", quantumSeconds: 60 });
    expect(paper.checkpoints.length).toBeGreaterThan(1);
    expect(complete.checkpoints).toEqual([10]);
  });

  it("refuses a state space over the memory budget, with the figure", () => {
    // (1000 + 1) positions × (1000 × 10⁴ + 1) overheads = 10,010,001,001 states; × 45 B = 429,583 MiB.
    const law = createLaw({ kind: "exponential", ratePerSecond: 1e-4 });
    expect(() =>
      variableCostDp({
        slicesSeconds: new Array<number>(1000).fill(100),
        costsQuanta: new Array<number>(1000).fill(10_000),
        quantumSeconds: 1,
        law,
        alpha: 1,
        beta: 0,
        objective: "paper",
      }),
    ).toThrow(/10,010,001,001 states × 45 bytes = 429583 MiB, over the 1024 MiB budget; use a larger --quantum/);
  });
});
