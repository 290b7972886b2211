/**
 * The project's nonlinear forms (docs/science.md §3.5) and the Levenberg–Marquardt fit
 * behind them: against scipy.optimize.curve_fit on the same runs
 * (test/fit/reference/nonlinear.py → nonlinear-values.json), the forms' gradients against
 * central differences, their exact suprema against dense sampling, and the refusals.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitForm } from "../../pipeline/fit/fit-form";
import { formOf, type ModelForm } from "../../pipeline/fit/model";
import { levenbergMarquardt } from "../../pipeline/fit/levenberg-marquardt";
import { InputError } from "../../pipeline/shared/errors";
import { expectClose } from "../helpers";
import { referenceSamples } from "./reference";

interface NonlinearReference {
  command: string;
  fits: {
    dataSet: string;
    form: ModelForm;
    n: number;
    parameters: Record<string, number>;
    fixed: Record<string, number>;
    standardErrors: Record<string, number>;
    residualSumOfSquares: number;
  }[];
}

const reference = JSON.parse(readFileSync(join(__dirname, "reference", "nonlinear-values.json"), "utf8")) as NonlinearReference;
const NONLINEAR: ModelForm[] = ["usl", "link-capacity"];

describe("the nonlinear forms against scipy.optimize.curve_fit", () => {
  for (const expected of reference.fits) {
    it(`${expected.form} on ${expected.dataSet}`, () => {
      const samples = referenceSamples(expected.dataSet);
      expect(samples).toHaveLength(expected.n);
      const fit = fitForm(samples, expected.form);
      // The same minimum: our RSS is scipy's to 1e-9, and never above it by more.
      expectClose(fit.residualSumOfSquares, expected.residualSumOfSquares, 1e-9);
      for (const [name, value] of Object.entries(expected.fixed)) expect(fit.values[name]).toBe(value);
      fit.fitted.forEach((parameter, j) => {
        // Estimates to 1e-6 (both solvers stop at 1e-15 relative changes; a parameter on its
        // bound, σ = 0 here, is compared absolutely); standard errors to 1e-4 (scipy's Jacobian
        // is a 3-point finite difference, ours exact).
        expectClose(fit.estimates[j]!, expected.parameters[parameter.name]!, 1e-6, 1e-12);
        expectClose(fit.standardErrors[j]!, expected.standardErrors[parameter.name]!, 1e-4);
      });
    });
  }
});

describe("the forms' gradients, suprema and monotonicity", () => {
  // Parameters drawn where the forms are defined: rates and capacities > 0, USL's σ, κ ≥ 0, exponents either way.
  const uslParameters = fc.tuple(
    fc.double({ min: 1, max: 500, noNaN: true }),
    fc.double({ min: 0, max: 2, noNaN: true }),
    fc.double({ min: 0, max: 0.1, noNaN: true }),
    fc.double({ min: -0.5, max: 0.5, noNaN: true }),
    fc.double({ min: 0.01, max: 2, noNaN: true }),
  );
  const linkParameters = fc.tuple(
    fc.double({ min: 1, max: 500, noNaN: true }),
    fc.double({ min: -0.5, max: 0.5, noNaN: true }),
    fc.double({ min: 10, max: 5000, noNaN: true }),
    fc.double({ min: -0.5, max: 0.5, noNaN: true }),
    fc.double({ min: 1, max: 64, noNaN: true }),
    fc.double({ min: 0.01, max: 2, noNaN: true }),
    fc.double({ min: 0.01, max: 2, noNaN: true }),
  );
  const parametersOf = (form: ModelForm) => (form === "usl" ? uslParameters : linkParameters);
  const point = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0.005, max: 100, noNaN: true }));

  for (const name of NONLINEAR) {
    const form = formOf(name);
    it(`${name}: ∂bw/∂k equals a central difference (relative 1e-5), and the value equals evaluate`, () => {
      fc.assert(
        fc.property(parametersOf(name), point, (values, [m, vGb]) => {
          const k = Float64Array.from(values);
          const gradient = new Float64Array(k.length);
          const bw = form.gradient!(k, m, vGb, gradient);
          expect(bw).toBe(form.evaluate(k, m, vGb));
          form.parameters.forEach((parameter, j) => {
            if (parameter.fixed) return expect(gradient[j]).toBe(0);
            const h = 1e-6 * Math.max(1, Math.abs(k[j]!));
            const up = Float64Array.from(k);
            const down = Float64Array.from(k);
            up[j] = k[j]! + h;
            down[j] = k[j]! - h;
            const difference = (form.evaluate(up, m, vGb) - form.evaluate(down, m, vGb)) / (2 * h);
            expectClose(gradient[j]!, difference, 1e-5, 1e-7 * Math.max(1, bw));
          });
        }),
        { numRuns: 300 },
      );
    });

    it(`${name}: the supremum over V is attained and no sampled V exceeds it`, () => {
      fc.assert(
        fc.property(parametersOf(name), fc.integer({ min: 1, max: 40 }), fc.double({ min: 0.01, max: 200, noNaN: true }), (values, m, vMax) => {
          const k = Float64Array.from(values);
          const best = form.maximumOverV(k, m, vMax, Infinity);
          expect(best.vGb).toBeGreaterThanOrEqual(0);
          expect(best.vGb).toBeLessThanOrEqual(vMax);
          expectClose(form.evaluate(k, m, best.vGb), best.bwMbPerS, 1e-12);
          for (let i = 0; i <= 1000; i++) {
            const v = vMax * (i / 1000) ** 3;
            expect(form.evaluate(k, m, v)).toBeLessThanOrEqual(best.bwMbPerS * (1 + 1e-12));
          }
          expect(form.maximumOverV(k, m, vMax, best.bwMbPerS / 2).bwMbPerS).toBe(best.bwMbPerS / 2);
        }),
        { numRuns: 100 },
      );
    });

    it(`${name}: when the form proves the per-process rate non-increasing, it is`, () => {
      let proven = 0;
      fc.assert(
        fc.property(parametersOf(name), fc.double({ min: 0.05, max: 50, noNaN: true }), (values, vMax) => {
          const k = Float64Array.from(values);
          if (name === "link-capacity" && values[1] < 0.1) k[1] = 0; // α = 0: the case the proof covers
          if (!form.perProcessRateNonIncreasing(k, 20, vMax)) return;
          proven++;
          for (let m = 1; m < 20; m++) {
            for (let i = 1; i <= 25; i++) {
              const v = (vMax * i) / 25;
              const rate = form.evaluate(k, m, v) / m;
              expect(form.evaluate(k, m + 1, v) / (m + 1)).toBeLessThanOrEqual(rate * (1 + 1e-12));
              expect(form.evaluate(k, m, Math.min(vMax, v * 1.1)) / m).toBeLessThanOrEqual(rate * (1 + 1e-12));
            }
          }
        }),
        { numRuns: 200 },
      );
      expect(proven).toBeGreaterThan(20);
    });

    it(`${name}: an idle device moves nothing, and nothing diverges as V → 0`, () => {
      // Size exponents < 0: a power law alone would grow without bound as V → 0; below the references (0.05 GB) it is held.
      const k = name === "usl" ? Float64Array.of(100, 0.1, 0.01, -0.3, 0.05) : Float64Array.of(100, -0.3, 300, -0.3, 4, 0.05, 0.05);
      expect(form.evaluate(k, 0, 0)).toBe(0);
      expect(form.evaluate(k, 3, 1e-12)).toBe(form.evaluate(k, 3, 0.05));
      expect(form.evaluate(k, 3, 0.05)).toBeGreaterThan(form.evaluate(k, 3, 0.5));
    });
  }
});

describe("levenbergMarquardt", () => {
  // y = a·exp(−b·x) on x = 0..9: noise-free, the minimum is the generating (a, b) and the cost 0.
  const xs = Array.from({ length: 10 }, (_, i) => i);
  const problem = (targets: number[], lower?: number[], upper?: number[]) => ({
    rowCount: xs.length,
    targets,
    weights: xs.map(() => 1),
    valueAndGradient: (k: Float64Array, row: number, gradient: Float64Array) => {
      const e = Math.exp(-k[1]! * xs[row]!);
      gradient[0] = e;
      gradient[1] = -k[0]! * xs[row]! * e;
      return k[0]! * e;
    },
    free: [true, true],
    ...(lower ? { lower } : {}),
    ...(upper ? { upper } : {}),
  });

  it("recovers the generating parameters of noise-free data", () => {
    const result = levenbergMarquardt(problem(xs.map((x) => 50 * Math.exp(-0.3 * x))), Float64Array.of(1, 1));
    expect(result.converged).toBe(true);
    expectClose(result.parameters[0]!, 50, 1e-10);
    expectClose(result.parameters[1]!, 0.3, 1e-10);
    expect(result.cost).toBeLessThan(1e-18);
  });

  it("keeps a parameter on its bound when the unconstrained minimum lies beyond it", () => {
    const result = levenbergMarquardt(problem(xs.map((x) => 50 * Math.exp(-0.3 * x)), [0, 0.5], [Infinity, Infinity]), Float64Array.of(10, 2));
    expect(result.parameters[1]).toBe(0.5);
    // The best a for b = 0.5: Σ y·e / Σ e² (least squares in a alone).
    const e = xs.map((x) => Math.exp(-0.5 * x));
    const y = xs.map((x) => 50 * Math.exp(-0.3 * x));
    expectClose(result.parameters[0]!, e.reduce((s, ei, i) => s + ei * y[i]!, 0) / e.reduce((s, ei) => s + ei * ei, 0), 1e-9);
  });

  it("is deterministic", () => {
    const targets = xs.map((x) => 50 * Math.exp(-0.3 * x) + (x % 3) - 1);
    expect(levenbergMarquardt(problem(targets), Float64Array.of(1, 1))).toEqual(levenbergMarquardt(problem(targets), Float64Array.of(1, 1)));
  });
});

describe("refusals", () => {
  const grid = (sizesMb: number[], ms: number[], bw: (m: number, vGb: number) => number) =>
    sizesMb.flatMap((size) => ms.map((m) => ({ m, vGb: (m * size) / 1000, bwMbPerS: bw(m, (m * size) / 1000) })));

  it("names the missing data when the points cannot identify a form", () => {
    // One size per writer: the m-shape alone (γ held at 0), which three distinct m cannot identify.
    const oneSize = grid([256], [1, 2, 3], (m) => 100 * m);
    expect(() => fitForm(oneSize, "usl")).toThrow(InputError);
    expect(() => fitForm(oneSize, "usl")).toThrow(/cannot fit the usl form \(3 parameters: λ, σ, κ\): the points have one size per writer and 3 distinct numbers of processes; at one size the usl form's 3 parameters in m need at least 4/);
    expect(() => fitForm(grid([64, 256], [1, 2], (m) => 100 * m), "link-capacity")).toThrow(/only 2 distinct numbers of processes/);
  });

  it("refuses the link-capacity form on a device the links never limit, naming the parameters the data do not determine", () => {
    // Fastest with one writer: the server alone sets the pace, m·r never binds.
    const collapse = grid([32, 128, 512], [1, 2, 3, 4, 5, 6], (m, vGb) => 70 * Math.exp(-0.2 * (m - 1)) * (1 - 0.05 * vGb));
    expect(() => fitForm(collapse, "link-capacity")).toThrow(/cannot fit the link-capacity form .*(does not depend on|not all determined)/);
  });
});
