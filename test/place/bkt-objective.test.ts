/**
 * [BKT]'s objective (docs/science.md §6.1.5) in the DP placer: the plain evaluator against
 * mpmath quadrature of eq. (1)/(4) (test/place/reference/bkt_objective.py), both DPs
 * against brute force over every schedule (with eq. (4) either way and a time offset), and
 * the stated relation to [BTW10]'s objective.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { constantCostDp } from "../../pipeline/place/constant-cost-dp";
import { expectedWaste, scheduleBoundaries } from "../../pipeline/place/expected-waste";
import { createLaw, type LawSpec } from "../../pipeline/place/laws";
import { probabilityBetween } from "../../pipeline/place/laws/failure-law";
import { variableCostDp } from "../../pipeline/place/variable-cost-dp";
import { expectClose } from "../helpers";
import { lawSpecArbitrary, QUANTUM_SECONDS, quantizedJobArbitrary } from "./arbitraries";

const HOUR = 3600;
/** The laws of the reference script, by its labels. */
const REFERENCE_LAWS: Record<string, LawSpec> = {
  "weibull:shape=0.431,scale=1.682,unit=h": { kind: "weibull", shape: 0.431, scaleSeconds: 1.682 * HOUR },
  "exponential:rate=0.0002": { kind: "exponential", ratePerSecond: 0.0002 },
  "hyperexp:p=0.398/0.305/0.298,mu=0.031/11.566/1.322,unit=h,param=mean": {
    kind: "hyperexponential",
    probabilities: [0.398 / 1.001, 0.305 / 1.001, 0.298 / 1.001],
    ratesPerSecond: [1 / (0.031 * HOUR), 1 / (11.566 * HOUR), 1 / (1.322 * HOUR)],
    reading: "mean",
  },
};

interface ReferenceCase {
  law: string;
  slices: number[];
  costs: number[];
  checkpoints: number[];
  alpha: number;
  timeOffsetSeconds: number;
  eq4: "consistent" | "as-printed";
  bktSeconds: string;
}
const reference = JSON.parse(readFileSync(join(__dirname, "reference", "bkt-objective.json"), "utf8")) as { cases: ReferenceCase[] };

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

describe("[BKT]'s objective", () => {
  it("the evaluator agrees with mpmath quadrature of eq. (1)/(4) to 1e-9 (96 cases)", () => {
    expect(reference.cases).toHaveLength(96);
    for (const c of reference.cases) {
      const law = createLaw(REFERENCE_LAWS[c.law]!);
      const waste = expectedWaste({ slicesSeconds: c.slices, costsSeconds: c.costs }, c.checkpoints, law, { alpha: c.alpha, beta: 0 }, { timeOffsetSeconds: c.timeOffsetSeconds, eq4: c.eq4 });
      expectClose(waste.bkt, Number(c.bktSeconds), 1e-9, 1e-9);
    }
  });

  it("exceeds [BTW10]'s by the closing checkpoints' cost times the failure probability of each interval (β = 0)", () => {
    fc.assert(
      fc.property(quantizedJobArbitrary(1, 10), lawSpecArbitrary, fc.double({ min: 0.1, max: 1, noNaN: true }), (job, spec, alpha) => {
        const law = createLaw(spec);
        const plain = { slicesSeconds: job.slicesSeconds, costsSeconds: job.costsQuanta.map((c) => c * QUANTUM_SECONDS) };
        const schedule = allSchedules(job.slicesSeconds.length)[0]!;
        const waste = expectedWaste(plain, schedule, law, { alpha, beta: 0 });
        const { completionSeconds: rho } = scheduleBoundaries(plain, schedule);
        let gap = 0;
        schedule.forEach((j, i) => (gap += plain.costsSeconds[j - 1]! * probabilityBetween(law, rho[i]!, rho[i + 1]!)));
        expectClose(waste.bkt - waste.paper, gap, 1e-9, 1e-9);
      }),
      { seed: 61, numRuns: 100 },
    );
  });

  it("both DPs find the brute-force optimum, with eq. (4) either way and a time offset", () => {
    fc.assert(
      fc.property(
        quantizedJobArbitrary(1, 10),
        lawSpecArbitrary,
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.constantFrom("consistent" as const, "as-printed" as const),
        fc.oneof(fc.constant(0), fc.double({ min: 1, max: 5000, noNaN: true })),
        (job, spec, alpha, eq4, timeOffsetSeconds) => {
          const law = createLaw(spec);
          const weights = { alpha, beta: 0 };
          const plain = { slicesSeconds: job.slicesSeconds, costsSeconds: job.costsQuanta.map((c) => c * QUANTUM_SECONDS) };
          let best = Infinity;
          for (const s of allSchedules(job.slicesSeconds.length)) best = Math.min(best, expectedWaste(plain, s, law, weights, { eq4, timeOffsetSeconds }).bkt);
          const variable = variableCostDp({ ...job, quantumSeconds: QUANTUM_SECONDS, law, ...weights, objective: "bkt", eq4, timeOffsetSeconds });
          expectClose(variable.expectedWaste, best, 1e-9, 1e-9);
          expectClose(expectedWaste(plain, variable.checkpoints, law, weights, { eq4, timeOffsetSeconds }).bkt, variable.expectedWaste, 1e-9, 1e-9);
          const n = job.slicesSeconds.length;
          const cost = job.costsQuanta[0]! * QUANTUM_SECONDS;
          const equal = { slicesSeconds: job.slicesSeconds, costsSeconds: new Array<number>(n).fill(cost) };
          let bestEqual = Infinity;
          for (const s of allSchedules(n)) bestEqual = Math.min(bestEqual, expectedWaste(equal, s, law, weights, { eq4, timeOffsetSeconds }).bkt);
          const constant = constantCostDp({ slicesSeconds: job.slicesSeconds, costSeconds: cost, law, ...weights, objective: "bkt", eq4, timeOffsetSeconds });
          expectClose(constant.expectedWaste, bestEqual, 1e-9, 1e-9);
        },
      ),
      { seed: 2011, numRuns: 150 },
    );
  });
});
