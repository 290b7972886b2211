/**
 * Values of the failure laws at the edges the reference tables (laws.test.ts,
 * derived-laws.test.ts) do not reach: times ≤ 0, tiny times where F must keep its relative
 * accuracy, the specs and descriptions that reports print, and the refusals. Each expected
 * value is a closed form or a hand computation written next to it; numbers quoted with many
 * digits are from mpmath at 40 digits (the expression is given with each).
 */
import { describe, expect, it } from "vitest";
import { competingLaw, createLaw, partialExpectationBetween, probabilityBetween, residualLaw, tabulateLaw, type FailureLaw, type LawSpec } from "../../pipeline/place/laws";
import { integrate, integrateFromZero, integrateToInfinity, isAnalyticLaw } from "../../pipeline/place/laws/quadrature";
import type { Random } from "../../pipeline/shared/random";
import { regularizedGammaP, regularizedGammaQ, standardNormalCdf, standardNormalPdf, standardNormalQuantile } from "../../pipeline/stats";
import { expectClose, refusal } from "../helpers";

const HOUR = 3600;

// Laws are built inside the tests, not at collection: code run at collection makes every
// mutant in it "static" for the mutation run, which then runs all tests for each.
/** Two exponentials: the minimum is the exponential of rate 1/7200 + 1/3600 = 1/2400 per second. */
function twoExponentials() {
  const slow = createLaw({ kind: "exponential", ratePerSecond: 1 / 7200 });
  const fast = createLaw({ kind: "exponential", ratePerSecond: 1 / 3600 });
  return { slow, both: competingLaw([slow, fast]) };
}

describe("competing risks", () => {
  it("names its parts in its spec and description", () => {
    const { both } = twoExponentials();
    expect(both.spec).toEqual({
      kind: "competing",
      laws: [
        { kind: "exponential", ratePerSecond: 1 / 7200 },
        { kind: "exponential", ratePerSecond: 1 / 3600 },
      ],
    });
    // 1/7200 = 0.000138889 and 1/3600 = 0.000277778 to 6 digits.
    expect(both.description).toBe("competing risks of exponential(rate 0.000138889/s, mean 7200 s) and exponential(rate 0.000277778/s, mean 3600 s)");
  });

  it("keeps F's relative accuracy at tiny times (1 − S would lose it)", () => {
    const { both } = twoExponentials();
    // F(t) = 1 − e^{−t/2400}; mpmath -expm1(-t/2400): 1e-6 s → 4.1666666657986111112e-10, 1e-3 s → 4.1666657986112316744e-7.
    expectClose(both.cdf(1e-6), 4.1666666657986111112e-10, 1e-12, 0);
    expectClose(both.cdf(1e-3), 4.1666657986112316744e-7, 1e-12, 0);
  });

  it("at t = 0 has the density Σ λ_i, and ∫_t^∞ s f = the mean at and below 0", () => {
    const { both } = twoExponentials();
    // f(0) = Σ_i f_i(0) Π_{j≠i} S_j(0) = 1/7200 + 1/3600 = 1/2400.
    expectClose(both.pdf(0), 1 / 2400, 1e-14);
    expect(both.pdf(-1)).toBe(0);
    // ∫_t^∞ s f(s) ds for t ≤ 0 is the whole mean (no mass below 0), the very number meanSeconds holds.
    expect(both.upperPartialExpectation(0)).toBe(both.meanSeconds);
    expect(both.upperPartialExpectation(-5)).toBe(both.meanSeconds);
    expectClose(both.meanSeconds, 2400, 1e-10);
    expect(both.cdf(-1)).toBe(0);
    expect(both.survival(-1)).toBe(1);
    expect(both.partialExpectation(-1)).toBe(0);
  });

  it("refuses no law, and an empirical law (kinks its quadrature cannot resolve)", () => {
    const { slow } = twoExponentials();
    expect(refusal(() => competingLaw([]))).toBe("competing risks: give at least one law");
    const empirical = createLaw({ kind: "empirical", durationsSeconds: [10, 20, 30] });
    expect(refusal(() => competingLaw([slow, empirical]))).toMatch(/^competing risks with empirical\(3 durations, .*\): its CDF has kinks \(an empirical law\)/);
  });
});

/** A Random that hands out the given uniforms and normals in order (and fails when a law asks for more). */
function scripted(uniforms: number[], normals: number[] = []): Random {
  const take = (list: number[], what: string) => {
    const value = list.shift();
    if (value === undefined) throw new Error(`scripted random: no ${what} left`);
    return value;
  };
  return {
    next: () => take(uniforms, "uniform"),
    normal: () => take(normals, "normal"),
    uniform: () => expect.fail("not used by the laws"),
    integer: () => expect.fail("not used by the laws"),
  };
}

