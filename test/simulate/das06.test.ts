/**
 * The [DAS06] simulator (docs/science.md §6.2): degenerate cases with known answers, the
 * labelled synthetic classroom trace's statistics, determinism and refusals.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { classroomStatistics, generateClassroomTrace, isClosed } from "../../pipeline/simulate/das06/classroom-trace";
import { DAS06_DEFAULTS, readDas06Scenario, validateDas06Scenario, type Das06Scenario } from "../../pipeline/simulate/das06/das06-scenario";
import { simulateDas06 } from "../../pipeline/simulate/das06/das06-simulator";
import { idealExecutionTime, machineRatios } from "../../pipeline/simulate/das06/machines";

const dir = mkdtempSync(join(tmpdir(), "ckpt-das06-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An FTA trace of 32 nodes from their available intervals (seconds from 0; 8 days long). */
function ftaTrace(name: string, up: (node: number) => [number, number][]): string {
  const end = 8 * 86400;
  const lines = ["# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason"];
  for (let node = 0; node < 32; node++) {
    let t = 0;
    let id = 0;
    for (const [a, b] of up(node)) {
      if (a > t) lines.push(`${id++} 0 ${node} 0 ${node} 0 ${t} ${a} NULL`);
      lines.push(`${id++} 0 ${node} 0 ${node} 1 ${a} ${b} NULL`);
      t = b;
    }
    if (t < end) lines.push(`${id++} 0 ${node} 0 ${node} 0 ${t} ${end} NULL`);
  }
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const base = (over: Partial<Das06Scenario>): Das06Scenario => validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), startTimes: [0], minTraceLeftDays: 0, ...over });

describe("degenerate cases with known answers", () => {
  it("machines always available, tasks ≤ machines: FCFS's slowdown is 1 (M01), or 1 + the checkpoints' cost", async () => {
    const trace = ftaTrace("always.tab", () => [[0, 8 * 86400]]);
    for (const checkpoints of [0, 1, 9] as const) {
      const report = await simulateDas06(base({ trace, machineSet: "M01", tasks: 25, taskCpuS: 1800, checkpoints, policies: ["FCFS", "FCFS-AT", "FCFS-TR", "FCFS-PRDCT-DMD"] }));
      const iet = idealExecutionTime(machineRatios("M01"), 25, 1800);
      expect(report.ietS).toBe(iet);
      for (const [policy, p] of Object.entries(report.policies)) {
        // Each checkpoint pauses the task for 1 MB / 12.5 MB/s = 0.08 s.
        expect(p.turnaroundS.mean, policy).toBeCloseTo(iet + checkpoints * 0.08, 9);
        // Slowdown = turnaround / IET ([DAS06] §4.2).
        expect(p.slowdown.mean, policy).toBeCloseTo(1 + (checkpoints * 0.08) / iet, 9);
        expect(p.censored).toBe(0);
      }
    }
  });

  /**
   * One task (1800 s of reference CPU: 1063.83 s on a type-D machine, ratio 1.692), one checkpoint
   * at 50 % (reached at 531.91 s, written by 531.99 s). Node 0 is up from 0 except 600–1200 s;
   * node 1 is up from 700 s; the others never. The failure at 600 s loses the work since the
   * checkpoint: 600 − 531.99 = 68.01 s of machine time, × 1.692 = 115.08 s of reference CPU.
   * Shared: the refresh at 600 s — the failure's own instant, whose state change applies
   * before the round (docs/science.md §6.4) — sees node 0 down and gives the task back; node
   * 1, up at 700 s, resumes it from the shared checkpoint: done at 700 + 531.91 s.
   * Private: the task stays bound to node 0, which resumes it from its own checkpoint at
   * 1200 s: done at 1200 + 531.91 s.
   */
  it("a machine leaving once at a known time: the exact lost work, and where the task resumes", async () => {
    const trace = ftaTrace("once.tab", (node) => (node === 0 ? [[0, 600], [1200, 8 * 86400]] : node === 1 ? [[700, 8 * 86400]] : []));
    const half = 900 / 1.692;
    for (const [store, finish] of [["shared", 700 + half], ["private", 1200 + half]] as const) {
      const report = await simulateDas06(base({ trace, machineSet: "M01", tasks: 1, taskCpuS: 1800, checkpoints: 1, checkpointStore: store, policies: ["FCFS"] }));
      expect(report.policies.FCFS!.turnaroundS.mean, store).toBeCloseTo(finish, 6);
      // IET of one task on a type-D machine: 1800 / 1.692 s.
      expect(report.policies.FCFS!.slowdown.mean, store).toBeCloseTo(finish / (1800 / 1.692), 9);
      expect(report.policies.FCFS!.failures.mean).toBe(1);
      // Started again once: on node 1 (shared), on node 0 when it returns (private).
      expect(report.policies.FCFS!.restarts.mean, store).toBe(1);
    }
    const { runDas06 } = await import("../../pipeline/simulate/das06/das06-run");
    const { loadDas06Trace } = await import("../../pipeline/simulate/das06/das06-simulator");
    const { createRandomStreams } = await import("../../pipeline/simulate/engine/random-streams");
    const s = base({ trace, machineSet: "M01", tasks: 1, taskCpuS: 1800, checkpoints: 1, checkpointStore: "private", policies: ["FCFS"] });
    const loaded = await loadDas06Trace(s);
    const run = runDas06({ scenario: s, policy: "FCFS", machines: loaded.machines, traceEndS: loaded.endS, ratios: machineRatios("M01"), startS: 0, requestRank: Int32Array.from({ length: 32 }, (_, i) => i), predictorRandom: createRandomStreams(1).stream("p"), mondayOffsetS: loaded.mondayOffsetS });
    expect(run.lostWorkS).toBeCloseTo((600 - (half + 0.08)) * 1.692, 6);
  });
});

