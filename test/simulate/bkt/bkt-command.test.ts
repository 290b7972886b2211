/** `ckpt simulate bkt` and a [BKT] sweep through `ckpt simulate sweep` / `merge`. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../cli-io";

const dir = mkdtempSync(join(tmpdir(), "ckpt-bkt-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ckpt simulate bkt", () => {
  it("runs the preset with flags over a scenario file, as JSON whose only varying part is timing", async () => {
    const scenario = join(dir, "scenario.json");
    writeFileSync(scenario, JSON.stringify({ clients: 150, jobs: 40, policies: ["none", "periodic"] }));
    const args = ["simulate", "bkt", scenario, "--jobs", "30", "--slices-per-job", "1,10", "--server-connections", "50", "--replications", "2", "--json", "--quiet"];
    const a = await runCli(args);
    expect(a.code, a.stderr).toBe(0);
    const report = JSON.parse(a.stdout);
    expect(report.scenario).toMatchObject({ clients: 150, jobs: 30, slicesPerJob: [1, 10], server: { mbps: 1000, connections: 50 }, replications: 2 });
    expect(Object.keys(report.policies)).toEqual(["none", "periodic"]);
    expect(report.policies.none.makespanH.n).toBe(2);
    // Per policy, as the issue names them: makespanH {mean, ci95, n}, the waste, failures, checkpoints, what was sent, events.
    for (const p of Object.values(report.policies) as Record<string, { mean: number; ci95: [number, number] | null; n: number; low: number }>[]) {
      expect(p.makespanH!.ci95).toEqual([p.makespanH!.low, expect.any(Number)]);
      expect(p.averageWasteH!.n).toBe(2);
      expect((p.failures as unknown as { transient: { mean: number } }).transient.mean).toBeGreaterThan(0);
      expect(p.sentMbit!.mean).toBeGreaterThanOrEqual(p.uploadedMbit!.mean);
      expect(p.events!.mean).toBeGreaterThan(0);
      expect(p.checkpointsTaken!.n).toBe(2);
    }
    expect(report.timing.eventsPerSecond).toBeGreaterThan(0);
    expect(Object.keys(report.timing.policies)).toEqual(["none", "periodic"]);
    expect(report.timing.policies.none.events).toBe(2 * report.policies.none.events.mean);
    const b = JSON.parse((await runCli(args)).stdout);
    delete report.timing;
    delete b.timing;
    expect(b).toEqual(report);
  });

  it("draws a progress bar on stderr unless --quiet", async () => {
    const run = await runCli(["simulate", "bkt", "--clients", "60", "--jobs", "10", "--policies", "none,pckp"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^\[\.{24}\]   0%  run 1\/2 \(seed 1, none\)  0\/10 jobs/m);
    expect(run.stderr).toMatch(/^\[#{12}\.{12}\]  50%  run 2\/2 \(seed 1, pckp\)/m);
    expect(run.stderr).toMatch(/^\[#{24}\] 100%  done$/m);
  });

  it("prints a table by default and refuses bad values with the flag's name", async () => {
    const run = await runCli(["simulate", "bkt", "--clients", "80", "--jobs", "20", "--quiet"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\[BKT\] desktop grid: 80 clients, 20 jobs, transient suspend \(the project's calibration\)/);
    expect(run.stdout).toMatch(/^pckp +\d/m);
    // Policy none takes no checkpoint: its overhead is named for what it is, the final uploads.
    expect(run.stdout).toMatch(/^policy +makespan h \(95 % CI\) +avg waste h\/client +overhead h \(ckpts \+ final upload\) +lost h/m);
    const none = /^none +\S+ +\S+ +(\d+) +\d+ +\d+ +(\d+) /m.exec(run.stdout)!;
    expect({ overheadH: Number(none[1]) > 0, checkpointsTaken: none[2] }).toEqual({ overheadH: true, checkpointsTaken: "0" });
    expect(run.stdout).toMatch(/^overhead: .*each job's final upload \(its result, sent under every policy; policy none takes no checkpoint, so its overhead is the final uploads alone\)$/m);
    const bad = await runCli(["simulate", "bkt", "--slices-per-job", "5,1"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--slices-per-job \(or the scenario's "slicesPerJob"\): slicesPerJob must be \[min, max\]/);
    expect((await runCli(["simulate", "bkt", "--shard", "0/2"])).code).toBe(2);
  });
});

describe("ckpt simulate bkt --help and ckpt simulate das06 --help", () => {
  it("each print their own help: their fields with defaults and units, and a run example", async () => {
    const bkt = await runCli(["simulate", "bkt", "--help"]);
    const das06 = await runCli(["simulate", "das06", "--help"]);
    const overview = await runCli(["simulate", "--help"]);
    for (const run of [bkt, das06, overview]) expect(run.code).toBe(0);
    expect(bkt.stdout).toMatch(/^ckpt simulate bkt — the \[BKT\] desktop grid/);
    expect(das06.stdout).toMatch(/^ckpt simulate das06 — the \[DAS06\] institutional desktop grid/);
    const flat = (text: string) => text.replace(/\s+/g, " ");
    // Fields with their defaults (the paper preset's) and units.
    expect(flat(bkt.stdout)).toContain("--clients N volatile clients M (default: 5000)");
    expect(flat(bkt.stdout)).toContain("--host-mbps MIN,MAX clients' links, Mbit/s, uniform (default: 1,2)");
    expect(flat(bkt.stdout)).toContain("--latency-seconds S network latency of a transfer, s (default: 0)");
    expect(flat(bkt.stdout)).toContain("--policies P,P,… a list of none, periodic, pckp, young, every-slice, pckp-paper, pckp-complete (default: none,periodic,pckp)");
    expect(flat(das06.stdout)).toContain("--checkpoint-mb MB a checkpoint's size, MB (default: 1)");
    expect(flat(das06.stdout)).toContain("--tasks N tasks in the bag (default: 25)");
    expect(flat(das06.stdout)).toContain("--policies P,P,… a list of FCFS, FCFS-AT, FCFS-TR, FCFS-PRDCT-DMD (default: FCFS,FCFS-AT,FCFS-TR,FCFS-PRDCT-DMD)");
    // Each lists only its own: no field of the other simulator, no sweep options.
    expect(bkt.stdout).not.toMatch(/--machine-set|--shard|--scheduler/);
    expect(das06.stdout).not.toMatch(/--clients|--shard|--scheduler/);
    // A run example each, which runs.
    expect(bkt.stdout).toMatch(/^  ckpt simulate bkt --clients 200 --jobs 50 --replications 2$/m);
    expect(das06.stdout).toMatch(/^  ckpt simulate das06 --tasks 25 --task-cpu-s 1800 --checkpoints 1 --quiet$/m);
    // The overview points to them instead of listing their fields.
    expect(overview.stdout).toContain("ckpt simulate bkt --help, ckpt simulate das06 --help");
    expect(overview.stdout).not.toMatch(/^  --(clients|machine-set)\b/m);
    expect(overview.stdout.split("\n").length).toBeLessThan(bkt.stdout.split("\n").length);
  });
});

describe("a [BKT] sweep", () => {
  it("runs in two shards and merges into the same table as one", async () => {
    const spec = join(dir, "sweep.json");
    writeFileSync(
      spec,
      JSON.stringify({ simulator: "bkt", parameters: { jobs: 20, policies: ["none", "pckp"] }, axes: [{ name: "clients", values: [60, 120] }], seeds: [1, 2] }),
    );
    const one = join(dir, "one");
    const two = join(dir, "two");
    expect((await runCli(["simulate", "sweep", spec, "--out", one, "--quiet"])).code).toBe(0);
    for (const shard of ["0/2", "1/2"]) expect((await runCli(["simulate", "sweep", spec, "--out", two, "--shard", shard, "--quiet"])).code).toBe(0);
    expect((await runCli(["simulate", "merge", spec, "--out", one])).code).toBe(0);
    expect((await runCli(["simulate", "merge", spec, "--out", two])).code).toBe(0);
    expect(readFileSync(join(two, "merged.csv"), "utf8")).toBe(readFileSync(join(one, "merged.csv"), "utf8"));
    const merged = JSON.parse(readFileSync(join(one, "merged.json"), "utf8"));
    expect(merged.groups).toHaveLength(2);
    expect(merged.groups[0].pairedDifferences["pckp − none"].makespanH.n).toBe(2);
  }, 60_000);
});

describe("a [BKT] sweep on a real trace", () => {
  it("draws the report's figures captioned with the trace, and leaves the paper's RB1–RB9 to the laws' grid", async () => {
    const { parseSweepSpec } = await import("../../../pipeline/simulate/sweep/sweep-spec");
    const { runShard } = await import("../../../pipeline/simulate/sweep/run-shard");
    const { mergeSweep } = await import("../../../pipeline/simulate/sweep/merge-sweep");
    const { SIMULATORS } = await import("../../../pipeline/simulate/simulator");
    const { bktFigures } = await import("../../../pipeline/report/figures/bkt-figures");
    const { bktReproductionRows } = await import("../../../pipeline/reproduce/bkt-rows");
    // The shipped LANL grid's parameters, on a smaller grid.
    const shipped = JSON.parse(readFileSync("data/simulations/bkt-lanl05-grid.json", "utf8"));
    const spec = parseSweepSpec(JSON.stringify({ ...shipped, axes: [{ name: "clients", values: [30, 60] }, { name: "jobs", values: [6] }], seeds: [1] }), "lanl.json");
    const out = join(dir, "lanl");
    await runShard(spec, SIMULATORS, out);
    const merged = mergeSweep(spec, [out]);
    const drawn = bktFigures(merged);
    expect(drawn.figures.map((f) => f.id)).toEqual(["bkt-makespan-suspend", "bkt-waste-suspend"]);
    for (const figure of drawn.figures) {
      expect(figure.caption).toMatch(/availability trace data\/availability\/lanl05-event-trace\.tab\.gz observed at day 3228/);
      expect(figure.caption).not.toMatch(/the paper's divided by/);
    }
    // RB10 is the DP's, whatever the grid; RB11 (the laws against [BKT] §I) comes with every report, not from a grid.
    expect(bktReproductionRows(merged).map((r) => r.id)).toEqual(["bkt/rb10/dp-optimal"]);
  }, 60_000);
});

describe("the results kept for the report's grid", () => {
  it("are current: the pipeline's [BKT] stage computes no cell again (else refresh them as the stage says)", async () => {
    const { parseSweepSpec } = await import("../../../pipeline/simulate/sweep/sweep-spec");
    const { runShard } = await import("../../../pipeline/simulate/sweep/run-shard");
    const { SIMULATORS } = await import("../../../pipeline/simulate/simulator");
    const { projectRoot } = await import("../../../pipeline/shared/version");
    const root = projectRoot();
    const spec = parseSweepSpec(readFileSync(join(root, "data/simulations/bkt-report-grid.json"), "utf8"), "bkt-report-grid.json");
    const outcome = await runShard(spec, SIMULATORS, join(dir, "reuse"), { index: 0, count: 1 }, () => {}, [join(root, "data/simulations/bkt-report-grid")]);
    expect(outcome.ran, "stale: run `ckpt simulate sweep data/simulations/bkt-report-grid.json --out data/simulations/bkt-report-grid` and merge").toBe(0);
    expect(outcome.cells).toBe(120);
  });
});
