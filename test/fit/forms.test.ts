/**
 * The forms' own answers (pipeline/fit/forms/): the polynomial forms' supremum over V and
 * their monotonicity proof, the terms' spelling, the registry, what the nonlinear forms'
 * starting points and structural checks read from the cells, and the empirical form's
 * coefficients, weights and supremum — each against a hand computation in its comment.
 */
import { describe, expect, it } from "vitest";
import type { FormCells } from "../../pipeline/fit/forms/bandwidth-form";
import { EMPIRICAL_FORM, empiricalCellCount, empiricalCellNames } from "../../pipeline/fit/forms/empirical-form";
import { largestBandwidth, largestVolumeGb, perWriterRate, shapeAndSizeGap, smallestVolumeGb } from "../../pipeline/fit/forms/form-starts";
import { FULL_FORM } from "../../pipeline/fit/forms/full-form";
import { LINK_CAPACITY_FORM } from "../../pipeline/fit/forms/link-capacity-form";
import { PAPER_FORM } from "../../pipeline/fit/forms/paper-form";
import { FULL_TERMS, PAPER_TERMS, termExpression, termLabel } from "../../pipeline/fit/forms/polynomial-terms";
import { BANDWIDTH_FORMS, fittedParameterCount, formOf, isModelForm, MODEL_FORMS } from "../../pipeline/fit/forms/registry";
import { USL_FORM } from "../../pipeline/fit/forms/usl-form";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { expectClose } from "../helpers";

/** Cells from (m, V in GB, mean bw in MB/s, runs) rows. */
function cellsOf(rows: [number, number, number, number?][]): FormCells {
  return {
    m: Float64Array.from(rows, (r) => r[0]),
    vGb: Float64Array.from(rows, (r) => r[1]),
    meanBwMbPerS: Float64Array.from(rows, (r) => r[2]),
    count: Float64Array.from(rows, (r) => r[3] ?? 1),
  };
}

/** The full form's nine coefficients a00…a22 (term order of FULL_TERMS), the others 0. */
function full(values: Partial<Record<string, number>>): Float64Array {
  return Float64Array.from(FULL_TERMS, (t) => values[t.name] ?? 0);
}

describe("the polynomial forms' terms and parameters", () => {
  it("spell each of the nine monomials and the papers' five", () => {
    // a_ij multiplies m^i·V^j ([Y-thesis] eq. 4.1), the constant is "1".
    expect(FULL_TERMS.map(termLabel)).toEqual(["1", "V", "V²", "m", "m·V", "m·V²", "m²", "m²·V", "m²·V²"]);
    expect(FULL_TERMS.map(termExpression)).toEqual(["a00", "a01·V", "a02·V²", "a10·m", "a11·m·V", "a12·m·V²", "a20·m²", "a21·m²·V", "a22·m²·V²"]);
    // [Y11] eq. 4: bw(m, V) = a·m²·V² + b·m² + c·V² + d·m + e.
    expect(PAPER_FORM.formula).toBe("bw(m, V) = a·m²·V² + b·m² + c·V² + d·m + e");
    expect(FULL_FORM.formula).toBe("bw(m, V) = a00 + a01·V + a02·V² + a10·m + a11·m·V + a12·m·V² + a20·m² + a21·m²·V + a22·m²·V²");
    expect(PAPER_TERMS.map((t) => [t.mPower, t.vPower])).toEqual([[2, 2], [2, 0], [0, 2], [1, 0], [0, 0]]);
  });

  it("give each coefficient the unit that makes its term MB/s (V in GB)", () => {
    // a_ij·m^i·V^j is in MB/s, m a count: a_ij is in MB/s per GB^j.
    expect(FULL_FORM.parameters.map((p) => p.unit)).toEqual(["MB/s", "MB/s/GB", "MB/s/GB²", "MB/s", "MB/s/GB", "MB/s/GB²", "MB/s", "MB/s/GB", "MB/s/GB²"]);
    expect(PAPER_FORM.parameters.map((p) => [p.name, p.symbol, p.unit])).toEqual([
      ["a", "m²·V²", "MB/s/GB²"],
      ["b", "m²", "MB/s"],
      ["c", "V²", "MB/s/GB²"],
      ["d", "m", "MB/s"],
      ["e", "1", "MB/s"],
    ]);
    expect(PAPER_FORM.parameters[0]!.meaning).toBe("coefficient of m²·V²");
    expect(PAPER_FORM.origin).toBe("papers");
    expect(FULL_FORM.origin).toBe("papers");
  });
});

