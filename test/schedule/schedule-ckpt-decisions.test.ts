/**
 * ScheduleCkpt's loop by value, decision by decision, on a constant 10 MB/s device where
 * every number is computed by hand (docs/science.md §4.2–4.3: static estimate m · max s / bw;
 * equal sharing bw/m; a decision at the start and at every completion).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolveScheduleOptions, scheduleCkpt, type Application } from "../../pipeline/schedule";
import { constantModel } from "./models";

const ten = constantModel(10, "ten");
/** The decisions without their measured time (µs, machine-dependent). */
const decisionsOf = (outcome: ReturnType<typeof scheduleCkpt>) => outcome.decisions.map(({ micros: _micros, ...d }) => d);

describe("ScheduleCkpt decision by decision", () => {
  it("starts a and b, then c beside b's remaining 20 MB, then waits for the completions", () => {
    // T = 25 s, k0 = 1, criterion p (a 100, b 50, c 1).
    // t = 0: {a, b, c} takes 3 · 100 / 10 = 30 s > 25; J = ∅ with the greedy L gives {a, b} (2 · 30 / 10 = 6 s), 150 s;
    //        J = {c} gives {c, a} (2 · 100 / 10 = 20 s), 101 s: start a and b, each at 5 MB/s.
    // t = 2: a (10 MB) done; b has 20 MB left; {b: 20, c: 100} takes 2 · 100 / 10 = 20 s ≤ 23: start c.
    // t = 6: b's 20 MB done at 5 MB/s; c has 100 − 20 = 80 MB left, alone at 10 MB/s: done at t = 14.
    const apps: Application[] = [
      { id: "a", pS: 100, sizeMb: 10 },
      { id: "b", pS: 50, sizeMb: 30 },
      { id: "c", pS: 1, sizeMb: 100 },
    ];
    const before = performance.now();
    const outcome = scheduleCkpt(apps, resolveScheduleOptions({ model: ten, deadlineS: 25, k0: 1 }));
    const wallMicros = (performance.now() - before) * 1000;
    expect(decisionsOf(outcome)).toEqual([
      { iteration: 1, atS: 0, budgetS: 25, running: [], candidates: ["a", "b", "c"], started: ["a", "b"], value: 150 },
      { iteration: 2, atS: 2, budgetS: 23, running: ["b"], candidates: ["c"], started: ["c"], value: 1 },
      { iteration: 3, atS: 6, budgetS: 19, running: ["c"], candidates: [], started: [], value: 0 },
      { iteration: 4, atS: 14, budgetS: 11, running: [], candidates: [], started: [], value: 0 },
    ]);
    expect(outcome).toMatchObject({ strategy: "schedule-ckpt", iterations: 4, endS: 14, ctnys: 151, rctnys: 0, checkpointed: ["a", "b", "c"], missed: [] });
    expect(outcome.apps.map((a) => [a.id, a.start, a.finish])).toEqual([
      ["a", 0, 2],
      ["b", 0, 6],
      ["c", 2, 14],
    ]);
    // The measured times, whatever the machine's speed: readings of one monotonic clock, the decisions' inside the
    // loop's (which leaves out the recording), the loop's inside the call's.
    for (const d of outcome.decisions) expect(d.micros).toBeGreaterThanOrEqual(0);
    expect(outcome.decisions.reduce((sum, d) => sum + d.micros, 0)).toBeLessThanOrEqual(outcome.schedulerMicros * (1 + 1e-9));
    expect(outcome.schedulerMicros).toBeGreaterThan(0);
    expect(outcome.schedulerMicros).toBeLessThanOrEqual(wallMicros * (1 + 1e-9));
  });

  it("records no value when not even the empty set meets the constraint (T already passed)", () => {
    // Planned at 10 MB/s (5 s ≤ 6 s), executed at 5 MB/s: a finishes at t = 10, when the budget is 6 − 10 = −4 s.
    const outcome = scheduleCkpt([{ id: "a", pS: 100, sizeMb: 50 }], resolveScheduleOptions({ model: ten, truthModel: constantModel(5, "five"), deadlineS: 6 }));
    expect(decisionsOf(outcome)).toEqual([
      { iteration: 1, atS: 0, budgetS: 6, running: [], candidates: ["a"], started: ["a"], value: 100 },
      { iteration: 2, atS: 10, budgetS: -4, running: [], candidates: [], started: [], value: null },
    ]);
    expect(outcome).toMatchObject({ endS: 10, ctnys: 0, missed: ["a"] });
  });

  it("a set that needs exactly the time left fits, and a decision at T (budget 0) still has the empty set", () => {
    // a: 50 MB at 10 MB/s takes 5 s = T: started (5 ≤ 5). It finishes at t = 5, where the budget is 0 s: the
    // empty set meets 0 ≤ 0, so the value is 0, not null.
    const outcome = scheduleCkpt([{ id: "a", pS: 100, sizeMb: 50 }], resolveScheduleOptions({ model: ten, deadlineS: 5 }));
    expect(decisionsOf(outcome)).toEqual([
      { iteration: 1, atS: 0, budgetS: 5, running: [], candidates: ["a"], started: ["a"], value: 100 },
      { iteration: 2, atS: 5, budgetS: 0, running: [], candidates: [], started: [], value: 0 },
    ]);
    expect(outcome).toMatchObject({ endS: 5, ctnys: 100, missed: [] });
  });

  it("refuses a decision that would make more estimates than allowed, saying how many and what to change", () => {
    // r = 3 candidates, k0 = 2, up to k0: 1 + 3 + 3 = 7 subsets × (3 + 1) estimates = 28 > 10.
    const apps: Application[] = [
      { id: "a", pS: 100, sizeMb: 30 },
      { id: "b", pS: 50, sizeMb: 30 },
      { id: "c", pS: 10, sizeMb: 60 },
    ];
    expect(() => scheduleCkpt(apps, resolveScheduleOptions({ model: ten, deadlineS: 7, k0: 2, maxEstimatesPerDecision: 10 }))).toThrow(
      "ks_bw would make up to 2.8e+1 time estimates in one decision (k0 = 2 over 3 candidates), about 2.8e-7 s each time at 10^8 estimates/s: " +
        "lower --k0 (the papers use 0 to 2), or raise --max-estimates (now 1e+1)",
    );
    // 28 allowed: runs.
    expect(scheduleCkpt(apps, resolveScheduleOptions({ model: ten, deadlineS: 7, k0: 2, maxEstimatesPerDecision: 28 })).ctnys).toBe(150);
  });
});

