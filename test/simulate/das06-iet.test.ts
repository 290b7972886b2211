/**
 * The ideal execution time of [DAS06] Table 2, recomputed (docs/science.md §6.2.6): every
 * cell within 0.05 min of the printed value, with the ratios of Table 1 and with the ratios
 * of its performance indexes.
 */
import { describe, expect, it } from "vitest";
import { idealExecutionTime, machineRatios, type MachineSetName } from "../../pipeline/simulate/das06/machines";

/** [DAS06] Table 2 (minutes): set, tasks, task length (s) → IET. */
const TABLE_2: [MachineSetName, number, number, number][] = [
  ["M01", 25, 1800, 17.73],
  ["M01", 25, 7200, 70.91],
  ["M01", 75, 1800, 53.19],
  ["M01", 75, 7200, 212.74],
  ["M04", 25, 1800, 35.46],
  ["M04", 25, 7200, 141.83],
  ["M04", 75, 1800, 70.91],
  ["M04", 75, 7200, 283.66],
];

describe("[DAS06] Table 2: ideal execution times", () => {
  it.each(TABLE_2)("%s, %i tasks of %i s: %f min", (set, tasks, taskCpuS, printed) => {
    for (const from of ["ratio", "index"] as const) {
      const minutes = idealExecutionTime(machineRatios(set, 32, from), tasks, taskCpuS) / 60;
      expect(Math.abs(minutes - printed), `${from}: ${minutes}`).toBeLessThanOrEqual(0.05);
    }
  });

  it("matches docs/science.md's recomputation with the printed ratios to the hundredth", () => {
    const expected = { M01: [17.73, 70.92, 53.19, 212.77], M04: [35.46, 141.84, 70.92, 283.69] };
    for (const set of ["M01", "M04"] as const) {
      const ours = [[25, 1800], [25, 7200], [75, 1800], [75, 7200]].map(([n, r]) => Math.round((idealExecutionTime(machineRatios(set), n!, r!) / 60) * 100) / 100);
      expect(ours).toEqual(expected[set]);
    }
  });

  it("is the makespan of one round when tasks ≤ machines, and refuses nonsense", () => {
    expect(idealExecutionTime([1, 1, 1], 3, 100)).toBe(100);
    expect(idealExecutionTime([2, 1], 3, 100)).toBe(100); // the fast machine does two
    expect(() => idealExecutionTime([1], 0, 100)).toThrow(/integer ≥ 1/);
  });
});