/** Below 0 every law has F = 0, S = 1, f = 0, no partial expectation and the whole mean above. */
function expectNothingBelowZero(law: FailureLaw): void {
  for (const t of [-1, -3600]) {
    expect(law.cdf(t), `${law.description} F(${t})`).toBe(0);
    expect(law.survival(t), `${law.description} S(${t})`).toBe(1);
    expect(law.pdf(t), `${law.description} f(${t})`).toBe(0);
    expect(law.partialExpectation(t), `${law.description} M(${t})`).toBe(0);
    expect(law.upperPartialExpectation(t), `${law.description} upper M(${t})`).toBe(law.meanSeconds);
  }
  expect(law.cdf(0)).toBe(0);
  expect(law.survival(0)).toBe(1);
  expect(law.partialExpectation(0)).toBe(0);
  expect(law.upperPartialExpectation(0)).toBe(law.meanSeconds);
}

describe("exponential", () => {
  it("has f(0) = λ, nothing below 0, and a description with rate and mean", () => {
    const law = createLaw({ kind: "exponential", ratePerSecond: 1e-4 });
    expect(law.description).toBe("exponential(rate 0.0001/s, mean 10000 s)");
    expect(law.pdf(0)).toBe(1e-4);
    expectNothingBelowZero(law);
  });

  it("samples by inversion: u = 1/2 gives the median ln 2 / λ", () => {
    const law = createLaw({ kind: "exponential", ratePerSecond: 1e-4 });
    expectClose(law.sample(scripted([0.5])), Math.LN2 * 1e4, 1e-15);
    // u = 1 − e^{−2}: T = 2/λ.
    expectClose(law.sample(scripted([-Math.expm1(-2)])), 2e4, 1e-14);
  });

  it("refuses a rate that is not finite and > 0", () => {
    expect(refusal(() => createLaw({ kind: "exponential", ratePerSecond: Infinity }))).toBe(
      "exponential law: rate must be a finite number > 0 (per second), got Infinity; e.g. exp:rate=1e-4 or exp:mean=10000",
    );
    expect(refusal(() => createLaw({ kind: "exponential", ratePerSecond: NaN }))).toMatch(/got NaN/);
  });
});

describe("Weibull", () => {
  it("has f(0) = ∞, 1/λ or 0 for a shape below, at or above 1", () => {
    expect(createLaw({ kind: "weibull", shape: 0.5, scaleSeconds: 100 }).pdf(0)).toBe(Infinity);
    expect(createLaw({ kind: "weibull", shape: 1, scaleSeconds: 100 }).pdf(0)).toBe(0.01);
    expect(createLaw({ kind: "weibull", shape: 2, scaleSeconds: 100 }).pdf(0)).toBe(0);
    // Shape 1 is the exponential of mean λ: f(t) = e^{−t/λ}/λ.
    expectClose(createLaw({ kind: "weibull", shape: 1, scaleSeconds: 100 }).pdf(50), Math.exp(-0.5) / 100, 1e-14);
  });

  it("has nothing below 0 (for a shape whose power of a negative time is NaN) and names shape and scale", () => {
    const law = createLaw({ kind: "weibull", shape: 0.431, scaleSeconds: 1.682 * HOUR });
    expect(law.description).toBe("Weibull(shape 0.431, scale 6055.2 s)");
    expectNothingBelowZero(law);
    // The DP's tables at times ≤ 0 too.
    const times = Float64Array.from([-5, 0, 6055.2]);
    const cdf = new Float64Array(3);
    const moment = new Float64Array(3);
    tabulateLaw(law, times, cdf, moment);
    expect([...cdf.slice(0, 2), ...moment.slice(0, 2)]).toEqual([0, 0, 0, 0]);
    expectClose(cdf[2]!, -Math.expm1(-1), 1e-14); // F(λ) = 1 − 1/e
  });

  it("samples by inversion: T = λ (−ln(1 − u))^{1/k}", () => {
    const law = createLaw({ kind: "weibull", shape: 2, scaleSeconds: 100 });
    // u = 1/2: 100 √(ln 2) = 83.25546111576977 s.
    expectClose(law.sample(scripted([0.5])), 100 * Math.sqrt(Math.LN2), 1e-15);
  });

  it("refuses shapes and scales that are not finite and > 0, and a shape so small that the mean overflows", () => {
    expect(refusal(() => createLaw({ kind: "weibull", shape: Infinity, scaleSeconds: 1 }))).toBe(
      "Weibull law: shape must be a finite number > 0, got Infinity; e.g. weibull:shape=0.431,scale=6055",
    );
    expect(refusal(() => createLaw({ kind: "weibull", shape: 1, scaleSeconds: Infinity }))).toBe(
      "Weibull law: scale must be a finite number > 0 (seconds), got Infinity; e.g. weibull:shape=0.431,scale=6055",
    );
    // Mean λ Γ(1 + 1/k): Γ(1001) = 1000! ≈ 4e2567 overflows a double.
    expect(refusal(() => createLaw({ kind: "weibull", shape: 0.001, scaleSeconds: 1 }))).toBe(
      "Weibull law: shape 0.001 is too small, the mean overflows; use a shape ≥ 0.01",
    );
  });
});

