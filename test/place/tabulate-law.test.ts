/** A law's tables for the DP are the very numbers its cdf and partial expectation give. */
import { describe, expect, it } from "vitest";
import { createLaw, tabulateLaw, type LawSpec } from "../../pipeline/place/laws";

const LAWS: LawSpec[] = [
  { kind: "weibull", shape: 0.431, scaleSeconds: 1.682 * 3600 },
  { kind: "weibull", shape: 3.5, scaleSeconds: 600 },
  { kind: "exponential", ratePerSecond: 1 / 7200 },
  { kind: "lognormal", mu: 8.5, sigma: 1.2 },
];

describe("tabulateLaw", () => {
  it("gives, bit for bit, cdf(t) and partialExpectation(t) at every time (0, tiny, huge and negative ones included)", () => {
    const times = Float64Array.from([0, -5, 1e-300, 1e-9, 0.5, 1, 59.9, 60, 3600, 6055, 1e5, 1e7, 1e12, ...Array.from({ length: 500 }, (_, i) => i * 97.3 + 0.25)]);
    for (const spec of LAWS) {
      const law = createLaw(spec);
      const cdf = new Float64Array(times.length);
      const moment = new Float64Array(times.length);
      tabulateLaw(law, times, cdf, moment);
      times.forEach((t, i) => {
        expect(Object.is(cdf[i], law.cdf(t)), `${law.description} F(${t})`).toBe(true);
        expect(Object.is(moment[i], law.partialExpectation(t)), `${law.description} M(${t})`).toBe(true);
      });
    }
  });
});
