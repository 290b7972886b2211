/**
 * ScheduleCkpt with models of clusters unlike Azur: the idle start of index_bw_max, which
 * stalls the faithful algorithm on a device fastest with one writer, the applicability
 * check, and the example instance scaled to a model's domain.
 */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL, writerSizeBoundsGb, type BandwidthModel } from "../../pipeline/fit/model";
import {
  evaluateSchedule,
  idleStartStallReason,
  modelExampleInstance,
  modelNotApplicableReason,
  resolveScheduleOptions,
  scheduleCkpt,
  type Application,
} from "../../pipeline/schedule";
import { InputError } from "../../pipeline/shared/errors";

/**
 * A collapsing device in the paper form: bw(m, V) = 74 − 12 m + 0.7 m² (V-independent), on
 * m ∈ [1, 6], V ≤ 3 GB: e = 74 MB/s, bw(1, ·) = 62.7 MB/s, bw(6, ·) = 27.2 MB/s.
 */
const collapsing: BandwidthModel = {
  ...PAPER_MODEL,
  name: "collapsing",
  coefficients: { a: 0, b: 0.7, c: 0, d: -12, e: 74 },
  domain: { mMin: 1, mMax: 6, vGbMin: 0.03, vGbMax: 3 },
};

const apps: Application[] = [
  { id: "a", pS: 900, sizeMb: 300 },
  { id: "b", pS: 600, sizeMb: 200 },
  { id: "c", pS: 300, sizeMb: 100 },
];

describe("index_bw_max's idle start", () => {
  it("faithfully (bw(0, 0) = e) starts nothing when e exceeds every bw(1, s), and says why", () => {
    const options = resolveScheduleOptions({ model: collapsing, deadlineS: 60 });
    expect(options.idleStart).toBe("constant-term");
    const outcome = scheduleCkpt(apps, options);
    expect(outcome.startedCount).toBe(0);
    expect(outcome.ctnys).toBe(0);
    const reason = idleStartStallReason(collapsing, apps, options.idleStart, outcome.startedCount);
    expect(reason).toMatch(/e = 74\.00 MB\/s exceeds bw\(1, s\) for every application \(at most 62\.70 MB\/s\)/);
    const report = evaluateSchedule(apps, options);
    expect(report.warnings.some((w) => w.includes("--idle-start admit-first"))).toBe(true);
  });

  it("with admit-first checkpoints one at a time, as the device is fastest that way", () => {
    const outcome = scheduleCkpt(apps, resolveScheduleOptions({ model: collapsing, deadlineS: 60, idleStart: "admit-first" }));
    // Alone each writes at 62.7 MB/s: a (300 MB) 4.8 s, then b, then c; two together would be slower (51.8 MB/s).
    expect(outcome.checkpointed).toEqual(["a", "b", "c"]);
    expect(outcome.ctnys).toBe(1800);
    expect(idleStartStallReason(collapsing, apps, "admit-first", 0)).toBeNull();
  });

  it("leaves the published model's results unchanged (e = 3.75 MB/s is below bw(1, s))", () => {
    const faithful = scheduleCkpt(apps, resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 60 }));
    const admitting = scheduleCkpt(apps, resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 60, idleStart: "admit-first" }));
    expect(admitting.checkpointed).toEqual(faithful.checkpointed);
    expect(idleStartStallReason(PAPER_MODEL, apps, "constant-term", faithful.startedCount)).toBeNull();
  });

  it("refuses an unknown idle start", () => {
    expect(() => resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 60, idleStart: "sometimes" as never })).toThrow(InputError);
  });
});

