import fc from "fast-check";
import MultivariateLinearRegression from "ml-regression-multivariate-linear";
import { describe, expect, it } from "vitest";
import { fitLeastSquares, termValue, type FitSample } from "../../pipeline/fit/least-squares";
import { FULL_TERMS, PAPER_TERMS, termsOf, type ModelForm } from "../../pipeline/fit/model";
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
