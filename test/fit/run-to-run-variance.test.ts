/**
 * The split of the replicates' variance into a part shared by the runs of one repetition
 * and each run's own (run-to-run-variance.ts, docs/science.md §4.7), on seeded runs whose
 * components are known: ln y = ln B(c) + σ_release·Z_r + σ_own·Z_rc (test/schedule/replay-generators.ts).
 */
import { describe, expect, it } from "vitest";
import { selectFitPoints } from "../../pipeline/fit/fit-points";
import { runToRunVariance } from "../../pipeline/fit/run-to-run-variance";
import { summariseRuns } from "../../pipeline/ingest/summarise-runs";
import { generatedRuns } from "../schedule/replay-generators";

const runsOf = (sigmaRelease: number, sigmaRun: number, repetitions: number) =>
  selectFitPoints(summariseRuns(generatedRuns({ shape: "saturate", seed: 11, repetitions, sigmaRelease, sigmaRun })), { points: "runs", upToPeak: false });

describe("runToRunVariance: the repetitions' shared factor", () => {
  it("recovers σ_release and σ_own (5 % and 4 %) from 100 repetitions of 40 cells, within 15 %", () => {
    const v = runToRunVariance(runsOf(0.05, 0.04, 100));
    expect(v.releaseCount).toBe(100);
    expect(v.releaseLogSd).toBeGreaterThan(0.05 * 0.85);
    expect(v.releaseLogSd).toBeLessThan(0.05 * 1.15);
    expect(v.ownLogSd).toBeGreaterThan(0.04 * 0.95);
    expect(v.ownLogSd).toBeLessThan(0.04 * 1.05);
    // The pooled within-cell variance is both: √(0.05² + 0.04²) = 0.0640.
    expect(v.logSd).toBeGreaterThan(0.064 * 0.9);
    expect(v.logSd).toBeLessThan(0.064 * 1.1);
    // Satterthwaite: the shared part, known on 99 degrees of freedom, dominates — far fewer than Σ(n_c − 1) = 3960.
    expect(v.degreesOfFreedom).toBe(40 * 99);
    expect(v.effectiveDegreesOfFreedom).toBeLessThan(400);
    expect(v.effectiveDegreesOfFreedom).toBeGreaterThan(99);
  });

  it("finds no shared factor where there is none, and keeps the replicates' degrees of freedom", () => {
    const v = runToRunVariance(runsOf(0, 0.05, 20));
    expect(v.releaseLogSd).toBeLessThan(0.01);
    expect(v.effectiveDegreesOfFreedom).toBeGreaterThan(0.8 * v.degreesOfFreedom);
  });
});
