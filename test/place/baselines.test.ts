import { describe, expect, it } from "vitest";
import { dalyPeriod, youngPeriod } from "../../pipeline/place/checkpoint-periods";
import { mapPeriodToSlices } from "../../pipeline/place/map-period-to-slices";
import { expectClose } from "../helpers";

const MINUTE = 60;
const HOUR = 3600;

describe("Young and Daly periods on Daly's published example", () => {
  // J.T. Daly, "A higher order estimate of the optimum checkpoint interval for restart
  // dumps", FGCS 22(3), 2006, Figs. 3–5: M = 24 h / 6 h / 15 min, δ = 5 min, R = 10 min,
  // T_s = 500 h; "the new model predicts τ_opt = 117 min / 57 min / 9.1 min" (rounded as
  // printed, hence the half-unit tolerances).
  const cases = [
    { mttf: 24 * HOUR, daly: 117, dalyTolerance: 0.5, young: 120 }, // Young: √(2·5·1440) = 120 min
    { mttf: 6 * HOUR, daly: 57, dalyTolerance: 0.5, young: 60 }, // √(2·5·360) = 60 min
    { mttf: 15 * MINUTE, daly: 9.1, dalyTolerance: 0.05, young: Math.sqrt(150) }, // √(2·5·15) min
  ];
  for (const { mttf, daly, dalyTolerance, young } of cases) {
    it(`M = ${mttf / MINUTE} min`, () => {
      expect(Math.abs(dalyPeriod(5 * MINUTE, mttf) / MINUTE - daly)).toBeLessThanOrEqual(dalyTolerance);
      expectClose(youngPeriod(5 * MINUTE, mttf) / MINUTE, young, 1e-14);
    });
  }

  it("Daly's period is M when the checkpoint costs at least 2M", () => {
    expect(dalyPeriod(200, 100)).toBe(100);
  });
});

describe("mapping a period to slice boundaries ([BKT] §IV)", () => {
  const job = { slicesSeconds: [100, 100, 100, 100, 100, 100], costsSeconds: [10, 40, 10, 40, 10, 40] };

  it("on cumulative work: after about every `period` seconds of work", () => {
    // Work sums from the last checkpoint: 100, 200, 300 … → closest to 250 is 200 (tie 300 is farther? |200−250| = |300−250|: earlier wins).
    expect(mapPeriodToSlices(job, 250, "work")).toEqual([2, 4, 6]);
    expect(mapPeriodToSlices(job, 310, "work")).toEqual([3, 6]);
  });

  it("on cumulative cost, as [BKT] writes it", () => {
    // Cost sums: 10, 50, 60, 100 … → 50 is closest to 45: after slice 2; then 10, 50 → slice 4; then 10, 50 → 6.
    expect(mapPeriodToSlices(job, 45, "cost")).toEqual([2, 4, 6]);
    // A period far above the costs (the usual case: periods are spans of work) leaves only the final checkpoint.
    expect(mapPeriodToSlices(job, 3600, "cost")).toEqual([6]);
  });
});