describe("the polynomial forms' supremum over V ∈ [0, vMax] (ScheduleCkpt's reachability)", () => {
  it("is at the vertex of a concave quadratic inside the interval", () => {
    // bw = 10 + 2·m·V − V²: at m = 3, 10 + 6V − V², vertex V = 3, bw = 10 + 18 − 9 = 19; at V = 10, −30.
    const k = full({ a00: 10, a11: 2, a02: -1 });
    expect(FULL_FORM.maximumOverV(k, 3, 10, Infinity)).toEqual({ bwMbPerS: 19, vGb: 3 });
    // At m = 2 the vertex is V = 2 (10 + 8 − 4 = 14).
    expect(FULL_FORM.maximumOverV(k, 2, 10, Infinity)).toEqual({ bwMbPerS: 14, vGb: 2 });
    // vMax = 1.5 < 3: the vertex is outside, the end wins: 10 + 9 − 2.25 = 16.75.
    expect(FULL_FORM.maximumOverV(k, 3, 1.5, Infinity)).toEqual({ bwMbPerS: 16.75, vGb: 1.5 });
    // Capped at 12: V = 0 gives 10, V = 10 gives −30, the vertex min(19, 12) = 12.
    expect(FULL_FORM.maximumOverV(k, 3, 10, 12)).toEqual({ bwMbPerS: 12, vGb: 3 });
    // Capped at 8: V = 0 already reaches it, and the first candidate to reach the supremum is kept.
    expect(FULL_FORM.maximumOverV(k, 3, 10, 8)).toEqual({ bwMbPerS: 8, vGb: 0 });
  });

  it("is at an end of the interval for a convex quadratic, and 0 when bw is nowhere positive", () => {
    // bw = 10 − 4V + V² (convex, vertex V = 2): at V = 0, 10; at V = 5, 15; at V = 3, 7.
    const k = full({ a00: 10, a01: -4, a02: 1 });
    expect(FULL_FORM.maximumOverV(k, 1, 5, Infinity)).toEqual({ bwMbPerS: 15, vGb: 5 });
    expect(FULL_FORM.maximumOverV(k, 1, 3, Infinity)).toEqual({ bwMbPerS: 10, vGb: 0 });
    // Flat 7 MB/s: ties between V = 0 and vMax keep V = 0.
    expect(FULL_FORM.maximumOverV(full({ a00: 7 }), 4, 5, Infinity)).toEqual({ bwMbPerS: 7, vGb: 0 });
    // bw = −1 − V²: never positive.
    expect(FULL_FORM.maximumOverV(full({ a00: -1, a02: -1 }), 2, 5, Infinity)).toEqual({ bwMbPerS: 0, vGb: 0 });
  });

  it("reads γ from the m-powers of the V² terms (the paper form at the published coefficients)", () => {
    // bw(9, V) = (81a + c)·V² + 81b + 9d + e with a = −0.0155, c = 0.0004: γ < 0 and β = 0, so the vertex is V = 0.
    const k = Float64Array.from(PAPER_TERMS, (t) => PAPER_MODEL.coefficients[t.name]!);
    const atZero = -0.169435 * 81 + 5.027318 * 9 + 3.753154;
    const best = PAPER_FORM.maximumOverV(k, 9, 3, Infinity);
    expect(best.vGb).toBe(0);
    expectClose(best.bwMbPerS, atZero, 1e-14);
    // With c = +2 and a = 0 the quadratic is convex: the end V = 3 wins, 81b + 9d + e + 18.
    const convex = Float64Array.of(0, -0.169435, 2, 5.027318, 3.753154);
    const end = PAPER_FORM.maximumOverV(convex, 9, 3, Infinity);
    expect(end.vGb).toBe(3);
    expectClose(end.bwMbPerS, atZero + 18, 1e-14);
  });
});

describe("the polynomial forms' proof that the per-process rate bw/m never increases", () => {
  it("holds for the published coefficients", () => {
    // bw/m = a·m·V² + b·m + c·V²/m + d + e/m; from m to m + 1 it changes by b − e/(m(m+1)) + V²·(a − c/(m(m+1))) < 0
    // (a, b < 0, c, e > 0), and ∂(bw/m)/∂V = 2(a·m + c/m)·V ≤ 0 for every m ≥ 1 (a + c < 0).
    const k = Float64Array.from(PAPER_TERMS, (t) => PAPER_MODEL.coefficients[t.name]!);
    expect(PAPER_FORM.perProcessRateNonIncreasing(k, 20, 5)).toBe(true);
  });

  it("fails when bw grows with V at V = 0, or by V = vMax", () => {
    // bw = 10 + V: ∂bw/∂V = 1 > 0 at V = 0.
    expect(FULL_FORM.perProcessRateNonIncreasing(full({ a00: 10, a01: 1 }), 3, 1)).toBe(false);
    // bw = 10 − 2V + ½V² = ½(V − 2)² + 8 > 0: ∂bw/∂V = −2 + V is ≤ 0 up to V = 2, > 0 after.
    // bw/m falls with m (bw > 0 does not depend on m): the V-derivative alone decides.
    const k = full({ a00: 10, a01: -2, a02: 0.5 });
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 3, 1.5)).toBe(true);
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 3, 2)).toBe(true);
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 3, 2.5)).toBe(false);
  });

  it("fails when the rate grows from m to m + 1 within mMax, and only then", () => {
    // bw = 16 + m²: bw/m = 16/m + m is 17, 10, 8.33, 8, 8.2 at m = 1..5: falling up to m = 4, rising at 5.
    const k = full({ a00: 16, a20: 1 });
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 4, 1)).toBe(true);
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 5, 1)).toBe(false);
    // bw = 10·m²: bw/m = 10·m rises from m = 1; with mMax = 1 there is no step to take.
    expect(FULL_FORM.perProcessRateNonIncreasing(full({ a20: 10 }), 2, 1)).toBe(false);
    expect(FULL_FORM.perProcessRateNonIncreasing(full({ a20: 10 }), 1, 1)).toBe(true);
  });

  it("finds a rise in m between the ends of the V interval (the vertex of the difference)", () => {
    // bw = 2 + 8m + (3m − 6)·V + (2 − 2m)·V²: at m = 1, 10 − 3V; at m = 2, 18 − 2V². ∂bw/∂V ≤ 0 on V ≥ 0 at both m.
    // bw(2, V)/2 − bw(1, V) = −1 + 3V − V²: −1 at V = 0 and at V = 3, but 1.25 at its vertex V = 1.5.
    const k = full({ a00: 2, a10: 8, a01: -6, a11: 3, a02: 2, a12: -2 });
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 2, 3)).toBe(false);
    // On [0, 0.3] the difference stays below 0 (−1 + 0.9 − 0.09 = −0.19 at 0.3).
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 2, 0.3)).toBe(true);
  });

  it("checks ∂bw/∂V at the last m too", () => {
    // bw = 100 + (2m − 5)·V: ∂bw/∂V = 2m − 5 is −3, −1, +1 at m = 1, 2, 3. The rate 100/m + (2 − 5/m)·V falls from
    // m = 1 to 2 (by −50 + 2.5V) and from 2 to 3 (by −16.7 + 0.83V) on V ≤ 1.
    const k = full({ a00: 100, a01: -5, a11: 2 });
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 2, 1)).toBe(true);
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 3, 1)).toBe(false);
  });

  it("accepts slopes within its relative tolerance of 1e-12 (rounding), and refuses any above it", () => {
    // bw = 100 + β·V: the scale is |α| + |β| + |γ| ≈ 100, so β = 10^-11 (10^-13 of it) passes and β = 10^-9 (10^-11) does not.
    expect(FULL_FORM.perProcessRateNonIncreasing(full({ a00: 100, a01: 1e-11 }), 3, 1)).toBe(true);
    expect(FULL_FORM.perProcessRateNonIncreasing(full({ a00: 100, a01: 1e-9 }), 3, 1)).toBe(false);
    // The same at V = vMax: β = −1, γ = ½·(1 + 10^-11)/vMax puts β + 2γ·vMax at 10^-11 (tolerance 1e-12·101.5).
    expect(FULL_FORM.perProcessRateNonIncreasing(full({ a00: 100, a01: -1, a02: (1 + 1e-11) / 2 }), 1, 1)).toBe(true);
    expect(FULL_FORM.perProcessRateNonIncreasing(full({ a00: 100, a01: -1, a02: (1 + 1e-9) / 2 }), 1, 1)).toBe(false);
    // The scale counts |β| too: α = 1, β = −1, γ ≈ ½ make it 2.5, so β + 2γ = 10^-12 is inside 2.5e-12.
    expect(FULL_FORM.perProcessRateNonIncreasing(full({ a00: 1, a01: -1, a02: (1 + 1e-12) / 2 }), 1, 1)).toBe(true);
  });

  it("looks at the whole V interval for the step in m", () => {
    // bw = 10 + m²·V²/4 − m·V² = 10 + V²·m(m/4 − 1): bw/m = 10/m + V²(m/4 − 1). From m to m + 1 the rate
    // changes by −10/(m(m+1)) + V²/4: negative at V = 0, positive once V² > 40/(m(m+1)) (m = 1: V > √20 ≈ 4.47).
    // ∂bw/∂V = 2V·m(m/4 − 1) ≤ 0 for m ≤ 4, so with mMax = 2 only the step decides.
    const k = full({ a00: 10, a22: 0.25, a12: -1 });
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 2, 4)).toBe(true);
    expect(FULL_FORM.perProcessRateNonIncreasing(k, 2, 5)).toBe(false);
  });
});

