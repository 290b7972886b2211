/**
 * The measured checkpoint server as a fluid (pipeline/simulate/server/fluid-server.ts,
 * docs/science.md §6.6), on its own: closed forms of the fluid progression, max-min sharing
 * under links, the three domain policies, a model without a usable bandwidth, and what it
 * reports. Reference values are worked out by hand next to each test, from the published
 * coefficients where the papers' model is used (docs/science.md §3.2).
 */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL, type BandwidthModel } from "../../../pipeline/fit/model";
import { createFluidServer, type FluidServer } from "../../../pipeline/simulate/server/fluid-server";
import type { MeasuredServer, OutsideDomain, ServerVolume } from "../../../pipeline/simulate/server/measured-server";
import { expectClose } from "../../helpers";

/** bw(m, V) = a00 + a10·m in the full form (MB/s), on the box m ≤ mMax, V ≤ vMax GB. */
function linearModel(a00: number, a10: number, domain: Partial<BandwidthModel["domain"]> = {}): BandwidthModel {
  const coefficients = Object.fromEntries(["a00", "a01", "a02", "a10", "a11", "a12", "a20", "a21", "a22"].map((k) => [k, 0]));
  return {
    ...PAPER_MODEL,
    name: `${a00} + ${a10}·m`,
    form: "full",
    coefficients: { ...coefficients, a00, a10 },
    domain: { mMin: 1, mMax: 100, vGbMin: 0, vGbMax: 1000, ...domain },
    provenance: {},
  };
}

function server(model: BandwidthModel, outsideDomain: OutsideDomain = "clamp", volume: ServerVolume = "whole"): MeasuredServer {
  return { model, file: "test", sha256: "0".repeat(64), outsideDomain, volume };
}

/** Run the server to idle from `now`, collecting each id's completion time. */
function drain(fluid: FluidServer, now = 0): Map<number, number> {
  const done = new Map<number, number>();
  for (let t = fluid.nextCompletionS(now); t < Infinity; t = fluid.nextCompletionS(t)) for (const id of fluid.takeCompleted(t)) done.set(id, t);
  return done;
}

/** The published model's bw(m, V), written out from [Y11] eq. 4's coefficients (not through the evaluator). */
const azur = (m: number, v: number) => -0.0155 * m * m * v * v - 0.169435 * m * m + 0.0004 * v * v + 5.027318 * m + 3.753154;

describe("closed forms", () => {
  it("one transfer at a constant bandwidth B takes exactly size / B", () => {
    const fluid = createFluidServer(server(linearModel(7.5, 0)), 4);
    fluid.start(2, 300, 1000, 10);
    const done = drain(fluid, 10);
    // 300 MB at 7.5 MB/s from t = 10 s: 40 s.
    expect(done.get(2)).toBe(10 + 300 / 7.5);
  });

  it("two transfers started together take the time bw(2, V) gives: each moves at bw(2, V)/2", () => {
    const fluid = createFluidServer(server(PAPER_MODEL), 4);
    fluid.start(0, 500, 1000, 0);
    fluid.start(1, 500, 1000, 0);
    const done = drain(fluid);
    // bw(2, 1.0 GB) = −0.062 − 0.67774 + 0.0004 + 10.054636 + 3.753154 = 13.06845 MB/s; 1000 MB at that rate.
    expectClose(azur(2, 1), 13.06845, 1e-12);
    expectClose(done.get(0)!, 1000 / azur(2, 1), 1e-12);
    expect(done.get(1)).toBe(done.get(0));
  });

  /**
   * Staggered: A (500 MB) alone from 0 at bw(1, 0.5); B (500 MB) joins at 20 s, both at bw(2, 1.0)/2
   * until A ends; then B alone at bw(1, 0.5) (V = the sizes in progress, "whole").
   */
  it("a transfer joining later: the rates are recomputed at each start and end (the fluid progression)", () => {
    const fluid = createFluidServer(server(PAPER_MODEL), 4);
    fluid.start(0, 500, 1000, 0);
    expect(fluid.nextCompletionS(0)).toBeCloseTo(500 / azur(1, 0.5), 9);
    fluid.start(1, 500, 1000, 20);
    const done = drain(fluid, 20);
    const aLeft = 500 - 20 * azur(1, 0.5);
    const aEnd = 20 + aLeft / (azur(2, 1) / 2);
    const bLeft = 500 - (aEnd - 20) * (azur(2, 1) / 2);
    expectClose(done.get(0)!, aEnd, 1e-12);
    expectClose(done.get(1)!, aEnd + bLeft / azur(1, 0.5), 1e-12);
  });

  it('"remaining": V is what is left of the transfers, as ScheduleCkpt\'s fluid estimate evaluates it', () => {
    const fluid = createFluidServer(server(PAPER_MODEL, "clamp", "remaining"), 4);
    fluid.start(0, 500, 1000, 0);
    fluid.start(1, 500, 1000, 20);
    const done = drain(fluid, 20);
    // A has 500 − 20·bw(1, 0.5) left when B starts: V = that + 500.
    const aLeft = 500 - 20 * azur(1, 0.5);
    const aEnd = 20 + aLeft / (azur(2, (aLeft + 500) / 1000) / 2);
    expectClose(done.get(0)!, aEnd, 1e-12);
    const bLeft = 500 - (aEnd - 20) * (azur(2, (aLeft + 500) / 1000) / 2);
    expectClose(done.get(1)!, aEnd + bLeft / azur(1, bLeft / 1000), 1e-12);
  });
});

