import { describe, expect, it } from "vitest";
import { mergeTimings, splitTimings } from "../../pipeline/shared/split-timings";

describe("splitTimings", () => {
  it("moves every measured duration out, by path, and leaves the rest as it was", () => {
    const input = {
      a: 1,
      solverMicros: 12.5,
      list: [{ micros: 3, n: 2, stats: { tableMicros: 7, schedulerMicrosMedian: 4 }, published: { schedulerMicros: 28 } }],
      name: "x",
    };
    const { value, timings } = splitTimings(input);
    expect(value).toEqual({
      a: 1,
      solverMicros: null,
      list: [{ micros: null, n: 2, stats: { tableMicros: null, schedulerMicrosMedian: null }, published: { schedulerMicros: 28 } }],
      name: "x",
    });
    expect(timings).toEqual({ solverMicros: 12.5, "list[0].micros": 3, "list[0].stats.tableMicros": 7, "list[0].stats.schedulerMicrosMedian": 4 });
    expect(input.solverMicros).toBe(12.5);
    expect(mergeTimings(value, timings)).toEqual(input);
  });
});