describe("the registry", () => {
  it("knows the five forms, in display order, and nothing else", () => {
    expect(MODEL_FORMS).toEqual(["paper", "full", "usl", "link-capacity", "empirical"]);
    for (const name of MODEL_FORMS) {
      expect(isModelForm(name)).toBe(true);
      expect(formOf(name)).toBe(BANDWIDTH_FORMS[name]);
      expect(formOf(name).name).toBe(name);
    }
    // Own properties only: an object's inherited names are no form.
    for (const name of ["toString", "constructor", "cubic", "", 3, null, undefined]) expect(isModelForm(name)).toBe(false);
    // Nor is anything that merely prints as a form's name (a model file's ["paper"]).
    expect(isModelForm(["paper"])).toBe(false);
  });

  it("counts the parameters each fit estimates (the fixed size references are set from the data)", () => {
    // paper a..e; full a00..a22; usl λ, σ, κ, γ (V₀, V₁ fixed); link-capacity r, α, C, β, k (V₀, v₀, V₁, v₁ fixed);
    // the empirical form's cell count alone is declared (its cells' means come with the data).
    expect(MODEL_FORMS.map((name) => fittedParameterCount(formOf(name)))).toEqual([5, 9, 4, 5, 0]);
  });

  it("describe every parameter, and each formula names every symbol a fit estimates", () => {
    for (const name of MODEL_FORMS) {
      const form = formOf(name);
      expect(form.title.length, name).toBeGreaterThan(10);
      expect(form.source.length, name).toBeGreaterThan(5);
      expect(form.formula.startsWith("bw(m, V) = "), name).toBe(true);
      for (const p of form.parameters) {
        expect(p.meaning.length, `${name}.${p.name}`).toBeGreaterThan(5);
        expect(p.unit.length, `${name}.${p.name}`).toBeGreaterThan(0);
        expect(p.symbol.length, `${name}.${p.name}`).toBeGreaterThan(0);
        // The polynomial forms write their coefficients' names, the others their symbols.
        if (!p.internal) expect(form.formula, `${name}.${p.name}`).toContain(form.terms !== undefined ? p.name : p.symbol);
      }
    }
    expect(USL_FORM.origin).toBe("project");
    expect(LINK_CAPACITY_FORM.origin).toBe("project");
    expect(EMPIRICAL_FORM.origin).toBe("project");
  });

  it("state the nonlinear forms' parameters, units and bounds (docs/science.md §3.5)", () => {
    expect(USL_FORM.parameters.map((p) => [p.name, p.symbol, p.unit, p.lower, p.upper, p.fixed === true])).toEqual([
      ["lambda", "λ", "MB/s", 0, undefined, false],
      ["sigma", "σ", "1", 0, undefined, false],
      ["kappa", "κ", "1", 0, undefined, false],
      ["gamma", "γ", "1", undefined, 1, false],
      ["vRefGb", "V₀", "GB", undefined, undefined, true],
      ["vMaxGb", "V₁", "GB", undefined, undefined, true],
    ]);
    expect(LINK_CAPACITY_FORM.parameters.map((p) => [p.name, p.symbol, p.unit, p.lower, p.upper, p.fixed === true])).toEqual([
      ["rate", "r", "MB/s", 0, undefined, false],
      ["alpha", "α", "1", undefined, 1, false],
      ["capacity", "C", "MB/s", 0, undefined, false],
      ["beta", "β", "1", undefined, 1, false],
      ["sharpness", "k", "1", 1, 64, false],
      ["vRefGb", "V₀", "GB", undefined, undefined, true],
      ["writerSizeRefGb", "v₀", "GB", undefined, undefined, true],
      ["vMaxGb", "V₁", "GB", undefined, undefined, true],
      ["writerSizeMaxGb", "v₁", "GB", undefined, undefined, true],
    ]);
    // Upper references added after models were saved without them: absent means the unbounded law (+∞), never below the lower one.
    const added = [...USL_FORM.parameters, ...LINK_CAPACITY_FORM.parameters].filter((p) => p.whenAbsent !== undefined);
    expect(added.map((p) => [p.name, p.whenAbsent, p.atLeast])).toEqual([
      ["vMaxGb", Infinity, "vRefGb"],
      ["vMaxGb", Infinity, "vRefGb"],
      ["writerSizeMaxGb", Infinity, "writerSizeRefGb"],
    ]);
    // The size exponents, held at 0 on one size per writer.
    expect([...USL_FORM.parameters, ...LINK_CAPACITY_FORM.parameters].filter((p) => p.sizeExponent).map((p) => p.name)).toEqual(["gamma", "alpha", "beta"]);
  });
});

