/**
 * The one bandwidth-sharing model (pipeline/bandwidth/fair-shares.ts) on its own and as the
 * three users see it: ScheduleCkpt's fluid device, the measured server, and the [BKT] link
 * server's water-filling. Reference values are worked out by hand next to each case.
 */
import { describe, expect, it } from "vitest";
import { compareByLink, equalSharesIntervalS, isFinished, maxMinFairRates, timeToFinishS } from "../../pipeline/bandwidth/fair-shares";
import { clampCount, clampVolumeGb, DOMAIN_POLICY_ALIASES, scheduleDomainPolicy } from "../../pipeline/bandwidth/outside-domain";
import { createBandwidthOracle } from "../../pipeline/schedule/bandwidth-oracle";
import { createFluidDevice } from "../../pipeline/schedule/fluid-device";
import { createFluidServer } from "../../pipeline/simulate/server/fluid-server";
import { expectClose } from "../helpers";
import { constantModel } from "../schedule/models";

describe("max-min fair rates", () => {
  it("give equal shares when no link binds, and a slow link's leftover to the others", () => {
    const rates = new Float64Array(3);
    // 60 shared by three transfers on links 100 each: 20 each.
    maxMinFairRates([0, 1, 2], 3, [100, 100, 100], 60, rates);
    expect([...rates]).toEqual([20, 20, 20]);
    // Links 10, 50, 50: the first takes its 10, the others split the 50 left: 25, 25.
    maxMinFairRates([0, 1, 2], 3, [10, 50, 50], 60, rates);
    expect([...rates]).toEqual([10, 25, 25]);
    // Links 10, 20, 100: 10 (< 60/3), then 20 (< 50/2), then the 30 left.
    maxMinFairRates([0, 1, 2], 3, [10, 20, 100], 60, rates);
    expect([...rates]).toEqual([10, 20, 30]);
  });

  it("order by link, then id", () => {
    const links = [50, 10, 50, 20];
    expect([0, 1, 2, 3].sort(compareByLink(links))).toEqual([1, 3, 0, 2]);
  });

  it("time a transfer's end, noise below 0 counting as 0", () => {
    expect(timeToFinishS(100, 20)).toBe(5);
    expect(timeToFinishS(-1e-12, 20)).toBe(0);
    expect(isFinished(1e-9, 100)).toBe(true); // 1e-9 ≤ 1e-10 · 100 = 1e-8
    expect(isFinished(1e-7, 100)).toBe(false);
  });
});

describe("3 transfers of 100, 200 and 300 MB on a constant 60 MB/s aggregate", () => {
  // By hand: 20 MB/s each until the 100 MB one ends at 100 / 20 = 5 s (300 MB moved); then
  // 30 MB/s each for the 100 and 200 MB left by the others: the second ends 100 / 30 = 3.33 s
  // later, at 8.33 s; the last has 100 MB left at 60 MB/s: 1.67 s more, at 10 s = 600 / 60.
  const expected = [5, 5 + 100 / 30, 10];

  it("equal shares: each interval moves the smallest remaining size", () => {
    expect(equalSharesIntervalS(100, 3, 60)).toBe(5);
    expectClose(equalSharesIntervalS(100, 2, 60), 100 / 30, 1e-15);
    expectClose(equalSharesIntervalS(100, 1, 60), 100 / 60, 1e-15);
  });

  it("ScheduleCkpt's fluid device finishes them at 5, 8.33 and 10 s", () => {
    const device = createFluidDevice(Float64Array.from([100, 200, 300]), createBandwidthOracle(constantModel(60), "refuse"));
    for (let i = 0; i < 3; i++) device.start(i);
    while (device.advance() > 0);
    [...device.finishS].forEach((t, i) => expectClose(t, expected[i]!, 1e-12));
  });

  it("the measured server (links faster than the aggregate) finishes them at 5, 8.33 and 10 s", () => {
    const fluid = createFluidServer({ model: constantModel(60), file: "test", sha256: "0".repeat(64), outsideDomain: "clamp", volume: "remaining" }, 3);
    [100, 200, 300].forEach((size, id) => fluid.start(id, size, 1000, 0));
    const done: number[] = [];
    for (let t = fluid.nextCompletionS(0); t < Infinity; t = fluid.nextCompletionS(t)) for (const id of fluid.takeCompleted(t)) done[id] = t;
    done.forEach((t, i) => expectClose(t, expected[i]!, 1e-12));
  });
});

describe("the domain vocabulary", () => {
  it("maps the schedule commands' older words and clamps to the box", () => {
    expect(DOMAIN_POLICY_ALIASES).toEqual({ strict: "refuse", warn: "extrapolate" });
    expect(["refuse", "extrapolate", "strict", "warn"].map((word) => scheduleDomainPolicy(word))).toEqual(["refuse", "extrapolate", "refuse", "extrapolate"]);
    // ScheduleCkpt has no clamp; an unknown word is refused with both vocabularies listed.
    expect(() => scheduleDomainPolicy("clamp", "settings.domain")).toThrow('settings.domain must be one of refuse (alias strict), extrapolate (alias warn); found "clamp"');
    expect(() => scheduleDomainPolicy(undefined)).toThrow(/found undefined/);
    const domain = { mMin: 1, mMax: 18, vGbMin: 0.015, vGbMax: 3.42 };
    expect([clampCount(domain, 70), clampCount(domain, 0), clampCount(domain, 5)]).toEqual([18, 1, 5]);
    expect([clampVolumeGb(domain, 21), clampVolumeGb(domain, 0), clampVolumeGb(domain, 1)]).toEqual([3.42, 0.015, 1]);
  });
});