describe("sharing under the machines' own links (max-min fairness)", () => {
  it("a transfer held below its share by its link leaves the rest to the others, in equal parts", () => {
    const fluid = createFluidServer(server(linearModel(30, 0)), 4);
    // 30 MB/s among links 5, 100, 100: 5, then (30 − 5)/2 = 12.5 each.
    fluid.start(0, 50, 5, 0);
    fluid.start(1, 125, 100, 0);
    fluid.start(2, 250, 100, 0);
    const done = drain(fluid);
    expect(done.get(0)).toBe(10); // 50 MB at 5 MB/s
    expect(done.get(1)).toBe(10); // 125 MB at 12.5 MB/s
    // Then 125 MB left of transfer 2, alone: min(100, 30) = 30 MB/s.
    expectClose(done.get(2)!, 10 + 125 / 30, 1e-12);
  });

  it("links that never bind: every transfer at its own link, and no wait", () => {
    const fluid = createFluidServer(server(linearModel(1000, 0)), 4);
    fluid.start(0, 10, 2, 0);
    fluid.start(1, 10, 5, 0);
    const done = drain(fluid);
    expect([done.get(0), done.get(1)]).toEqual([5, 2]);
    expect(fluid.stats.waitS).toBe(0);
    // 7 of 1000 MB/s used while both run (2 s), 2 of 1000 for the next 3 s.
    expectClose(fluid.stats.deliveredMb / fluid.stats.capacityMb, 20 / 5000, 1e-12);
  });

  it("counts the time transfers waited for the server: their duration minus size / their link", () => {
    const fluid = createFluidServer(server(linearModel(5, 0)), 4);
    fluid.start(0, 100, 10, 0);
    drain(fluid);
    // 20 s at 5 MB/s where the link alone would take 10 s; the server is fully used meanwhile.
    expectClose(fluid.stats.waitS, 10, 1e-12);
    expect(fluid.stats.busyS).toBe(20);
    expectClose(fluid.stats.deliveredMb / fluid.stats.capacityMb, 1, 1e-12);
    expect(fluid.stats).toMatchObject({ transfers: 1, completed: 1, interrupted: 0, maxConcurrent: 1 });
  });

  it("a stopped transfer leaves the server at once, and the others speed up", () => {
    const fluid = createFluidServer(server(linearModel(10, 0)), 4);
    fluid.start(0, 100, 100, 0);
    fluid.start(1, 100, 100, 0);
    expect(fluid.nextCompletionS(0)).toBe(20);
    expect(fluid.stop(1, 4)).toBe(true);
    expect(fluid.stop(1, 4)).toBe(false);
    // 80 MB left at 10 MB/s from t = 4.
    expect(drain(fluid, 4).get(0)).toBe(12);
    expect(fluid.stats).toMatchObject({ transfers: 2, completed: 1, interrupted: 1 });
  });
});

describe("outside the fitted domain", () => {
  const model = linearModel(0, 10, { mMax: 2 }); // bw = 10·m, fitted on m ≤ 2
  for (const [mode, rate] of [
    ["clamp", 20 / 3], // bw(2) = 20 MB/s shared by 3
    ["extrapolate", 10], // bw(3) = 30 MB/s shared by 3
  ] as const) {
    it(`${mode}: three transfers on a model fitted up to two move at ${rate.toFixed(3)} MB/s each, and each is counted`, () => {
      const fluid = createFluidServer(server(model, mode), 4);
      for (const id of [0, 1, 2]) fluid.start(id, 100, 1000, 0);
      expectClose(fluid.nextCompletionS(0), 100 / rate, 1e-12);
      drain(fluid);
      expect(fluid.stats.transfersOutsideDomain).toBe(3);
      expect(fluid.stats.evaluationsOutsideDomain).toBe(1);
    });
  }

  it("refuse: the run stops at the first load outside, naming it, the model and its domain", () => {
    const fluid = createFluidServer(server(model, "refuse"), 4);
    for (const id of [0, 1]) fluid.start(id, 100, 1000, 0);
    expect(fluid.nextCompletionS(0)).toBe(10);
    fluid.start(2, 100, 1000, 1);
    expect(() => fluid.nextCompletionS(1)).toThrow(/3 concurrent transfer\(s\) of 0\.3 GB at t = 1 s is outside the fitted domain of the server model "0 \+ 10·m" \(test, sha256 0{12}…\) \(m ∈ \[1, 2\], V ∈ \[0, 1000\] GB\) and the scenario says outsideDomain: "refuse"/);
  });

  it("a model with no usable bandwidth (≤ 0) stops the run instead of dividing by it", () => {
    // The published model at 18 transfers of 190 MB (V = 3.42 GB, inside its box): −19.4 MB/s.
    expect(azur(18, 3.42)).toBeLessThan(0);
    const fluid = createFluidServer(server(PAPER_MODEL), 20);
    for (let id = 0; id < 18; id++) fluid.start(id, 190, 1000, 0);
    expect(() => fluid.nextCompletionS(0)).toThrow(/the server model "paper" \(test, sha256 0+…\) gives bw = -19\.\d+ MB\/s for 18 concurrent transfer\(s\) of 3\.42 GB at t = 0 s: no usable bandwidth/);
  });
});