describe("what the nonlinear forms read from the cells", () => {
  it("the smallest positive and the largest volume, 1 GB when there is none", () => {
    const cells = cellsOf([[1, 0, 5], [2, 0.5, 9], [3, 0.2, 12], [4, 2, 11], [5, 1, 3]]);
    expect(smallestVolumeGb(cells)).toBe(0.2);
    expect(largestVolumeGb(cells)).toBe(2);
    expect(smallestVolumeGb(cellsOf([[1, 0, 5]]))).toBe(1);
    expect(largestVolumeGb(cellsOf([[1, 0, 5]]))).toBe(1);
    expect(largestVolumeGb(cellsOf([]))).toBe(1);
  });

  it("the per-writer rate: the median of bw/m at the smallest m", () => {
    // m = 2 is the smallest: bw/m = 5, 15, 10 → median 10 (the m = 3 cell's 50/3 is not read).
    expect(perWriterRate(cellsOf([[2, 0.1, 10], [3, 0.1, 50], [2, 0.2, 30], [2, 0.4, 20]]))).toBe(10);
    // Two cells at m = 2: (10/2 + 14/2)/2 = 6.
    expect(perWriterRate(cellsOf([[4, 0.1, 100], [2, 0.1, 10], [2, 0.2, 14]]))).toBe(6);
    // Four cells at m = 1: 3, 8, 1, 20 → (3 + 8)/2 = 5.5.
    expect(perWriterRate(cellsOf([[1, 0.1, 3], [1, 0.2, 8], [1, 0.3, 1], [1, 0.4, 20]]))).toBe(5.5);
    // m below 1 (a fractional count) divides by 1, not by m: 3 MB/s.
    expect(perWriterRate(cellsOf([[0.5, 0.1, 3], [2, 0.1, 40]]))).toBe(3);
    // No positive rate: 1 MB/s, a start that the fit moves.
    expect(perWriterRate(cellsOf([[1, 0.1, -4], [2, 0.1, 40]]))).toBe(1);
    expect(perWriterRate(cellsOf([[1, 0.1, 0]]))).toBe(1);
  });

  it("the largest bandwidth, 1 MB/s when none is positive", () => {
    expect(largestBandwidth(cellsOf([[1, 0.1, 3], [2, 0.1, 9], [3, 0.1, 4]]))).toBe(9);
    expect(largestBandwidth(cellsOf([[1, 0.1, -3], [2, 0.1, 0]]))).toBe(1);
  });

  it("the structural minimum: three m, two sizes V/m, one point more than the parameters", () => {
    const what = "the form";
    expect(shapeAndSizeGap(cellsOf([[1, 0.1, 1], [1, 0.2, 1]]), 4, what)).toBe("the points have only 1 distinct number of processes, and the form needs at least 3");
    expect(shapeAndSizeGap(cellsOf([[1, 0.1, 1], [2, 0.4, 1]]), 4, what)).toBe("the points have only 2 distinct numbers of processes, and the form needs at least 3");
    // V/m = 0.1 at each m (0.3/3 is 0.09999999999999999 in floating point, the same size to 12 digits).
    expect(shapeAndSizeGap(cellsOf([[1, 0.1, 1], [2, 0.2, 1], [3, 0.3, 1]]), 4, what)).toBe("the points have one application size V/m, and the form's size exponent needs at least 2");
    // Four distinct (m, V) (one repeated) for 4 parameters: 5 needed.
    const four = cellsOf([[1, 0.1, 1], [2, 0.2, 1], [3, 0.6, 1], [3, 0.6, 2], [1, 0.2, 1]]);
    expect(shapeAndSizeGap(four, 4, what)).toBe("the points have 4 distinct (m, V), and the form's 4 parameters need at least 5");
    expect(shapeAndSizeGap(four, 3, what)).toBeNull();
    expect(USL_FORM.structuralGap!(four)).toBe("the points have 4 distinct (m, V), and the USL form's 4 parameters need at least 5");
    expect(LINK_CAPACITY_FORM.structuralGap!(four)).toBe("the points have 4 distinct (m, V), and the link-capacity form's 5 parameters need at least 6");
  });
});