describe("turnaround and slowdown from each starting point", () => {
  /**
   * One task on M01 (IET 1800 / 1.692 = 1063.83 s). Node 0 is up except 4000–5000 s; the others
   * never. From 0: done at 1063.83, slowdown 1. From 3600: 400 s done by 4000 (no checkpoint:
   * lost), the task starts over when node 0 returns at 5000 and ends at 5000 + 1063.83:
   * turnaround 1400 + 1063.83 s from its start. The means are over the two starting points.
   */
  it("are measured from the run's own start, each run's slowdown its turnaround over the IET", async () => {
    const trace = ftaTrace("later.tab", (node) => (node === 0 ? [[0, 4000], [5000, 8 * 86400]] : []));
    const iet = 1800 / 1.692;
    const report = await simulateDas06(base({ trace, machineSet: "M01", tasks: 1, taskCpuS: 1800, checkpoints: 0, startTimes: [0, 3600], policies: ["FCFS"] }));
    const turnarounds = [iet, 1400 + iet];
    const p = report.policies.FCFS!;
    expect(report.ietS).toBeCloseTo(iet, 9);
    expect(p.runs).toBe(2);
    expect(p.turnaroundS.mean).toBeCloseTo((turnarounds[0]! + turnarounds[1]!) / 2, 6);
    expect(p.slowdown.mean).toBeCloseTo((turnarounds[0]! / iet + turnarounds[1]! / iet) / 2, 9);
    expect(p.failures.mean).toBe(0.5);
  });
});

