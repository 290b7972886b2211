import fc from "fast-check";
import MultivariateLinearRegression from "ml-regression-multivariate-linear";
import { describe, expect, it } from "vitest";
import { fitDesignCells, fitLeastSquares, groupByDesignRow, scaledDesign, termValue, toFitColumns, type FitSample } from "../../pipeline/fit/least-squares";
import { FULL_TERMS, PAPER_TERMS, termsOf, type ModelForm } from "../../pipeline/fit/model";
import { InputError } from "../../pipeline/shared/errors";
import { studentTQuantile } from "../../pipeline/stats/student-t";
import { expectClose } from "../helpers";
import { reference, referenceSamples } from "./reference";

function polynomial(form: ModelForm, coefficients: number[]): (m: number, v: number) => number {
  const terms = termsOf(form);
  return (m, v) => terms.reduce((sum, term, j) => sum + coefficients[j]! * m ** term.mPower * v ** term.vPower, 0);
}

/** Series at m = 1..mMax for each size, bw exactly on the polynomial. */
function noiseFree(form: ModelForm, coefficients: number[], sizesMb: number[], mMax: number): FitSample[] {
  const bw = polynomial(form, coefficients);
  return sizesMb.flatMap((size) =>
    Array.from({ length: mMax }, (_, i) => {
      const m = i + 1;
      const vGb = (m * size) / 1000;
      return { m, vGb, bwMbPerS: bw(m, vGb) };
    }),
  );
}

describe("least squares against numpy.linalg.lstsq", () => {
  for (const expected of reference.fits) {
    it(`${expected.dataSet}, ${expected.form} form`, () => {
      const fit = fitLeastSquares(referenceSamples(expected.dataSet), expected.form);
      expect(fit.sampleCount).toBe(expected.n);
      expect(fit.degreesOfFreedom).toBe(expected.degreesOfFreedom);
      fit.terms.forEach((term, j) => {
        // Coefficients and SEs: numpy lstsq (SVD) and σ̂²·V·diag(1/s²)·Vᵀ (reference.py).
        expectClose(fit.coefficients[j]!, expected.coefficients[term.name]!, 1e-9);
        expectClose(fit.standardErrors[j]!, expected.standardErrors[term.name]!, 1e-9);
      });
      expectClose(fit.residualStandardError, expected.residualStandardError, 1e-9);
      expectClose(fit.residualSumOfSquares, expected.residualStandardError ** 2 * expected.degreesOfFreedom, 1e-9);
      // κ of the unit-norm-column design: numpy.linalg.cond (2-norm, SVD).
      expectClose(fit.conditionNumber, expected.scaledConditionNumber, 1e-8);
      // t quantile: mpmath at 50 digits.
      expectClose(studentTQuantile(0.975, fit.degreesOfFreedom), expected.tQuantile975, 1e-12);
    });
  }

  it("needs the scaling: the raw large-V design is far beyond what the normal equations survive", () => {
    const large = reference.fits.find((f) => f.dataSet === "large-v-means.csv" && f.form === "full")!;
    // numpy.linalg.cond of the raw design (reference.py): κ² ≈ 3e16 > 1/ε.
    expect(large.rawConditionNumber).toBeGreaterThan(1e8);
    expect(large.scaledConditionNumber).toBeLessThan(1e3);
  });
});