describe("the USL form's starting points, supremum and proof", () => {
  // λ = 100 MB/s at m = 1, and bw = m·λ/(1 + y(m)): the linearisation m·λ/bw − 1 = y(m) = σ(m − 1) + κ·m(m − 1) exactly.
  const usl = (y: (m: number) => number, ms = [1, 2, 3, 4, 5], writerGb = 0.1) =>
    cellsOf(ms.map((m) => [m, m * writerGb, (m * 100) / (1 + y(m))]));

  it("starts from the linearisation's least squares, and from a small grid", () => {
    const cells = usl((m) => 0.2 * (m - 1) + 0.01 * m * (m - 1));
    const fixed = USL_FORM.fixedFromData!(cells);
    // Smallest and largest V of the cells: 1·0.1 and 5·0.1 GB.
    expect(fixed).toEqual({ vRefGb: 0.1, vMaxGb: 0.5 });
    const starts = USL_FORM.starts!(cells, fixed);
    expect(starts).toHaveLength(4);
    const [lambda, sigma, kappa, gamma, vRef, vMax] = starts[0]!;
    expect([lambda, gamma, vRef, vMax]).toEqual([100, 0, 0.1, 0.5]);
    expectClose(sigma!, 0.2, 1e-12);
    expectClose(kappa!, 0.01, 1e-12);
    expect(starts.slice(1).map((s) => [...s])).toEqual([
      [100, 0.1, 0.001, 0, 0.1, 0.5],
      [100, 0.5, 0.01, 0, 0.1, 0.5],
      [100, 2, 0.05, 0, 0.1, 0.5],
    ]);
  });

  it("weighs each cell by its runs, and skips cells without a positive mean", () => {
    // Not on a USL curve: the least squares weigh the cells. A cell of 3 runs counts as 3 cells of 1 run.
    const rows: [number, number, number, number][] = [[1, 0.1, 100, 2], [2, 0.2, 160, 3], [3, 0.3, 190, 1], [4, 0.4, 240, 2], [6, 0.6, 230, 1]];
    const expanded = rows.flatMap(([m, v, bw, n]) => Array.from({ length: n }, (): [number, number, number, number] => [m, v, bw, 1]));
    const weighted = USL_FORM.starts!(cellsOf(rows), { vRefGb: 0.1, vMaxGb: 0.6 })[0]!;
    const repeated = USL_FORM.starts!(cellsOf(expanded), { vRefGb: 0.1, vMaxGb: 0.6 })[0]!;
    weighted.forEach((value, j) => expectClose(value, repeated[j]!, 1e-12, 1e-15));
    // … and not as 1 cell: unweighted, the start differs.
    const unweighted = USL_FORM.starts!(cellsOf(rows.map(([m, v, bw]) => [m, v, bw, 1])), { vRefGb: 0.1, vMaxGb: 0.6 })[0]!;
    expect(Math.abs(unweighted[1]! - weighted[1]!)).toBeGreaterThan(1e-3);
    // A cell measured at 0 MB/s says nothing about the linearisation (m·λ/bw would be infinite).
    const exact = usl((m) => 0.2 * (m - 1) + 0.01 * m * (m - 1));
    const withZero = cellsOf([...Array.from(exact.m, (m, i): [number, number, number] => [m, exact.vGb[i]!, exact.meanBwMbPerS[i]!]), [7, 0.7, 0]]);
    const start = USL_FORM.starts!(withZero, { vRefGb: 0.1, vMaxGb: 0.7 })[0]!;
    expectClose(start[1]!, 0.2, 1e-12);
    expectClose(start[2]!, 0.01, 1e-12);
  });

  it("clamps a negative contention or coherency to 0, and starts from 0 when the linearisation is singular", () => {
    // y = −0.1(m − 1) + 0.02·m(m − 1): the least squares give σ = −0.1, κ = 0.02; σ is held at 0 (κ is kept, not refitted).
    const negativeSigma = USL_FORM.starts!(usl((m) => -0.1 * (m - 1) + 0.02 * m * (m - 1)), { vRefGb: 0.1, vMaxGb: 0.5 })[0]!;
    expect(negativeSigma[1]).toBe(0);
    expectClose(negativeSigma[2]!, 0.02, 1e-12);
    // y = 0.3(m − 1) − 0.01·m(m − 1): κ = −0.01 is held at 0.
    const negativeKappa = USL_FORM.starts!(usl((m) => 0.3 * (m - 1) - 0.01 * m * (m - 1)), { vRefGb: 0.1, vMaxGb: 0.5 })[0]!;
    expectClose(negativeKappa[1]!, 0.3, 1e-12);
    expect(negativeKappa[2]).toBe(0);
    // Only m = 1 and 2: the columns m − 1 = (0, 1) and m(m − 1) = (0, 2) are proportional, the determinant is 0.
    const singular = USL_FORM.starts!(usl((m) => 0.5 * (m - 1), [1, 2, 1, 2], 0.1), { vRefGb: 0.1, vMaxGb: 0.2 })[0]!;
    expect([...singular]).toEqual([100, 0, 0, 0, 0.1, 0.2]);
  });

  it("has its supremum over V at an end: the power law is monotone, held outside [V₀, V₁]", () => {
    // λ = 100, σ = 0.1, κ = 0.01, V₀ = 0.1, V₁ = 1.6: at m = 4 the denominator is 1 + 0.3 + 0.12 = 1.42, and the
    // size factor is 1 at V = 0 and (1.6/0.1)^γ at V ≥ 1.6: 4 for γ = ½, ¼ for γ = −½.
    const k = (lambda: number, gamma: number) => Float64Array.of(lambda, 0.1, 0.01, gamma, 0.1, 1.6);
    expect(USL_FORM.maximumOverV(k(100, 0.5), 4, 6.4, Infinity)).toEqual({ bwMbPerS: 1600 / 1.42, vGb: 6.4 });
    expect(USL_FORM.maximumOverV(k(100, -0.5), 4, 6.4, Infinity)).toEqual({ bwMbPerS: 400 / 1.42, vGb: 0 });
    // γ = 0: the same at both ends, V = 0 is kept.
    expect(USL_FORM.maximumOverV(k(100, 0), 4, 6.4, Infinity)).toEqual({ bwMbPerS: 400 / 1.42, vGb: 0 });
    // Capped at 300 MB/s: V = 0 gives 400/1.42 = 281.7, V = 6.4 the cap.
    expect(USL_FORM.maximumOverV(k(100, 0.5), 4, 6.4, 300)).toEqual({ bwMbPerS: 300, vGb: 6.4 });
    // Capped at 200: both ends reach it, V = 0 is kept.
    expect(USL_FORM.maximumOverV(k(100, 0.5), 4, 6.4, 200)).toEqual({ bwMbPerS: 200, vGb: 0 });
    // Values ≤ 0 count as 0: λ = −100 with γ = −½ rises from −281.7 at V = 0 to −70.4 at V₁, still nothing.
    expect(USL_FORM.maximumOverV(k(-100, -0.5), 4, 6.4, Infinity)).toEqual({ bwMbPerS: 0, vGb: 0 });
    expect(USL_FORM.maximumOverV(k(0, 0.5), 4, 6.4, Infinity)).toEqual({ bwMbPerS: 0, vGb: 0 });
  });

  it("proves the per-process rate non-increasing exactly when σ, κ ≥ 0 and γ ≤ 0", () => {
    // bw/m = λ·s(V)/D(m), D(m + 1) − D(m) = σ + 2κm: both conditions are needed and enough.
    const proven = (sigma: number, kappa: number, gamma: number) => USL_FORM.perProcessRateNonIncreasing(Float64Array.of(100, sigma, kappa, gamma, 0.1, 1.6), 20, 5);
    expect(proven(0, 0, 0)).toBe(true);
    expect(proven(0.3, 0.01, -0.2)).toBe(true);
    expect(proven(0, 0, 1e-9)).toBe(false);
    expect(proven(-1e-9, 0, 0)).toBe(false);
    expect(proven(0, -1e-9, 0)).toBe(false);
  });

  it("moves nothing, with a zero gradient, at m ≤ 0", () => {
    const k = Float64Array.of(100, 0.1, 0.01, 0.5, 0.1, 1.6);
    const out = new Float64Array(6).fill(7);
    expect(USL_FORM.gradient!(k, 0, 1, out)).toBe(0);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0]);
    expect(USL_FORM.evaluate(k, -1, 1)).toBe(0);
    // Also where the denominator would be 0 at m = 0 (σ = 1: 1 + σ·(0 − 1) = 0), not 0/0.
    const serialised = Float64Array.of(100, 1, 0, 0.5, 0.1, 1.6);
    expect(USL_FORM.evaluate(serialised, 0, 1)).toBe(0);
    expect(USL_FORM.gradient!(serialised, 0, 1, out)).toBe(0);
    // The size exponent's derivative is bw·ln(V/V₀) inside the references: at m = 1, V = 0.4, bw = 100·2, 200·ln 4.
    USL_FORM.gradient!(k, 1, 0.4, out);
    expectClose(out[3]!, 200 * Math.log(4), 1e-14);
    expect(out[4]).toBe(0);
    expect(out[5]).toBe(0);
  });
});