describe("a checkpoint makes progress durable only once written (docs/science.md §6.2.5)", () => {
  /**
   * One task of 1800 s on a type-D machine (1063.83 s), one checkpoint of 125 MB at 50 %: it is
   * reached at 531.91 s and written by 541.91 s (125 MB / 12.5 MB/s = 10 s). Node 0 leaves at
   * 540 s, during the write: the checkpoint never existed, the 900 s of reference CPU done are
   * lost, and node 1 (up from 700 s) starts the task from scratch: done at 700 + 1063.83 + 10 s.
   * Had the checkpoint counted from the start of its write, node 1 would resume it from 50 %
   * (done at 700 + 531.91 s) and nothing would be lost.
   */
  it("a failure during the write loses the checkpoint", async () => {
    const trace = ftaTrace("during-write.tab", (node) => (node === 0 ? [[0, 540]] : node === 1 ? [[700, 8 * 86400]] : []));
    const s = base({ trace, machineSet: "M01", tasks: 1, taskCpuS: 1800, checkpoints: 1, checkpointMb: 125, checkpointStore: "shared", policies: ["FCFS"] });
    const report = await simulateDas06(s);
    expect(report.policies.FCFS!.turnaroundS.mean).toBeCloseTo(700 + 1800 / 1.692 + 10, 6);
    expect(report.policies.FCFS!.slowdown.mean).toBeCloseTo((700 + 1800 / 1.692 + 10) / (1800 / 1.692), 9);
    const { runDas06 } = await import("../../pipeline/simulate/das06/das06-run");
    const { loadDas06Trace } = await import("../../pipeline/simulate/das06/das06-simulator");
    const { createRandomStreams } = await import("../../pipeline/simulate/engine/random-streams");
    const loaded = await loadDas06Trace(s);
    const run = runDas06({ scenario: s, policy: "FCFS", machines: loaded.machines, traceEndS: loaded.endS, ratios: machineRatios("M01"), startS: 0, requestRank: Int32Array.from({ length: 32 }, (_, i) => i), predictorRandom: createRandomStreams(1).stream("p"), mondayOffsetS: loaded.mondayOffsetS });
    expect(run.lostWorkS).toBeCloseTo(900, 6);
    expect(run.checkpoints).toBe(2); // the lost one, and the one node 1 writes
  });
});

describe("the synthetic classroom trace (docs/science.md §6.2.2)", () => {
  it("matches the published mean availability and keeps every machine still while the classrooms are closed", () => {
    const stats = classroomStatistics(generateClassroomTrace({ machines: 32, days: 39, seed: 7 }));
    expect(stats.synthetic).toBe(true);
    expect(stats.samples).toBe(28_080);
    expect(Math.abs(stats.meanOnMachines - 17.42)).toBeLessThanOrEqual(0.05);
    expect(stats.meanAvailability).toBeCloseTo(0.5444, 2);
    expect(stats.changesWhileClosed).toBe(0);
    // Closures: Saturday 21:00 → Monday 08:00, and 04:00–08:00 Tuesday to Saturday.
    const at = (day: number, hour: number) => isClosed(day * 86400 + hour * 3600);
    expect([at(0, 7.9), at(0, 8), at(1, 4), at(1, 8), at(5, 5), at(5, 20.9), at(5, 21), at(6, 12)]).toEqual([true, false, true, false, true, false, true, true]);
  });

  it("is the same for the same seed and different for another", () => {
    const a = generateClassroomTrace({ machines: 32, days: 39, seed: 3 });
    expect(generateClassroomTrace({ machines: 32, days: 39, seed: 3 })).toEqual(a);
    expect(generateClassroomTrace({ machines: 32, days: 39, seed: 4 }).machines).not.toEqual(a.machines);
  });
});

