import { describe, expect, it } from "vitest";
import { parseSweep } from "../../pipeline/harness/parse-sweep";
import { planSweep } from "../../pipeline/harness/plan-sweep";

const plan = (value: object, name = "t") => planSweep(parseSweep(JSON.stringify(value), "s.json", name));

describe("planSweep", () => {
  it("makes every (m, size, repetition) once, with readable unique ids", () => {
    const p = plan({ backend: "emulate", m: [1, 2, 4], sizeMb: [8, 32], repetitions: 3 });
    expect(p.combinations).toHaveLength(18);
    const ids = p.combinations.map((c) => c.id);
    expect(new Set(ids).size).toBe(18);
    expect(ids).toContain("t.m4-s32-r3");
    for (const c of p.combinations) expect(c.sizesMb).toHaveLength(c.m);
  });

  it("shuffles with the seed: the same seed gives the same order, the grid order is a permutation of it", () => {
    const sweep = { backend: "emulate", m: [1, 2, 3, 4], sizeMb: [8, 16], repetitions: 2 };
    const a = plan({ ...sweep, seed: 7 }).combinations.map((c) => c.id);
    const b = plan({ ...sweep, seed: 7 }).combinations.map((c) => c.id);
    const c = plan({ ...sweep, seed: 8 }).combinations.map((c) => c.id);
    const grid = plan({ ...sweep, order: "grid" }).combinations.map((c) => c.id);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect([...a].sort()).toEqual([...grid].sort());
    // Grid order: the whole grid, then again (repetition outermost).
    expect(grid.slice(0, 8).every((id) => id.endsWith("-r1"))).toBe(true);
  });

  it("runs a combination two sub-sweeps share once, applies exclusions, and names mixed-size runs", () => {
    const p = plan({
      backend: "emulate",
      m: [1, 2],
      sizeMb: [8],
      exclude: [{ m: [2], sizeMb: [64] }],
      sweeps: [{}, { sizeMb: [8, 64] }, { sizeMb: [], sizeSetsMb: [[20, 390, 57]] }],
    });
    const ids = p.combinations.map((c) => c.id).sort();
    expect(ids).toHaveLength(4);
    expect(ids.slice(0, 3)).toEqual(["t.m1-s64-r1", "t.m1-s8-r1", "t.m2-s8-r1"]);
    expect(ids[3]).toMatch(/^t\.m3-mix-[0-9a-f]{6}-r1$/);
    const mixed = p.combinations.find((c) => c.m === 3)!;
    expect(mixed.sizesMb).toEqual([20, 390, 57]);
  });

  it("puts a varying sync mode in the id, and tells apart combinations differing elsewhere", () => {
    const p = plan({ backend: "emulate", m: [1], sizeMb: [8], sweeps: [{ sync: ["fsync", "dsync"] }, { sync: "fsync", pagesPerWrite: 1 }] });
    const ids = p.combinations.map((c) => c.id);
    expect(ids).toContain("t.m1-s8-dsync-r1");
    expect(new Set(ids).size).toBe(3);
    expect(ids.filter((id) => /-h[0-9a-f]{6}-r1$/.test(id))).toHaveLength(2);
  });

  it("changes the sweep hash when any field changes", () => {
    const base = { backend: "emulate", m: [1], sizeMb: [8] };
    expect(plan(base).sweepSha256).toBe(plan(base).sweepSha256);
    expect(plan({ ...base, pauseS: 1 }).sweepSha256).not.toBe(plan(base).sweepSha256);
  });
});