describe("whether a model can price an instance", () => {
  it("is null when one application alone is within the fitted box", () => {
    expect(modelNotApplicableReason(collapsing, apps)).toBeNull();
  });
  it("names the sizes and the domain when none is", () => {
    const big: Application[] = [{ id: "x", pS: 10, sizeMb: 4000 }, { id: "y", pS: 10, sizeMb: 5000 }];
    expect(modelNotApplicableReason(collapsing, big)).toMatch(/sizes 4000–5000 MB; fitted on m ∈ \[1, 6\], V ∈ \[0\.03, 3\] GB/);
  });
  it("prices sizes below the smallest fitted V, as the domain policy refuse does", () => {
    expect(modelNotApplicableReason(collapsing, [{ id: "tiny", pS: 1, sizeMb: 1 }])).toBeNull();
  });
  it("prices no application larger than the one size per writer a model holds at", () => {
    // Fitted on 32 MiB writers only (IOR's and fio's scaling runs): a 100 MB image alone is V/m = 0.1 GB > 0.033554432.
    const oneSize: BandwidthModel = { ...collapsing, domain: { ...collapsing.domain, writerGbMin: 0.033554432, writerGbMax: 0.033554432 } };
    expect(modelNotApplicableReason(oneSize, apps)).toMatch(/sizes 100–300 MB; fitted on .*at V\/m = 0\.033554 GB only/);
    expect(modelNotApplicableReason(oneSize, [...apps, { id: "w", pS: 1, sizeMb: 33.554432 }])).toBeNull();
  });
  it("reads the per-writer bounds the oracle reads (one helper, writerSizeBoundsGb)", () => {
    // 0.033554432 GB ± the relative tolerance 1e-9; a model without sizes per writer: [0, ∞).
    expect(writerSizeBoundsGb({ ...collapsing.domain, writerGbMin: 0.033554432, writerGbMax: 0.033554432 })).toEqual({ low: 0.033554432 * (1 - 1e-9), high: 0.033554432 * (1 + 1e-9) });
    expect(writerSizeBoundsGb(collapsing.domain)).toEqual({ low: 0, high: Infinity });
    // Just inside and just outside the upper bound, for an application alone (m = 1).
    const oneSize: BandwidthModel = { ...collapsing, domain: { ...collapsing.domain, writerGbMin: 0.033554432, writerGbMax: 0.033554432 } };
    expect(modelNotApplicableReason(oneSize, [{ id: "in", pS: 1, sizeMb: 33.554432 * (1 + 0.5e-9) }])).toBeNull();
    expect(modelNotApplicableReason(oneSize, [{ id: "out", pS: 1, sizeMb: 33.554432 * (1 + 2e-9) }])).not.toBeNull();
  });
  it("is not applicable where the model predicts no usable bandwidth", () => {
    const negative: BandwidthModel = { ...collapsing, coefficients: { a: 0, b: 0, c: 0, d: -100, e: 10 } };
    expect(modelNotApplicableReason(negative, apps)).not.toBeNull();
  });
});

describe("the example instance scaled to a model", () => {
  it("takes 2 × mMax applications with sizes from the fitted range and a deadline from the best predicted bandwidth", () => {
    const instance = modelExampleInstance(collapsing)!;
    expect(instance.apps).toHaveLength(12);
    for (const app of instance.apps) {
      expect(app.sizeMb).toBeGreaterThanOrEqual(30);
      expect(app.sizeMb).toBeLessThanOrEqual(500); // vGbMax / mMax = 3 GB / 6
      expect(app.pS).toBeGreaterThanOrEqual(300);
      expect(app.pS).toBeLessThanOrEqual(1800);
    }
    const totalMb = instance.apps.reduce((s, a) => s + a.sizeMb, 0);
    // Best predicted bandwidth on the domain is bw(1, ·) = 62.7 MB/s: T = round(0.5 · total / 62.7).
    expect(instance.deadlineS).toBe(Math.round((0.5 * totalMb) / 62.7));
    expect(modelExampleInstance(collapsing)).toEqual(instance); // seeded
  });
  it("gives every application the one size per writer a model fitted on one size holds at", () => {
    const oneSize: BandwidthModel = { ...collapsing, domain: { ...collapsing.domain, writerGbMin: 0.033554432, writerGbMax: 0.033554432 } };
    const instance = modelExampleInstance(oneSize)!;
    expect(instance.apps.map((a) => a.sizeMb)).toEqual(Array(12).fill(33.554432));
    expect(instance.description).toMatch(/images of 33\.5544 MB \(the one size per writer it was fitted on\)/);
    // 12 × 33.554432 MB at 62.7 MB/s: half the time is 3.21 s, kept to two significant digits (not rounded to 3 s).
    expect(instance.deadlineS).toBe(3.2);
    expect(modelNotApplicableReason(oneSize, instance.apps)).toBeNull();
  });
  it("draws whole MB within the measured sizes per writer of a model that holds at several", () => {
    const cells: BandwidthModel = { ...collapsing, domain: { ...collapsing.domain, writerGbMin: 0.0105, writerGbMax: 0.0402 } };
    for (const app of modelExampleInstance(cells)!.apps) {
      expect(Number.isInteger(app.sizeMb)).toBe(true);
      expect(app.sizeMb).toBeGreaterThanOrEqual(11);
      expect(app.sizeMb).toBeLessThanOrEqual(40);
    }
  });
  it("says the sizes per writer spread over less than 1 MB when they are several, not one", () => {
    // Measured 10.1 and 10.4 MB per writer (the empirical form's cells): no whole MB between them, so every image is the smallest.
    const narrow: BandwidthModel = { ...collapsing, domain: { ...collapsing.domain, writerGbMin: 0.0101, writerGbMax: 0.0104 } };
    const instance = modelExampleInstance(narrow)!;
    expect(instance.apps.map((a) => a.sizeMb)).toEqual(Array(12).fill(10.1));
    expect(instance.description).toMatch(/images of 10\.1 MB \(the smallest of its sizes per writer, 10\.1–10\.4 MB, a range that holds no whole MB\)/);
    expect(instance.description).not.toMatch(/one size per writer/);
    expect(modelNotApplicableReason(narrow, instance.apps)).toBeNull();
  });
  it("is null for a model with no usable bandwidth on its domain", () => {
    const dead: BandwidthModel = { ...collapsing, coefficients: { a: 0, b: 0, c: 0, d: -1, e: 0 } };
    expect(modelExampleInstance(dead)).toBeNull();
  });
});
