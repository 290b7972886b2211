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
import { fitNonlinearCells } from "../../pipeline/fit/fit-nonlinear";
import { logSizeRatio, sizeFactor } from "../../pipeline/fit/forms/bandwidth-form";
import { LINK_CAPACITY_FORM } from "../../pipeline/fit/forms/link-capacity-form";
import { USL_FORM } from "../../pipeline/fit/forms/usl-form";
import { groupByDesignRow, toFitColumns } from "../../pipeline/fit/least-squares";
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
  // Parameters drawn where the forms are defined: rates and capacities > 0, USL's σ, κ ≥ 0, exponents either way;
  // each upper size reference at or above its lower one (V₁ = f·V₀), or +∞ (a model saved before it existed).
  const spread = fc.oneof(fc.constant(Infinity), fc.constant(1), fc.double({ min: 1, max: 200, noNaN: true }));
  const uslParameters = fc
    .tuple(
      fc.double({ min: 1, max: 500, noNaN: true }),
      fc.double({ min: 0, max: 2, noNaN: true }),
      fc.double({ min: 0, max: 0.1, noNaN: true }),
      fc.double({ min: -0.5, max: 0.5, noNaN: true }),
      fc.double({ min: 0.01, max: 2, noNaN: true }),
      spread,
    )
    .map(([lambda, sigma, kappa, gamma, vRef, f]) => [lambda, sigma, kappa, gamma, vRef, vRef * f]);
  const linkParameters = fc
    .tuple(
      fc.double({ min: 1, max: 500, noNaN: true }),
      fc.double({ min: -0.5, max: 0.5, noNaN: true }),
      fc.double({ min: 10, max: 5000, noNaN: true }),
      fc.double({ min: -0.5, max: 0.5, noNaN: true }),
      fc.double({ min: 1, max: 64, noNaN: true }),
      fc.double({ min: 0.01, max: 2, noNaN: true }),
      fc.double({ min: 0.01, max: 2, noNaN: true }),
      spread,
      spread,
    )
    .map(([r, alpha, c, beta, k, vRef, writerRef, fV, fw]) => [r, alpha, c, beta, k, vRef, writerRef, vRef * fV, writerRef * fw]);
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
          if (name === "link-capacity" && values[1]! < 0.1) k[1] = 0; // α = 0: the case the proof covers
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
      const k = name === "usl" ? Float64Array.of(100, 0.1, 0.01, -0.3, 0.05, 0.8) : Float64Array.of(100, -0.3, 300, -0.3, 4, 0.05, 0.05, 0.8, 0.2);
      expect(form.evaluate(k, 0, 0)).toBe(0);
      expect(form.evaluate(k, 3, 1e-12)).toBe(form.evaluate(k, 3, 0.05));
      expect(form.evaluate(k, 3, 0.05)).toBeGreaterThan(form.evaluate(k, 3, 0.5));
    });
  }
});

