/**
 * Users' checkpoint policies as modules (docs/science.md §6.7, examples/policies/): a module
 * equal to a built-in policy gives the built-in's results bit for bit, the example modules run
 * next to the built-ins, in sweeps too, and a faulty module stops the run with its name and
 * what it did. The time limit is tested with modules that never return (a loop, a blocking
 * sleep far past the limit), never with one that is merely slow: nothing here depends on the
 * machine's speed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256OfFile } from "../../../pipeline/shared/hash";
import { BKT_PAPER_PRESET, validateBktScenario, type BktScenario } from "../../../pipeline/simulate/bkt/bkt-scenario";
import { simulateBkt, type BktReport } from "../../../pipeline/simulate/bkt/bkt-simulator";
import { mergeSweep } from "../../../pipeline/simulate/sweep/merge-sweep";
import { runShard } from "../../../pipeline/simulate/sweep/run-shard";
import { parseSweepSpec } from "../../../pipeline/simulate/sweep/sweep-spec";
import { SIMULATORS } from "../../../pipeline/simulate/simulator";
import { runCli } from "../../cli-io";

const dir = mkdtempSync(join(tmpdir(), "ckpt-policy-module-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function module(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

const scenario = (over: Partial<BktScenario>): BktScenario => validateBktScenario({ ...BKT_PAPER_PRESET, clients: 200, jobs: 50, replications: 2, ...over });

/** A run's numbers without its policy's name. */
const numbers = (report: BktReport, policy: string) => report.runs.filter((r) => r.policy === policy).map(({ policy: _, ...rest }) => rest);

describe("a module equal to a built-in policy", () => {
  it("gives its results bit for bit: Daly's period (examples/policies/daly-periodic.mjs) and checkpoint-after-every-slice", async () => {
    const everySlice = module("every.mjs", `export default { name: "all", plan: ({ sliceSeconds }) => sliceSeconds.map((_, i) => i + 1) };`);
    for (const transient of ["suspend", "abort"] as const) {
      const report = await simulateBkt(scenario({ transient, policies: ["periodic", "every-slice", "none"], policyModules: ["examples/policies/daly-periodic.mjs", everySlice] }));
      expect(Object.keys(report.policies)).toEqual(["periodic", "every-slice", "none", "daly-periodic", "all"]);
      expect(numbers(report, "daly-periodic"), transient).toEqual(numbers(report, "periodic"));
      expect(numbers(report, "all"), transient).toEqual(numbers(report, "every-slice"));
      expect(numbers(report, "periodic")).not.toEqual(numbers(report, "none"));
      expect(report.pairedMakespanDifferenceH["daly-periodic − periodic"]).toMatchObject({ mean: 0, sd: 0 });
      expect(report.policyModules).toEqual([
        { file: "examples/policies/daly-periodic.mjs", sha256: sha256OfFile("examples/policies/daly-periodic.mjs"), name: "daly-periodic" },
        { file: everySlice, sha256: sha256OfFile(everySlice), name: "all" },
      ]);
    }
  });

  it("sees the availability law the built-ins plan with, and the planned restart download", async () => {
    const seen = join(dir, "seen.json");
    const spy = module(
      "spy.mjs",
      `import { writeFileSync } from "node:fs";
       let calls = 0, downloads = 0;
       export default { name: "spy", plan(input) {
         calls++; if (input.downloadSeconds > 0) downloads++;
         writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ calls, downloads, mean: input.law.mean, cdf: input.law.cdf(3600), survival: input.law.survival(3600), description: input.law.description, n: input.sliceSeconds.length === input.checkpointSeconds.length }));
         return []; } };`,
    );
    const report = await simulateBkt(scenario({ policies: ["none"], policyModules: [spy], replications: 1 }));
    const got = JSON.parse(readFileSync(seen, "utf8"));
    expect(got.calls).toBe(report.policies.spy!.copies.mean);
    expect(got.downloads).toBe(0); // it never checkpoints, so no copy restarts from a checkpoint
    // Weibull(0.431, 1.682 h): mean 1.682 h · Γ(1 + 1/0.431) = 4.609 h; F(1 h) = 1 − exp(−(1/1.682)^0.431).
    expect(got.mean / 3600).toBeCloseTo(4.609, 3);
    expect(got.cdf).toBeCloseTo(1 - Math.exp(-((1 / 1.682) ** 0.431)), 12);
    expect(got.cdf + got.survival).toBeCloseTo(1, 12);
    expect(got).toMatchObject({ n: true, description: report.policyLaw });
  });
});