describe("exact recovery on noise-free data", () => {
  const cases: { name: string; form: ModelForm; coefficients: number[]; sizesMb: number[]; mMax: number }[] = [
    { name: "published coefficients, Table 4.1 sizes", form: "paper", coefficients: [-0.0155, -0.169435, 0.0004, 5.027318, 3.753154], sizesMb: [15, 46, 76, 114, 271, 414, 684], mMax: 18 },
    { name: "paper form, V up to 480 GB", form: "paper", coefficients: [-2e-6, -0.17, 3e-4, 5.1, 3.9], sizesMb: [2000, 5000, 9000, 16000], mMax: 30 },
    { name: "full form, Table 4.1 sizes", form: "full", coefficients: [3.7, 0.5, -0.2, 5.0, -0.3, 0.02, -0.17, 0.01, -0.0155], sizesMb: [15, 46, 76, 114, 271, 414, 684], mMax: 18 },
    { name: "full form, V up to 480 GB", form: "full", coefficients: [2.5, 0.04, -0.0002, 3.1, -0.003, 1.5e-6, -0.09, 2e-5, -4e-8], sizesMb: [2000, 3500, 5000, 8000, 11000, 16000], mMax: 30 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const fit = fitLeastSquares(noiseFree(c.form, c.coefficients, c.sizesMb, c.mMax), c.form);
      c.coefficients.forEach((value, j) => expectClose(fit.coefficients[j]!, value, 1e-9, 1e-12));
      expect(fit.residualStandardError).toBeLessThan(1e-9);
    });
  }
});

describe("row compression (replicate runs fitted as weighted cells)", () => {
  it("equals ml-regression-multivariate-linear on every row, uncompressed", () => {
    const samples = referenceSamples("replicated-runs.csv");
    for (const form of ["paper", "full"] as const) {
      const terms = termsOf(form);
      const direct = new MultivariateLinearRegression(
        samples.map((s) => terms.map((t) => termValue(t, s.m, s.vGb))),
        samples.map((s) => [s.bwMbPerS]),
        { intercept: false },
      );
      const fit = fitLeastSquares(samples, form);
      expect(fit.distinctPointCount).toBe(36);
      // The direct solve is on the raw design (κ ≈ 2e4 for the full form, κ² ≈ 5e8): a few
      // digits less than ours, hence 1e-7.
      terms.forEach((_, j) => {
        expectClose(fit.coefficients[j]!, direct.weights[j]![0]!, 1e-7);
        expectClose(fit.standardErrors[j]!, direct.stdErrors[j]!, 1e-7);
      });
      expectClose(fit.residualStandardError, direct.stdError, 1e-9);
    }
  });

  it("keeps the within-cell error when the cell means lie exactly on the model", () => {
    // Runs at ± 1 around the published model: the means are noise-free, the runs are not;
    // σ̂² = Σ 1 / (N − p) exactly.
    const cells = noiseFree("paper", [-0.0155, -0.169435, 0.0004, 5.027318, 3.753154], [46, 271, 684], 8);
    const samples = cells.flatMap((s) => [-1, 1].map((delta) => ({ ...s, bwMbPerS: s.bwMbPerS + delta })));
    const fit = fitLeastSquares(samples, "paper");
    expectClose(fit.residualStandardError, Math.sqrt(samples.length / (samples.length - 5)), 1e-9);
    expect(fit.standardErrors.every((se) => se > 0)).toBe(true);
  });
});

describe("invariances (fast-check)", () => {
  const base = referenceSamples("azur-like-means.csv");

  it("permuting the points does not change the fit", () => {
    const expected = fitLeastSquares(base, "paper");
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: base.length, maxLength: base.length }), (keys) => {
        const permuted = base.map((s, i) => ({ s, key: keys[i]! * base.length + i })).sort((a, b) => a.key - b.key).map(({ s }) => s);
        const fit = fitLeastSquares(permuted, "paper");
        fit.coefficients.forEach((c, j) => expectClose(c, expected.coefficients[j]!, 1e-10, 1e-14));
        fit.standardErrors.forEach((se, j) => expectClose(se, expected.standardErrors[j]!, 1e-10));
      }),
      { numRuns: 25, seed: 1 },
    );
  });

  it("is equivariant under scaling bw and the unit of V", () => {
    const expected = { paper: fitLeastSquares(base, "paper"), full: fitLeastSquares(base, "full") };
    fc.assert(
      fc.property(
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        fc.constantFrom<ModelForm>("paper", "full"),
        (bwScale, vScale, form) => {
          const fit = fitLeastSquares(base.map((s) => ({ m: s.m, vGb: s.vGb * vScale, bwMbPerS: s.bwMbPerS * bwScale })), form);
          // bw → α·bw scales every coefficient by α; V → γ·V scales the coefficient of
          // m^i V^j by γ^-j. The column scaling makes the fit see the same problem.
          fit.terms.forEach((term, j) => {
            const factor = bwScale / vScale ** term.vPower;
            expectClose(fit.coefficients[j]!, expected[form].coefficients[j]! * factor, 1e-9);
            expectClose(fit.standardErrors[j]!, expected[form].standardErrors[j]! * factor, 1e-9);
          });
          expectClose(fit.conditionNumber, expected[form].conditionNumber, 1e-9);
        },
      ),
      { numRuns: 40, seed: 2 },
    );
  });
});

