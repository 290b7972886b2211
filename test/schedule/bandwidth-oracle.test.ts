/** The fitted-domain policy and the counting of bandwidth evaluations. */
import { describe, expect, it } from "vitest";
import { bandwidthEvaluator, PAPER_MODEL } from "../../pipeline/fit/model";
import { createBandwidthOracle, reachableBandwidth } from "../../pipeline/schedule";
import { expectClose } from "../helpers";
import { superlinearModel } from "./models";

const raw = bandwidthEvaluator(PAPER_MODEL);

describe("bandwidth oracle", () => {
  it("refuse: above the fitted box is infeasible, below it is used; both counted", () => {
    const oracle = createBandwidthOracle(PAPER_MODEL, "refuse");
    expectClose(oracle.bandwidthMbPerS(9, 2.042), raw(9, 2.042), 1e-15); // inside
    expect(oracle.bandwidthMbPerS(19, 1)).toBeNaN(); // m > 18
    expect(oracle.bandwidthMbPerS(5, 3.5)).toBeNaN(); // V > 3.42 GB
    expectClose(oracle.bandwidthMbPerS(1, 0.005), raw(1, 0.005), 1e-15); // V < 15 MB: below, used
    expect(oracle.counts()).toMatchObject({ evaluations: 4, aboveDomain: 2, belowDomain: 1, nonPositive: 0, firstAboveDomain: { m: 19, vGb: 1 } });
  });

  it("extrapolate: extrapolates where the polynomial is positive, refuses where it is not", () => {
    const oracle = createBandwidthOracle(PAPER_MODEL, "extrapolate");
    expectClose(oracle.bandwidthMbPerS(19, 1), raw(19, 1), 1e-15);
    expect(raw(70, 21)).toBeLessThan(0);
    expect(oracle.bandwidthMbPerS(70, 21)).toBeNaN();
    const counts = oracle.counts();
    expect(counts).toMatchObject({ evaluations: 2, aboveDomain: 2, nonPositive: 1 });
    expectClose(counts.firstNonPositive!.rawMbPerS, raw(70, 21), 1e-15);
    oracle.resetCounts();
    expect(oracle.counts().evaluations).toBe(0);
  });

  it("refuse: sizes per writer outside a one-size model's, beyond the relative tolerance 1e-9, are above (or below) its domain", () => {
    // The paper form on V/m = 0.1 GB only: at m = 2 the bounds are V = 0.2·(1 ∓ 1e-9) GB (model.ts, writerSizeBoundsGb).
    const oneSize = { ...PAPER_MODEL, domain: { ...PAPER_MODEL.domain, writerGbMin: 0.1, writerGbMax: 0.1 } };
    const oracle = createBandwidthOracle(oneSize, "refuse");
    expectClose(oracle.bandwidthMbPerS(2, 0.2 * (1 + 0.5e-9)), raw(2, 0.2 * (1 + 0.5e-9)), 1e-15); // inside the tolerance
    expect(oracle.bandwidthMbPerS(2, 0.2 * (1 + 2e-9))).toBeNaN(); // above
    expectClose(oracle.bandwidthMbPerS(2, 0.2 * (1 - 2e-9)), raw(2, 0.2 * (1 - 2e-9)), 1e-15); // below: used, counted
    expect(oracle.counts()).toMatchObject({ evaluations: 3, aboveDomain: 1, belowDomain: 1 });
  });

  it("reads the older words strict and warn as refuse and extrapolate, and refuses any other, naming both vocabularies", () => {
    // A notebook's plain JavaScript may pass the older words (or a wrong one) past the types.
    const strict = createBandwidthOracle(PAPER_MODEL, "strict" as never);
    expect(strict.policy).toBe("refuse");
    expect(strict.bandwidthMbPerS(5, 3.5)).toBeNaN(); // V > 3.42 GB: refused, as under refuse
    const warn = createBandwidthOracle(PAPER_MODEL, "warn" as never);
    expect(warn.policy).toBe("extrapolate");
    expectClose(warn.bandwidthMbPerS(19, 1), raw(19, 1), 1e-15);
    for (const word of ["clamp", "Strict", ""]) {
      expect(() => createBandwidthOracle(PAPER_MODEL, word as never)).toThrow(
        new RegExp(`the domain policy must be one of refuse \\(alias strict\\), extrapolate \\(alias warn\\); found "${word}"`),
      );
    }
  });

  it("bw(0, 0) is the constant term e, not a counted prediction", () => {
    const oracle = createBandwidthOracle(PAPER_MODEL);
    expect(oracle.idleBandwidthMbPerS).toBe(3.753154); // docs/science.md §3.2: e = 3.753154
    expect(oracle.counts().evaluations).toBe(0);
  });
});

describe("reachable bandwidth", () => {
  it("is the supremum of bw over the reachable states (checked on a dense grid)", () => {
    for (const [policy, n, totalMb] of [["refuse", 70, 21000], ["extrapolate", 25, 7500], ["refuse", 3, 400]] as const) {
      const reach = reachableBandwidth(PAPER_MODEL, policy, n, totalMb);
      let gridMax = 0;
      let gridPerProcess = 0;
      for (let m = 1; m <= reach.region.mMax; m++) {
        for (let k = 0; k <= 2000; k++) {
          const bw = Math.max(0, raw(m, (reach.region.vGbMax * k) / 2000));
          gridMax = Math.max(gridMax, bw);
          gridPerProcess = Math.max(gridPerProcess, bw / m);
        }
      }
      expect(reach.bandwidthMaxMbPerS).toBeGreaterThanOrEqual(gridMax - 1e-12);
      expectClose(reach.bandwidthMaxMbPerS, gridMax, 1e-6);
      expectClose(reach.perProcessMaxMbPerS, gridPerProcess, 1e-6);
    }
    // refuse: never more concurrent checkpoints than the box allows
    expect(reachableBandwidth(PAPER_MODEL, "refuse", 70, 21000).region).toEqual({ mMax: 18, vGbMax: 3.42 });
  });

  it("knows when the per-process rate never increases with m and V", () => {
    expect(reachableBandwidth(PAPER_MODEL, "refuse", 70, 21000).perProcessRateNonIncreasing).toBe(true);
    expect(reachableBandwidth(superlinearModel(), "extrapolate", 10, 3000).perProcessRateNonIncreasing).toBe(false);
  });
});