describe("ScheduleCkpt's measured times, read off a clock that ticks by hand", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** performance.now() gives 0, 1, 3, 7, 15, … ms (2^c − 1 at its c-th call, from 0): every difference is distinct. */
  function tickingClock(): () => number {
    let calls = 0;
    const spy = vi.spyOn(performance, "now").mockImplementation(() => 2 ** calls++ - 1);
    return () => spy.mock.calls.length;
  }

  // Planned at 10 MB/s, executed at 5 MB/s: two decisions (t = 0 and t = 10), as in "records no value" above.
  const apps: Application[] = [{ id: "a", pS: 100, sizeMb: 50 }];
  const slow = { model: ten, truthModel: constantModel(5, "five"), deadlineS: 6 };

  it("a decision's time runs from its start to its recording, and the loop's leaves the recordings out", () => {
    const calls = tickingClock();
    const outcome = scheduleCkpt(apps, resolveScheduleOptions(slow));
    // The readings: loop start 0; decision 1: start 1, recording 3 → 7; decision 2: start 15, recording 31 → 63; loop end 127.
    expect(calls()).toBe(8);
    // Decision 1: (3 − 1) ms = 2000 µs; decision 2: (31 − 15) ms = 16 000 µs.
    expect(outcome.decisions.map((d) => d.micros)).toEqual([2000, 16_000]);
    // The loop: 127 − 0 ms less the recordings (7 − 3) + (63 − 31) = 36 ms: 91 ms.
    expect(outcome.schedulerMicros).toBe(91_000);
  });

  it("without recording the clock is read only at the loop's start and end", () => {
    const calls = tickingClock();
    const outcome = scheduleCkpt(apps, resolveScheduleOptions({ ...slow, record: false }));
    // Readings 0 and 1: 1 ms.
    expect(calls()).toBe(2);
    expect(outcome.decisions).toEqual([]);
    expect(outcome.schedulerMicros).toBe(1000);
  });
});