describe("the link-capacity form's supremum, starting points and proof", () => {
  // r = 50, C = 400, V₀ = 0.2, v₀ = 0.05, V₁ = 1.6, v₁ = 0.4 GB: at m = 4 both size factors move over the same
  // V ∈ [m·v₀, m·v₁] = [V₀, V₁] = [0.2, 1.6] and are held outside it.
  const k = (alpha: number, beta: number, sharpness: number) => Float64Array.of(50, alpha, 400, beta, sharpness, 0.2, 0.05, 1.6, 0.4);

  it("peaks where the rising links meet the falling capacity (closed form)", () => {
    // k = 1, α = ½, β = −½, t = V/0.2: 1/bw = 1/(200·√t) + √t/400, least at t = 2 (V = 0.4), where
    // 1/bw = √2/400 + √2/400: bw = 100·√2 — above V = 0 (1/(1/200 + 1/400) = 133.3) and V₁ (t = 8: 113.1).
    const series = LINK_CAPACITY_FORM.maximumOverV(k(0.5, -0.5, 1), 4, 10, Infinity);
    expectClose(series.bwMbPerS, 100 * Math.SQRT2, 1e-13);
    expectClose(series.vGb, 0.4, 1e-13);
    // k = 2, α = ½, β = −¼: bw⁻² = 200⁻²·t⁻¹ + 400⁻²·t^½, whose derivative −200⁻²·t⁻² + ½·400⁻²·t^(−½) vanishes
    // at t^(3/2) = 2·(400/200)² = 8, t = 4 (V = 0.8). There links = 200·2 = 400,
    // server = 400·4^(−¼) = 200·√2: bw = (1/160000 + 1/80000)^(−½) = √(160000/3) = 230.94 (V = 0: 178.9; V₁: 219.2).
    const rounded = LINK_CAPACITY_FORM.maximumOverV(k(0.5, -0.25, 2), 4, 10, Infinity);
    expectClose(rounded.bwMbPerS, Math.sqrt(160000 / 3), 1e-13);
    expectClose(rounded.vGb, 0.8, 1e-13);
    // Capped at 150: V = 0 (178.9) already reaches it.
    expect(LINK_CAPACITY_FORM.maximumOverV(k(0.5, -0.25, 2), 4, 10, 150)).toEqual({ bwMbPerS: 150, vGb: 0 });
    // vMax = 0.6 < 0.8: the peak is outside, the end V = 0.6 is the supremum (bw still rising there).
    const short = LINK_CAPACITY_FORM.maximumOverV(k(0.5, -0.25, 2), 4, 0.6, Infinity);
    expect(short.vGb).toBe(0.6);
    expect(short.bwMbPerS).toBe(LINK_CAPACITY_FORM.evaluate(k(0.5, -0.25, 2), 4, 0.6));
  });

  it("has no interior peak when both resources rise, and then keeps the first size that reaches the top", () => {
    // α = β = ½: both grow up to V₁ = 1.6 and are held after it; at k = 1, bw = 1/(1/(200√8) + 1/(400√8)) = 400√8/3.
    const best = LINK_CAPACITY_FORM.maximumOverV(k(0.5, 0.5, 1), 4, 10, Infinity);
    expect(best.vGb).toBe(1.6);
    expectClose(best.bwMbPerS, (400 * Math.sqrt(8)) / 3, 1e-13);
  });

  it("starts at each of three sharpnesses from the per-writer rate and the largest bandwidth", () => {
    // Cells (m, V, bw): the smallest m is 1 (rate 40), the largest mean 150; sizes per writer 0.1 and 0.2 GB.
    const cells = cellsOf([[1, 0.1, 40], [2, 0.4, 90], [4, 0.4, 150], [3, 0.6, 120]]);
    const fixed = LINK_CAPACITY_FORM.fixedFromData!(cells);
    expect(fixed).toEqual({ vRefGb: 0.1, writerSizeRefGb: 0.1, vMaxGb: 0.6, writerSizeMaxGb: 0.2 });
    expect(LINK_CAPACITY_FORM.starts!(cells, fixed).map((s) => [...s])).toEqual([2, 8, 32].map((sharpness) => [40, 0, 150, 0, sharpness, 0.1, 0.1, 0.6, 0.2]));
    // A cell at m = 0 has no size per writer (5/0 is not one): V/m = 0.2 from the others.
    expect(LINK_CAPACITY_FORM.fixedFromData!(cellsOf([[0, 5, 0], [2, 0.4, 3], [4, 0.8, 5]]))).toEqual({ vRefGb: 0.4, writerSizeRefGb: 0.2, vMaxGb: 5, writerSizeMaxGb: 0.2 });
    // No V > 0: 1 GB for every reference; a size per writer of 0 cannot be a reference either: 1, and the largest when above 1.
    expect(LINK_CAPACITY_FORM.fixedFromData!(cellsOf([[2, 0, 3], [4, 0, 5]]))).toEqual({ vRefGb: 1, writerSizeRefGb: 1, vMaxGb: 1, writerSizeMaxGb: 1 });
    expect(LINK_CAPACITY_FORM.fixedFromData!(cellsOf([[1, 0, 3], [1, 3, 5]]))).toEqual({ vRefGb: 3, writerSizeRefGb: 1, vMaxGb: 3, writerSizeMaxGb: 3 });
  });

  it("proves the per-process rate non-increasing only for α = 0 and β ≤ 0", () => {
    const proven = (alpha: number, beta: number) => LINK_CAPACITY_FORM.perProcessRateNonIncreasing(k(alpha, beta, 4), 20, 5);
    expect(proven(0, 0)).toBe(true);
    expect(proven(0, -0.3)).toBe(true);
    expect(proven(0, 1e-9)).toBe(false);
    expect(proven(1e-9, 0)).toBe(false);
    expect(proven(-0.2, -0.3)).toBe(false);
  });

  it("moves nothing without a capacity or at m ≤ 0, with a zero gradient", () => {
    const none = Float64Array.of(50, 0, 0, 0, 4, 0.2, 0.05, 1.6, 0.4);
    expect(LINK_CAPACITY_FORM.evaluate(none, 4, 1)).toBe(0);
    const out = new Float64Array(9).fill(7);
    expect(LINK_CAPACITY_FORM.gradient!(none, 4, 1, out)).toBe(0);
    expect([...out]).toEqual(new Array(9).fill(0));
    out.fill(7);
    expect(LINK_CAPACITY_FORM.gradient!(k(0.5, -0.5, 1), 0, 1, out)).toBe(0);
    expect([...out]).toEqual(new Array(9).fill(0));
    expect(LINK_CAPACITY_FORM.evaluate(k(0.5, -0.5, 1), 0, 1)).toBe(0);
    // Nor at m = 0 under the unbounded law (v₁ = ∞: V/m = ∞ would make the links 0·∞), nor with r = C = 0 (0·0^…).
    expect(LINK_CAPACITY_FORM.evaluate(Float64Array.of(50, 0.5, 400, -0.5, 4, 0.2, 0.05, Infinity, Infinity), 0, 1)).toBe(0);
    expect(LINK_CAPACITY_FORM.evaluate(Float64Array.of(0, 0.5, 0, -0.5, 4, 0.2, 0.05, 1.6, 0.4), 2, 1)).toBe(0);
    // At k = 1 (in series) with links = server = 200√2 (m = 4, V = 0.4): each carries half the weight, bw = 100√2,
    // ∂bw/∂r = bw·½/r and ∂bw/∂C = bw·½/C.
    LINK_CAPACITY_FORM.gradient!(k(0.5, -0.5, 1), 4, 0.4, out);
    expectClose(out[0]!, (100 * Math.SQRT2 * 0.5) / 50, 1e-13);
    expectClose(out[2]!, (100 * Math.SQRT2 * 0.5) / 400, 1e-13);
  });
});

