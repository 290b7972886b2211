/**
 * ln B(a, b) and the regularised incomplete beta I_x(a, b) (pipeline/stats/incomplete-beta.ts)
 * against mpmath at 50 digits (test/fit/reference/incomplete-beta.py → incomplete-beta-values.json),
 * on both sides of the continued fraction's switch, with one argument up to the 5·10^4 of a t
 * distribution with 10^5 degrees of freedom (the other ½), and with y = 1 − x passed exactly where x rounds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { logBeta, regularizedIncompleteBeta } from "../../pipeline/stats/incomplete-beta";
import { expectClose } from "../helpers";

interface IncompleteBetaReference {
  logBeta: { a: number; b: number; mpmath: number }[];
  incompleteBeta: { x: number; y: number; a: number; b: number; exact: "x" | "y"; mpmath: number }[];
}

const reference = JSON.parse(readFileSync(join(__dirname, "..", "fit", "reference", "incomplete-beta-values.json"), "utf8")) as IncompleteBetaReference;

describe("ln B(a, b)", () => {
  it("matches mpmath below and above the switch to Stirling's series (max(a, b) = 20)", () => {
    for (const { a, b, mpmath } of reference.logBeta) {
      // Below the switch, ln Γ(a) + ln Γ(b) − ln Γ(a + b) loses |ln Γ(a)|·ε (ln Γ(19.5) = 39: 1.2e-14 relative at (19.5, ½));
      // above it nothing cancels.
      expectClose(logBeta(a, b), mpmath, Math.max(a, b) < 20 ? 2e-14 : 2e-15, 1e-15);
      expect(logBeta(b, a)).toBe(logBeta(a, b));
    }
  });

  it("agrees with closed forms: B(a, 1) = 1/a and B(a, 2) = 1/(a(a + 1))", () => {
    for (const a of [3, 19, 21, 64, 1000, 1e5]) {
      expectClose(logBeta(a, 1), -Math.log(a), 1e-15);
      expectClose(logBeta(a, 2), -Math.log(a * (a + 1)), 1e-15);
    }
  });
});

describe("the regularised incomplete beta", () => {
  // One of a, b up to 10^5 as in the t distribution (the other ½ or 1); not both large, where ln B(a, b)'s
  // ln Γ(min(a, b)) term is itself huge (a = b = 5·10^4: 1.5e-10 relative) and no t distribution goes.
  it("matches mpmath on both sides of x = (a + 1)/(a + b + 2)", () => {
    for (const { x, y, a, b, exact, mpmath } of reference.incompleteBeta) {
      // The t distribution passes y beside x; with the default y = 1 − x the truth is at x.
      const value = exact === "y" ? regularizedIncompleteBeta(x, a, b, y) : regularizedIncompleteBeta(x, a, b);
      expectClose(value, mpmath, 1e-13, 1e-300);
    }
  });

  it("keeps the relative accuracy of x^a near x = 1 when y is passed: I_x(a, 1) = x^a", () => {
    // x = 1 − 10^-7 rounds by up to 5.6e-17; ln x from that x would be off by 5.6e-10 relative, and x^a with
    // a = 10^5 by 5.6e-12. From y: x^a = exp(a·ln(1 − y)) = exp(10^5·log1p(−10^-7)).
    const y = 1e-7;
    expectClose(regularizedIncompleteBeta(1 - y, 1e5, 1, y), Math.exp(1e5 * Math.log1p(-y)), 1e-14);
    // And 1 − (1 − x)^b = I_x(1, b) with x = 10^-7, b = 10^5: −expm1(b·log1p(−x)).
    expectClose(regularizedIncompleteBeta(y, 1, 1e5), -Math.expm1(1e5 * Math.log1p(-y)), 1e-14);
  });

  it("is 0 at x = 0 and 1 at y = 0, and refuses arguments outside its domain", () => {
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
    expect(regularizedIncompleteBeta(0.5, 2, 3, 0)).toBe(1);
    for (const x of [-1e-12, 1 + 1e-12, Number.NaN]) expect(() => regularizedIncompleteBeta(x, 2, 3)).toThrow(`incomplete beta: x must be in [0, 1], got ${x}`);
    for (const [a, b] of [[0, 3], [2, 0], [-1, 3], [2, Infinity], [Infinity, 2], [Number.NaN, 2], [2, Number.NaN]]) {
      expect(() => regularizedIncompleteBeta(0.5, a!, b!)).toThrow(`incomplete beta: a and b must be finite and > 0, got a=${a}, b=${b}`);
    }
  });
});
