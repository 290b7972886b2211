/**
 * evaluateSchedule's report by value on tiny instances on a constant-bandwidth device, every
 * expected number computed by hand from docs/science.md §4.2–4.4 (static estimate
 * m · max s / bw; a constant device shares bw equally; the CTNYS bound is a knapsack of
 * capacity T · max bw over the applications that can finish alone): the echoed inputs, the
 * gaps to the bound and the warnings' exact text.
 */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { evaluateSchedule, resolveScheduleOptions, type Application } from "../../pipeline/schedule";
import { constantModel } from "./models";

const ten = constantModel(10, "ten");

describe("evaluateSchedule by hand on a constant 10 MB/s device", () => {
  // a and b together: static 2 · 30 / 10 = 6 s ≤ T = 7; c (60 MB) with either: 2 · 60 / 10 = 12 s; alone after 6 s: 6 s > 1 s left.
  const apps: Application[] = [
    { id: "a", pS: 100, sizeMb: 30 },
    { id: "b", pS: 50, sizeMb: 30 },
    { id: "c", pS: 10, sizeMb: 60 },
  ];

  it("checkpoints a and b; the bound (capacity 7 · 10 = 70 MB: a + b = 150 s) is met; all in parallel saves nothing", () => {
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: ten, deadlineS: 7, k0: 1 }));
    expect(report.checkpointed).toEqual(["a", "b"]);
    expect(report.ctnys).toBe(150);
    expect(report.inputs).toEqual({
      model: "ten", truthModel: "ten", deadlineS: 7, k0: 1, criterion: "p", estimator: "static", domain: "refuse",
      enumeration: "up-to-k0", sequentialRule: "stop", idleStart: "constant-term", appCount: 3,
    });
    expect(report.schema).toBe("ckpt-lab/schedule@1");
    expect(report.units).toEqual({ time: "s", size: "MB", volume: "GB (MB / 1000)", bandwidth: "MB/s", micros: "µs" });
    expect(report.upperBound).toMatchObject({ ctnys: 150, exact: true, capacityMb: 70, eligibleCount: 3, knapsackIds: ["a", "b"] });
    // Sequential greedy: a alone 3 s, b alone 3 s (t = 6), c needs 6 s more: 150 s.
    expect(report.baselines.sequentialGreedy.ctnys).toBe(150);
    // All three at once: 30 MB each at 10/3 MB/s takes 9 s > 7 s, so nothing completes.
    expect(report.baselines.allInParallel.ctnys).toBe(0);
    expect(report.gapToUpperBound).toEqual({
      scheduleCkpt: { seconds: 0, share: 0 },
      sequentialGreedy: { seconds: 0, share: 0 },
      allInParallel: { seconds: 150, share: 1 },
    });
    expect(report.warnings).toEqual([]);
    expect(report.exact).toBeNull();
  });

  it("a knapsack stopped by its node limit gives Dantzig's bound: 150 + 10 MB of c at 10/60 s per MB = 151.667", () => {
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: ten, deadlineS: 7, k0: 1 }), { boundNodeLimit: 0 });
    expect(report.upperBound.exact).toBe(false);
    expect(report.upperBound.ctnys).toBeCloseTo(150 + (10 * 10) / 60, 12);
    expect(report.warnings).toEqual(["the upper bound's knapsack hit its node limit: the bound 151.667 is valid but not tight"]);
    expect(report.gapToUpperBound.scheduleCkpt.seconds).toBeCloseTo(10 / 6, 12);
    expect(report.gapToUpperBound.scheduleCkpt.share).toBeCloseTo(10 / 6 / (150 + 10 / 6), 12);
  });

  it("an exact search stopped by its node limit says so, with the best found and the bound (the same Dantzig bound, 151.667)", () => {
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: ten, deadlineS: 7 }), { exact: { nodeLimit: 1 } });
    expect(report.exact!.result).toMatchObject({ value: 150, provenOptimal: false, stoppedBy: "node-limit", nodes: 3 });
    expect(report.warnings).toEqual(["the exact simultaneous-start search stopped at its node-limit after 3 nodes: 150 is the best found, not proven optimal (the optimum is ≤ 151.667)"]);
  });

  it("the exact simultaneous start agrees: {a, b} is the best set started at t = 0 (150 s)", () => {
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: ten, deadlineS: 7, k0: 1 }), { exact: {} });
    expect(report.exact).toMatchObject({ heuristicMatchesOrBeats: true, heuristicShortfallS: 0 });
    expect(report.exact!.result).toMatchObject({ value: 150, chosen: [0, 1], provenOptimal: true });
    expect(report.exact!.outcome.ctnys).toBe(150);
    expect(report.gapToUpperBound.exact).toEqual({ seconds: 0, share: 0 });
    expect(report.warnings).toEqual([]);
  });
});

