/**
 * A measured checkpoint server in both desktop-grid simulators (docs/science.md §6.6): the
 * closed forms through whole runs, two fitted models (the shipped NFS trace's, and a fast
 * server's) against each other, what the output says about the model, bad scenarios, and
 * sweeps that notice a changed model file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAPER_MODEL, type BandwidthModel } from "../../../pipeline/fit/model";
import { sha256OfFile } from "../../../pipeline/shared/hash";
import { BKT_PAPER_PRESET, readBktScenario, validateBktScenario, type BktScenario } from "../../../pipeline/simulate/bkt/bkt-scenario";
import { simulateBkt } from "../../../pipeline/simulate/bkt/bkt-simulator";
import { DAS06_DEFAULTS, readDas06Scenario, validateDas06Scenario, type Das06Scenario } from "../../../pipeline/simulate/das06/das06-scenario";
import { simulateDas06 } from "../../../pipeline/simulate/das06/das06-simulator";
import { mergeSweep } from "../../../pipeline/simulate/sweep/merge-sweep";
import { runShard } from "../../../pipeline/simulate/sweep/run-shard";
import { parseSweepSpec } from "../../../pipeline/simulate/sweep/sweep-spec";
import { SIMULATORS } from "../../../pipeline/simulate/simulator";
import { runCli } from "../../cli-io";
import { expectClose } from "../../helpers";

const dir = mkdtempSync(join(tmpdir(), "ckpt-measured-server-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A model file of constant bandwidth B MB/s (the full form's a00), fitted "everywhere". */
function constantModel(name: string, mbPerS: number): string {
  const coefficients = Object.fromEntries(["a00", "a01", "a02", "a10", "a11", "a12", "a20", "a21", "a22"].map((k) => [k, k === "a00" ? mbPerS : 0]));
  const model: BandwidthModel = { ...PAPER_MODEL, name, form: "full", coefficients, domain: { mMin: 1, mMax: 1000, vGbMin: 0, vGbMax: 1e6 }, provenance: {} };
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(model));
  return path;
}

/** The published model's bw(m, V), written out from [Y11] eq. 4's coefficients (docs/science.md §3.2). */
const azur = (m: number, v: number) => -0.0155 * m * m * v * v - 0.169435 * m * m + 0.0004 * v * v + 5.027318 * m + 3.753154;

