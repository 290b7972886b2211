/** `ckpt simulate das06` (run, --iet, generate) and the [DAS06] results kept for the report. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";

const dir = mkdtempSync(join(tmpdir(), "ckpt-das06-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ckpt simulate das06", () => {
  it("runs the four policies on the synthetic trace, says the trace is synthetic, and is deterministic", async () => {
    const args = ["simulate", "das06", "--tasks", "25", "--start-times", "weekday", "--json"];
    const a = await runCli(args);
    expect(a.code, a.stderr).toBe(0);
    const report = JSON.parse(a.stdout);
    expect(Object.keys(report.policies)).toEqual(["FCFS", "FCFS-AT", "FCFS-TR", "FCFS-PRDCT-DMD"]);
    expect(report.trace.synthetic).toBe(true);
    // Slowdown is turnaround / IET, and no run can beat the ideal execution time.
    for (const p of Object.values(report.policies) as { slowdown: { mean: number; ci95: number[]; n: number }; turnaroundS: { ci95: number[] }; restarts: { mean: number } }[]) {
      expect(p.slowdown.mean).toBeGreaterThanOrEqual(1);
      // {mean, ci95, n} over the starting points; turnaround too; restarts, replicas, checkpoints; the IET used.
      expect(p.slowdown.ci95[0]).toBeLessThanOrEqual(p.slowdown.mean);
      expect(p.turnaroundS.ci95).toHaveLength(2);
      expect(p.restarts.mean).toBeGreaterThanOrEqual(0);
    }
    expect(report.ietS).toBeCloseTo(35.46 * 60, -1);
    expect(report.events).toBeGreaterThan(0);
    const b = JSON.parse((await runCli(args)).stdout);
    delete report.timing;
    delete b.timing;
    expect(b).toEqual(report);
    const table = await runCli(["simulate", "das06", "--tasks", "25"]);
    expect(table.stdout).toMatch(/^\[DAS06\] M04, 25 tasks of 1800 s, .* on the SYNTHETIC classroom trace/);
  }, 60_000);

  it("prints [DAS06] Table 2's IET (75 tasks of 7200 s on M01: 212.74 min printed, within 0.05)", async () => {
    const run = await runCli(["simulate", "das06", "--iet", "--machine-set", "M01", "--tasks", "75", "--task-cpu-s", "7200", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).ietMin).toBeCloseTo(212.74, 1);
    expect(JSON.parse(run.stdout).publishedIetMin).toBe(212.74);
    const table = await runCli(["simulate", "das06", "--iet", "--machine-set", "M04", "--tasks", "75", "--task-cpu-s", "1800"]);
    expect(table.stdout).toBe("IET of 75 tasks of 1800 s on M04: 70.92 min (4255.3 s); [DAS06] Table 2 prints 70.91 min\n");
  });

  it("generates the synthetic trace at any size, keeping the paper's fraction of machines on", async () => {
    const out = join(dir, "classroom.tab");
    const run = await runCli(["simulate", "das06", "generate", "--machines", "8", "--days", "7", "--seed", "3", "--out", out, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const stats = JSON.parse(run.stdout);
    expect(stats.meanAvailability).toBeGreaterThan(0.5);
    expect(stats.meanAvailability).toBeLessThan(0.59);
    expect(readFileSync(out, "utf8")).toMatch(/^# SYNTHETIC trace/);
  });

  it("refuses bad values with the flag's name, and a trace too small for the machine set", async () => {
    const bad = await runCli(["simulate", "das06", "--iet", "--tasks", "abc", "--task-cpu-s", "3"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tasks expects an integer > 0, got abc/);
    const small = join(dir, "small.tab");
    expect((await runCli(["simulate", "das06", "generate", "--machines", "4", "--days", "2", "--out", small])).code).toBe(0);
    const refused = await runCli(["simulate", "das06", "--trace", small]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the trace has 4 node\(s\); the machine set needs 32/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("ckpt simulate das06 on the real traces shipped in data/availability/", () => {
  it("runs on the Microsoft 1999 .avt trace (hourly pings, Monday from its UTC timestamps)", async () => {
    const run = await runCli(["simulate", "das06", "--trace", "data/availability/microsoft99.avt.gz", "--tasks", "25", "--policies", "FCFS,FCFS-TR", "--json", "--quiet"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.trace).toMatchObject({ synthetic: false, file: "data/availability/microsoft99.avt.gz" });
    expect(report.trace.nodes).toHaveLength(32);
    // 35 days, minus the 7 left after the last start: four weeks of weekday hours (08:00–21:00 Friday).
    expect(report.startTimesS.length).toBeGreaterThan(400);
    expect(report.policies["FCFS-TR"].slowdown.mean).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("refuses the whole LANL trace (no node observed throughout its ten years) naming a window that works, and runs in that window", async () => {
    const whole = await runCli(["simulate", "das06", "--trace", "data/availability/lanl05-event-trace.tab.gz", "--quiet"]);
    expect(whole.code).toBe(1);
    const hint = /--window-days (\d+),(\d+) has the most \((\d+)\)/.exec(whole.stderr);
    expect(hint, whole.stderr).not.toBeNull();
    expect(Number(hint![3])).toBeGreaterThanOrEqual(32);
    const windowed = await runCli(["simulate", "das06", "--trace", "data/availability/lanl05-event-trace.tab.gz", "--window-days", `${hint![1]},${hint![2]}`, "--json", "--quiet"]);
    expect(windowed.code, windowed.stderr).toBe(0);
    const report = JSON.parse(windowed.stdout);
    const [from, to] = [Number(hint![1]) * 86400, Number(hint![2]) * 86400];
    expect(Math.min(...report.startTimesS)).toBeGreaterThanOrEqual(from);
    expect(Math.max(...report.startTimesS)).toBeLessThanOrEqual(to - 7 * 86400);
  }, 60_000);
});

describe("the [DAS06] results kept for the report's grid", () => {
  it("are current: the pipeline's [DAS06] stage computes no cell again (else refresh them as the stage says)", async () => {
    const { parseSweepSpec } = await import("../../pipeline/simulate/sweep/sweep-spec");
    const { runShard } = await import("../../pipeline/simulate/sweep/run-shard");
    const { SIMULATORS } = await import("../../pipeline/simulate/simulator");
    const { projectRoot } = await import("../../pipeline/shared/version");
    const root = projectRoot();
    const spec = parseSweepSpec(readFileSync(join(root, "data/simulations/das06-paper-grid.json"), "utf8"), "das06-paper-grid.json");
    const outcome = await runShard(spec, SIMULATORS, join(dir, "reuse"), { index: 0, count: 1 }, () => {}, [join(root, "data/simulations/das06-paper-grid")]);
    expect(outcome.ran, "stale: run `ckpt simulate sweep data/simulations/das06-paper-grid.json --out data/simulations/das06-paper-grid` and merge").toBe(0);
    expect(outcome.cells).toBe(96);
  });
});
