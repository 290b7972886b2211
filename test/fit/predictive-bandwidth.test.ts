/**
 * The predictive distribution of one new burst (pipeline/fit/predictive-bandwidth.ts):
 * its formula against hand computations, its refusals, the model file's round trip, and
 * its coverage on held-out runs of generated clusters (predictive-generators.ts: three
 * shapes, run-level multiplicative noise, new seeds for the held-out runs).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel } from "../../pipeline/fit/fit-bandwidth-model";
import { loadModel } from "../../pipeline/fit/load-model";
import { bandwidthEvaluator, inModelDomain, PAPER_MODEL, type BandwidthModel } from "../../pipeline/fit/model";
import { bandwidthQuantile, hasPredictive, predictionInterval } from "../../pipeline/fit/predictive-bandwidth";
import { InputError } from "../../pipeline/shared/errors";
import { expectClose } from "../helpers";
import { GENERATED_SHAPES, generatedObservations, generatedRuns, type GeneratedShape } from "./predictive-generators";

const folder = mkdtempSync(join(tmpdir(), "ckpt-predictive-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A paper-form model with a stated predictive part. */
function modelWith(runToRunLogSd: number, covariance: number[][], degreesOfFreedom = 1e6): BandwidthModel {
  return {
    ...PAPER_MODEL,
    name: "stated",
    predictive: {
      method: "delta-lognormal",
      runToRunLogSd,
      degreesOfFreedom,
      replicatedCellCount: 10,
      replicateRunCount: 40,
      spreadSlope: 1,
      lackOfFitLogSd: 0,
      parameters: ["a", "b", "c", "d", "e"],
      covariance,
    },
  };
}

const zero = Array.from({ length: 5 }, () => [0, 0, 0, 0, 0]);