describe("the empirical form's coefficients, weights and supremum", () => {
  // Two size series, w = 0.25 and 0.5 GB per writer, at m = 1 and 2 (sorted by w, then m): means 100, 150 and 120, 300 MB/s.
  // Written out here (not built by the form's own helpers, which these tests check), as a model file holds them.
  const coefficients: Record<string, number> = {
    cellCount: 4,
    m_1: 1, writerGb_1: 0.25, bw_1: 100, sd_1: 4, runs_1: 3,
    m_2: 2, writerGb_2: 0.25, bw_2: 150, sd_2: 5, runs_2: 3,
    m_3: 1, writerGb_3: 0.5, bw_3: 120, sd_3: 6, runs_3: 2,
    m_4: 2, writerGb_4: 0.5, bw_4: 300, sd_4: 7, runs_4: 4,
  };
  const cells = [[1, 0.25, 100, 4, 3], [2, 0.25, 150, 5, 3], [1, 0.5, 120, 6, 2], [2, 0.5, 300, 7, 4]];
  // The evaluation array: [n, then (m, w, bw, sd, runs) per cell].
  const k = Float64Array.from([4, ...cells.flat()]);

  it("names each cell's five coefficients and lays them out as [n, then (m, w, bw, sd, runs) per cell]", () => {
    expect(empiricalCellNames(3)).toEqual({ m: "m_3", writerGb: "writerGb_3", bw: "bw_3", sd: "sd_3", runs: "runs_3" });
    expect(EMPIRICAL_FORM.evaluationCoefficients!(coefficients)).toEqual(k);
    // A missing value reads as 0; no usable count, no cells.
    const { runs_4: _, ...withoutRuns } = coefficients;
    expect([...EMPIRICAL_FORM.evaluationCoefficients!(withoutRuns)].slice(-1)).toEqual([0]);
    expect([...EMPIRICAL_FORM.evaluationCoefficients!({})]).toEqual([0]);
  });

  it("accepts as a cell count only an integer from 1 to 100,000", () => {
    expect(empiricalCellCount({ cellCount: 4 })).toBe(4);
    expect(empiricalCellCount({ cellCount: 1 })).toBe(1);
    expect(empiricalCellCount({ cellCount: 100_000 })).toBe(100_000);
    for (const bad of [0, -1, 2.5, 100_001, Number.NaN, Infinity]) expect(empiricalCellCount({ cellCount: bad }), String(bad)).toBe(0);
    expect(empiricalCellCount({})).toBe(0);
    expect(empiricalCellCount({ cellCount: "4" } as unknown as Record<string, number>)).toBe(0);
  });

  it("describes each cell's parameters; only its mean is fitted", () => {
    const parameters = EMPIRICAL_FORM.parametersFor!(coefficients);
    expect(parameters).toHaveLength(1 + 5 * 4);
    expect(parameters[0]).toMatchObject({ name: "cellCount", fixed: true, internal: true });
    // Cell 2: m = 2, V/m = 0.25 GB = 250 MB.
    expect(parameters.slice(6, 11)).toEqual([
      { name: "m_2", symbol: "m_2", unit: "count", meaning: "writers of cell 2", fixed: true, internal: true },
      { name: "writerGb_2", symbol: "w_2", unit: "GB", meaning: "size per writer of cell 2", fixed: true, internal: true },
      { name: "bw_2", symbol: "bw_2", unit: "MB/s", meaning: "measured mean at m = 2, V/m = 250 MB" },
      { name: "sd_2", symbol: "sd_2", unit: "MB/s", meaning: "runs' standard deviation at m = 2, V/m = 250 MB", fixed: true, internal: true },
      { name: "runs_2", symbol: "n_2", unit: "count", meaning: "runs at m = 2, V/m = 250 MB", fixed: true, internal: true },
    ]);
    // Sizes print to 6 significant digits: 0.0123456789 GB = 12.3457 MB.
    expect(EMPIRICAL_FORM.parametersFor!({ cellCount: 1, m_1: 3, writerGb_1: 0.0123456789, bw_1: 1, sd_1: 0, runs_1: 2 })[3]!.meaning).toBe("measured mean at m = 3, V/m = 12.3457 MB");
    expect(EMPIRICAL_FORM.parametersFor!({ cellCount: 0 })).toHaveLength(1);
    expect(fittedParameterCount({ ...EMPIRICAL_FORM, parameters: parameters })).toBe(4);
  });

  it("weighs each mean by its share of the interpolation (the gradient)", () => {
    // m = 1.5, V/m = 0.375: halfway between m = 1 and 2 in each series, halfway between the series: ¼ each,
    // bw = (100 + 150 + 120 + 300)/4 = 167.5.
    const out = new Float64Array(k.length).fill(9);
    expect(EMPIRICAL_FORM.gradient!(k, 1.5, 1.5 * 0.375, out)).toBe(167.5);
    const expected = new Array(k.length).fill(0);
    for (let i = 0; i < 4; i++) expected[1 + 5 * i + 2] = 0.25;
    expect([...out]).toEqual(expected);
    // m = 3, V/m = 0.5: past the last m of the last series, held at its m = 2 cell alone.
    EMPIRICAL_FORM.gradient!(k, 3, 1.5, out);
    expected.fill(0);
    expected[1 + 5 * 3 + 2] = 1;
    expect([...out]).toEqual(expected);
    expect(EMPIRICAL_FORM.evaluate(k, 3, 1.5)).toBe(300);
  });

  it("answers a single cell's mean everywhere", () => {
    const one = Float64Array.of(1, 4, 0.25, 90, 3, 2);
    for (const [m, vGb] of [[1, 0.1], [4, 1], [9, 40]] as const) expect(EMPIRICAL_FORM.evaluate(one, m, vGb)).toBe(90);
  });

  it("moves nothing at m ≤ 0 or without cells", () => {
    expect(EMPIRICAL_FORM.evaluate(k, 0, 1)).toBe(0);
    expect(EMPIRICAL_FORM.evaluate(k, -2, 1)).toBe(0);
    expect(EMPIRICAL_FORM.evaluate(Float64Array.of(0), 2, 1)).toBe(0);
    // Below the smallest m of a series, its first mean; below the smallest size, the first series.
    expect(EMPIRICAL_FORM.evaluate(k, 0.5, 0.5 * 0.25)).toBe(100);
    expect(EMPIRICAL_FORM.evaluate(k, 2, 0.1)).toBe(150);
  });

  it("has its supremum over V at a measured size or an end of the interval", () => {
    // m = 2: V = 0 reads the first series (150), V = 2·0.25 = 0.5 → 150, V = 2·0.5 = 1 → 300, held above.
    expect(EMPIRICAL_FORM.maximumOverV(k, 2, 2, Infinity)).toEqual({ bwMbPerS: 300, vGb: 1 });
    // vMax = 0.75: the size 0.5 is beyond it; at V = 0.75 (V/m = 0.375), halfway between the series: 225.
    expect(EMPIRICAL_FORM.maximumOverV(k, 2, 0.75, Infinity)).toEqual({ bwMbPerS: 225, vGb: 0.75 });
    // Capped at 200: V = 1 is the first to reach it (150 below).
    expect(EMPIRICAL_FORM.maximumOverV(k, 2, 2, 200)).toEqual({ bwMbPerS: 200, vGb: 1 });
    // Capped at 100: V = 0 (150) already does.
    expect(EMPIRICAL_FORM.maximumOverV(k, 2, 2, 100)).toEqual({ bwMbPerS: 100, vGb: 0 });
    // m = 1: 100 up to V = 0.25, 120 from V = 0.5.
    expect(EMPIRICAL_FORM.maximumOverV(k, 1, 2, Infinity)).toEqual({ bwMbPerS: 120, vGb: 0.5 });
    // Measured rates can rise between cells: never proven non-increasing.
    expect(EMPIRICAL_FORM.perProcessRateNonIncreasing(k, 2, 1)).toBe(false);
  });
});