describe("the example modules", () => {
  it("run next to the built-ins from the command line, named in the table, and in a sweep's cells", async () => {
    const run = await runCli(["simulate", "bkt", "--clients", "120", "--jobs", "30", "--slice-hours", "0.05,0.3", "--policies", "none,pckp", "--policy-module", "examples/policies/expected-loss.mjs", "--quiet"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`policy "expected-loss" from examples/policies/expected-loss.mjs (sha256 ${sha256OfFile("examples/policies/expected-loss.mjs")})`);
    expect(run.stdout).toMatch(/^expected-loss +\d/m);
    expect(run.stdout).toMatch(/^makespan expected-loss − none: /m);

    const specPath = join(dir, "sweep.json");
    writeFileSync(specPath, JSON.stringify({ simulator: "bkt", parameters: { clients: 60, jobs: 15, policies: ["periodic"], policyModules: ["examples/policies/daly-periodic.mjs"] }, axes: [{ name: "transient", values: ["suspend", "abort"] }], seeds: [1, 2] }));
    const spec = parseSweepSpec(readFileSync(specPath, "utf8"), specPath);
    const [one, two] = [join(dir, "one"), join(dir, "two")];
    await runShard(spec, SIMULATORS, one);
    for (const i of [0, 1]) await runShard(spec, SIMULATORS, two, { index: i, count: 2 });
    const merged = mergeSweep(spec, [one]);
    expect(JSON.stringify(mergeSweep(spec, [two]))).toBe(JSON.stringify(merged));
    for (const group of merged.groups) expect(group.policies!["daly-periodic"]).toEqual(group.policies!.periodic);
    const cell = JSON.parse(readFileSync(join(one, "cells", `${merged.cells[0]!.id}.json`), "utf8"));
    expect(cell.inputs).toEqual({ "examples/policies/daly-periodic.mjs": sha256OfFile("examples/policies/daly-periodic.mjs") });
  });

  it("in TypeScript too, through tsx", async () => {
    const typed = module("typed.ts", `interface Input { sliceSeconds: number[] }\nexport default { name: "typed", plan: (input: Input): number[] => [input.sliceSeconds.length] };\n`);
    const report = await simulateBkt(scenario({ policies: ["none"], policyModules: [typed], replications: 1 }));
    // Checkpointing only after the last slice is what "none" does.
    expect(numbers(report, "typed")).toEqual(numbers(report, "none"));
  });
});

describe("a faulty module stops the run with its name and what it did", () => {
  const cases: [string, string, RegExp][] = [
    ["throws.mjs", `export default { name: "thrower", plan() { throw new RangeError("no plan today"); } };`, /policy module .*throws\.mjs \("thrower"\) threw RangeError: no plan today — planning a copy of job \d+ starting after slice 0 at t = 0 s/],
    ["zero.mjs", `export default { name: "zero-based", plan: () => [0] };`, /policy module .*zero\.mjs \("zero-based"\) returned \[0\] for a copy of job \d+ .*: 0 is not a slice: indices are 1-based, in 1\.\.\d+/],
    ["fraction.mjs", `export default { name: "half", plan: () => [1.5] };`, /\("half"\) returned \[1\.5\] .*1\.5 is not an integer index/],
    ["object.mjs", `export default { name: "object", plan: () => ({ checkpoints: [1] }) };`, /\("object"\) returned \{"checkpoints":\[1\]\}: plan\(input\) must return an array of slice indices/],
    ["async.mjs", `export default { name: "later", async plan() { return [1]; } };`, /\("later"\) returned a Promise: plan\(input\) must return an array of slice indices \(number\[\]\), synchronously/],
    ["loop.mjs", `export default { name: "forever", plan() { for (;;) {} } };`, /\("forever"\) took longer than its time limit of 0\.5 s \(policyTimeLimitS\) and was stopped .* — planning a copy/],
    ["sleep.mjs", `export default { name: "sleeper", plan() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600000); return []; } };`, /\("sleeper"\) took longer than its time limit of 0\.5 s/],
    ["nameless.mjs", `export default { plan: () => [] };`, /policy module .*nameless\.mjs: its default export must be \{ name: string, plan\(input\): number\[\] \} .*its name is undefined/],
    ["no-plan.mjs", `export default { name: "x", plan: [] };`, /its plan is \[\]/],
    ["no-default.mjs", `export const name = "x";`, /its plan is undefined/],
    ["syntax.mjs", `export default { name: "x", plan( { return []; } };`, /policy module .*syntax\.mjs: cannot import it: Unexpected token .* at .*syntax\.mjs:1/],
    ["builtin.mjs", `export default { name: "pckp", plan: () => [] };`, /its name "pckp" is taken/],
  ];
  for (const [file, source, message] of cases) {
    it(file, async () => {
      // A short limit only for the modules that never return: a quick one on a loaded machine keeps the default's margin.
      const policyTimeLimitS = file === "loop.mjs" || file === "sleep.mjs" ? 0.5 : BKT_PAPER_PRESET.policyTimeLimitS;
      await expect(simulateBkt(scenario({ policies: ["none"], policyModules: [module(file, source)], policyTimeLimitS, replications: 1 }))).rejects.toThrow(message);
    });
  }

  it("and the command exits 1 with the message, writing nothing", async () => {
    const out = join(dir, "never.json");
    const run = await runCli(["simulate", "bkt", "--clients", "20", "--jobs", "5", "--policy-module", module("bad.mjs", `export default { name: "bad", plan: () => "all" };`), "--out", out, "--quiet"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/policy module .*bad\.mjs \("bad"\) returned "all": plan\(input\) must return an array/);
    expect(() => readFileSync(out)).toThrow(/ENOENT/);
    const missing = await runCli(["simulate", "bkt", "--policy-module", join(dir, "absent.mjs"), "--quiet"]);
    expect(missing.stderr).toMatch(/cannot read the policy module ".*absent\.mjs": ENOENT/);
  });
});
