import { describe, expect, it } from "vitest";
import { combinationWork, describeCombination, estimateRemainingS, formatDuration, formatProgress } from "../../pipeline/harness/progress";

describe("progress", () => {
  it("draws a bar with counts, percentage, elapsed time and ETA", () => {
    expect(formatProgress({ total: 48, done: 11, failed: 1, elapsedS: 62, etaS: 185, current: "m=4 32 MB r2" }, 24)).toBe(
      "[######..................] 12/48 runs (1 failed)  25%  elapsed 1m02s  ETA 3m05s  m=4 32 MB r2",
    );
    expect(formatProgress({ total: 2, done: 2, failed: 0, elapsedS: 3700, etaS: null, current: null }, 4)).toBe("[####] 2/2 runs  100%  elapsed 1h01m  ETA 0s");
    expect(formatDuration(null)).toBe("—");
  });

  it("estimates the time left from the work done in this session, weighting runs by megabytes and processes", () => {
    expect(estimateRemainingS(0, 10, 100)).toBeNull();
    expect(estimateRemainingS(200, 10, 100)).toBe(5);
    expect(combinationWork({ m: 2, sizesMb: [8, 8] })).toBe(16 + 2 * 25);
    expect(describeCombination({ m: 3, sizesMb: [20, 390, 57], repetition: 1, sync: "dsync" })).toBe("m=3 mixed 20–390 MB dsync r1");
  });
});