describe("predictive distribution of one burst", () => {
  it("is the log-normal of the run-to-run variance around the mean when the parameters are known", () => {
    const model = modelWith(0.07, zero);
    const mean = bandwidthEvaluator(PAPER_MODEL)(9, 2.042);
    // z_{0.975} = 1.959963984540054 (standard normal table; t with 10^6 d.f. differs by < 1e-5).
    const z = 1.959963984540054;
    const interval = predictionInterval(model, 9, 2.042, 0.95);
    expect(interval.level).toBe(0.95);
    expectClose(interval.mean, mean, 1e-14);
    expectClose(interval.upper, mean * Math.exp(-0.5 * 0.07 ** 2 + z * 0.07), 1e-6);
    expectClose(interval.lower, mean * Math.exp(-0.5 * 0.07 ** 2 - z * 0.07), 1e-6);
    expectClose(bandwidthQuantile(model, 9, 2.042, 0.025), interval.lower, 1e-12);
    expectClose(bandwidthQuantile(model, 9, 2.042, 0.5), mean * Math.exp(-0.5 * 0.07 ** 2), 1e-12);
  });

  it("adds the parameters' variance by the delta method (linear form: g is the terms)", () => {
    // Variance of e alone (the constant term): Var(bŵ) = Var(e), so s² = σ² + Var(e)/bŵ².
    const covariance = zero.map((row) => [...row]);
    covariance[4]![4] = 4;
    const model = modelWith(0.05, covariance);
    const mean = bandwidthEvaluator(PAPER_MODEL)(4, 1);
    const s = Math.sqrt(0.05 ** 2 + 4 / mean ** 2);
    expectClose(bandwidthQuantile(model, 4, 1, 0.975), mean * Math.exp(-0.5 * s * s + 1.959963984540054 * s), 1e-6);
    // And of d (the m term) at m = 4: Var(bŵ) = 16·Var(d).
    const dOnly = zero.map((row) => [...row]);
    dOnly[3]![3] = 0.25;
    const s2 = Math.sqrt(0.05 ** 2 + (16 * 0.25) / mean ** 2);
    expectClose(bandwidthQuantile(modelWith(0.05, dOnly), 4, 1, 0.975), mean * Math.exp(-0.5 * s2 * s2 + 1.959963984540054 * s2), 1e-6);
  });

  it("uses the replicates' degrees of freedom (Student t)", () => {
    // t_{0.975, 10} = 2.228138851986274 (scipy.stats.t.ppf(0.975, 10); tables give 2.228).
    const model = modelWith(0.1, zero, 10);
    const mean = bandwidthEvaluator(PAPER_MODEL)(4, 1);
    expectClose(bandwidthQuantile(model, 4, 1, 0.975), mean * Math.exp(-0.005 + 2.228138851986274 * 0.1), 1e-9);
  });

  it("refuses the published model, older files, a level outside (0, 1), and unusable points", () => {
    expect(hasPredictive(PAPER_MODEL)).toBe(false);
    expect(() => bandwidthQuantile(PAPER_MODEL, 4, 1, 0.05)).toThrow(InputError);
    expect(() => predictionInterval(PAPER_MODEL, 4, 1, 0.95)).toThrow(/no run-to-run variance.*published model.*ckpt fit <traces> --out model\.json/s);
    const older: BandwidthModel = { ...PAPER_MODEL, name: "old.json" };
    expect(() => predictionInterval(older, 4, 1, 0.95)).toThrow(/model "old\.json" has no run-to-run variance.*written before models carried it.*Refit/s);
    const model = modelWith(0.07, zero);
    for (const level of [0, 1, -0.5, 1.5, Number.NaN]) {
      expect(() => predictionInterval(model, 4, 1, level)).toThrow(/level must be a number strictly between 0 and 1, got/);
      expect(() => bandwidthQuantile(model, 4, 1, level)).toThrow(/quantile q must be a number strictly between 0 and 1/);
    }
    expect(() => predictionInterval(model, 70, 21, 0.95)).toThrow(/not a usable bandwidth/);
  });

  it("is written into the model file by ckpt fit and read back by loadModel; a broken one is refused", () => {
    const report = fitBandwidthModel(generatedObservations({ shape: "collapse", seed: 5 }), { ...DEFAULT_FIT_OPTIONS, form: "usl" });
    const model = report.model;
    expect(hasPredictive(model)).toBe(true);
    expect(model.predictive!.parameters).toEqual(report.coefficients.map((c) => c.name));
    // Run-level multiplicative noise of σ = 0.07: the replicates measure it, and their spread grows with the mean.
    expect(model.predictive!.runToRunLogSd).toBeGreaterThan(0.06);
    expect(model.predictive!.runToRunLogSd).toBeLessThan(0.08);
    expect(model.predictive!.spreadSlope!).toBeGreaterThan(0.7);
    const path = join(folder, "model.json");
    writeFileSync(path, JSON.stringify(model));
    const loaded = loadModel(path);
    expect(predictionInterval(loaded, 8, 2, 0.9)).toEqual(predictionInterval(model, 8, 2, 0.9));
    const broken = JSON.parse(readFileSync(path, "utf8"));
    broken.predictive.covariance = [[1]];
    writeFileSync(path, JSON.stringify(broken));
    expect(() => loadModel(path)).toThrow(/predictive\.covariance" must be a 4 × 4 matrix/);
  });

  it("has no predictive part without replicates", () => {
    const model = fitBandwidthModel(generatedObservations({ shape: "collapse", seed: 5, repetitions: 1 }), { ...DEFAULT_FIT_OPTIONS, form: "usl" }).model;
    expect(model.predictive).toBeNull();
    expect(hasPredictive(model)).toBe(false);
  });

  // Coverage of the 95 % interval on held-out runs: fitted on seeds 1–3 of each shape, checked
  // on runs drawn with seeds 1001–1003 at the same cells (inside the fitted domain). The
  // numbers are in pipeline/fit/README.md and docs/science.md §3.6.
  it.each(GENERATED_SHAPES.map((shape) => [shape]))("95-percent intervals cover 92 to 98 percent of held-out runs: %s", (shape: GeneratedShape) => {
    let inside = 0;
    let total = 0;
    for (const seed of [1, 2, 3]) {
      const model = fitBandwidthModel(generatedObservations({ shape, seed }), DEFAULT_FIT_OPTIONS).model;
      for (const run of generatedRuns({ shape, seed: 1000 + seed })) {
        if (!inModelDomain(model, run.m, run.vGb)) continue;
        const interval = predictionInterval(model, run.m, run.vGb, 0.95);
        total += 1;
        if (run.aggregatedBwMbPerS >= interval.lower && run.aggregatedBwMbPerS <= interval.upper) inside += 1;
      }
    }
    expect(total).toBeGreaterThan(500);
    const coverage = inside / total;
    console.log(`${shape}: ${total} held-out runs, 95 % interval covers ${(100 * coverage).toFixed(1)} %`);
    expect(coverage).toBeGreaterThanOrEqual(0.92);
    expect(coverage).toBeLessThanOrEqual(0.98);
  });
});
