/**
 * Stages in worker threads (pipeline/runner/lanes.ts): the same outputs, state and manifest
 * as on the main thread, each stage after those producing its inputs, and a stage's error
 * back with its kind (an InputError stays one: exit code 1 with its message).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInLanes, type Lane } from "../../pipeline/runner/lanes";
import { runStages } from "../../pipeline/runner/run-stages";
import { InputError } from "../../pipeline/shared/errors";
import { projectRoot } from "../../pipeline/shared/version";
import { LANE_STAGES } from "./fixtures/lane-stages";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), "ckpt-lanes-"));
  dirs.push(dir);
  return dir;
}

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!path.endsWith("file-hashes.json")) out[relative(dir, path)] = readFileSync(path, "latin1");
    }
  };
  walk(dir);
  return out;
}

const options = (out: string, workers: number, extra = {}) => ({ out, traces: [], codeRoot: dirname(LANE_STAGES[0]!.module), projectRoot: fresh(), workers, ...extra });

describe("stages in worker threads", () => {
  it("give the same files, state and manifest as on the main thread, each stage after its inputs", async () => {
    const main = join(fresh(), "out");
    const threads = join(fresh(), "out");
    mkdirSync(main);
    mkdirSync(threads);
    const order: string[] = [];
    const log = (line: string) => {
      const match = /^\[\d\/4\] (\w): (running|done)/.exec(line);
      if (match) order.push(`${match[2]} ${match[1]}`);
    };
    await runStages(LANE_STAGES, options(main, 0));
    const run = await runStages(LANE_STAGES, options(threads, 2, { log }));
    expect(tree(threads)).toEqual(tree(main));
    expect(readFileSync(join(threads, "total.txt"), "utf8")).toBe(`${55 * 0.2}\n`);
    expect(run.outcomes.map((o) => [o.name, o.ran])).toEqual([["a", true], ["b", true], ["c", true], ["d", true]]);
    // b waits for a, d for b and c (that a and c overlap is the scheduler's test below: here
    // it would depend on how fast a worker thread starts).
    expect(order.indexOf("running b")).toBeGreaterThan(order.indexOf("done a"));
    expect(order.indexOf("running d")).toBeGreaterThan(Math.max(order.indexOf("done b"), order.indexOf("done c")));
  });

  it("throw a stage's InputError as an InputError, after the stage running beside it finished", async () => {
    const out = join(fresh(), "out");
    mkdirSync(out);
    const lines: string[] = [];
    const failing = runStages(LANE_STAGES, options(out, 2, { parameterOverrides: { "c.scale": -1 }, log: (l: string) => lines.push(l) }));
    await expect(failing).rejects.toThrow(InputError);
    await expect(failing).rejects.toThrow("c.scale must be ≥ 0, got -1");
    expect(lines.some((l) => /\[1\/4\] a: done/.test(l))).toBe(true);
    expect(lines.some((l) => /\[4\/4\] d: running/.test(l))).toBe(false);
  });
});

describe("the lanes' scheduler", () => {
  it("starts every ready stage in a free lane at once, and the others as their inputs are done", async () => {
    // Each stage's run ends when the test says: the order is the test's, not the threads'.
    const finish = new Map<string, () => void>();
    const started: string[] = [];
    const lanes = [{ name: "one" }, { name: "two" }] as unknown as Lane[];
    const wiring = new Map(LANE_STAGES.map((stage) => [stage.name, stage.inputs]));
    const run = runInLanes(LANE_STAGES, wiring, lanes, (index) => {
      started.push(LANE_STAGES[index]!.name);
      return new Promise<void>((resolve) => finish.set(LANE_STAGES[index]!.name, resolve));
    });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(started).toEqual(["a", "c"]);
    finish.get("a")!();
    await settle();
    expect(started).toEqual(["a", "c", "b"]);
    finish.get("b")!();
    await settle();
    expect(started).toEqual(["a", "c", "b"]);
    finish.get("c")!();
    await settle();
    expect(started).toEqual(["a", "c", "b", "d"]);
    finish.get("d")!();
    await run;
  });
});

describe("the pipeline's own stages in a worker", () => {
  it("are each found by their module and name in the built code, the per-cluster stages made from one list too", () => {
    // A worker loads the built modules (lanes run only from dist/): check it there.
    execFileSync(process.execPath, [join(projectRoot(), "bin/build.js")], { stdio: "ignore" });
    const script = `
      const { STAGES } = require("./dist/pipeline/run.js");
      const { findStage } = require("./dist/pipeline/runner/find-stage.js");
      for (const stage of STAGES) if (findStage(stage.module, stage.name) !== stage) throw new Error("not found: " + stage.name);
      console.log(STAGES.map((s) => s.name).join(","));`;
    const names = execFileSync(process.execPath, ["-e", script], { cwd: projectRoot(), encoding: "utf8" }).trim().split(",");
    expect(names).toEqual(expect.arrayContaining(["ingest-machine", "fit-machine", "ingest-nfs", "fit-nfs", "report"]));
  }, 120_000);
});
