import { describe, expect, it } from "vitest";
import { PAPER_MODEL, bandwidthEvaluator } from "../../pipeline/fit/model";
import { cumulativeSizesCurve, peakOf, sizeSeriesCurve } from "../../pipeline/report/model-curves";

describe("model curves", () => {
  const bw = bandwidthEvaluator(PAPER_MODEL);

  it("evaluates a size series at V = m·v/1000 (GB)", () => {
    const curve = sizeSeriesCurve(PAPER_MODEL, 684, 30);
    expect(curve).toHaveLength(30);
    expect(curve[4]!.vGb).toBeCloseTo(3.42, 12);
    expect(curve[4]!.bwMbPerS).toBe(bw(5, 3.42));
    // Far outside the domain the quadratic goes negative: not usable, never a bandwidth.
    expect(curve[29]!.bwMbPerS).toBeLessThan(0);
    expect(curve[29]!.usable).toBe(false);
    expect(curve[29]!.inDomain).toBe(false);
  });

  it("accumulates data-set sizes block by block", () => {
    const curve = cumulativeSizesCurve(PAPER_MODEL, [100, 200, 300]);
    expect(curve.map((p) => p.vGb)).toEqual([0.1, 0.3, 0.6]);
    expect(curve[2]!.bwMbPerS).toBe(bw(3, 0.6));
  });

  it("takes the first of equal maxima as the peak and ignores unusable points", () => {
    const points = [1, 5, 5, 2].map((b, i) => ({ m: i + 1, vGb: 0, bwMbPerS: b, usable: true, inDomain: true }));
    expect(peakOf(points)!.m).toBe(2);
    expect(peakOf([{ m: 1, vGb: 0, bwMbPerS: -3, usable: false, inDomain: false }])).toBeNull();
  });
});