describe("gamma", () => {
  it("has f(0) = ∞, 1/θ or 0 for a shape below, at or above 1, and nothing below 0", () => {
    expect(createLaw({ kind: "gamma", shape: 0.5, scaleSeconds: 10 }).pdf(0)).toBe(Infinity);
    expect(createLaw({ kind: "gamma", shape: 1, scaleSeconds: 10 }).pdf(0)).toBe(0.1);
    expect(createLaw({ kind: "gamma", shape: 2, scaleSeconds: 10 }).pdf(0)).toBe(0);
    // Shape 2: f(t) = t e^{−t/θ} / θ², at t = θ: e^{−1}/θ.
    expectClose(createLaw({ kind: "gamma", shape: 2, scaleSeconds: 10 }).pdf(10), Math.exp(-1) / 10, 1e-14);
    const law = createLaw({ kind: "gamma", shape: 0.34, scaleSeconds: 94.35 * HOUR });
    expect(law.description).toBe("gamma(shape 0.34, scale 339660 s)");
    expectNothingBelowZero(law);
  });

  it("draws by Marsaglia and Tsang's squeeze: rejects v ≤ 0 before drawing u, and u above the bound", () => {
    // Shape 2: d = 2 − 1/3, c = 1/√(9d) = 1/√15, v = (1 + cx)³, accepted when ln u < x²/2 + d − dv + d ln v.
    // x = 0.5: v = 1.43945, bound −3.148e-4; x = 0.3: v = 1.25084, bound −4.238e-5 (hand-checked in Python).
    // x = −5 gives 1 + cx < 0 and x = −1/c gives v = 0: both rejected without a uniform.
    const law = createLaw({ kind: "gamma", shape: 2, scaleSeconds: 10 });
    const c = 1 / Math.sqrt(9 * (2 - 1 / 3));
    const accepted = 10 * (5 / 3) * (1 + c * 0.3) ** 3; // θ d v at x = 0.3
    // u = 1 − 1e-4, ln u ≈ −1e-4: below x = 0.3's bound.
    expectClose(law.sample(scripted([1e-4], [-5, -1 / c, 0.3])), accepted, 1e-14);
    // u = 1 (next() = 0) is above x = 0.5's bound: rejected, then x = 0.3 accepted.
    expectClose(law.sample(scripted([0, 1e-4], [0.5, 0.3])), accepted, 1e-14);
  });

  it("draws shape 1 directly (d = 2/3, c = 1/√6), one normal and one uniform", () => {
    // x = 0.5: v = (1 + 0.5/√6)³, bound −7.5e-4 > ln(1/2): accepted, T = θ d v.
    const law = createLaw({ kind: "gamma", shape: 1, scaleSeconds: 10 });
    expectClose(law.sample(scripted([0.5], [0.5])), 10 * (2 / 3) * (1 + 0.5 / Math.sqrt(6)) ** 3, 1e-14);
  });

  it("draws a shape below 1 as a draw of shape k + 1 times U^{1/k}", () => {
    // Shape 0.5: the shape-1.5 draw (d = 7/6, x = 0.5, u = 1/2 accepted) times (1 − 0.75)^{1/0.5} = 1/16.
    const law = createLaw({ kind: "gamma", shape: 0.5, scaleSeconds: 10 });
    const dv = (7 / 6) * (1 + 0.5 / Math.sqrt(10.5)) ** 3;
    expectClose(law.sample(scripted([0.5, 0.75], [0.5])), (10 * dv) / 16, 1e-14);
  });

  it("refuses shapes and scales that are not finite and > 0", () => {
    expect(refusal(() => createLaw({ kind: "gamma", shape: Infinity, scaleSeconds: 1 }))).toBe(
      "gamma law: shape must be a finite number > 0, got Infinity; e.g. gamma:shape=0.5,scale=20,unit=h",
    );
    expect(refusal(() => createLaw({ kind: "gamma", shape: 1, scaleSeconds: Infinity }))).toBe(
      "gamma law: scale must be a finite number > 0 (seconds), got Infinity; e.g. gamma:shape=0.5,scale=20,unit=h",
    );
    expect(refusal(() => createLaw({ kind: "gamma", shape: 1, scaleSeconds: 0 }))).toMatch(/scale must be .* got 0;/);
    expect(refusal(() => createLaw({ kind: "gamma", shape: 0, scaleSeconds: 1 }))).toMatch(/shape must be .* got 0;/);
    expect(refusal(() => createLaw({ kind: "gamma", shape: -1, scaleSeconds: 1 }))).toMatch(/shape must be .* got -1;/);
  });
});

