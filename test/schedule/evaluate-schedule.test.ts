/** One instance's full report: domain warnings, the bound, baselines and the exact reference. */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { evaluateSchedule, familyInstance, resolveScheduleOptions, type Application } from "../../pipeline/schedule";
import { expectClose } from "../helpers";

describe("evaluateSchedule", () => {
  // Eight 700 MB images: five of them already weigh 3.5 GB, above the fitted V ≤ 3.42 GB.
  const large: Application[] = Array.from({ length: 8 }, (_, i) => ({ id: `big${i}`, pS: 1000 - i, sizeMb: 700 }));

  it("refuse (the default): says that sets above the fitted domain were treated as infeasible", () => {
    const report = evaluateSchedule(large, resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 600, k0: 1 }));
    expect(report.evaluations.aboveDomain).toBeGreaterThan(0);
    expect(report.warnings.join("\n")).toMatch(/fell above the fitted domain of "paper" \(m ≤ 18, V ≤ 3\.42 GB; first at m = 5, V = 3\.500 GB\) and were treated as infeasible \(--domain refuse\)/);
    // Never more than 4 of them at once under refuse.
    for (const step of report.bandwidthSteps) expect(step.m).toBeLessThanOrEqual(4);
    expect(report.baselines.allInParallel.stall?.reason).toMatch(/outside its fitted domain/);
  });

  it("extrapolate: uses the extrapolation and says how much of the run rests on it", () => {
    const report = evaluateSchedule(large, resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 600, k0: 1, domain: "extrapolate" }));
    expect(report.warnings.join("\n")).toMatch(/extrapolated above the fitted domain/);
    expect(Math.max(...report.bandwidthSteps.map((s) => s.m))).toBeGreaterThan(4);
  });

  it("reports gaps to the bound and compares with the exact simultaneous start", () => {
    const apps = familyInstance("A", 5);
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 180 }), { exact: {} });
    const exact = report.exact!;
    expect(exact.result.provenOptimal).toBe(true);
    expect(exact.heuristicMatchesOrBeats).toBe(report.ctnys >= exact.result.value);
    expectClose(exact.heuristicShortfallS, exact.result.value - report.ctnys);
    expectClose(report.gapToUpperBound.scheduleCkpt.seconds, report.upperBound.ctnys - report.ctnys);
    expectClose(report.gapToUpperBound.scheduleCkpt.share, (report.upperBound.ctnys - report.ctnys) / report.upperBound.ctnys);
    expect(report.gapToUpperBound.sequentialGreedy.seconds).toBeGreaterThanOrEqual(0);
    expect(exact.outcome.apps.filter((a) => a.start !== null).every((a) => a.start === 0)).toBe(true);
    expect(report.upperBound.ctnys).toBeGreaterThanOrEqual(exact.outcome.ctnys);
  });

  it("says so when the heuristic does worse than the best simultaneous start", () => {
    // Constructed: ScheduleCkpt (criterion p, k0 = 0) greedily starts the high-p large image,
    // which blocks the two smaller ones that together are worth more.
    const apps: Application[] = [
      { id: "x", pS: 100, sizeMb: 600 },
      { id: "y", pS: 90, sizeMb: 300 },
      { id: "z", pS: 90, sizeMb: 300 },
    ];
    const report = evaluateSchedule(apps, resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 75, k0: 0 }), { exact: {} });
    expect(report.checkpointed).toEqual(["x"]);
    expect(report.exact!.result.value).toBe(180);
    expect(report.exact!.heuristicMatchesOrBeats).toBe(false);
    expect(report.warnings.join("\n")).toMatch(/ScheduleCkpt saved 100 s, less than the best simultaneous start \(180 s\)/);
  });
});