describe("size factors held outside the measured sizes", () => {
  // Hand computation: V₀ = 0.1 GB, V₁ = 1.6 GB, exponent ±1/2; (0.4/0.1)^½ = 2, (1.6/0.1)^½ = 4.
  it("are 1 below the smallest measured size, the power law inside, its value at the largest above", () => {
    expect(sizeFactor(0.05, 0.1, 1.6, 0.5)).toBe(1);
    expect(sizeFactor(0.4, 0.1, 1.6, 0.5)).toBe(2);
    expect(sizeFactor(1.6, 0.1, 1.6, 0.5)).toBe(4);
    expect(sizeFactor(6.4, 0.1, 1.6, 0.5)).toBe(4);
    expect(sizeFactor(6.4, 0.1, 1.6, -0.5)).toBe(0.25);
    // No upper reference (a model saved before it existed): the unbounded law, (6.4/0.1)^½ = 8.
    expect(sizeFactor(6.4, 0.1, Infinity, 0.5)).toBe(8);
    // ∂ ln s / ∂ exponent: 0 below, ln(V/V₀) inside, ln(V₁/V₀) above.
    expect(logSizeRatio(0.05, 0.1, 1.6)).toBe(0);
    expectClose(logSizeRatio(0.4, 0.1, 1.6), Math.log(4), 1e-15);
    expectClose(logSizeRatio(6.4, 0.1, 1.6), Math.log(16), 1e-15);
  });

  it("hold the link-capacity form's capacity and rate past the measured sizes (hand computation at k = 1)", () => {
    // r = 50, α = ½, C = 400, β = −½, k = 1 (in series), V₀ = 0.1, v₀ = 0.05, V₁ = 1.6, v₁ = 0.2 GB.
    const k = Float64Array.of(50, 0.5, 400, -0.5, 1, 0.1, 0.05, 1.6, 0.2);
    // m = 4, V = 6.4 GB (v = 1.6 > v₁): links 4·50·(0.2/0.05)^½ = 400, server 400·(1.6/0.1)^−½ = 100, 1/(1/400 + 1/100) = 80.
    expectClose(LINK_CAPACITY_FORM.evaluate(k, 4, 6.4), 80, 1e-14);
    // Inside: m = 4, V = 0.4 (v = 0.1): links 200·√2, server 400·(4)^−½ = 200, 1/(1/(200√2) + 1/200).
    expectClose(LINK_CAPACITY_FORM.evaluate(k, 4, 0.4), 1 / (1 / (200 * Math.SQRT2) + 1 / 200), 1e-14);
    // Unbounded (no V₁, v₁): links 200·(1.6/0.05)^½ = 800·√2, server 400·(6.4/0.1)^−½ = 50: the capacity would keep falling.
    const unbounded = Float64Array.of(50, 0.5, 400, -0.5, 1, 0.1, 0.05, Infinity, Infinity);
    expectClose(LINK_CAPACITY_FORM.evaluate(unbounded, 4, 6.4), 1 / (1 / (800 * Math.SQRT2) + 1 / 50), 1e-14);
    // The supremum over V ≤ 10 GB at m = 4 is at least the held value, and sampling finds nothing above it.
    const best = LINK_CAPACITY_FORM.maximumOverV(k, 4, 10, Infinity);
    for (let i = 0; i <= 2000; i++) expect(LINK_CAPACITY_FORM.evaluate(k, 4, (10 * i) / 2000)).toBeLessThanOrEqual(best.bwMbPerS * (1 + 1e-12));
  });

  it("hold the USL's size factor past the largest measured volume (hand computation)", () => {
    // λ = 100, σ = 0.1, κ = 0.01, γ = ½, V₀ = 0.1, V₁ = 1.6; at m = 4 the denominator is 1 + 0.3 + 0.12 = 1.42.
    const k = Float64Array.of(100, 0.1, 0.01, 0.5, 0.1, 1.6);
    expectClose(USL_FORM.evaluate(k, 4, 0.4), (100 * 4 * 2) / 1.42, 1e-14);
    expectClose(USL_FORM.evaluate(k, 4, 6.4), (100 * 4 * 4) / 1.42, 1e-14);
    expect(USL_FORM.evaluate(k, 4, 100)).toBe(USL_FORM.evaluate(k, 4, 1.6));
  });

  for (const name of NONLINEAR) {
    it(`${name}: a fit on data inside the measured sizes is the same as with the unbounded law, and the upper references are the largest measured sizes`, () => {
      // Generated from the form (λ, σ, κ, γ = 200, 0.2, 0.01, 0.1; r, α, C, β, k = 60, 0.1, 500, −0.2, 4) with a fixed ±3 % pattern.
      const generating =
        name === "usl" ? Float64Array.of(200, 0.2, 0.01, 0.1, 0.016, 4.096) : Float64Array.of(60, 0.1, 500, -0.2, 4, 0.016, 0.016, 4.096, 0.256);
      const samples = [16, 64, 256].flatMap((sizeMb) =>
        [1, 2, 3, 4, 6, 8, 12, 16].flatMap((m) =>
          [-0.03, 0, 0.03].map((e) => ({ m, vGb: (m * sizeMb) / 1000, bwMbPerS: formOf(name).evaluate(generating, m, (m * sizeMb) / 1000) * (1 + e) })),
        ),
      );
      const form = formOf(name);
      const bounded = fitNonlinearCells(groupByDesignRow(toFitColumns(samples)), form);
      const unboundedForm = { ...form, fixedFromData: (cells: Parameters<NonNullable<typeof form.fixedFromData>>[0]) => ({ ...form.fixedFromData!(cells), vMaxGb: Infinity, ...(name === "link-capacity" ? { writerSizeMaxGb: Infinity } : {}) }) };
      const unbounded = fitNonlinearCells(groupByDesignRow(toFitColumns(samples)), unboundedForm);
      const at = (p: string) => form.parameters.findIndex((q) => q.name === p);
      expect(bounded.parameters[at("vMaxGb")]).toBe(16 * 0.256);
      if (name === "link-capacity") expect(bounded.parameters[at("writerSizeMaxGb")]).toBe(0.256);
      expect(unbounded.parameters[at("vMaxGb")]).toBe(Infinity);
      // Every evaluation lies inside the measured sizes: the same numbers to the last digit.
      for (const j of bounded.fittedIndex) expect(bounded.parameters[j]).toBe(unbounded.parameters[j]);
      expect(bounded.covariance).toEqual(unbounded.covariance);
      // And the generating parameters are recovered to the ±3 % pattern's bias (it is symmetric: within 1 %).
      for (const j of bounded.fittedIndex) expectClose(bounded.parameters[j]!, generating[j]!, 0.02, 0.005);
    });
  }

  it("bound the size exponents at 1: a device that writes more in less time is outside the form, the fit stops on the bound", () => {
    // bw = 100·m·(V/V₀)^1.3 for m ≤ 3 writers: V/bw falls as V grows, which no device does; γ ≤ 1 holds it at 1.
    const samples = [16, 64, 256].flatMap((sizeMb) => [1, 2, 3, 4, 6].map((m) => ({ m, vGb: (m * sizeMb) / 1000, bwMbPerS: 100 * m * ((m * sizeMb) / 16) ** 1.3 / (1 + 0.05 * (m - 1)) })));
    const fit = fitForm(samples, "usl");
    expect(fit.values.gamma).toBe(1);
  });
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