it("names the terms of both forms in the published order", () => {
  expect(PAPER_TERMS.map((t) => t.name)).toEqual(["a", "b", "c", "d", "e"]);
  expect(FULL_TERMS).toHaveLength(9);
});

describe("the cells and the design behind the fit", () => {
  it("groups samples by their exact (m, V), with each cell's mean and sum of squared deviations", () => {
    // Cell (2, 0.5): 10, 12, 17 → mean 13, Σ(y − 13)² = 9 + 1 + 16 = 26; cell (3, 0.5): 20 alone; cell (2, 1): 4, 6 → 5, 2.
    const samples = [
      { m: 2, vGb: 0.5, bwMbPerS: 10 },
      { m: 3, vGb: 0.5, bwMbPerS: 20 },
      { m: 2, vGb: 0.5, bwMbPerS: 12 },
      { m: 2, vGb: 1, bwMbPerS: 4 },
      { m: 2, vGb: 0.5, bwMbPerS: 17 },
      { m: 2, vGb: 1, bwMbPerS: 6 },
    ];
    const cellOf = new Int32Array(samples.length);
    const cells = groupByDesignRow(toFitColumns(samples), cellOf);
    expect(cells).toEqual([
      { m: 2, vGb: 0.5, count: 3, meanBwMbPerS: 13, sumSquaredDeviations: 26 },
      { m: 3, vGb: 0.5, count: 1, meanBwMbPerS: 20, sumSquaredDeviations: 0 },
      { m: 2, vGb: 1, count: 2, meanBwMbPerS: 5, sumSquaredDeviations: 2 },
    ]);
    expect([...cellOf]).toEqual([0, 1, 0, 2, 0, 2]);
  });

  it("takes samples as rows or as columns (columns are used as they are)", () => {
    const columns = { m: Float64Array.of(1, 2), vGb: Float64Array.of(0.1, 0.2), bwMbPerS: Float64Array.of(5, 9) };
    expect(toFitColumns(columns)).toBe(columns);
    expect(toFitColumns([{ m: 1, vGb: 0.1, bwMbPerS: 5 }, { m: 2, vGb: 0.2, bwMbPerS: 9 }])).toEqual(columns);
  });

  it("refuses a sample that is not a finite number, naming it (1-based)", () => {
    const bad = [{ m: 1, vGb: 0.1, bwMbPerS: 5 }, { m: 2, vGb: Number.NaN, bwMbPerS: 9 }];
    expect(() => groupByDesignRow(toFitColumns(bad))).toThrow(InputError);
    expect(() => groupByDesignRow(toFitColumns(bad))).toThrow("fit sample 2: m, V and bw must be finite numbers, found m=2, V=NaN GB, bw=9 MB/s");
    expect(() => groupByDesignRow(toFitColumns([{ m: Infinity, vGb: 1, bwMbPerS: 1 }]))).toThrow(/fit sample 1: .* found m=Infinity/);
    expect(() => groupByDesignRow(toFitColumns([{ m: 1, vGb: 1, bwMbPerS: -Infinity }]))).toThrow(/bw=-Infinity MB\/s/);
  });

  it("scales each column of the √(count·weight)-weighted design to unit norm", () => {
    // Paper form at (m, V) = (1, 1) × 4 runs and (2, 0.5) × 1 run of weight 9: rows 2·(1, 1, 1, 1, 1) and
    // 3·(1, 4, 0.25, 2, 1). Column norms: m²V² √(4 + 9) = √13, m² √(4 + 144) = √148, V² √(4 + 0.5625),
    // m √(4 + 36) = √40, 1 √13.
    const cells = [
      { m: 1, vGb: 1, count: 4, meanBwMbPerS: 1, sumSquaredDeviations: 0 },
      { m: 2, vGb: 0.5, count: 1, meanBwMbPerS: 1, sumSquaredDeviations: 0, weight: 9 },
    ];
    const design = scaledDesign(cells, PAPER_TERMS);
    expect(design.rows).toBe(2);
    expect(design.columns).toBe(5);
    const norms = [Math.sqrt(13), Math.sqrt(148), Math.sqrt(4.5625), Math.sqrt(40), Math.sqrt(13)];
    design.columnNorms.forEach((d, j) => expectClose(d, norms[j]!, 1e-15));
    const raw = [[2, 2, 2, 2, 2], [3, 12, 0.75, 6, 3]];
    raw.forEach((row, c) => row.forEach((value, j) => expectClose(design.matrix[c * 5 + j]!, value / norms[j]!, 1e-15)));
    // A column that is 0 on every row (V = 0 throughout) stays 0 rather than 0/0.
    const flat = scaledDesign([{ m: 1, vGb: 0, count: 1, meanBwMbPerS: 1, sumSquaredDeviations: 0 }], PAPER_TERMS);
    expect([...flat.matrix]).toEqual([0, 1, 0, 1, 1]);
    expect(flat.columnNorms).toEqual([0, 1, 0, 1, 1]);
  });

  it("fits weighted cells as the runs repeated by their weight: the same coefficients and residual sum of squares", () => {
    // Integer weights w: Σ w·(y − ŷ)² is the unweighted sum over each run taken w times, so XᵀWX and XᵀWy are those
    // of the repeated runs. The degrees of freedom are the runs' (N − p), not the repetitions', so
    // SE_weighted = SE_repeated · √((N_repeated − p) / (N − p)).
    const runs = referenceSamples("replicated-runs.csv");
    const cells = groupByDesignRow(toFitColumns(runs)).map((cell, c) => ({ ...cell, weight: 1 + (c % 3) }));
    const repeated = runs.flatMap((run) => {
      const c = cells.findIndex((cell) => cell.m === run.m && cell.vGb === run.vGb);
      return Array.from({ length: 1 + (c % 3) }, () => run);
    });
    for (const form of ["paper", "full"] as const) {
      const weighted = fitDesignCells(cells, form);
      const direct = fitLeastSquares(repeated, form);
      expect(weighted.sampleCount).toBe(runs.length);
      expect(weighted.degreesOfFreedom).toBe(runs.length - termsOf(form).length);
      weighted.coefficients.forEach((value, j) => expectClose(value, direct.coefficients[j]!, 1e-9, 1e-12));
      expectClose(weighted.residualSumOfSquares, direct.residualSumOfSquares, 1e-9);
      const ratio = Math.sqrt(direct.degreesOfFreedom / weighted.degreesOfFreedom);
      weighted.standardErrors.forEach((se, j) => expectClose(se, direct.standardErrors[j]! * ratio, 1e-9));
      expectClose(weighted.residualStandardError, Math.sqrt(weighted.residualSumOfSquares / weighted.degreesOfFreedom), 1e-14);
      weighted.covariance.forEach((row, j) => row.forEach((value, k) => expectClose(value, direct.covariance[j]![k]! * ratio * ratio, 1e-8, 1e-12 * Math.abs(direct.covariance[j]![j]!))));
    }
  });
});