describe("log-normal", () => {
  it("has f(e^μ) = 1/(e^μ σ √(2π)), nothing at or below 0, and its median in the description", () => {
    const law = createLaw({ kind: "lognormal", mu: 8.5, sigma: 1.2 });
    // e^8.5 = 4914.768840299134 s.
    expect(law.description).toBe("log-normal(mu 8.5, sigma 1.2; median 4914.77 s)");
    expectClose(law.pdf(Math.exp(8.5)), 1 / (Math.exp(8.5) * 1.2 * Math.sqrt(2 * Math.PI)), 1e-14);
    expect(law.pdf(0)).toBe(0);
    expectNothingBelowZero(law);
  });

  it("samples e^{μ + σ z} from a standard normal z", () => {
    const law = createLaw({ kind: "lognormal", mu: 2, sigma: 3 });
    expectClose(law.sample(scripted([], [0.5])), Math.exp(3.5), 1e-15);
  });

  it("refuses a μ that is not finite, a σ that is not finite and > 0, and a mean that overflows", () => {
    expect(refusal(() => createLaw({ kind: "lognormal", mu: NaN, sigma: 1 }))).toBe(
      "log-normal law: mu must be a finite number (mean of ln seconds), got NaN; e.g. lognormal:mu=8,sigma=1.5",
    );
    expect(refusal(() => createLaw({ kind: "lognormal", mu: 1, sigma: Infinity }))).toBe(
      "log-normal law: sigma must be a finite number > 0, got Infinity; e.g. lognormal:mu=8,sigma=1.5",
    );
    // e^{708 + 2} overflows (the largest double is ≈ e^709.78).
    expect(refusal(() => createLaw({ kind: "lognormal", mu: 708, sigma: 2 }))).toBe(
      "log-normal law: the mean e^(mu + sigma²/2) overflows for mu=708, sigma=2",
    );
  });
});

