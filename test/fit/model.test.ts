import { describe, expect, it } from "vitest";
import { bandwidthEvaluator, PAPER_MODEL, predict, type BandwidthModel } from "../../pipeline/fit/model";
import { expectClose } from "../helpers";

describe("bandwidth model", () => {
  it("evaluates the published coefficients", () => {
    // Hand computation with docs/science.md §3.2's coefficients: bw(9, 2.042) =
    // -0.0155·81·2.042² − 0.169435·81 + 0.0004·2.042² + 5.027318·9 + 3.753154
    const expected = -0.0155 * 81 * 2.042 ** 2 - 0.169435 * 81 + 0.0004 * 2.042 ** 2 + 5.027318 * 9 + 3.753154;
    expectClose(bandwidthEvaluator(PAPER_MODEL)(9, 2.042), expected, 1e-14);
    expectClose(expected, 30.0413, 1e-4);
  });

  it("never hands out a usable bandwidth ≤ 0 and flags extrapolation", () => {
    const far = predict(PAPER_MODEL, 70, 21);
    expect(far.rawMbPerS).toBeLessThan(0);
    expect(far.bandwidthMbPerS).toBeNull();
    expect(far.inDomain).toBe(false);
    expect(far.warning).toMatch(/outside the fitted domain/);
    const inside = predict(PAPER_MODEL, 9, 2.042);
    expect(inside.inDomain).toBe(true);
    expect(inside.bandwidthMbPerS).toBeGreaterThan(0);
    expect(inside.warning).toBeUndefined();
  });

  it("evaluates the full form term by term", () => {
    const coefficients: Record<string, number> = {};
    let k = 1;
    for (let i = 0; i <= 2; i++) for (let j = 0; j <= 2; j++) coefficients[`a${i}${j}`] = k++ / 10;
    const model: BandwidthModel = { ...PAPER_MODEL, form: "full", coefficients };
    const [m, v] = [3, 1.5];
    let expected = 0;
    for (let i = 0; i <= 2; i++) for (let j = 0; j <= 2; j++) expected += coefficients[`a${i}${j}`]! * m ** i * v ** j;
    expectClose(bandwidthEvaluator(model)(m, v), expected, 1e-14);
  });
});
