/**
 * The readings of ScheduleCkpt and of the waves (pipeline/schedule/readings/): at their faithful
 * values they must give exactly what the optimised loop gives (so the investigations compare
 * readings, not implementations), each other reading must do what it says on small instances
 * worked out by hand, and the campaign must run them only when asked.
 */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import {
  FAMILIES,
  familyInstance,
  resolveScheduleOptions,
  runCampaign,
  scheduleByWaves,
  scheduleCkpt,
  wavesInstance,
  type Application,
  type Criterion,
  type EstimatorName,
} from "../../pipeline/schedule";
import { readingLabel, scheduleByWavesReadings, scheduleCkptReadings } from "../../pipeline/schedule/readings";
import { readingsOf } from "../../pipeline/commands/schedule-readings-options";

describe("the faithful reading", () => {
  it("gives scheduleCkpt's result exactly on the families (20 seeds × k0 0–2 × criteria × estimators)", () => {
    for (const family of ["A", "B", "C"] as const) {
      for (let seed = 1; seed <= 20; seed++) {
        const apps = familyInstance(family, seed);
        for (const k0 of [0, 1, 2]) {
          for (const criterion of ["p", "density"] as Criterion[]) {
            for (const estimator of ["static", "fluid"] as EstimatorName[]) {
              const options = resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: FAMILIES[family].deadlineS, k0, criterion, estimator, record: false });
              const fast = scheduleCkpt(apps, options);
              const plain = scheduleCkptReadings(apps, options, {});
              expect({ family, seed, k0, criterion, estimator, checkpointed: plain.checkpointed, endS: plain.endS }).toEqual({
                family, seed, k0, criterion, estimator, checkpointed: fast.checkpointed, endS: fast.endS,
              });
            }
          }
        }
      }
    }
  });

  it("gives scheduleByWaves's result exactly on the waves instances", () => {
    for (let seed = 1; seed <= 20; seed++) {
      for (const criterion of ["p", "density"] as Criterion[]) {
        const apps = wavesInstance(seed);
        const options = resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 600, k0: 2, criterion, record: false });
        const fast = scheduleByWaves(apps, options);
        const plain = scheduleByWavesReadings(apps, options, {}, { pacing: "barrier", order: "input", carry: "drop" });
        expect([seed, criterion, plain.checkpointed.sort(), plain.ctnys]).toEqual([seed, criterion, [...fast.checkpointed].sort(), fast.ctnys]);
      }
    }
  });
});

describe("the other readings", () => {
  // Deadline 10 s and the published model (docs/science.md §3.2): bw(1, 0.06) = 8.61 MB/s, so a
  // 60 MB image alone takes 6.97 s; two at once (bw(2, 0.12) = 13.13 MB/s) need 2 · 60 / 13.13 = 9.14 s
  // (static estimate); the 90 MB one alone needs 90 / bw(1, 0.09) = 10.45 s. index_bw_max admits all three.
  const three: Application[] = [
    { id: "big", pS: 100, sizeMb: 90 }, // never fits
    { id: "a", pS: 50, sizeMb: 60 },
    { id: "b", pS: 40, sizeMb: 60 },
  ];
  const options = resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 10, k0: 0, criterion: "p", record: false });

  it("completion=stop ends L at the first application that does not fit; scan goes on", () => {
    expect(scheduleCkptReadings(three, options, {}).checkpointed).toEqual(["a", "b"]);
    expect(scheduleCkptReadings(three, options, { completion: "stop" }).checkpointed).toEqual([]);
    // k0 = 1: J = {a} is enumerated, but its L stops at "big": a alone, and b no longer fits after it (3.03 s left).
    expect(scheduleCkptReadings(three, { ...options, k0: 1 }, { completion: "stop" }).checkpointed).toEqual(["a"]);
    // k0 = 2: J = {a, b} fits (9.14 s). Under this reading k0 matters.
    expect(scheduleCkptReadings(three, { ...options, k0: 2 }, { completion: "stop" }).checkpointed).toEqual(["a", "b"]);
  });

  it("perNode never runs two checkpoints of one node at once", () => {
    const sameNode = three.slice(1).map((app) => ({ ...app, node: "n1" }));
    const outcome = scheduleCkptReadings(sameNode, options, { perNode: true });
    const [first, second] = outcome.apps;
    expect(outcome.checkpointed).toEqual(["a"]); // b would start at 7.0 s and need 7.0 s more
    expect(second!.start).toBeNull();
    expect(first!.finish).toBeCloseTo(60 / PAPER_MODEL_BW_1(0.06), 9);
  });

  it("are named by what differs from the faithful reading", () => {
    expect(readingLabel({})).toBe("faithful");
    expect(readingLabel({ completion: "stop", candidates: "while" })).toBe("completion=stop");
  });
});

describe("the campaign and its command-line options", () => {
  it("pass on only the readings that differ, so the defaults run the optimised loop as before", () => {
    const defaults = { candidates: "while", completion: "scan", "completion-scope": "candidates", ties: "first", "running-sizes": "remaining", decisions: "every", "wave-pacing": "barrier", "wave-order": "input", "wave-carry": "drop" } as const;
    expect(readingsOf(defaults)).toEqual({});
    expect(readingsOf({ ...defaults, completion: "stop", "wave-order": "criterion" })).toEqual({ readings: { completion: "stop" }, waveReadings: { order: "criterion" } });
    expect(readingsOf({ ...defaults, decisions: "once" })).toEqual({ readings: { decisions: "once" } });
  });

  it("runs the waves under another reading when asked, and says so", () => {
    const base = { model: PAPER_MODEL, domain: "refuse", estimator: "static", parts: ["waves"], seeds: 5, firstSeed: 1, k0s: [2], criteria: ["p"], exact: null, scalingNs: [], scalingSeeds: 1 } as const;
    const faithful = runCampaign({ ...base, parts: [...base.parts], k0s: [...base.k0s], criteria: [...base.criteria], scalingNs: [] });
    const byCriterion = runCampaign({ ...base, parts: [...base.parts], k0s: [...base.k0s], criteria: [...base.criteria], scalingNs: [], waveReadings: { order: "criterion" } });
    expect(byCriterion.waves![0]!.share.mean).toBeGreaterThan(faithful.waves![0]!.share.mean);
    expect(byCriterion.notes.at(-1)).toMatch(/^Readings: wave order=criterion/);
    expect(faithful.notes.some((n) => n.startsWith("Readings"))).toBe(false);
  });
});

/** bw(1, V) of the published model (docs/science.md §3.2), V in GB. */
function PAPER_MODEL_BW_1(vGb: number): number {
  const c = PAPER_MODEL.coefficients as Record<string, number>;
  return c.a! * vGb ** 2 + c.b! + c.c! * vGb ** 2 + c.d! + c.e!;
}