describe("evaluateSchedule's warnings when the execution is slower than the plan", () => {
  it("a truth model at half the bandwidth: the 50 MB checkpoint planned in 5 s takes 10 s, past T = 6 s", () => {
    const report = evaluateSchedule([{ id: "a", pS: 100, sizeMb: 50 }], resolveScheduleOptions({ model: ten, truthModel: constantModel(5, "five"), deadlineS: 6 }));
    expect(report.missed).toEqual(["a"]);
    expect(report.ctnys).toBe(0);
    expect(report.inputs.truthModel).toBe("five");
    // The bound follows the truth: capacity 6 · 5 = 30 MB, and 50 MB cannot finish alone, so 0 (share 0, not 0/0).
    expect(report.upperBound).toMatchObject({ ctnys: 0, capacityMb: 30, eligibleCount: 0 });
    expect(report.gapToUpperBound.scheduleCkpt).toEqual({ seconds: 0, share: 0 });
    expect(report.warnings).toEqual(["1 checkpoint(s) started but did not complete by T = 6 s (a): the truth model is slower than the plan; their p counts in RCTNYS"]);
  });

  it("the same model with a slower measured bandwidth: the estimate was optimistic; more than ten misses are cut at ten", () => {
    // Eleven 1 MB images: planned 11 · 1 / 10 = 1.1 s ≤ 2 s; executed at 1 MB/s: 11 s.
    const many = Array.from({ length: 11 }, (_, i) => ({ id: `j${i + 1}`, pS: 20 - i, sizeMb: 1 }));
    const report = evaluateSchedule(many, resolveScheduleOptions({ model: ten, deadlineS: 2, k0: 0, truthBandwidth: () => 1 }));
    expect(report.missed).toHaveLength(11);
    expect(report.warnings).toEqual([
      "11 checkpoint(s) started but did not complete by T = 2 s (j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, …): the static estimate was optimistic; their p counts in RCTNYS",
    ]);
  });
});

describe("evaluateSchedule's warnings about the models", () => {
  it("a model with no bandwidth (bw = 0): its one evaluation, bw(1, 10 MB), is named and nothing starts", () => {
    const report = evaluateSchedule([{ id: "a", pS: 100, sizeMb: 10 }], resolveScheduleOptions({ model: constantModel(0, "zero"), deadlineS: 10 }));
    expect(report.startedCount).toBe(0);
    expect(report.warnings).toEqual([
      `ScheduleCkpt's decisions: the model "zero" predicted no usable bandwidth (≤ 0) in 1 evaluations (first: bw(1, 0.010 GB) = 0.000 MB/s); those sets were treated as infeasible`,
    ]);
  });

  it("a truth model asked outside its domain: eight 700 MB images (5.6 GB > 3.42 GB) planned at 10 MB/s stall at t = 0", () => {
    // Planned: 8 · 700 / 10 = 560 s ≤ 600 s, so all eight start; the paper's model has no prediction for m = 8, V = 5.6 GB.
    const big = Array.from({ length: 8 }, (_, i) => ({ id: `big${i}`, pS: 1000 - i, sizeMb: 700 }));
    const report = evaluateSchedule(big, resolveScheduleOptions({ model: ten, truthModel: PAPER_MODEL, deadlineS: 600 }));
    expect(report.stall).toMatchObject({ atS: 0, m: 8, vGb: 5.6 });
    expect(report.warnings).toEqual([
      'the execution (truth model): 1 of 1 bandwidth evaluations fell above the fitted domain of "paper" (m ≤ 18, V ≤ 3.42 GB; first at m = 8, V = 5.600 GB) and were treated as infeasible (--domain refuse); --domain extrapolate uses the extrapolation instead',
      "8 checkpoint(s) started but did not complete by T = 600 s (big0, big1, big2, big3, big4, big5, big6, big7): the truth model is slower than the plan; their p counts in RCTNYS",
      'ScheduleCkpt\'s execution stalled at t = 0.000 s: the model "paper" has no prediction for 8 concurrent checkpoints of 5.600 GB: outside its fitted domain (m ≤ 18, V ≤ 3.42 GB), treated as infeasible under the domain policy refuse',
    ]);
  });
});

