import { describe, expect, it } from "vitest";
import { meanWithCi, withCi95 } from "../../pipeline/stats/mean-confidence-interval";
import { expectClose } from "../helpers";

describe("95 % confidence interval of a mean", () => {
  it("uses Student's t critical values", () => {
    // scipy.stats.t.ppf(0.975, dof) (scipy 1.10, /usr/bin/python3): the half-width of n values
    // with sample sd s is t · s / √n
    const scipy: [number, number][] = [
      [1, 12.706204736432095], [2, 4.302652729911275], [4, 2.7764451051977987], [9, 2.2621571627409915],
      [29, 2.045229642132703], [99, 1.9842169515086827],
    ];
    for (const [dof, t] of scipy) {
      const values = Array.from({ length: dof + 1 }, (_, i) => (i * 7919) % 13);
      const ci = meanWithCi(values);
      expectClose((ci.high! - ci.mean) / (ci.sd / Math.sqrt(dof + 1)), t, 1e-8);
    }
  });

  it("by hand", () => {
    // values 1, 2, 3, 4: mean 2.5, s = √(5/3), half-width = t(3) · s / 2
    const ci = meanWithCi([1, 2, 3, 4]);
    const half = (3.182446305284263 * Math.sqrt(5 / 3)) / 2;
    expectClose(ci.mean, 2.5);
    expectClose(ci.low!, 2.5 - half, 1e-8);
    expectClose(ci.high!, 2.5 + half, 1e-8);
    expect(meanWithCi([7])).toEqual({ n: 1, mean: 7, sd: 0, low: null, high: null });
    // No values: no mean (NaN, not 0 / 0 computed by accident) and no interval.
    expect(meanWithCi([])).toEqual({ n: 0, mean: NaN, sd: 0, low: null, high: null });
  });
});

describe("the simulators' ci95 field", () => {
  it("is [low, high], and null when either bound is missing", () => {
    // values 1, 2, 3, 4 as above: the interval 2.5 ± t(3) · √(5/3) / 2, kept as one pair next to low and high.
    const ci = meanWithCi([1, 2, 3, 4]);
    expect(withCi95(ci)).toEqual({ ...ci, ci95: [ci.low, ci.high] });
    expect(withCi95(meanWithCi([7]))).toEqual({ n: 1, mean: 7, sd: 0, low: null, high: null, ci95: null });
    // One bound alone is no interval.
    expect(withCi95({ n: 2, mean: 1, sd: 0, low: null, high: 1 }).ci95).toBeNull();
    expect(withCi95({ n: 2, mean: 1, sd: 0, low: 1, high: null }).ci95).toBeNull();
  });
});
