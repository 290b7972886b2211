/**
 * The time estimators (docs/science.md §4.2) and the fluid device that executes schedules.
 * Reference values: test/schedule/reference/schedule_ckpt_reference.py ("estimates"),
 * an independent implementation from docs/science.md; and by hand for a constant device.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import {
  createBandwidthOracle,
  createFluidDevice,
  createSizeSet,
  ESTIMATOR_NAMES,
  estimatorByName,
  fluidEstimator,
  SUBSET_ENUMERATIONS,
  insertSize,
  staticEstimator,
  type SizeSet,
} from "../../pipeline/schedule";
import { expectClose } from "../helpers";
import { constantModel } from "./models";

const reference = JSON.parse(readFileSync(join(__dirname, "reference", "schedule_ckpt_reference.json"), "utf8")) as {
  estimates: { sizesMb: number[]; staticS: number; fluidS: number }[];
};

function setOf(sizes: number[]): SizeSet {
  const set = createSizeSet(sizes.length + 1);
  for (const s of sizes) insertSize(set, s);
  return set;
}

describe("time estimators", () => {
  it("are the two of docs/science.md §4.2, by name (the --estimator choices), like ks_bw's two enumerations (--enumeration)", () => {
    expect(ESTIMATOR_NAMES).toEqual(["static", "fluid"]);
    expect(ESTIMATOR_NAMES.map((name) => estimatorByName(name).name)).toEqual(["static", "fluid"]);
    expect(SUBSET_ENUMERATIONS).toEqual(["up-to-k0", "exactly-k0"]);
  });

  const paper = createBandwidthOracle(PAPER_MODEL, "refuse");

  it("match the independent reference on the paper model", () => {
    for (const { sizesMb, staticS, fluidS } of reference.estimates) {
      expectClose(staticEstimator.finishTimeS(setOf(sizesMb), 0, Infinity, paper), staticS, 1e-12);
      expectClose(fluidEstimator.finishTimeS(setOf(sizesMb), 0, Infinity, paper), fluidS, 1e-12);
      // The same set given as "set ∪ {extra}" (how ks_bw asks) gives the same answer.
      const [first, ...rest] = sizesMb;
      expectClose(staticEstimator.finishTimeS(setOf(rest), first!, Infinity, paper), staticS, 1e-12);
      expectClose(fluidEstimator.finishTimeS(setOf(rest), first!, Infinity, paper), fluidS, 1e-12);
    }
  });

  it("by hand on a constant 10 MB/s device", () => {
    const ten = createBandwidthOracle(constantModel(10), "refuse");
    // static: m · max / bw = 3 · 60 / 10 = 18 s
    expectClose(staticEstimator.finishTimeS(setOf([20, 40, 60]), 0, Infinity, ten), 18);
    // fluid: 20 MB each at 10/3 → 6 s; 20 MB each at 5 → 4 s; 20 MB at 10 → 2 s: 12 s
    expectClose(fluidEstimator.finishTimeS(setOf([20, 40, 60]), 0, Infinity, ten), 12);
    // equal sizes: one phase, no zero-length phases
    expectClose(fluidEstimator.finishTimeS(setOf([30, 30]), 30, Infinity, ten), 9);
    // Past the budget it stops at the phase that passes it: 6 s, then 6 + 4 = 10 s > 6 s. A total equal to the
    // budget is not past it (6 s of budget 6 s goes on to 10 s; 12 s of budget 12 s is the whole set).
    expectClose(fluidEstimator.finishTimeS(setOf([20, 40, 60]), 0, 6, ten), 10);
    expectClose(fluidEstimator.finishTimeS(setOf([20, 40, 60]), 0, 7, ten), 10);
    expectClose(fluidEstimator.finishTimeS(setOf([20, 40, 60]), 0, 12, ten), 12);
    // The extra checkpoint takes its place in size order: 40 among 20 and 60 is the set [20, 40, 60].
    expectClose(fluidEstimator.finishTimeS(setOf([20, 60]), 40, Infinity, ten), 12);
    expectClose(staticEstimator.finishTimeS(setOf([20, 40]), 60, Infinity, ten), 18);
  });

  it("stop early past the budget but never report a feasible time for an infeasible set", () => {
    const sizes = [80, 120, 400, 450, 90];
    const full = fluidEstimator.finishTimeS(setOf(sizes), 0, Infinity, paper);
    expect(fluidEstimator.finishTimeS(setOf(sizes), 0, full / 2, paper)).toBeGreaterThan(full / 2);
    // Above the fitted domain (V > 3.42 GB) under the policy refuse: infeasible.
    expect(staticEstimator.finishTimeS(setOf([700, 700, 700, 700, 700]), 0, Infinity, paper)).toBe(Infinity);
    expect(fluidEstimator.finishTimeS(setOf([700, 700, 700, 700, 700]), 0, Infinity, paper)).toBe(Infinity);
    // The empty set takes no time.
    expect(staticEstimator.finishTimeS(setOf([]), 0, 0, paper)).toBe(0);
    // Even on a device with no bandwidth, and without asking it (bw(0, 0) = 0 would make it infeasible).
    const none = createBandwidthOracle(constantModel(0), "strict");
    expect(staticEstimator.finishTimeS(setOf([]), 0, 0, none)).toBe(0);
    expect(fluidEstimator.finishTimeS(setOf([]), 0, 0, none)).toBe(0);
    expect(none.counts().evaluations).toBe(0);
  });
});

describe("the fluid estimate's bandwidth evaluations", () => {
  it("one per distinct size: equal sizes finish in one phase, with no zero-length phases evaluated", () => {
    const ten = createBandwidthOracle(constantModel(10), "strict");
    // [30, 30] ∪ {30}: one phase of 30 MB each at 10/3 MB/s, 9 s, one evaluation.
    expectClose(fluidEstimator.finishTimeS(setOf([30, 30]), 30, Infinity, ten), 9);
    expect(ten.counts().evaluations).toBe(1);
    // [20, 20, 60]: 20 MB each at 10/3 (6 s), then 40 MB alone at 10 (4 s): 10 s, two evaluations.
    ten.resetCounts();
    expectClose(fluidEstimator.finishTimeS(setOf([20, 20, 60]), 0, Infinity, ten), 10);
    expect(ten.counts().evaluations).toBe(2);
  });
});

describe("fluid device", () => {
  it("executes a set exactly as the fluid estimator predicts", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 500, noNaN: true }), { minLength: 1, maxLength: 12 }), (sizes) => {
        const oracle = createBandwidthOracle(PAPER_MODEL, "extrapolate");
        const predicted = fluidEstimator.finishTimeS(setOf(sizes), 0, Infinity, oracle);
        const device = createFluidDevice(Float64Array.from(sizes), createBandwidthOracle(PAPER_MODEL, "extrapolate"));
        sizes.forEach((_, i) => device.start(i));
        while (device.advance() > 0);
        if (predicted === Infinity) expect(device.stall).not.toBeNull();
        else expectClose(Math.max(...device.finishS), predicted, 1e-9);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it("finishes equal checkpoints together and records the bandwidth over time", () => {
    const device = createFluidDevice(Float64Array.from([30, 30, 60]), createBandwidthOracle(constantModel(10)));
    [0, 1, 2].forEach((i) => device.start(i));
    expect(device.advance()).toBe(2); // 30 MB each at 10/3 MB/s → t = 9
    expect(Array.from(device.completed.subarray(0, 2))).toEqual([0, 1]);
    expectClose(device.timeS, 9);
    expect(device.advance()).toBe(1); // the last 30 MB alone at 10 MB/s → t = 12
    expectClose(device.timeS, 12);
    expect(device.steps.map((s) => [s.fromS, s.m, s.bandwidthMbPerS, s.perProcessMbPerS])).toEqual([
      [0, 3, 10, 10 / 3],
      [9, 1, 10, 10],
    ]);
    expect(device.advance()).toBe(0);
  });

  it("stalls instead of dividing by a bandwidth the model does not give", () => {
    const apps = Array.from({ length: 25 }, () => 300);
    const device = createFluidDevice(Float64Array.from(apps), createBandwidthOracle(PAPER_MODEL, "refuse"));
    apps.forEach((_, i) => device.start(i));
    expect(device.advance()).toBe(-1);
    expect(device.stall?.reason).toMatch(/outside its fitted domain \(m ≤ 18, V ≤ 3\.42 GB\)/);
    expect(device.timeS).toBe(0);
    const extrapolating = createFluidDevice(Float64Array.from(apps), createBandwidthOracle(PAPER_MODEL, "extrapolate"));
    apps.forEach((_, i) => extrapolating.start(i));
    expect(extrapolating.advance()).toBe(-1); // bw(25, 7.5 GB) < 0 even when extrapolating
    expect(extrapolating.stall?.reason).toMatch(/no usable bandwidth \(≤ 0\)/);
  });
});
