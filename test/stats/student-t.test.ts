import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { regularizedIncompleteBeta } from "../../pipeline/stats/incomplete-beta";
import { studentTCdf, studentTQuantile } from "../../pipeline/stats/student-t";
import { expectClose } from "../helpers";
import { reference } from "../fit/reference";

describe("Student t distribution", () => {
  it("matches mpmath's 50-digit quantiles (and scipy's, within scipy's own error)", () => {
    for (const { p, dof, mpmath, scipy } of reference.tQuantiles) {
      // mpmath: findroot on the regularised incomplete beta at 50 digits (reference.py).
      // Worst case here is ν = 10^5 (a = 5·10^4 in the continued fraction): 2.9e-13.
      expectClose(studentTQuantile(p, dof), mpmath, 1e-12);
      // scipy.stats.t.ppf (scipy 1.10) is itself off from mpmath by up to 2.2e-9 relative
      // on these points (e.g. p = 0.995, ν = 3: 1.7e-9).
      expectClose(studentTQuantile(p, dof), scipy, 3e-9);
    }
  });

  it("matches mpmath's CDF", () => {
    for (const { t, dof, mpmath } of reference.tCdf) expectClose(studentTCdf(t, dof), mpmath, 1e-13, 1e-300);
  });

  it("agrees with closed forms at ν = 1 (Cauchy) and ν = 2", () => {
    // Cauchy: t = tan(π(p − ½)); ν = 2: t = (2p − 1)/√(2p(1 − p)).
    for (const p of [0.6, 0.9, 0.975, 0.999]) {
      expectClose(studentTQuantile(p, 1), Math.tan(Math.PI * (p - 0.5)), 1e-13);
      expectClose(studentTQuantile(p, 2), (2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 1e-13);
    }
  });

  it("inverts its CDF and is antisymmetric", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true }), fc.double({ min: 0.5, max: 1e5, noNaN: true }), (p, dof) => {
        const t = studentTQuantile(p, dof);
        expectClose(studentTCdf(t, dof), p, 1e-11, 1e-15);
        expectClose(studentTQuantile(1 - p, dof), -t, 1e-9, 1e-12);
      }),
      { numRuns: 200, seed: 42 },
    );
  });

  it("is exactly 0 at the median and ½ at t = 0, and NaN at t = NaN", () => {
    for (const dof of [0.5, 1, 7, 1e5]) {
      expect(studentTQuantile(0.5, dof)).toBe(0);
      expect(studentTCdf(0, dof)).toBe(0.5);
      expect(studentTCdf(Number.NaN, dof)).toBeNaN();
    }
  });

  it("keeps t ≈ 0 accurate just off the median (Cauchy: t = tan(π(p − ½)))", () => {
    // p = ½ + 10^-9 is the double 0.500000001 (exactly representable to 6e-17): tan(π·(p − ½)) by the closed form.
    // Relative to t itself (no absolute floor): written on the upper tail, S(t) ≈ ½ would leave t ≈ 3e-9 only 1e-8 of its digits.
    for (const p of [0.5 + 1e-9, 0.5 - 1e-9, 0.7, 0.74, 0.75, 0.76]) expectClose(studentTQuantile(p, 1), Math.tan(Math.PI * (p - 0.5)), 1e-12, 0);
  });

  it("refuses impossible arguments", () => {
    expect(() => studentTQuantile(0, 5)).toThrow(/p must be in \(0, 1\)/);
    expect(() => studentTQuantile(1, 5)).toThrow(/p must be in \(0, 1\)/);
    expect(() => studentTQuantile(0.9, 0)).toThrow(/degrees of freedom/);
    expect(() => studentTCdf(1, -1)).toThrow("Student t: degrees of freedom must be finite and > 0, got -1");
    expect(() => studentTCdf(1, Infinity)).toThrow("Student t: degrees of freedom must be finite and > 0, got Infinity");
    expect(() => studentTQuantile(0.9, Number.NaN)).toThrow("Student t: degrees of freedom must be finite and > 0, got NaN");
    expect(() => studentTQuantile(Number.NaN, 3)).toThrow("Student t quantile: p must be in (0, 1), got NaN");
  });
});

describe("regularised incomplete beta", () => {
  it("matches exact values", () => {
    // I_x(a, 1) = x^a; I_x(1, b) = 1 − (1 − x)^b; I_½(a, a) = ½; I_½(2, 3) = 11/16 (hand sum).
    expectClose(regularizedIncompleteBeta(0.3, 4, 1), 0.3 ** 4, 1e-14);
    expectClose(regularizedIncompleteBeta(0.3, 1, 2.5), 1 - 0.7 ** 2.5, 1e-14);
    expectClose(regularizedIncompleteBeta(0.5, 7.5, 7.5), 0.5, 1e-14);
    expectClose(regularizedIncompleteBeta(0.5, 2, 3), 11 / 16, 1e-14);
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
  });

  it("refuses arguments outside its domain", () => {
    expect(() => regularizedIncompleteBeta(1.5, 2, 3)).toThrow(/x must be in \[0, 1\]/);
    expect(() => regularizedIncompleteBeta(0.5, 0, 3)).toThrow(/a and b must be finite and > 0/);
  });
});
