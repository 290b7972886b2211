/**
 * One fit of any form (pipeline/fit/fit-form.ts): which solver each form goes to and what the
 * fit reports from it — the estimates by name, their standard errors √diag(Cov), σ̂ = √(RSS/(N − q)),
 * the method — on data whose answer is known (noise-free polynomials, a committed USL data set).
 */
import { describe, expect, it } from "vitest";
import { fitForm, fitFormCells } from "../../pipeline/fit/fit-form";
import { fitNonlinearCells } from "../../pipeline/fit/fit-nonlinear";
import { groupByDesignRow, fitLeastSquares, toFitColumns } from "../../pipeline/fit/least-squares";
import { formOf } from "../../pipeline/fit/model";
import { expectClose } from "../helpers";
import { referenceSamples } from "./reference";

// bw = a·m²V² + b·m² + c·V² + d·m + e with the published coefficients ([Y11] Table 4.1), noise-free, at
// 3 sizes × m = 1..6, plus ±0.5 MB/s around each mean: the cell means lie on the model.
const PUBLISHED = { a: -0.0155, b: -0.169435, c: 0.0004, d: 5.027318, e: 3.753154 };
const onModel = (m: number, vGb: number) => PUBLISHED.a * m * m * vGb * vGb + PUBLISHED.b * m * m + PUBLISHED.c * vGb * vGb + PUBLISHED.d * m + PUBLISHED.e;
const runs = [46, 271, 684].flatMap((sizeMb) =>
  [1, 2, 3, 4, 5, 6].flatMap((m) => [-0.5, 0.5].map((delta) => ({ m, vGb: (m * sizeMb) / 1000, bwMbPerS: onModel(m, (m * sizeMb) / 1000) + delta }))),
);

describe("fitForm", () => {
  it("fits a polynomial form by ordinary least squares, every coefficient by name", () => {
    const fit = fitForm(runs, "paper");
    // The means are on the model: the coefficients are the published ones; RSS = 36 runs · 0.5² = 9.
    for (const [name, value] of Object.entries(PUBLISHED)) expectClose(fit.values[name]!, value, 1e-9, 1e-12);
    expect(fit.estimates).toEqual(["a", "b", "c", "d", "e"].map((name) => fit.values[name]));
    expect(fit.fitted).toBe(formOf("paper").parameters);
    expectClose(fit.residualSumOfSquares, 9, 1e-9);
    // On cells, unweighted unless asked otherwise.
    expect(fitFormCells(groupByDesignRow(toFitColumns(runs)), "paper").residualSumOfSquares).toBe(fit.residualSumOfSquares);
    expect(fit.sampleCount).toBe(36);
    expect(fit.distinctPointCount).toBe(18);
    expect(fit.degreesOfFreedom).toBe(31);
    expectClose(fit.residualStandardError, Math.sqrt(9 / 31), 1e-9);
    // What least-squares.ts computes, passed on unchanged.
    const direct = fitLeastSquares(runs, "paper");
    expect(fit.covariance).toEqual(direct.covariance);
    expect(fit.standardErrors).toEqual(direct.standardErrors);
    expect(fit.conditionNumber).toBe(direct.conditionNumber);
    expect(fit).toMatchObject({ form: "paper", atBound: [], converged: true });
    expect(fit.stopReason).toBeUndefined();
    expect(fit.oneSize).toBeUndefined();
    expect(fit.method).toMatch(/^ordinary least squares .*docs\/science\.md §3\.2$/);
  });

  it("weighs each run by 1/(its cell's mean)² when asked for the relative fit: on exact means, the same coefficients", () => {
    const fit = fitForm(runs, "paper", "relative");
    for (const [name, value] of Object.entries(PUBLISHED)) expectClose(fit.values[name]!, value, 1e-9, 1e-12);
    // RSS = Σ 0.5²/mean² over the runs, each cell's mean the model's value there.
    const cells = groupByDesignRow(toFitColumns(runs));
    const relative = cells.reduce((sum, cell) => sum + (cell.count * 0.25) / cell.meanBwMbPerS ** 2, 0);
    expectClose(fit.residualSumOfSquares, relative, 1e-9);
    expect(fitFormCells(cells, "paper", "relative").residualSumOfSquares).toBe(fit.residualSumOfSquares);
  });

  it("fits a nonlinear form by Levenberg–Marquardt, and reports its fitted parameters apart from the fixed ones", () => {
    const samples = referenceSamples("usl-runs.csv");
    const fit = fitForm(samples, "usl");
    const direct = fitNonlinearCells(groupByDesignRow(toFitColumns(samples)), formOf("usl"));
    expect(fit.fitted.map((p) => p.name)).toEqual(["lambda", "sigma", "kappa", "gamma"]);
    expect(fit.estimates).toEqual([...direct.parameters.slice(0, 4)]);
    expect(Object.keys(fit.values)).toEqual(["lambda", "sigma", "kappa", "gamma", "vRefGb", "vMaxGb"]);
    expect(fit.values.vRefGb).toBe(direct.parameters[4]);
    expect(fit.values.vMaxGb).toBe(direct.parameters[5]);
    expect(fit.standardErrors).toEqual(direct.covariance.map((row, j) => Math.sqrt(row[j]!)));
    expect(fit.residualStandardError).toBe(Math.sqrt(direct.residualSumOfSquares / direct.degreesOfFreedom));
    expect(fit).toMatchObject({
      form: "usl",
      covariance: direct.covariance,
      sampleCount: samples.length,
      distinctPointCount: direct.distinctPointCount,
      degreesOfFreedom: samples.length - 4,
      residualSumOfSquares: direct.residualSumOfSquares,
      conditionNumber: direct.conditionNumber,
      atBound: direct.atBound,
      converged: true,
      stopReason: direct.stopReason,
    });
    expect(fit.method).toMatch(/^nonlinear least squares, Levenberg–Marquardt .*docs\/science\.md §3\.5$/);
  });

  it("fits one size per writer on the m-dependence alone, and says so", () => {
    // V = m·0.5 GB throughout: the paper form's V² is m²/4, held at 0 (one-size-fit.ts); the rest is exact.
    const points = [1, 2, 3, 4, 6, 8].map((m) => ({ m, vGb: m * 0.5, bwMbPerS: -0.02 * m ** 4 * 0.25 - 0.5 * m * m + 40 * m + 10 }));
    const fit = fitForm(points, "paper");
    expect(fit.oneSize).toEqual({ writerGb: 0.5, held: ["c"] });
    expect(fit.values.c).toBe(0);
    expect(fit.fitted.map((p) => p.name)).toEqual(["a", "b", "d", "e"]);
    expectClose(fit.values.a!, -0.02, 1e-9);
    expectClose(fit.values.d!, 40, 1e-9);
    expect(fit.method).toMatch(/on one size per writer \(V\/m = 0\.5 GB\) with c held at 0/);
  });

  it("fits the empirical form as its cells' means", () => {
    const fit = fitForm(runs, "empirical");
    expect(fit.form).toBe("empirical");
    expect(fit.values.cellCount).toBe(18);
    // Each cell's two runs are its mean ± 0.5: the estimate is the mean, on the model.
    const cells = groupByDesignRow(toFitColumns(runs));
    expect(fit.estimates.slice().sort((x, y) => x - y)).toEqual(cells.map((c) => c.meanBwMbPerS).sort((x, y) => x - y));
  });
});
