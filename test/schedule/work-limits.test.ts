/**
 * Issue #12.7 and #12.12: ScheduleCkpt at scale. 10 000 applications run (the knapsack of
 * the upper bound used to recurse once per item and overflowed the stack), and a k0 whose
 * enumeration would run for hours is refused up front with the option that fixes it.
 */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { evaluateSchedule, knapsack01, ksBwWorkBound, resolveScheduleOptions, scheduleCkpt, type Application } from "../../pipeline/schedule";
import { superlinearModel } from "./models";

function applications(n: number): Application[] {
  // Deterministic sizes and priorities (a linear congruential sequence).
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => ({ id: `a${i}`, pS: 1 + Math.floor(100 * next()), sizeMb: 10 + Math.floor(490 * next()) }));
}

describe("ScheduleCkpt at scale", () => {
  it("schedules 10 000 applications, upper bound and all (no stack overflow)", () => {
    const report = evaluateSchedule(applications(10_000), resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 180, record: false }));
    expect(report.checkpointed.length).toBeGreaterThan(0);
    expect(report.upperBound.ctnys).toBeGreaterThanOrEqual(report.ctnys);
    const items = 100_000;
    const result = knapsack01(Float64Array.from({ length: items }, (_, i) => 1 + (i % 97)), Float64Array.from({ length: items }, (_, i) => 1 + (i % 89)), 5000, 200_000);
    expect(result.upperBound).toBeGreaterThanOrEqual(result.value);
  });

  it("solves the exact simultaneous start (--exact) on 10 000 applications (no stack overflow)", () => {
    // The branch and bound recursed once per application excluded, 10 000 deep.
    const report = evaluateSchedule(applications(10_000), resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 180, record: false }), { exact: { nodeLimit: 50_000 } });
    expect(report.exact!.result.stoppedBy).toBe("node-limit");
    expect(report.exact!.result.value).toBeGreaterThan(0);
    expect(report.exact!.result.upperBound).toBeGreaterThanOrEqual(report.exact!.result.value);
  });

  it("counts ks_bw's work exactly: Σ_{j≤k0} C(r, j) subsets × (r + 1) estimates", () => {
    expect(ksBwWorkBound(9, 2, "up-to-k0")).toBe((1 + 9 + 36) * 10);
    expect(ksBwWorkBound(9, 2, "exactly-k0")).toBe(36 * 10);
    expect(ksBwWorkBound(3, 5, "up-to-k0")).toBe(8 * 4);
  });

  it("refuses a k0 whose enumeration would run for hours, naming --k0 and --max-estimates", () => {
    // A device that gets faster with every writer: index_bw_max keeps every candidate.
    const apps = applications(60).map((a) => ({ ...a, sizeMb: 1 }));
    const options = resolveScheduleOptions({ model: superlinearModel(), deadlineS: 1e6, k0: 12, record: false });
    expect(() => scheduleCkpt(apps, options)).toThrow(/ks_bw would make up to .* time estimates in one decision \(k0 = 12 over \d+ candidates\).*lower --k0 .*raise --max-estimates/);
    expect(() => resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 10, maxEstimatesPerDecision: 0 })).toThrow(/--max-estimates/);
  });
});
