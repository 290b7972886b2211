/**
 * Sweeps as shards (docs/science.md §6.5): canonical cell order and stable ids, shard i/N
 * runs the cells c with c mod N = i, a rerun skips what is done, and the merge checks
 * every cell once, one spec and one code version, and gives the same bytes for any N.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mergedCsv, mergeSweep } from "../../pipeline/simulate/sweep/merge-sweep";
import { parseShard, runShard } from "../../pipeline/simulate/sweep/run-shard";
import { parseSweepSpec, sweepCells } from "../../pipeline/simulate/sweep/sweep-spec";
import { InputError } from "../../pipeline/shared/errors";
import { coinModel } from "./fixtures/coin-model";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function fresh(): string {
  const d = mkdtempSync(join(tmpdir(), "ckpt-sweep-"));
  dirs.push(d);
  return d;
}
const registry = { coin: async () => coinModel };
const SPEC_TEXT = JSON.stringify({
  simulator: "coin",
  parameters: { flips: 50 },
  axes: [
    { name: "bias", values: [0.2, 0.5, 0.8] },
    { name: "extra.note", values: ["a", "b"] },
  ],
  exclude: [{ bias: 0.8, "extra.note": "b" }],
  seeds: { first: 1, count: 4 },
});

describe("sweep specs", () => {
  it("enumerate cells first axis slowest, seed last, with exclusions and stable ids", () => {
    const cells = sweepCells(parseSweepSpec(SPEC_TEXT, "spec.json"));
    expect(cells).toHaveLength(5 * 4);
    expect(cells.slice(0, 5).map((c) => [c.parameters.bias, (c.parameters.extra as { note: string }).note, c.seed])).toEqual([
      [0.2, "a", 1], [0.2, "a", 2], [0.2, "a", 3], [0.2, "a", 4], [0.2, "b", 1],
    ]);
    expect(cells.some((c) => c.parameters.bias === 0.8 && (c.parameters.extra as { note: string }).note === "b")).toBe(false);
    expect(sweepCells(parseSweepSpec(SPEC_TEXT, "spec.json"))).toEqual(cells); // ids are a function of parameters and seed
    expect(new Set(cells.map((c) => c.id)).size).toBe(cells.length);
  });

  it("refuse bad specs with the file, line and field", () => {
    const text = '{\n  "simulator": "coin",\n  "axes": [ { "name": "bias" } ],\n  "seeds": [1]\n}';
    expect(() => parseSweepSpec(text, "s.json")).toThrow(/^s\.json:3: axes: each axis is/);
    expect(() => parseSweepSpec('{"simulator": "coin", "seeds": []}', "s.json")).toThrow(/seeds: a non-empty list/);
    expect(() => parseSweepSpec('{"simulator": "coin", "seeds": [1], "colour": 1}', "s.json")).toThrow(/colour: unknown field/);
    expect(() => parseSweepSpec('{"simulator": "coin",\n "seeds": [1,]}', "s.json")).toThrow(/^s\.json:2:\d+: not valid JSON/);
    expect(() => parseShard("4/4")).toThrow(/0 ≤ i < N/);
  });
});

describe("shards and merge", () => {
  it("give the same merged bytes for N = 1 and N = 3, and a rerun redoes nothing", async () => {
    const spec = parseSweepSpec(SPEC_TEXT, "spec.json");
    const one = fresh();
    expect(await runShard(spec, registry, one)).toEqual({ ran: 20, skipped: 0, missing: 0, cells: 20 });
    expect(await runShard(spec, registry, one)).toEqual({ ran: 0, skipped: 20, missing: 0, cells: 20 });
    const three = fresh();
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push((await runShard(spec, registry, join(three, `task-${i}`), { index: i, count: 3 })).cells);
    expect(counts).toEqual([7, 7, 6]); // cells 0,3,…,18 / 1,4,…,19 / 2,5,…,17
    const a = mergeSweep(spec, [one]);
    const b = mergeSweep(spec, [0, 1, 2].map((i) => join(three, `task-${i}`)));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(mergedCsv(b)).toBe(mergedCsv(a));
    // Per combination: 4 seeds, and the paired difference of the two policies is exactly 1.
    expect(a.groups).toHaveLength(5);
    expect(a.groups[0]!.seeds).toEqual([1, 2, 3, 4]);
    expect(a.groups[0]!.pairedDifferences!["plus-one − plain"]!.heads).toMatchObject({ n: 4, mean: 1, sd: 0, low: 1, high: 1 });
    expect(mergedCsv(a).split("\n")[0]).toBe("bias,extra.note,flips,seeds,heads mean,heads ci95 low,heads ci95 high,flips mean,flips ci95 low,flips ci95 high,plain heads mean,plain heads ci95 low,plain heads ci95 high,plus-one heads mean,plus-one heads ci95 low,plus-one heads ci95 high,plus-one − plain heads mean,plus-one − plain heads ci95 low,plus-one − plain heads ci95 high");
  });

  it("lists missing cells, refuses conflicting copies and results of another sweep", async () => {
    const spec = parseSweepSpec(SPEC_TEXT, "spec.json");
    const out = fresh();
    await runShard(spec, registry, out, { index: 0, count: 2 });
    expect(() => mergeSweep(spec, [out])).toThrow(/10 of 20 cells have no result: cell 1 \([0-9a-f]{16}\), cell 3/);
    await runShard(spec, registry, out, { index: 1, count: 2 });
    const other = fresh();
    const cellFile = readdirSync(join(out, "cells"))[0]!;
    const copy = JSON.parse(readFileSync(join(out, "cells", cellFile), "utf8"));
    copy.result.metrics.heads += 1;
    await runShard(spec, registry, other, { index: 0, count: 1 });
    writeFileSync(join(other, "cells", cellFile), JSON.stringify(copy));
    expect(() => mergeSweep(spec, [out, other])).toThrow(/1 cell\(s\) have different results in several places/);
    const changed = parseSweepSpec(SPEC_TEXT.replace('"flips":50', '"flips":60'), "spec.json");
    expect(() => mergeSweep(changed, [out])).toThrow(InputError);
  });

  it("without compute, only reuses kept results and counts the cells it would have run", async () => {
    const spec = parseSweepSpec(SPEC_TEXT, "spec.json");
    const kept = fresh();
    await runShard(spec, registry, kept, { index: 0, count: 2 });
    const out = fresh();
    expect(await runShard(spec, registry, out, { index: 0, count: 1 }, () => {}, [kept], false)).toEqual({ ran: 0, skipped: 10, missing: 10, cells: 20 });
    expect(readdirSync(join(out, "cells"))).toHaveLength(10);
  });

  it("checks every cell's parameters before running any", async () => {
    const bad = parseSweepSpec(JSON.stringify({ simulator: "coin", axes: [{ name: "flips", values: [10, -1] }], seeds: [1] }), "spec.json");
    const out = fresh();
    await expect(runShard(bad, registry, out)).rejects.toThrow(/cell 1 \(\{"flips":-1\}, seed 1\): flips must be an integer ≥ 1/);
    expect(() => readdirSync(join(out, "cells"))).toThrow(); // nothing was run
  });
});
