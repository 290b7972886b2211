import { describe, expect, it } from "vitest";
import { assignFolds, crossValidate } from "../../pipeline/fit/cross-validation";
import { eGlobal } from "../../pipeline/fit/e-global";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel, type FitOptions } from "../../pipeline/fit/fit-bandwidth-model";
import { selectFitPoints } from "../../pipeline/fit/fit-points";
import { goodnessOfFit } from "../../pipeline/fit/goodness-of-fit";
import { fitLeastSquares } from "../../pipeline/fit/least-squares";
import { validateModel } from "../../pipeline/fit/load-model";
import { bandwidthEvaluator, PAPER_MODEL, predict } from "../../pipeline/fit/model";
import { studentTQuantile } from "../../pipeline/stats/student-t";
import { expectClose } from "../helpers";
import { syntheticObservations } from "./fixtures";

const observations = syntheticObservations({ seed: 11, repetitions: 4, withValidationRuns: true });
// The paper form unless a test says otherwise (the default, "auto", has its own tests: select-form.test.ts).
const options = (overrides: Partial<FitOptions> = {}): FitOptions => ({ ...DEFAULT_FIT_OPTIONS, form: "paper", ...overrides });

describe("fitBandwidthModel", () => {
  const report = fitBandwidthModel(observations, options(), [{ path: "obs.json", sha256: "abc" }]);

  it("fits the per-(m, v) means up to each series' peak by default", () => {
    const expectedPoints = observations.series.reduce((n, s) => n + s.points.filter((p) => p.m <= s.peak.m).length, 0);
    expect(report.metrics.pointCount).toBe(expectedPoints);
    expect(report.metrics.runCount).toBe(4 * expectedPoints);
    expect(report.residuals.runCount.every((count) => count === 4)).toBe(true);
    expect(report.residuals.runId).toBeNull();
    const direct = fitLeastSquares(selectFitPoints(observations), "paper");
    expect(Object.values(report.model.coefficients)).toEqual(direct.coefficients);
  });

  it("reports coefficients with SE, t and 95 % intervals from Student t with N − p d.f.", () => {
    const t = studentTQuantile(0.975, report.metrics.pointCount - 5);
    expect(report.metrics.tQuantile).toBe(t);
    expect(report.coefficients.map((c) => c.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(report.coefficients.map((c) => c.term)).toEqual(["m²·V²", "m²", "V²", "m", "1"]);
    for (const c of report.coefficients) {
      expectClose(c.ci95[0], c.estimate - t * c.standardError, 1e-14);
      expectClose(c.ci95[1], c.estimate + t * c.standardError, 1e-14);
      expectClose(c.tStatistic, c.estimate / c.standardError, 1e-14);
    }
    // Data drawn around the published model: d (≈ 5.03) must be well determined and inside its interval.
    const d = report.coefficients.find((c) => c.name === "d")!;
    expect(d.ci95[0]).toBeLessThan(5.027318);
    expect(d.ci95[1]).toBeGreaterThan(5.027318);
  });

  it("computes R², adjusted R², RMSE, MAE from the residuals", () => {
    const observed = [...report.residuals.observedMbPerS];
    const residuals = [...report.residuals.residualMbPerS];
    const n = observed.length;
    const mean = observed.reduce((s, y) => s + y, 0) / n;
    const sst = observed.reduce((s, y) => s + (y - mean) ** 2, 0);
    const sse = residuals.reduce((s, r) => s + r ** 2, 0);
    const bw = bandwidthEvaluator(report.model);
    residuals.forEach((r, i) => {
      const predicted = bw(report.residuals.m[i]!, report.residuals.vGb[i]!);
      expect(report.residuals.predictedMbPerS[i]).toBe(predicted);
      expect(r).toBe(observed[i]! - predicted);
    });
    expectClose(report.metrics.rSquared, 1 - sse / sst, 1e-12);
    expectClose(report.metrics.adjustedRSquared, 1 - ((sse / sst) * (n - 1)) / (n - 5), 1e-12);
    expectClose(report.metrics.rmseMbPerS, Math.sqrt(sse / n), 1e-12);
    expectClose(report.metrics.maeMbPerS, residuals.reduce((s, r) => s + Math.abs(r), 0) / n, 1e-12);
    expectClose(report.metrics.residualStandardErrorMbPerS, Math.sqrt(sse / (n - 5)), 1e-9);
  });

  it("computes E_global over the means up to the peaks, whatever points were fitted", () => {
    const bw = bandwidthEvaluator(report.model);
    let sum = 0;
    let count = 0;
    for (const s of observations.series) {
      for (const p of s.points.filter((q) => q.m <= s.peak.m)) {
        sum += (100 * Math.abs(p.meanBwMbPerS - bw(p.m, p.vGb))) / p.meanBwMbPerS;
        count += 1;
      }
    }
    expectClose(report.metrics.eGlobalPercent, sum / count, 1e-12);
    expect(report.metrics.eGlobalPointCount).toBe(count);
    const allPoints = fitBandwidthModel(observations, options({ allPoints: true, points: "runs" }));
    expect(allPoints.metrics.eGlobalPointCount).toBe(count);
  });

  it("cross-validates on seeded folds, reproducibly", () => {
    const cv = report.metrics.crossValidation!;
    expect(cv).toMatchObject({ folds: 5, seed: 1 });
    // Recomputed by hand: refit without each fold, predict it.
    const columns = selectFitPoints(observations);
    const points = Array.from(columns.m, (m, i) => ({ m, vGb: columns.vGb[i]!, bwMbPerS: columns.bwMbPerS[i]! }));
    const folds = assignFolds(points.length, 5, 1);
    let squared = 0;
    for (let f = 0; f < 5; f++) {
      const fit = fitLeastSquares(points.filter((_, i) => folds[i] !== f), "paper");
      const bw = bandwidthEvaluator({ form: "paper", coefficients: Object.fromEntries(fit.terms.map((t, j) => [t.name, fit.coefficients[j]!])), bandwidthCapMbPerS: null });
      points.forEach((p, i) => {
        if (folds[i] === f) squared += (p.bwMbPerS - bw(p.m, p.vGb)) ** 2;
      });
    }
    expectClose(cv.rmseMbPerS!, Math.sqrt(squared / points.length), 1e-12);
    expect(crossValidate(columns, "paper", 5, 1)).toEqual(cv);
    expect(crossValidate(points, "paper", 5, 1)).toEqual(cv);
    expect(crossValidate(points, "paper", 5, 2).rmseMbPerS).not.toBe(cv.rmseMbPerS);
    const sizes = [0, 1, 2, 3, 4].map((f) => folds.filter((x) => x === f).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it("skips CV with --folds 0 and reports when a fold cannot be fitted", () => {
    expect(fitBandwidthModel(observations, options({ folds: 0 })).metrics.crossValidation).toBeNull();
    // 2 sizes × 3 m = 6 points, just identifiable; no training set of 3 folds is.
    const tiny = syntheticObservations({ sizesMb: [46, 684], mMax: 3, repetitions: 1, noiseMbPerS: 0.5 });
    const tinyReport = fitBandwidthModel(tiny, options({ folds: 3, allPoints: true }));
    expect(tinyReport.metrics.crossValidation!.rmseMbPerS).toBeNull();
    expect(tinyReport.metrics.crossValidation!.reason).toMatch(/^fold \d of 3: the other folds' points cannot identify the form: /);
  });

  it("fits every run with --points runs: same coefficients as the means when replication is even", () => {
    const runs = fitBandwidthModel(observations, options({ points: "runs" }));
    expect(runs.metrics.pointCount).toBe(report.metrics.runCount);
    expect(runs.metrics.degreesOfFreedom).toBe(report.metrics.runCount - 5);
    expect(runs.residuals.runId![0]).toBe(observations.runs[0]!.runId);
    // Equal counts per cell: OLS on runs and OLS on means share the normal equations.
    for (const name of ["a", "b", "c", "d", "e"]) expectClose(runs.model.coefficients[name]!, report.model.coefficients[name]!, 1e-9);
    // … but not the error estimate, which now includes the run-to-run spread.
    expect(runs.metrics.residualStandardErrorMbPerS).not.toBeCloseTo(report.metrics.residualStandardErrorMbPerS, 3);
  });

  it("uses the points after the peaks with --all-points", () => {
    const all = fitBandwidthModel(observations, options({ allPoints: true }));
    expect(all.metrics.pointCount).toBe(observations.series.reduce((n, s) => n + s.points.length, 0));
    expect(all.model.domain.mMax).toBe(16);
    expect(report.model.domain.mMax).toBe(Math.max(...observations.series.map((s) => s.peak.m)));
  });

  it("compares every series' measured peak with the predicted one", () => {
    expect(report.seriesPeaks.map((s) => s.sizeMb)).toEqual([15, 46, 76, 114, 271, 414, 684]);
    const bw = bandwidthEvaluator(report.model);
    for (const [i, s] of report.seriesPeaks.entries()) {
      const series = observations.series[i]!;
      expect(s.measured).toEqual(series.peak);
      const values = series.points.map((p) => bw(p.m, p.vGb));
      expect(s.predicted.bwMbPerS).toBe(Math.max(...values));
      expect(s.predicted.m).toBe(series.points[values.indexOf(Math.max(...values))]!.m);
    }
  });

  it("checks the model on the mixed-size validation runs", () => {
    expect(report.validation.runCount).toBe(observations.validationRuns.length);
    expect(report.validation.runCount).toBeGreaterThan(0);
    const bw = bandwidthEvaluator(report.model);
    for (const r of report.validation.runs) {
      expect(r.predictedMbPerS).toBe(bw(r.m, r.vGb));
      expect(r.residualMbPerS).toBe(r.observedMbPerS - r.predictedMbPerS);
      expect(r.inDomain).toBe(predict(report.model, r.m, r.vGb).inDomain);
    }
    expectClose(report.validation.rmseMbPerS!, Math.sqrt(report.validation.runs.reduce((s, r) => s + r.residualMbPerS ** 2, 0) / report.validation.runCount), 1e-12);
  });

  it("produces a valid, deterministic model artifact", () => {
    const model = validateModel(JSON.parse(JSON.stringify(report.model)), "fit");
    expect(model.units).toEqual({ m: "count", V: "GB (MB / 1000)", bw: "MB/s" });
    const points = selectFitPoints(observations);
    expect(model.domain).toEqual({
      mMin: Math.min(...points.m),
      mMax: Math.max(...points.m),
      vGbMin: Math.min(...points.vGb),
      vGbMax: Math.max(...points.vGb),
    });
    expect(model.provenance).toMatchObject({ inputs: [{ path: "obs.json", sha256: "abc" }], options: options(), tool: "ckpt fit" });
    expect(JSON.stringify(model)).not.toMatch(/20\d\d-\d\d-\d\d/);
    const again = fitBandwidthModel(observations, options(), [{ path: "obs.json", sha256: "abc" }]);
    expect(JSON.stringify(again.model)).toBe(JSON.stringify(report.model));
    expect(predict(model, 30, 20).inDomain).toBe(false);
  });

  it("fits the full form with the a00..a22 names", () => {
    const full = fitBandwidthModel(observations, options({ form: "full" }));
    expect(Object.keys(full.model.coefficients)).toEqual(["a00", "a01", "a02", "a10", "a11", "a12", "a20", "a21", "a22"]);
    expect(full.coefficients).toHaveLength(9);
    expect(full.covariance).toHaveLength(9);
  });

  it("recovers the published model from noise-free observations (E_global = 0)", () => {
    const exact = fitBandwidthModel(syntheticObservations({ noiseMbPerS: 0, repetitions: 1 }), options());
    for (const [name, value] of Object.entries(PAPER_MODEL.coefficients)) expectClose(exact.model.coefficients[name]!, value, 1e-9);
    expect(exact.metrics.eGlobalPercent).toBeLessThan(1e-9);
    expect(eGlobal(syntheticObservations({ noiseMbPerS: 0, repetitions: 1 }), PAPER_MODEL).percent).toBeLessThan(1e-12);
  });

  it("refuses impossible options", () => {
    expect(() => fitBandwidthModel(observations, options({ folds: 1 }))).toThrow(/folds must be 0 .* or an integer ≥ 2/);
    expect(() => fitBandwidthModel(observations, options({ form: "cubic" as never }))).toThrow(/form must be "auto" or one of paper, full, usl, link-capacity/);
  });
});

describe("goodnessOfFit", () => {
  it("matches a hand computation", () => {
    // y = 1, 2, 3, 4; ŷ = 1.5, 1.5, 3.5, 3.5: SSE = 1, SST = 5, R² = 0.8,
    // adj (p = 2) = 1 − 0.2·3/2 = 0.7, RMSE = √(1/4) = 0.5, MAE = 0.5.
    const g = goodnessOfFit([1, 2, 3, 4], [1.5, 1.5, 3.5, 3.5], 2);
    expectClose(g.rSquared, 0.8, 1e-15);
    expectClose(g.adjustedRSquared, 0.7, 1e-15);
    expectClose(g.rmseMbPerS, 0.5, 1e-15);
    expectClose(g.maeMbPerS, 0.5, 1e-15);
  });

  it("matches a second hand computation, with residuals of both signs and p = 3", () => {
    // y = 2, 4, 9, 1, 4 (mean 4); ŷ = 3, 4, 7, 2, 4: residuals −1, 0, 2, −1, 0, SSE = 6, SST = 4 + 0 + 25 + 9 + 0 = 38,
    // R² = 1 − 6/38 = 16/19, adjusted (p = 3) 1 − (3/19)·4/2 = 13/19, RMSE = √(6/5), MAE = 4/5.
    const g = goodnessOfFit(Float64Array.of(2, 4, 9, 1, 4), [3, 4, 7, 2, 4], 3);
    expectClose(g.rSquared, 16 / 19, 1e-15);
    expectClose(g.adjustedRSquared, 13 / 19, 1e-15);
    expectClose(g.rmseMbPerS, Math.sqrt(6 / 5), 1e-15);
    expectClose(g.maeMbPerS, 0.8, 1e-15);
  });

  it("refuses predictions that do not match the observations one to one", () => {
    expect(() => goodnessOfFit([1, 2], [1], 1)).toThrow("goodnessOfFit: need as many predictions as observations (> 0), got 2 and 1");
    expect(() => goodnessOfFit([1], [1, 2], 1)).toThrow(RangeError);
    expect(() => goodnessOfFit([], [], 1)).toThrow("goodnessOfFit: need as many predictions as observations (> 0), got 0 and 0");
  });
});