describe("the synthetic generator's free parameters (the range of plausible classrooms)", () => {
  it("calibrates any mean availability and mean ON sojourn, and its reboots take one sample period each, at the asked rate", () => {
    const base = { machines: 32, days: 39, seed: 5 };
    const plain = generateClassroomTrace(base);
    const rebooting = generateClassroomTrace({ ...base, rebootsPerOnHour: 0.2 });
    const stats = classroomStatistics(rebooting);
    expect(Math.abs(stats.meanOnMachines - 17.42)).toBeLessThanOrEqual(0.05);
    expect(stats.changesWhileClosed).toBe(0);
    // A reboot is a gap of exactly one sample (120 s) inside what would otherwise be one ON interval.
    let gaps = 0;
    for (const { starts, ends } of rebooting.machines) for (let i = 1; i < starts.length; i++) if (starts[i]! - ends[i - 1]! === 120) gaps++;
    let plainGaps = 0;
    for (const { starts, ends } of plain.machines) for (let i = 1; i < starts.length; i++) if (starts[i]! - ends[i - 1]! === 120) plainGaps++;
    const onHours = stats.onHours.mean * stats.onHours.count;
    // Poisson with mean 0.2 per open ON hour (ON hours include closed ones, when no reboot happens: fewer): within 5 sd below, and not above.
    const expected = 0.2 * onHours;
    expect(gaps - plainGaps).toBeLessThan(expected + 5 * Math.sqrt(expected));
    expect(gaps - plainGaps).toBeGreaterThan(0.3 * expected);
    for (const [meanAvailability, meanOnHours] of [[0.4, 2], [0.7, 24]] as const) {
      const other = classroomStatistics(generateClassroomTrace({ ...base, meanOnHours, targetMeanOn: meanAvailability * 32 }));
      expect(Math.abs(other.meanOnMachines - meanAvailability * 32)).toBeLessThanOrEqual(0.05);
      expect(other.changesWhileClosed).toBe(0);
    }
  });

  it("names the parameters a scenario moved from the matched values in the trace's caption", async () => {
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), synthetic: { ...DAS06_DEFAULTS.synthetic, meanOnHours: 2 }, startTimes: [8 * 3600] });
    expect((await simulateDas06(s)).trace).toMatchObject({ synthetic: true, caption: "synthetic classroom trace with meanOnHours 2 (the generator's matched values: meanOnHours 8)" });
    expect(() => validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), synthetic: { ...DAS06_DEFAULTS.synthetic, meanAvailability: 1.2 } })).toThrow(/meanAvailability": in \(0, 1\)/);
  });
});

describe("the simulator", () => {
  it("gives the same report for the same seed, byte for byte, and labels the synthetic trace", async () => {
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), startTimes: [8 * 3600, 32 * 3600, 56 * 3600] });
    const a = await simulateDas06(s);
    expect(JSON.stringify(await simulateDas06(s))).toBe(JSON.stringify(a));
    expect(a.trace).toMatchObject({ synthetic: true, caption: "synthetic trace matched to [DAS06] §3.1 statistics" });
    // Shared checkpoints give the scheduler a global view: never worse on average here.
    for (const policy of ["FCFS", "FCFS-AT"]) expect(a.policies[policy]!.slowdown.mean).toBeGreaterThanOrEqual(1);
  });

  it("reports means with their 95 % interval as ci95, and labels what the sweeps keep from the synthetic trace", async () => {
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), startTimes: [8 * 3600, 32 * 3600, 56 * 3600], policies: ["FCFS-TR"] });
    const report = await simulateDas06(s);
    const slowdown = report.policies["FCFS-TR"]!.slowdown;
    expect(slowdown.n).toBe(3);
    expect(slowdown.ci95).toEqual([slowdown.low, slowdown.high]);
    const { das06Model } = await import("../../pipeline/simulate/das06/das06-simulator");
    expect((await das06Model.run(s as unknown as Record<string, unknown>, 1)).metrics.syntheticTrace).toBe(1);
  });

  it("refuses a trace with no usable line, naming its lines and why", async () => {
    const path = join(dir, "garbage.tab");
    writeFileSync(path, "0 0 1 0 1 1 100 50 NULL\n");
    await expect(simulateDas06(base({ trace: path }))).rejects.toThrow(/garbage\.tab: the trace has 0 node\(s\); the machine set needs 32; 1 of its 1 lines were rejected, first .*garbage\.tab:1: event_stop_time 50 is before event_start_time 100/);
  });

  it("refuses bad scenarios with the file, line and field", () => {
    expect(() => readDas06Scenario('{\n  "machineSet": "M02"\n}', "s.json")).toThrow(/^s\.json:2: machineSet must be one of "M01", "M04"/);
    expect(() => readDas06Scenario('{"checkpoints": 5}', "s.json")).toThrow(/checkpoints must be one of 0, 1, 9/);
    expect(() => readDas06Scenario('{"policies": ["FCFS", "FIFO"]}', "s.json")).toThrow(/policies must be/);
    expect(() => readDas06Scenario('{"tasks": 0}', "s.json")).toThrow(/tasks must be an integer/);
    expect(() => readDas06Scenario('{\n  "tasks": 25\n  "checkpoints": 1\n}', "s.json")).toThrow(/^s\.json:3:3: not valid JSON/);
  });
});