describe("hyper-exponential", () => {
  // p = (1/4, 3/4), rates 1/s and 1/(100 s): mean 1/4 + 75 = 75.25 s.
  const spec = { kind: "hyperexponential", probabilities: [0.25, 0.75], ratesPerSecond: [1, 0.01], reading: "rate" } as const;

  it("has f(0) = Σ p_i λ_i, nothing below 0, and names its phases", () => {
    const law = createLaw({ ...spec, probabilities: [...spec.probabilities], ratesPerSecond: [...spec.ratesPerSecond] });
    expect(law.description).toBe("hyper-exponential(p 0.25/0.75, means 1/100 s; μ read as rates)");
    expectClose(law.meanSeconds, 75.25, 1e-15);
    expectClose(law.pdf(0), 0.25 + 0.0075, 1e-15);
    expectNothingBelowZero(law);
  });

  it("samples a phase by the first uniform (u < p_1: phase 1), then that phase's exponential", () => {
    const law = createLaw({ ...spec, probabilities: [0.25, 0.75], ratesPerSecond: [1, 0.01] });
    expectClose(law.sample(scripted([0.1, 0.5])), Math.LN2, 1e-15);
    // u = p_1 exactly is past phase 1.
    expectClose(law.sample(scripted([0.25, 0.5])), 100 * Math.LN2, 1e-15);
    expectClose(law.sample(scripted([0.99, 0.5])), 100 * Math.LN2, 1e-15);
    // Probabilities may sum to 1 − 5e-10 (within 1e-9): a u past their sum still takes the last phase.
    const short = createLaw({ kind: "hyperexponential", probabilities: [0.5, 0.4999999995], ratesPerSecond: [1, 0.01], reading: "rate" });
    expectClose(short.sample(scripted([0.9999999999, 0.5])), 100 * Math.LN2, 1e-15);
  });

  it("takes probabilities 0 and 1 (the ends of [0, 1])", () => {
    // p = (0, 1): the law of phase 2 alone, mean 100 s; one phase of probability 1: mean 1 s.
    expectClose(createLaw({ kind: "hyperexponential", probabilities: [0, 1], ratesPerSecond: [1, 0.01], reading: "rate" }).meanSeconds, 100, 1e-15);
    expectClose(createLaw({ kind: "hyperexponential", probabilities: [1], ratesPerSecond: [1], reading: "rate" }).meanSeconds, 1, 1e-15);
  });

  it("refuses mismatched lists, probabilities outside [0, 1], rates that are not finite and > 0, and sums other than 1", () => {
    const example = "e.g. hyperexp:p=0.4,0.6;mu=0.031,1.3;param=rate;unit=h";
    const law = (probabilities: number[], ratesPerSecond: number[], reading: "rate" | "mean" = "rate") =>
      createLaw({ kind: "hyperexponential", probabilities, ratesPerSecond, reading });
    expect(refusal(() => law([], []))).toBe(`hyper-exponential law: needs as many probabilities as phase parameters (≥ 1), got 0 and 0; ${example}`);
    expect(refusal(() => law([1], [1, 2]))).toBe(`hyper-exponential law: needs as many probabilities as phase parameters (≥ 1), got 1 and 2; ${example}`);
    expect(refusal(() => law([1.5, -0.5], [1, 2]))).toBe(`hyper-exponential law: probability p1 must be in [0, 1], got 1.5; ${example}`);
    expect(refusal(() => law([0.5, -0.5, 1], [1, 2, 3]))).toBe(`hyper-exponential law: probability p2 must be in [0, 1], got -0.5; ${example}`);
    expect(refusal(() => law([0.5, 0.5], [1, Infinity], "mean"))).toBe(`hyper-exponential law: phase 2's mean must give a finite rate > 0, got Infinity/s; ${example}`);
    expect(refusal(() => law([0.5, 0.5], [0, 1]))).toMatch(/phase 1's rate must give a finite rate > 0, got 0\/s/);
    expect(refusal(() => law([0.5, 0.4], [1, 2]))).toBe(`hyper-exponential law: probabilities must sum to 1, got 0.9; ${example}`);
    // Within 1e-9 of 1 is 1.
    expect(law([0.5, 0.5 + 5e-10], [1, 2]).meanSeconds).toBeCloseTo(0.75, 9);
  });
});

describe("P(a < T ≤ b) and ∫_a^b t f(t) dt from the tail that keeps the digits", () => {
  // The exponential of rate 1/s: P(a < T ≤ b) = e^{−a} − e^{−b}, ∫_a^b t e^{−t} dt = e^{−a}(1 + a) − e^{−b}(1 + b);
  // values from mpmath (test/place/reference/laws_values.py).
  it("near 0 (from F) and far in the tail (from S)", () => {
    const law = createLaw({ kind: "exponential", ratePerSecond: 1 });
    expectClose(probabilityBetween(law, 1e-10, 2e-10), 9.9999999985000000001e-11, 1e-12, 0);
    expectClose(probabilityBetween(law, 40, 41), 2.6854720659566002272e-18, 1e-12, 0);
    expectClose(partialExpectationBetween(law, 1e-5, 2e-5), 1.4999766668541656333e-10, 1e-12, 0);
    expectClose(partialExpectationBetween(law, 40, 41), 1.0854147251488562055e-16, 1e-12, 0);
    expect(probabilityBetween(law, 2, 2)).toBe(0);
    expect(probabilityBetween(law, 3, 2)).toBe(0);
    expect(partialExpectationBetween(law, 2, 2)).toBe(0);
    expect(partialExpectationBetween(law, 3, 2)).toBe(0);
  });

  it("compares ∫_0^b t f with half the mean (in seconds, not per second)", () => {
    // Mean 1e4 s: ∫_0^{1.5} t f ≈ 1.1e-4 s is far below 5e3 s, so the lower difference is taken, exact;
    // the upper one would cancel two values ≈ 1e4 s to 2e-8 relative. mpmath: 6.2492083841123854888e-5.
    const law = createLaw({ kind: "exponential", ratePerSecond: 1e-4 });
    expectClose(partialExpectationBetween(law, 1, 1.5), 6.2492083841123854888e-5, 1e-12, 0);
  });
});

describe("residual law", () => {
  // ∫_0^t s f(s) ds of the exponential of mean 7200 s at t = 1 s and 0.01 s (mpmath, test/place/reference/laws_values.py).
  const PARTIAL_AT_1 = 0.00006943801473817775448;
  const PARTIAL_AT_001 = 6.9444380144066411596e-9;
  it("names its base and age, is its base at age 0, and has nothing below 0", () => {
    const base = createLaw({ kind: "exponential", ratePerSecond: 1 / 7200 });
    const aged = residualLaw(base, 3600);
    expect(aged.spec).toEqual({ kind: "residual", base: { kind: "exponential", ratePerSecond: 1 / 7200 }, ageSeconds: 3600 });
    expect(aged.description).toBe("exponential(rate 0.000138889/s, mean 7200 s) at age 3600 s");
    expect(residualLaw(base, 0).description).toBe(base.description);
    // Memoryless: f_a(0) = f(a)/S(a) = λ.
    expectClose(aged.pdf(0), 1 / 7200, 1e-14);
    expectNothingBelowZero(aged);
  });

  it("integrates F_a and ∫_0^t s f_a numerically for t ≤ a, where the closed form would cancel", () => {
    // An exponential is memoryless, so at age a = 5e4 s the partial expectation is the exponential's own,
    // m (1 − e^{−t/m}(1 + t/m)) for m = 7200 s (mpmath, test/place/reference/laws_values.py). The closed
    // form ∫ u f − a·ΔF cancels to a relative error of about ε·a·m/t² (7e-8 at t = 1 s, 7e-4 at 0.01 s);
    // the quadrature's, from rounding u − a, is about ε·a/t (1e-11 and 1e-9).
    const aged = residualLaw(createLaw({ kind: "exponential", ratePerSecond: 1 / 7200 }), 5e4);
    expectClose(aged.partialExpectation(1), PARTIAL_AT_1, 1e-9, 0);
    expectClose(aged.partialExpectation(0.01), PARTIAL_AT_001, 1e-7, 0);
    const times = Float64Array.from([1, 1e-6, 0.01]);
    const cdf = new Float64Array(3);
    const moment = new Float64Array(3);
    tabulateLaw(aged, times, cdf, moment);
    expectClose(moment[0]!, PARTIAL_AT_1, 1e-9, 0);
    expectClose(moment[2]!, PARTIAL_AT_001, 1e-7, 0);
    expectClose(cdf[1]!, -Math.expm1(-1e-6 / 7200), 1e-5, 0); // a + t itself is rounded to ε·a: 3e-7 of t
  });

  it("samples by bisection on F_a (means above and below 1 s)", () => {
    // Memoryless again: the quantile at u is −m ln(1 − u).
    const slow = residualLaw(createLaw({ kind: "exponential", ratePerSecond: 1 / 100 }), 50);
    expectClose(slow.sample(scripted([0.5])), 100 * Math.LN2, 1e-10);
    // Rate 10/s at age 1 s: quantile(0.99) = ln(100)/10 = 0.4605170185988091368 s.
    const fast = residualLaw(createLaw({ kind: "exponential", ratePerSecond: 10 }), 1);
    expectClose(fast.sample(scripted([0.99])), 0.4605170185988091368, 1e-10);
  });

  it("refuses an age that is not finite and ≥ 0, or that the base law cannot reach", () => {
    const base = createLaw({ kind: "exponential", ratePerSecond: 1 });
    expect(refusal(() => residualLaw(base, Infinity))).toBe("residual law: the age must be a finite number of seconds ≥ 0, got Infinity");
    expect(refusal(() => residualLaw(base, NaN))).toMatch(/got NaN$/);
    const empirical = createLaw({ kind: "empirical", durationsSeconds: [10, 20, 30] });
    expect(refusal(() => residualLaw(empirical, 31))).toBe(
      `residual law of ${empirical.description} at age 31 s: the base law gives P(T > 31 s) = 0, so no host survives to that age; use a smaller age`,
    );
  });
});

describe("incomplete gamma function", () => {
  // mpmath gammainc(a, 0, x, regularized=True) and gammainc(a, x, inf, regularized=True)
  // (test/place/reference/laws_values.py): both sides of x = a + 1 (series and continued fraction).
  const CASES: [number, number, number, number][] = [
    [0.5, 0.3, 0.56142197391900014495, 0.43857802608099985505],
    [0.5, 4, 0.99532226501895273416, 0.0046777349810472658379],
    [3.3, 2, 0.25833946996562778286, 0.74166053003437221714],
    [3.3, 7, 0.95844631477094706743, 0.041553685229052932566],
    [20, 15, 0.1247812150325248227, 0.8752187849674751773],
    [20, 30, 0.97812653155860914668, 0.021873468441390853316],
  ];
  it("P and Q against mpmath", () => {
    for (const [a, x, p, q] of CASES) {
      expectClose(regularizedGammaP(a, x), p, 1e-13, 0);
      expectClose(regularizedGammaQ(a, x), q, 1e-13, 0);
    }
    // P(2, x) ≈ x²/2 for tiny x: 5e-41 at 1e-20.
    expectClose(regularizedGammaP(2, 1e-20), 5e-41, 1e-13, 0);
    expect(regularizedGammaQ(2, 1e-20)).toBe(1);
  });

  it("at x ≤ 0 and x = ∞, and when Q underflows", () => {
    for (const x of [0, -1]) {
      expect(regularizedGammaP(2.5, x)).toBe(0);
      expect(regularizedGammaQ(2.5, x)).toBe(1);
    }
    expect(regularizedGammaP(2.5, Infinity)).toBe(1);
    expect(regularizedGammaQ(2.5, Infinity)).toBe(0);
    // Q(2, x) = e^{−x}(1 + x): 0 in doubles at x = 1e308 and at x = 800 (e^{−800} ≈ 3.7e-348).
    expect(regularizedGammaQ(2, 1e308)).toBe(0);
    expect(regularizedGammaP(2, 1e308)).toBe(1);
    expect(regularizedGammaQ(2, 800)).toBe(0);
  });

  it("refuses a ≤ 0, a = ∞ and x = NaN", () => {
    expect(() => regularizedGammaP(0, 1)).toThrow(new RangeError("incomplete gamma needs a > 0, got 0"));
    expect(() => regularizedGammaQ(Infinity, 1)).toThrow(new RangeError("incomplete gamma needs a > 0, got Infinity"));
    expect(() => regularizedGammaQ(1, NaN)).toThrow(new RangeError("incomplete gamma got x = NaN"));
  });
});

describe("standard normal", () => {
  it("Φ and φ against mpmath (ncdf, npdf)", () => {
    expectClose(standardNormalCdf(0.5), 0.69146246127401310364, 1e-14, 0);
    expectClose(standardNormalCdf(-0.5), 0.30853753872598689636, 1e-14, 0);
    expectClose(standardNormalCdf(3), 0.99865010196836990547, 1e-14, 0);
    expectClose(standardNormalCdf(-3), 0.0013498980316300945267, 1e-13, 0);
    expectClose(standardNormalCdf(-37), 5.7255712225245768227e-300, 1e-12, 0);
    expect(standardNormalCdf(0)).toBe(0.5);
    expect(standardNormalCdf(NaN)).toBeNaN();
    expectClose(standardNormalPdf(1), 0.2419707245191433498, 1e-15, 0);
    expectClose(standardNormalPdf(-2.5), 0.017528300493568537362, 1e-15, 0);
  });

  it("Φ⁻¹ in each of Acklam's three regions and at their edges, against mpmath √2 erfinv(2p − 1)", () => {
    const CASES: [number, number][] = [
      [0.001, -3.0902323061678135415],
      [0.02425, -1.9729610513118848503],
      [0.3, -0.52440051270804078404],
      [0.97575, 1.9729610513118848503],
      [0.9999, 3.7190164854556805644],
    ];
    for (const [p, z] of CASES) expectClose(standardNormalQuantile(p), z, 1e-14, 0);
    expect(Math.abs(standardNormalQuantile(0.5))).toBeLessThan(1e-16);
    for (const p of [0, 1, NaN]) expect(() => standardNormalQuantile(p)).toThrow(new RangeError(`standardNormalQuantile needs p in (0, 1), got ${p}`));
  });
});

describe("empirical law", () => {
  // Durations 10, 10, 20, 40 s: knots 0, 10, 20, 40 with F = 0, 1/2, 3/4, 1, linear in between;
  // densities 0.05, 0.025, 0.0125 per second on (0, 10], (10, 20], (20, 40]; mean
  // Σ ΔF (v_{j−1} + v_j)/2 = 0.5·5 + 0.25·15 + 0.25·30 = 13.75 s (the sample mean is 80/4 = 20 s).
  const build = () => createLaw({ kind: "empirical", durationsSeconds: [20, 10, 40, 10], source: "a.csv" });

  it("states its mean and the sample mean, and has F, S and f of the linear ECDF (ties at 10 s)", () => {
    const law = build();
    expect(law.description).toBe("empirical(4 durations (a.csv), linear ECDF, mean 13.75 s; sample mean 20 s)");
    expect(law.meanSeconds).toBe(13.75);
    const F: [number, number][] = [[5, 0.25], [10, 0.5], [15, 0.625], [20, 0.75], [30, 0.875], [40, 1], [50, 1]];
    for (const [t, f] of F) {
      expectClose(law.cdf(t), f, 1e-15, 0);
      expectClose(law.survival(t), 1 - f, 1e-15, 0);
    }
    // f on (v_{j−1}, v_j]: a knot belongs to the segment it ends.
    const f: [number, number][] = [[5, 0.05], [10, 0.05], [10.5, 0.025], [20, 0.025], [40, 0.0125], [40.5, 0], [0, 0]];
    for (const [t, density] of f) expect(law.pdf(t), `f(${t})`).toBe(density);
    expectNothingBelowZero(law);
  });

  it("has ∫_0^t s f(s) ds and ∫_t^∞ s f(s) ds from the segments' closed forms", () => {
    // ∫_0^5 0.05 s ds = 0.625; ∫_0^15 = 2.5 + 0.025 (15² − 10²)/2 = 4.0625; ∫_0^30 = 6.25 + 0.0125 (30² − 20²)/2 = 9.375.
    const law = build();
    const M: [number, number][] = [[5, 0.625], [10, 2.5], [15, 4.0625], [30, 9.375], [40, 13.75], [45, 13.75]];
    for (const [t, m] of M) {
      expectClose(law.partialExpectation(t), m, 1e-15, 0);
      expectClose(law.upperPartialExpectation(t), 13.75 - m, 1e-15, 0);
    }
    expect(law.upperPartialExpectation(40)).toBe(0);
  });

  it("samples by inverting F", () => {
    const law = build();
    // u = 0.25 → 0.25/0.05 = 5 s; u = 0.5 → 10 s; u = 0.7 → 10 + 0.2/0.025 = 18 s; u = 0.9 → 20 + 0.15/0.0125 = 32 s; u = 0 → 0.
    const draws: [number, number][] = [[0.25, 5], [0.5, 10], [0.7, 18], [0.9, 32], [0, 0]];
    for (const [u, t] of draws) expectClose(law.sample(scripted([u])), t, 1e-14);
  });

  it("refuses no durations and durations that are not finite and > 0, naming the source", () => {
    expect(refusal(() => createLaw({ kind: "empirical", durationsSeconds: [], source: "a.csv" }))).toBe(
      "empirical law (a.csv): no durations; give at least one observed duration > 0",
    );
    expect(refusal(() => createLaw({ kind: "empirical", durationsSeconds: [1, Infinity] }))).toBe(
      "empirical law: duration 2 is Infinity; every observed duration must be a finite number > 0 seconds",
    );
    expect(refusal(() => createLaw({ kind: "empirical", durationsSeconds: [0] }))).toMatch(/duration 1 is 0;/);
  });
});

describe("quadrature (adaptive Gauss–Legendre on geometric panels)", () => {
  it("integrates over [a, b] to rounding, refining where the integrand falls fast", () => {
    expectClose(integrate((u) => 1 / u, 1, 100), Math.log(100), 1e-14); // ∫ du/u = ln(b/a)
    // A panel short against its distance to 0 (b − a ≤ a/10): one 8-point rule, exact for a polynomial of degree 15.
    expectClose(integrate((u) => u ** 15, 10, 10.5), (10.5 ** 16 - 10 ** 16) / 16, 1e-14);
    // e^{−40u} falls by e^{20} across [1, 1.5]: ∫ = (e^{−40} − e^{−60})/40.
    expectClose(integrate((u) => Math.exp(-40 * u), 1, 1.5), (Math.exp(-40) - Math.exp(-60)) / 40, 1e-13);
    expect(integrate((u) => u, 2, 2)).toBe(0);
    expect(integrate((u) => u, 3, 2)).toBe(0);
  });

  it("integrates from 0 and to ∞", () => {
    expectClose(integrateFromZero((u) => Math.exp(-u), 5), -Math.expm1(-5), 1e-14); // 1 − e^{−5}
    expectClose(integrateFromZero((u) => Math.exp(-u), 1e-3), -Math.expm1(-1e-3), 1e-14);
    expect(integrateFromZero((u) => 1 + u, 0)).toBe(0);
    expect(integrateFromZero((u) => 1 + u, -1)).toBe(0);
    expectClose(integrateToInfinity((u) => Math.exp(-u), 1), Math.exp(-1), 1e-13); // ∫_1^∞ e^{−u} du
    expectClose(integrateToInfinity((u) => Math.exp(-u), 0), 1, 1e-13); // from 1e-300 up
    expectClose(integrateToInfinity((u) => 1 / (u * u), 10), 0.1, 1e-12); // a slow tail: ∫_10^∞ u^{−2} du
  });

  it("takes the parametric laws and those derived from them as analytic, not the empirical law", () => {
    const weibull: LawSpec = { kind: "weibull", shape: 2, scaleSeconds: 1 };
    const empirical: LawSpec = { kind: "empirical", durationsSeconds: [1, 2] };
    expect(isAnalyticLaw(weibull)).toBe(true);
    expect(isAnalyticLaw(empirical)).toBe(false);
    expect(isAnalyticLaw({ kind: "residual", base: weibull, ageSeconds: 1 })).toBe(true);
    expect(isAnalyticLaw({ kind: "residual", base: empirical, ageSeconds: 1 })).toBe(false);
    expect(isAnalyticLaw({ kind: "competing", laws: [weibull, weibull] })).toBe(true);
    expect(isAnalyticLaw({ kind: "competing", laws: [weibull, empirical] })).toBe(false);
    expect(isAnalyticLaw({ kind: "competing", laws: [empirical, weibull] })).toBe(false);
  });
});

describe("tabulateLaw", () => {
  it("visits the times in increasing order for the numerical laws, whatever their order in the table", () => {
    // Competing exponentials (rates 1/7200 + 1/3600 = 1/2400): F(t) = 1 − e^{−t/2400},
    // ∫_0^t s f = 2400 (1 − e^{−x}(1 + x)), x = t/2400.
    const { both } = twoExponentials();
    const times = Float64Array.from([7200, -1, 600, 0, 2400, 600]);
    const cdf = new Float64Array(times.length).fill(NaN);
    const moment = new Float64Array(times.length).fill(NaN);
    tabulateLaw(both, times, cdf, moment);
    times.forEach((t, i) => {
      const x = Math.max(t, 0) / 2400;
      expectClose(cdf[i]!, -Math.expm1(-x), 1e-12, 0);
      expectClose(moment[i]!, 2400 * (-Math.expm1(-x) - x * Math.exp(-x)), 1e-9, 0);
    });
  });

  it("falls back on cdf and partialExpectation for a law without its own tabulate", () => {
    const law = createLaw({ kind: "gamma", shape: 2, scaleSeconds: 10 });
    const times = Float64Array.from([10, 0, 30]);
    const cdf = new Float64Array(3);
    const moment = new Float64Array(3);
    tabulateLaw(law, times, cdf, moment);
    // Shape 2: F(t) = 1 − e^{−x}(1 + x), ∫_0^t s f = 2θ P(3, x) = 2θ (1 − e^{−x}(1 + x + x²/2)), x = t/θ.
    const expected = (x: number) => [1 - Math.exp(-x) * (1 + x), 20 * (1 - Math.exp(-x) * (1 + x + (x * x) / 2))];
    [1, 0, 3].forEach((x, i) => {
      expectClose(cdf[i]!, expected(x)[0]!, 1e-14, 0);
      expectClose(moment[i]!, expected(x)[1]!, 1e-14, 0);
    });
  });
});
