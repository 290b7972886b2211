import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectedWaste } from "../../pipeline/place/expected-waste";
import { createLaw } from "../../pipeline/place/laws";
import { simulateFirstFailure } from "../../pipeline/place/simulate-first-failure";
import { simulateRestarts } from "../../pipeline/place/simulate-restarts";
import { expectClose } from "../helpers";
import { lawSpecArbitrary, QUANTUM_SECONDS, quantizedJobArbitrary, weightsArbitrary } from "./arbitraries";

describe("first-failure Monte Carlo", () => {
  it("agrees with the analytic expected waste within its confidence interval, both objectives", () => {
    fc.assert(
      fc.property(
        quantizedJobArbitrary(1, 20),
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        lawSpecArbitrary,
        weightsArbitrary,
        fc.integer({ min: 1, max: 1_000_000 }),
        (q, marks, spec, weights, seed) => {
          const job = { slicesSeconds: q.slicesSeconds, costsSeconds: q.costsQuanta.map((c) => c * QUANTUM_SECONDS) };
          const n = job.slicesSeconds.length;
          const checkpoints = [...marks.slice(0, n - 1).flatMap((m, i) => (m ? [i + 1] : [])), n];
          const law = createLaw(spec);
          const analytic = expectedWaste(job, checkpoints, law, weights);
          // 99.9 % intervals: at 150 × 2 comparisons a 95 % interval would miss several by design.
          const simulated = simulateFirstFailure(job, checkpoints, law, weights, { runs: 20_000, seed, confidence: 0.999 });
          for (const objective of ["paper", "complete"] as const) {
            // 1e-9 s of slack: when no run fails (probability ~1e-20) the interval is [0, 0].
            const { low, high } = simulated[objective];
            expect(analytic[objective]).toBeGreaterThanOrEqual(low - 1e-9);
            expect(analytic[objective]).toBeLessThanOrEqual(high + 1e-9);
          }
        },
      ),
      { seed: 3, numRuns: 150 },
    );
  });

  it("is reproducible from its seed", () => {
    const job = { slicesSeconds: [1000, 2000, 3000], costsSeconds: [60, 60, 60] };
    const law = createLaw({ kind: "weibull", shape: 0.5, scaleSeconds: 4000 });
    const a = simulateFirstFailure(job, [1, 3], law, { alpha: 1, beta: 0 }, { runs: 1000, seed: 9 });
    const b = simulateFirstFailure(job, [1, 3], law, { alpha: 1, beta: 0 }, { runs: 1000, seed: 9 });
    expect(a).toEqual(b);
  });
});

describe("restart Monte Carlo", () => {
  // Exponential failures (memoryless, fresh host after each failure), segment lengths L_i,
  // failure probability per attempt 1 − e^{−λL}. With β = 0 and no restart time, a segment's
  // expected time to get through is (e^{λL} − 1)/λ; with β = 1 each attempt costs L in full,
  // L e^{λL} in expectation (geometric number of attempts). Standard results, e.g. Daly 2006 §3.
  const rate = 1 / 5000;
  const job = { slicesSeconds: [2000, 3000, 1000], costsSeconds: [100, 200, 100] };
  const checkpoints = [1, 3];
  const segments = [2000 + 100, 3000 + 1000 + 100];
  const law = createLaw({ kind: "exponential", ratePerSecond: rate });

  it("β = 0: the mean makespan is Σ (e^{λL} − 1)/λ", () => {
    const expected = segments.reduce((s, L) => s + Math.expm1(rate * L) / rate, 0);
    const result = simulateRestarts(job, checkpoints, law, { runs: 40_000, seed: 5, beta: 0, confidence: 0.999 });
    expect(result.mean.low).toBeLessThanOrEqual(expected);
    expect(result.mean.high).toBeGreaterThanOrEqual(expected);
    expect(result.unfinishedRuns).toBe(0);
    expect(result.failureFreeSeconds).toBe(6200);
    expect(result.minSeconds).toBeGreaterThanOrEqual(6200);
    expect(result.histogram.counts.reduce((s, c) => s + c, 0)).toBe(40_000);
  });

  it("β = 1 and a restart time: Σ (L e^{λL} + R (e^{λL} − 1))", () => {
    const restartSeconds = 300;
    const expected = segments.reduce((s, L) => s + L * Math.exp(rate * L) + restartSeconds * Math.expm1(rate * L), 0);
    const result = simulateRestarts(job, checkpoints, law, { runs: 40_000, seed: 6, beta: 1, restartSeconds, confidence: 0.999 });
    expect(result.mean.low).toBeLessThanOrEqual(expected);
    expect(result.mean.high).toBeGreaterThanOrEqual(expected);
    // Failures per run: Σ (e^{λL} − 1).
    expectClose(result.meanFailures, segments.reduce((s, L) => s + Math.expm1(rate * L), 0), 0.03);
  });

  it("gives up on runs that cannot finish and says how many", () => {
    const hopeless = createLaw({ kind: "exponential", ratePerSecond: 1 });
    const result = simulateRestarts({ slicesSeconds: [100], costsSeconds: [0] }, [1], hopeless, { runs: 10, seed: 1, beta: 0, maxFailuresPerRun: 50 });
    expect(result.unfinishedRuns).toBe(10);
    expect(result.finishedRuns).toBe(0);
  });
});
