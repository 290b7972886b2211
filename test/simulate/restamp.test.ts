/**
 * Re-stamping a kept grid (simulate/sweep/restamp.ts): a sample of the cells recomputed and
 * compared with the kept results; identical → every cell and merged.json carry the current
 * code version, other bytes untouched; a sampled cell whose kept result differs → refused,
 * naming the cell and the field, nothing written.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonAtomic } from "../../pipeline/shared/atomic-write";
import { mergeSweep } from "../../pipeline/simulate/sweep/merge-sweep";
import { evenSample, firstDifference, restampGrid } from "../../pipeline/simulate/sweep/restamp";
import { modelCodeVersion, runShard } from "../../pipeline/simulate/sweep/run-shard";
import { parseSweepSpec } from "../../pipeline/simulate/sweep/sweep-spec";
import { coinModel } from "./fixtures/coin-model";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const registry = { coin: async () => coinModel };
const spec = parseSweepSpec(JSON.stringify({ simulator: "coin", parameters: { flips: 20 }, axes: [{ name: "bias", values: [0.2, 0.8] }], seeds: { first: 1, count: 3 } }), "spec.json");

/** A grid computed by the sweep, then stamped with an older code version (as after a refactor). */
async function keptGrid(): Promise<string> {
  const grid = mkdtempSync(join(tmpdir(), "ckpt-restamp-"));
  dirs.push(grid);
  await runShard(spec, registry, grid);
  writeJsonAtomic(join(grid, "merged.json"), mergeSweep(spec, [grid]));
  for (const file of [...cellFiles(grid), join(grid, "merged.json")]) writeFileSync(file, readFileSync(file, "utf8").replace(/"codeVersion": "[0-9a-f]*"/, '"codeVersion": "0123456789abcdef"'));
  return grid;
}
const cellFiles = (grid: string) => readdirSync(join(grid, "cells")).sort().map((name) => join(grid, "cells", name));
const snapshot = (grid: string) => [...cellFiles(grid), join(grid, "merged.json")].map((f) => readFileSync(f, "utf8"));

describe("restamp", () => {
  it("spreads the sample over the grid, first and last included", () => {
    expect(evenSample(6, 3)).toEqual([0, 3, 5]); // round(0), round(2.5) = 3, round(5)
    expect(evenSample(2, 3)).toEqual([0, 1]);
    expect(evenSample(10, 1)).toEqual([0]);
  });

  it("re-stamps every cell and merged.json when the sampled results are identical, changing nothing else", async () => {
    const grid = await keptGrid();
    const before = snapshot(grid);
    const outcome = await restampGrid(spec, registry, grid, { sample: 3, filesFrom: "." });
    const version = modelCodeVersion(coinModel);
    expect(outcome).toMatchObject({ cells: 6, previousCodeVersions: ["0123456789abcdef"], codeVersion: version, rewritten: 7 });
    expect(outcome.sampled.map((c) => c.index)).toEqual([0, 3, 5]);
    const after = snapshot(grid);
    expect(after.map((text) => text.replace(version, "0123456789abcdef"))).toEqual(before);
    // A second run finds nothing to do, and a sweep now counts every cell as done.
    expect((await restampGrid(spec, registry, grid, { sample: 1, filesFrom: "." })).rewritten).toBe(0);
    expect(await runShard(spec, registry, grid)).toMatchObject({ ran: 0, skipped: 6 });
  });

  it("refuses, naming the cell and the field, when a sampled cell's kept result differs, and writes nothing", async () => {
    const grid = await keptGrid();
    const last = cellFiles(grid).find((f) => JSON.parse(readFileSync(f, "utf8")).index === 5)!;
    const cell = JSON.parse(readFileSync(last, "utf8"));
    cell.result.metrics.heads += 1;
    writeFileSync(last, JSON.stringify(cell, null, 2) + "\n");
    const before = snapshot(grid);
    await expect(restampGrid(spec, registry, grid, { sample: 3, filesFrom: "." })).rejects.toThrow(
      new RegExp(`${cell.id}\\.json: cell 5 .*seed 3.* metrics\\.heads: kept ${cell.result.metrics.heads}, recomputed ${cell.result.metrics.heads - 1}.*Nothing was re-stamped`),
    );
    expect(snapshot(grid)).toEqual(before);
  });

  it("refuses a grid computed for another spec and a bad sample size", async () => {
    const grid = await keptGrid();
    const other = parseSweepSpec(JSON.stringify({ simulator: "coin", parameters: { flips: 21 }, axes: [{ name: "bias", values: [0.2, 0.8] }], seeds: { first: 1, count: 3 } }), "spec.json");
    await expect(restampGrid(other, registry, grid, { sample: 1, filesFrom: "." })).rejects.toThrow(/cell 0 of the spec has no result; run the sweep/);
    await expect(restampGrid(spec, registry, grid, { sample: 0, filesFrom: "." })).rejects.toThrow(/--sample must be a whole number ≥ 1/);
  });

  it("names the first differing field", () => {
    expect(firstDifference({ a: 1, b: { c: 2 } }, { a: 1, b: { c: 3 } })).toBe("b.c: kept 2, recomputed 3");
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeNull();
  });
});

describe("ckpt simulate restamp", () => {
  it("re-stamps a grid the sweep wrote, refuses one whose kept result differs (exit 1, naming the cell), and wants --grid", async () => {
    const { runCli } = await import("../cli-io");
    const dir = mkdtempSync(join(tmpdir(), "ckpt-restamp-cli-"));
    dirs.push(dir);
    const grid = join(dir, "grid");
    writeFileSync(`${grid}.json`, JSON.stringify({ simulator: "das06", parameters: { tasks: 25, taskCpuS: 1800, policies: ["FCFS"] }, axes: [{ name: "checkpoints", values: [0, 1] }], seeds: [1] }));
    expect((await runCli(["simulate", "sweep", `${grid}.json`, "--out", grid, "--quiet"])).code).toBe(0);
    expect((await runCli(["simulate", "merge", `${grid}.json`, "--out", grid])).code).toBe(0);
    for (const file of [...cellFiles(grid), join(grid, "merged.json")]) writeFileSync(file, readFileSync(file, "utf8").replace(/"codeVersion": "[0-9a-f]*"/, '"codeVersion": "0123456789abcdef"'));
    const done = await runCli(["simulate", "restamp", "--grid", grid, "--sample", "2", "--json"]);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ cells: 2, previousCodeVersions: ["0123456789abcdef"], rewritten: 3 });
    expect(done.stderr).toMatch(/cell 1 \(2\/2 sampled, seed 1\) recomputed in .* identical/);

    const cellPath = cellFiles(grid)[0]!;
    const cell = JSON.parse(readFileSync(cellPath, "utf8"));
    const metric = Object.keys(cell.result.metrics)[0]!;
    cell.result.metrics[metric] += 1;
    writeFileSync(cellPath, JSON.stringify(cell, null, 2) + "\n");
    const refused = await runCli(["simulate", "restamp", "--grid", grid, "--quiet"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${cell.id}.json: cell ${cell.index} `);
    expect(refused.stderr).toContain(`metrics.${metric}: kept ${cell.result.metrics[metric]}`);

    const usage = await runCli(["simulate", "restamp"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--grid/);
    expect((await runCli(["simulate", "restamp", "--help"])).stdout).toMatch(/Re-stamps a kept grid/);
  }, 60_000);
});