/** An FTA trace of 32 nodes, each available for the whole 8 days. */
function alwaysAvailable(): string {
  const lines = ["# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason"];
  for (let node = 0; node < 32; node++) lines.push(`0 0 ${node} 0 ${node} 1 0 ${8 * 86400} NULL`);
  const path = join(dir, "always.tab");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/** [BKT]: identical clients that never fail, one job each of one slice of `hours`, a result of `mb` MB over a 1000 MB/s link. */
function bktLockstep(clients: number, hours: number, mb: number, server: BktScenario["server"]): BktScenario {
  return validateBktScenario({
    ...BKT_PAPER_PRESET,
    clients,
    jobs: clients,
    slicesPerJob: [1, 1],
    sliceHours: [hours, hours],
    speedMips: { mean: 1771, sd: 0 },
    checkpointMbit: [mb, mb],
    checkpointSizeUnit: "MB",
    hostMbps: [8000, 8000],
    availability: "exp:mean=1e9,unit=h",
    lifetime: "none",
    policies: ["none"],
    server,
  });
}

describe("closed forms through whole runs", () => {
  it("[BKT] one client: the result upload takes exactly size / B on a server of constant bandwidth B", async () => {
    const report = await simulateBkt(bktLockstep(1, 2, 300, { model: constantModel("constant-6", 6), connections: 100 } as BktScenario["server"]));
    const run = report.runs[0]!;
    // 2 h of compute (the slice's work at the mean speed), then 300 MB at 6 MB/s.
    expectClose(run.makespanS!, (2 * 3600 * 1771) / 1771 + 300 / 6, 1e-12);
    expect(run.server).toMatchObject({ transfers: 1, completed: 1, transfersOutsideDomain: 0 });
  });

  it("[BKT] two clients uploading at the same instant: each result takes 2·size / bw(2, 2·size), the published model's", async () => {
    const report = await simulateBkt(bktLockstep(2, 1, 500, { model: "paper", connections: 100 } as BktScenario["server"]));
    // bw(2, 1.0 GB) = 13.06845 MB/s (docs/science.md §3.2's coefficients): 1000 MB at that rate.
    expectClose(report.runs[0]!.makespanS!, 3600 + 1000 / azur(2, 1), 1e-12);
    expect(report.server).toMatchObject({ file: "paper", name: "paper", form: "paper", outsideDomain: "clamp", volume: "whole" });
  });

  const das06 = (tasks: number, over: Partial<Das06Scenario>): Das06Scenario =>
    validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace: alwaysAvailable(), machineSet: "M01", tasks, taskCpuS: 1800, checkpoints: 1, checkpointMb: 500, lanMBytePerS: 1000, startTimes: [0], minTraceLeftDays: 0, policies: ["FCFS"], ...over });

  it("[DAS06] one task: its checkpoint at 50 % takes size / B, during which the task waits", async () => {
    const report = await simulateDas06(das06(1, { checkpointServer: { model: constantModel("constant-4", 4), outsideDomain: "clamp", volume: "whole" } }));
    // 1800 s of reference CPU on a type-D machine (ratio 1.692), plus 500 MB at 4 MB/s.
    expectClose(report.policies.FCFS!.turnaroundS.mean, 1800 / 1.692 + 500 / 4, 1e-12);
  });

  it("[DAS06] two tasks on equal machines: both checkpoints at once, 2·size / bw(2, 2·size) each", async () => {
    const report = await simulateDas06(das06(2, { checkpointServer: { model: "paper", outsideDomain: "clamp", volume: "whole" } }));
    expectClose(report.policies.FCFS!.turnaroundS.mean, 1800 / 1.692 + 1000 / azur(2, 1), 1e-12);
    expect(report.policies.FCFS!.server).toMatchObject({ writes: { mean: 2 }, writesOutsideDomain: { mean: 0 } });
    expect(report.checkpointServer).toMatchObject({ file: "paper", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});

describe("two fitted models: the shipped NFS trace's and a fast server's", () => {
  const nfs = join(dir, "nfs.json");
  const fast = join(dir, "fast.json");
  beforeAll(async () => {
    // The NFS cluster of data/traces/ (8 writers behind 100 Mbit/s links into 400 Mbit/s: ≈ 45 MB/s in all),
    // and a synthetic one of 16 Gigabit nodes into a server near 800 MB/s (`ckpt synth --shape link-flat`).
    const fitNfs = await runCli(["fit", "data/traces/nfs-8x100mbit.csv", "--out", nfs]);
    expect(fitNfs.code, fitNfs.stderr).toBe(0);
    const trace = join(dir, "link-flat-synthetic.csv");
    expect((await runCli(["synth", "--shape", "link-flat", "--repetitions", "3", "--out", trace])).code).toBe(0);
    const fitFast = await runCli(["fit", trace, "--out", fast]);
    expect(fitFast.code, fitFast.stderr).toBe(0);
  }, 120_000);

  it("[BKT] with 2 GB checkpoints the NFS server makes every policy slower, seed by seed", async () => {
    const scenario = (model: string) =>
      validateBktScenario({
        ...BKT_PAPER_PRESET,
        clients: 40,
        jobs: 40,
        slicesPerJob: [2, 6],
        sliceHours: [0.02, 0.05],
        checkpointMbit: [2000, 2000],
        checkpointSizeUnit: "MB",
        hostMbps: [1000, 1000],
        lifetime: "none",
        policies: ["none", "periodic", "pckp", "every-slice"],
        replications: 4,
        server: { model, connections: 100 },
      });
    const [slow, quick] = [await simulateBkt(scenario(nfs)), await simulateBkt(scenario(fast))];
    for (const run of slow.runs) {
      const other = quick.runs.find((r) => r.seed === run.seed && r.policy === run.policy)!;
      // Not a near thing: at least a third slower (2 GB at ≤ 45 MB/s against ≈ 100 MB/s per writer).
      expect(run.makespanS!, `${run.policy}, seed ${run.seed}`).toBeGreaterThan(1.3 * other.makespanS!);
    }
    expect(slow.server).toMatchObject({ file: nfs, sha256: sha256OfFile(nfs), form: expect.any(String) });
    // 2 GB images: V leaves the NFS fit's box (V ≤ 2.048 GB) with two transfers; clamped, and counted.
    expect(slow.policies["every-slice"]!.server!.transfersOutsideDomain.mean).toBeGreaterThan(0);
    expect(slow.policies["every-slice"]!.server!.utilisation.mean).toBeGreaterThan(0.5);
    expect(slow.policies["every-slice"]!.server!.waitH.mean).toBeGreaterThan(quick.policies["every-slice"]!.server!.waitH.mean);
  });

  it("[DAS06] with 500 MB shared checkpoints the NFS server slows every policy down; the fast one, which never binds a 12.5 MB/s LAN, changes nothing", async () => {
    const scenario = (model: string | null) =>
      validateDas06Scenario({
        ...structuredClone(DAS06_DEFAULTS),
        windowDays: [0, 14],
        checkpoints: 9,
        checkpointMb: 500,
        checkpointServer: model === null ? null : { model },
      });
    const [slow, quick, ideal] = [await simulateDas06(scenario(nfs)), await simulateDas06(scenario(fast)), await simulateDas06(scenario(null))];
    for (const policy of Object.keys(ideal.policies)) {
      expect(slow.policies[policy]!.slowdown.mean, policy).toBeGreaterThan(1.05 * quick.policies[policy]!.slowdown.mean);
      // Each write at the LAN's rate either way: the same numbers to the last digit.
      expect(quick.policies[policy]!.turnaroundS, policy).toEqual(ideal.policies[policy]!.turnaroundS);
      expect(quick.policies[policy]!.server!.waitS.mean, policy).toBe(0);
    }
  });
});

describe("scenarios", () => {
  it("read a measured server from a file, keeping the preset's connections, with the defaults filled in", () => {
    const s = readBktScenario('{ "server": { "model": "paper" } }', "s.json");
    expect(s.server).toEqual({ model: "paper", connections: 100, outsideDomain: "clamp", volume: "whole" });
    expect(readDas06Scenario('{ "checkpointServer": { "model": "m.json", "outsideDomain": "refuse" } }', "d.json").checkpointServer).toEqual({
      model: "m.json",
      outsideDomain: "refuse",
      volume: "whole",
    });
  });

  it("refuse a bad one with the file, the line and what it must be", () => {
    expect(() => readBktScenario('{\n  "server": { "model": "paper", "outsideDomain": "ignore" }\n}', "s.json")).toThrow(/^s\.json:2: server must be .*outsideDomain "ignore"/);
    expect(() => readBktScenario('{ "server": { "model": "paper", "mbps": 100 } }', "s.json")).toThrow(/either a link rate \(server\.mbps\) or a measured model \(server\.model\), not both/);
    expect(() => readBktScenario('{ "server": { "model": "" } }', "s.json")).toThrow(/server must be/);
    expect(() => readDas06Scenario('{ "checkpointServer": { "file": "m.json" } }', "d.json")).toThrow(/checkpointServer must be null or a measured server .*unknown key "file"/);
  });

  it("a model file that is not one stops the run with what is wrong with it", async () => {
    const bad = join(dir, "not-a-model.json");
    writeFileSync(bad, JSON.stringify({ schema: "ckpt-lab/bandwidth-model@1", form: "paper" }));
    await expect(simulateBkt(bktLockstep(1, 1, 10, { model: bad, connections: 1 } as BktScenario["server"]))).rejects.toThrow(/not-a-model\.json: "coefficients" is missing/);
    await expect(simulateBkt(bktLockstep(1, 1, 10, { model: join(dir, "absent.json"), connections: 1 } as BktScenario["server"]))).rejects.toThrow(/cannot read model ".*absent\.json"/);
  });

  it("refuse mode stops a run at the first load outside the model's domain", async () => {
    const narrow = join(dir, "narrow.json");
    writeFileSync(narrow, JSON.stringify({ ...PAPER_MODEL, name: "narrow", domain: { mMin: 1, mMax: 1, vGbMin: 0, vGbMax: 10 } }));
    await expect(simulateBkt(bktLockstep(2, 1, 500, { model: narrow, connections: 100, outsideDomain: "refuse" } as BktScenario["server"]))).rejects.toThrow(
      /2 concurrent transfer\(s\) of 1 GB at t = 3600 s is outside the fitted domain of the server model "narrow"/,
    );
  });
});

describe("ckpt simulate with a measured server", () => {
  it("names the model in the table and in --json, and a sweep redoes a cell whose model file changed", async () => {
    const model = constantModel("sweep-constant", 20);
    const run = await runCli(["simulate", "bkt", "--clients", "30", "--jobs", "10", "--policies", "none", "--server-model", model, "--quiet"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`server: the full model "sweep-constant" from ${model} (sha256 ${sha256OfFile(model)})`);
    expect(run.stdout).toMatch(/^none +\d+\.\d +0\.0 +\d+\.\d % +\d+\.\d %/m);
    const das06 = await runCli(["simulate", "das06", "--tasks", "5", "--checkpoints", "1", "--checkpoint-server-model", model, "--window-days", "0,9", "--json", "--quiet"]);
    expect(das06.code, das06.stderr).toBe(0);
    expect(JSON.parse(das06.stdout).checkpointServer).toMatchObject({ file: model, name: "sweep-constant" });

    const specPath = join(dir, "sweep.json");
    writeFileSync(specPath, JSON.stringify({ simulator: "bkt", parameters: { clients: 30, jobs: 10, policies: ["none"], server: { model } }, axes: [{ name: "server.connections", values: [1, 10] }], seeds: [1] }));
    const spec = parseSweepSpec(readFileSync(specPath, "utf8"), specPath);
    const out = join(dir, "sweep");
    expect(await runShard(spec, SIMULATORS, out)).toMatchObject({ ran: 2, skipped: 0 });
    const cells = mergeSweep(spec, [out]).cells;
    expect(cells[0]!.policies!.none).toMatchObject({ serverTransfers: expect.any(Number), serverUtilisation: expect.any(Number), serverTransfersOutsideDomain: 0 });
    const cellFile = JSON.parse(readFileSync(join(out, "cells", `${cells[0]!.id}.json`), "utf8"));
    expect(cellFile.inputs).toEqual({ [model]: sha256OfFile(model) });
    expect(await runShard(spec, SIMULATORS, out)).toMatchObject({ ran: 0, skipped: 2 });
    constantModel("sweep-constant", 10);
    expect(await runShard(spec, SIMULATORS, out, { index: 0, count: 2 })).toMatchObject({ ran: 1 });
    expect(() => mergeSweep(spec, [out])).toThrow(/the cells read 2 different versions of .*sweep-constant\.json/);
  });
});