describe("evaluateSchedule with several applications on one node", () => {
  it("checkpoints them by waves: a alone, then b when a is done (docs/science.md §4.6)", () => {
    // a and b on node n1, c alone on n2; constant 10 MB/s, T = 7 s.
    // Wave 1 {a, c}: static 2 · 30 / 10 = 6 s ≤ 7: both start, each at 5 MB/s, done at t = 6.
    // Wave 2 {b} at t = 6: 30 / 10 = 3 s > 1 s left: nothing starts. Together (no waves) a, b and c would take
    // 3 · 30 / 10 = 9 s > 7, and {a, b} would be the best pair (150 s).
    const apps: Application[] = [
      { id: "a", pS: 100, sizeMb: 30, node: "n1" },
      { id: "b", pS: 50, sizeMb: 30, node: "n1" },
      { id: "c", pS: 10, sizeMb: 30, node: "n2" },
    ];
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: ten, deadlineS: 7, k0: 1 }));
    expect(report.waves!.map(({ wave, startS, endS, appIds, checkpointedCount, ctnys }) => ({ wave, startS, endS, appIds, checkpointedCount, ctnys }))).toEqual([
      { wave: 1, startS: 0, endS: 6, appIds: ["a", "c"], checkpointedCount: 2, ctnys: 110 },
      { wave: 2, startS: 6, endS: 6, appIds: ["b"], checkpointedCount: 0, ctnys: 0 },
    ]);
    expect(report.checkpointed).toEqual(["a", "c"]);
    expect(report.ctnys).toBe(110);
  });

  it("one application per node is one wave: plain ScheduleCkpt, no waves in the report", () => {
    const report = evaluateSchedule([{ id: "a", pS: 100, sizeMb: 30, node: "n1" }, { id: "b", pS: 50, sizeMb: 30, node: "n2" }], resolveScheduleOptions({ model: ten, deadlineS: 7 }));
    expect(report.waves).toBeUndefined();
    expect(report.decisions.every((d) => d.wave === undefined)).toBe(true);
    expect(report.ctnys).toBe(150);
  });
});

describe("evaluateSchedule's domain warnings when the execution uses the planning model", () => {
  it("names the decisions' extrapolations once, not again for the execution", () => {
    // Eight 700 MB images under --domain warn: the plan's and the execution's evaluations above the fitted
    // domain are of the same model, so only the decisions' warning is given.
    const big = Array.from({ length: 8 }, (_, i) => ({ id: `big${i}`, pS: 1000 - i, sizeMb: 700 }));
    const report = evaluateSchedule(big, resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 600, domain: "warn" }));
    expect(report.truthEvaluations.aboveDomain).toBeGreaterThan(0);
    expect(report.warnings.filter((w) => w.startsWith("ScheduleCkpt's decisions:"))).toHaveLength(1);
    expect(report.warnings.filter((w) => w.startsWith("the execution"))).toEqual([]);
  });
});

describe("evaluateSchedule's exact reference, executed", () => {
  // a (p 100, 20 MB) and b (p 50, 40 MB), T = 100 s: the exact set {a, b} starts at t = 0 at 5 MB/s each; a is done at
  // t = 4, b's last 20 MB alone at 10 MB/s at t = 6.
  const apps: Application[] = [
    { id: "a", pS: 100, sizeMb: 20 },
    { id: "b", pS: 50, sizeMb: 40 },
  ];

  it("runs the exact set to its last completion and names it", () => {
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: ten, deadlineS: 100 }), { exact: {} });
    const outcome = report.exact!.outcome;
    expect(outcome.strategy).toBe("exact-simultaneous");
    expect(outcome.apps.map((x) => [x.id, x.start, x.finish])).toEqual([
      ["a", 0, 4],
      ["b", 0, 6],
    ]);
    expect(outcome.ctnys).toBe(150);
    expect(outcome.bandwidthSteps.map((step) => [step.fromS, step.toS, step.m])).toEqual([
      [0, 4, 2],
      [4, 6, 1],
    ]);
  });

  it("records the exact run's bandwidth steps only when asked to record", () => {
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: ten, deadlineS: 100, record: false }), { exact: {} });
    expect(report.exact!.outcome.bandwidthSteps).toEqual([]);
    expect(report.exact!.outcome.ctnys).toBe(150);
  });

  it("lists exactly ten misses without an ellipsis", () => {
    // Ten 1 MB images: planned 10 · 1 / 10 = 1 s ≤ 2 s; executed at 1 MB/s: 10 s.
    const tenImages = Array.from({ length: 10 }, (_, i) => ({ id: `j${i + 1}`, pS: 20 - i, sizeMb: 1 }));
    const report = evaluateSchedule(tenImages, resolveScheduleOptions({ model: ten, deadlineS: 2, k0: 0, truthBandwidth: () => 1 }));
    expect(report.warnings).toEqual([
      "10 checkpoint(s) started but did not complete by T = 2 s (j1, j2, j3, j4, j5, j6, j7, j8, j9, j10): the static estimate was optimistic; their p counts in RCTNYS",
    ]);
  });
});

