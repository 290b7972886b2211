/**
 * Worked examples of ScheduleCkpt.
 *
 * 1. By hand, with a constant device (bw = 10 MB/s whatever m and V, so a set of m
 *    checkpoints shares 10 MB/s equally). Every number is derived in the comments.
 * 2. Against an independent implementation: test/schedule/reference/
 *    schedule_ckpt_reference.py, written from docs/science.md alone (itertools, no pruning,
 *    recomputation from scratch), whose output schedule_ckpt_reference.json is committed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import {
  identicalSizeInstance,
  resolveScheduleOptions,
  scheduleByWaves,
  scheduleCkpt,
  sequentialGreedy,
  type Application,
  type Criterion,
  type EstimatorName,
} from "../../pipeline/schedule";
import { expectClose } from "../helpers";
import { constantModel } from "./models";

const TEN_MB_PER_S = constantModel(10);

describe("ScheduleCkpt by hand (constant 10 MB/s device)", () => {
  // A: p = 100, 60 MB; B: p = 90, 50 MB; C: p = 90, 50 MB; T = 10 s.
  // index_bw_max: the bandwidth never drops (10 ≤ 10), so I = {A, B, C}.
  // Static estimate of a set: m · max s / 10.
  const apps: Application[] = [
    { id: "A", pS: 100, sizeMb: 60 },
    { id: "B", pS: 90, sizeMb: 50 },
    { id: "C", pS: 90, sizeMb: 50 },
  ];
  const run = (k0: number) => scheduleCkpt(apps, resolveScheduleOptions({ model: TEN_MB_PER_S, deadlineS: 10, k0 }));

  it("k0 = 0: the greedy takes A and then nothing fits", () => {
    // J = ∅; greedy in p order: {A}: 1·60/10 = 6 ≤ 10 ✓; {A,B}: 2·60/10 = 12 ✗; {A,C}: 12 ✗.
    // A runs alone at 10 MB/s → finishes at 6 s. At t = 6 (budget 4): B alone 5 s ✗, C ✗. Stop.
    const outcome = run(0);
    expect(outcome.checkpointed).toEqual(["A"]);
    expectClose(outcome.apps[0]!.finish!, 6);
    expect(outcome.ctnys).toBe(100);
    expect(outcome.rctnys).toBe(180);
    expect(outcome.iterations).toBe(2);
  });

  it("k0 = 1: J = {B} completed by C beats J = ∅ (Sahni's enumeration at work)", () => {
    // J = ∅ → {A}, value 100. J = {A} → same, 100 (not better). J = {B}: {B} 5 ✓; A: {B,A}
    // 2·60/10 = 12 ✗; C: {B,C} 2·50/10 = 10 ≤ 10 ✓ → value 180 > 100: start B and C.
    // Both run at 5 MB/s and finish together at 50/5 = 10 s = T. At t = 10 nothing fits.
    const outcome = run(1);
    expect(outcome.checkpointed).toEqual(["B", "C"]);
    expectClose(outcome.apps[1]!.finish!, 10);
    expectClose(outcome.apps[2]!.finish!, 10);
    expect(outcome.ctnys).toBe(180);
    expect(outcome.missed).toEqual([]);
    expect(outcome.decisions[0]!.started).toEqual(["B", "C"]);
    expect(outcome.decisions[0]!.value).toBe(180);
  });

  it("static vs fluid: the fluid estimate admits a set the static one refuses", () => {
    // T = 16 s. Fluid {A,B,C}: three at 10/3 MB/s until B and C finish (50 MB → 15 s), then A
    // alone moves its last 10 MB at 10 MB/s (1 s): 16 ≤ 16 ✓. Static {A,B,C}: 3·60/10 = 18 ✗.
    const options = (estimator: EstimatorName) => resolveScheduleOptions({ model: TEN_MB_PER_S, deadlineS: 16, k0: 0, estimator });
    const fluid = scheduleCkpt(apps, options("fluid"));
    expect(fluid.decisions[0]!.started).toEqual(["A", "B", "C"]);
    expectClose(fluid.apps[0]!.finish!, 16);
    expect(fluid.ctnys).toBe(280);
    // Static: {A} 6, {A,B} 12 ✓, {A,B,C} 18 ✗ → A, B at 5 MB/s; B done at 10 s, A has 10 MB
    // left. At t = 10 (budget 6): {A(10), C(50)}: 2·50/10 = 10 ✗. A alone → done at 11. At
    // t = 11 (budget 5): C alone 5 ≤ 5 ✓ → done at 16.
    const fixed = scheduleCkpt(apps, options("static"));
    expect(fixed.decisions.map((d) => d.started)).toEqual([["A", "B"], [], ["C"], []]);
    expectClose(fixed.apps[0]!.finish!, 11);
    expectClose(fixed.apps[2]!.finish!, 16);
    expect(fixed.ctnys).toBe(280);
  });
});

describe("variants by hand (constant 10 MB/s device)", () => {
  it("|J| = k0 literally (Annex A) can start nothing where |J| ≤ k0 starts two", () => {
    // Same A, B, C and T = 10 as above, k0 = 3 = r: the only J is {A, B, C}, 3·60/10 = 18 ✗.
    const apps: Application[] = [
      { id: "A", pS: 100, sizeMb: 60 },
      { id: "B", pS: 90, sizeMb: 50 },
      { id: "C", pS: 90, sizeMb: 50 },
    ];
    const literal = scheduleCkpt(apps, resolveScheduleOptions({ model: TEN_MB_PER_S, deadlineS: 10, k0: 3, enumeration: "exactly-k0" }));
    expect(literal.checkpointed).toEqual([]);
    expect(literal.decisions[0]!.value).toBeNull();
    const sahni = scheduleCkpt(apps, resolveScheduleOptions({ model: TEN_MB_PER_S, deadlineS: 10, k0: 3 }));
    expect(sahni.checkpointed).toEqual(["B", "C"]);
  });

  it("sequential greedy: rule stop ends at the first miss, rule skip tries the next", () => {
    // Decreasing p: A (60 MB, 6 s) ✓ t = 6; B (50 MB, 5 s) → 11 > 8 ✗; C (20 MB, 2 s) → 8 ≤ 8.
    const apps: Application[] = [
      { id: "A", pS: 100, sizeMb: 60 },
      { id: "B", pS: 90, sizeMb: 50 },
      { id: "C", pS: 80, sizeMb: 20 },
    ];
    const stop = sequentialGreedy(apps, resolveScheduleOptions({ model: TEN_MB_PER_S, deadlineS: 8 }));
    expect(stop.checkpointed).toEqual(["A"]);
    const skip = sequentialGreedy(apps, resolveScheduleOptions({ model: TEN_MB_PER_S, deadlineS: 8, sequentialRule: "skip" }));
    expect(skip.checkpointed).toEqual(["A", "C"]);
    expectClose(skip.apps[2]!.start!, 6);
    expectClose(skip.apps[2]!.finish!, 8);
  });

  it("waves: one application per node at a time, wave 2 starts when wave 1 ends", () => {
    // n1: a (p 500, 200 MB), b (p 400, 200 MB); n2: c (p 300, 100 MB), d (p 200, 100 MB).
    // Wave 1 = {a, c}: 2·200/10 = 40 ≤ 55 ✓, both at 5 MB/s: c done at 20, a alone → 30.
    // Wave 2 = {b, d} from t = 30, budget 25: {b, d} 40 ✗; greedy: b 20 ✓ → done at 50;
    // at t = 50, budget 5: d alone 10 ✗. CTNYS = 500 + 300 + 400 = 1200.
    const apps: Application[] = [
      { id: "a", pS: 500, sizeMb: 200, node: "n1" },
      { id: "b", pS: 400, sizeMb: 200, node: "n1" },
      { id: "c", pS: 300, sizeMb: 100, node: "n2" },
      { id: "d", pS: 200, sizeMb: 100, node: "n2" },
    ];
    const outcome = scheduleByWaves(apps, resolveScheduleOptions({ model: TEN_MB_PER_S, deadlineS: 55, k0: 0 }));
    expect(outcome.waves.map((w) => [w.appIds, w.startS, w.endS])).toEqual([
      [["a", "c"], 0, 30],
      [["b", "d"], 30, 50],
    ]);
    expect(outcome.checkpointed).toEqual(["a", "b", "c"]);
    expect(outcome.ctnys).toBe(1200);
    expect(outcome.apps.map((a) => a.wave)).toEqual([1, 2, 1, 2]);
  });
});

interface ReferenceRun {
  estimator: EstimatorName;
  criterion: Criterion;
  k0: number;
  start: (number | null)[];
  finish: (number | null)[];
  checkpointed: boolean[];
  ctnys: number;
  rctnys: number;
  iterations: number;
  decisions: { atS: number; candidates: number[]; started: number[] }[];
}
interface Reference {
  worked: { p: number[]; sizeMb: number[]; deadlineS: number; runs: ReferenceRun[] };
  identical: { sizeMb: number; sequentialGreedy: { checkpointed: number; ctnys: number }; scheduleCkpt: { checkpointed: number; ctnys: number } }[];
}

const reference = JSON.parse(readFileSync(join(__dirname, "reference", "schedule_ckpt_reference.json"), "utf8")) as Reference;

describe("ScheduleCkpt against the independent Python reference (paper model)", () => {
  const apps: Application[] = reference.worked.p.map((p, i) => ({ id: String(i), pS: p, sizeMb: reference.worked.sizeMb[i]! }));

  it("the example is one where k0, the criterion and the estimator matter", () => {
    const values = new Set(reference.worked.runs.map((r) => r.ctnys));
    expect(values.size).toBeGreaterThanOrEqual(5);
  });

  for (const expected of reference.worked.runs) {
    it(`${expected.estimator}, criterion ${expected.criterion}, k0 = ${expected.k0}: same decisions, times and CTNYS`, () => {
      const outcome = scheduleCkpt(
        apps,
        resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: reference.worked.deadlineS, k0: expected.k0, criterion: expected.criterion, estimator: expected.estimator }),
      );
      expect(outcome.decisions.map((d) => d.started.map(Number))).toEqual(expected.decisions.map((d) => d.started));
      expect(outcome.decisions.map((d) => d.candidates.map(Number))).toEqual(expected.decisions.map((d) => d.candidates));
      outcome.decisions.forEach((d, k) => expectClose(d.atS, expected.decisions[k]!.atS, 1e-9, 1e-9));
      outcome.apps.forEach((a, i) => {
        expect(a.checkpointed).toBe(expected.checkpointed[i]);
        if (expected.start[i] === null) expect(a.start).toBeNull();
        else expectClose(a.start!, expected.start[i]!, 1e-9, 1e-9);
        if (expected.finish[i] === null) expect(a.finish).toBeNull();
        else expectClose(a.finish!, expected.finish[i]!, 1e-9, 1e-9);
      });
      expect(outcome.ctnys).toBe(expected.ctnys);
      expect(outcome.rctnys).toBe(expected.rctnys);
      expect(outcome.iterations).toBe(expected.iterations);
    });
  }

  it("identical sizes: ScheduleCkpt (k0 = 0) and sequential greedy match the reference", () => {
    for (const expected of reference.identical) {
      const apps = identicalSizeInstance(expected.sizeMb);
      const options = resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 300, k0: 0, criterion: "p" });
      const heuristic = scheduleCkpt(apps, options);
      const sequential = sequentialGreedy(apps, options);
      expect({ size: expected.sizeMb, count: heuristic.checkpointed.length, ctnys: heuristic.ctnys }).toEqual({
        size: expected.sizeMb,
        ...{ count: expected.scheduleCkpt.checkpointed, ctnys: expected.scheduleCkpt.ctnys },
      });
      expect({ size: expected.sizeMb, count: sequential.checkpointed.length, ctnys: sequential.ctnys }).toEqual({
        size: expected.sizeMb,
        ...{ count: expected.sequentialGreedy.checkpointed, ctnys: expected.sequentialGreedy.ctnys },
      });
    }
  });
});
