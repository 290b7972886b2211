/**
 * [DAS06]'s run (docs/science.md §6.2.5) on two or three machines whose availability is
 * written out, each metric — turnaround, lost work, failures, restarts, timeouts, replicas,
 * checkpoints — computed by hand next to the test from the rules in das06-run.ts's header:
 * a task of R reference seconds takes R / ratio s on a machine, a checkpoint pauses it for
 * checkpointMb / lanMBytePerS s, the scheduler's round is every refreshS = 120 s, and the
 * adaptive timeout is base · (1 + tolerance) with the tolerance of the assignment instant's
 * period. Also the period calendar, the starting points and what a sweep's cell keeps.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRandomStreams } from "../../pipeline/simulate/engine/random-streams";
import { checkpointPositions, periodAt, runDas06, type Das06RunResult } from "../../pipeline/simulate/das06/das06-run";
import { DAS06_DEFAULTS, validateDas06Scenario, type Das06Policy, type Das06Scenario } from "../../pipeline/simulate/das06/das06-scenario";
import { das06Model, loadDas06Trace, simulateDas06, startTimes } from "../../pipeline/simulate/das06/das06-simulator";
import { FLAT_SERVER } from "./flat-server";
import type { MeasuredServer } from "../../pipeline/simulate/server/measured-server";
import type { NodeAvailability } from "../../pipeline/simulate/traces/availability-trace";

const H = 3600;
const DAY = 24 * H;
const END = 10 * DAY;

/** A machine available on the given [from, to) intervals (seconds), observed over the whole 10 days. */
function machine(intervals: [number, number][]): NodeAvailability {
  return { key: "m", starts: Float64Array.from(intervals, ([a]) => a), ends: Float64Array.from(intervals, ([, b]) => b), observedFromS: 0, observedToS: END };
}
const always = () => machine([[0, END]]);

const scenario = (over: Partial<Das06Scenario>): Das06Scenario => validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), startTimes: [0], minTraceLeftDays: 0, tasks: 1, taskCpuS: H, checkpoints: 0, ...over });

interface RunOptions {
  ratios?: number[];
  startS?: number;
  mondayOffsetS?: number;
  server?: MeasuredServer | null;
  traceEndS?: number;
}

/** One run; machines request in index order (rank = index). */
function run(over: Partial<Das06Scenario>, policy: Das06Policy, machines: NodeAvailability[], options: RunOptions = {}): Das06RunResult {
  return runDas06({
    scenario: scenario(over),
    policy,
    machines,
    traceEndS: options.traceEndS ?? END,
    ratios: Float64Array.from(options.ratios ?? machines.map(() => 1)),
    startS: options.startS ?? 0,
    requestRank: Int32Array.from(machines, (_, i) => i),
    predictorRandom: createRandomStreams(1).stream("predictor"),
    mondayOffsetS: options.mondayOffsetS ?? 0,
    server: options.server ?? null,
  });
}


const dir = mkdtempSync(join(tmpdir(), "ckpt-das06-values-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An FTA trace of `nodes` nodes from their available intervals; node i is recorded (observed) from `from(i)` to `to(i)` s, by default over 8 days. */
function ftaTrace(name: string, nodes: number, up: (node: number) => [number, number][], from: (node: number) => number = () => 0, to: (node: number) => number = () => 8 * DAY): string {
  const lines = ["# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason"];
  let id = 0;
  for (let node = 0; node < nodes; node++) {
    let t = from(node);
    for (const [a, b] of up(node)) {
      if (a > t) lines.push(`${id++} 0 ${node} 0 ${node} 0 ${t} ${a} NULL`);
      lines.push(`${id++} 0 ${node} 0 ${node} 1 ${a} ${b} NULL`);
      t = b;
    }
    if (t < to(node)) lines.push(`${id++} 0 ${node} 0 ${node} 0 ${t} ${to(node)} NULL`);
  }
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("the adaptive timeout's calendar (docs/science.md §6.2.6)", () => {
  it("is night 00:00–08:00 Monday to Saturday, the weekend from Saturday 21:00 to Monday 08:00, day otherwise", () => {
    // t in seconds from a Monday 00:00; day 5 is Saturday, day 6 Sunday.
    const at = (day: number, hour: number) => periodAt(day * DAY + hour * H);
    expect(at(1, 3)).toBe("night"); // Tuesday 03:00
    expect(at(1, 7.99)).toBe("night");
    expect(at(1, 8)).toBe("day");
    expect(at(4, 23)).toBe("day"); // Friday 23:00
    expect(at(5, 7)).toBe("night"); // Saturday 07:00
    expect(at(5, 20.99)).toBe("day");
    expect(at(5, 21)).toBe("weekend");
    expect(at(6, 12)).toBe("weekend");
    expect(at(0, 7.99)).toBe("weekend"); // Monday before 08:00 is still the closure
    expect(at(0, 8)).toBe("day");
    // One week later, and before the Monday (Sunday 23:59): the same calendar.
    expect(at(7 + 1, 10)).toBe("day");
    expect(periodAt(-60)).toBe("weekend");
    expect(periodAt(-(DAY + 12 * H))).toBe("day"); // Saturday 12:00 of the week before
  });

  it("puts checkpoints at 50 %, or every 10 %", () => {
    expect(checkpointPositions(0)).toEqual([]);
    expect(checkpointPositions(1)).toEqual([0.5]);
    expect(checkpointPositions(9)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
  });
});

describe("a failure that the scheduler sees at its next round (shared checkpoints)", () => {
  /**
   * One task of 3600 s on machine 0 (ratio 1), which leaves at 1000 s for good; machine 1 is up
   * all along and idle. The rounds are at 0, 120, …: the one at 1080 s sees machine 0 down and
   * gives the task back; machine 1 starts it over at 1080 (no checkpoint): done at 4680 s.
   * Lost: the 1000 s computed, in reference seconds (ratio 1).
   */
  it("gives the task to another machine at the round, losing what was not checkpointed", () => {
    const r = run({ checkpointStore: "shared" }, "FCFS", [machine([[0, 1000]]), always()]);
    expect(r).toMatchObject({ censored: false, failures: 1, restarts: 1, replicas: 0, timeouts: 0, checkpoints: 0, onDemandCheckpoints: 0 });
    expect(r.turnaroundS).toBeCloseTo(4680, 9);
    expect(r.lostWorkS).toBeCloseTo(1000, 9);
  });

  /**
   * The same with nine checkpoints of 10 MB (0.8 s each at 12.5 MB/s) and ratio 2 (1800 s of
   * machine time): checkpoint k (10 k %) is reached at 180 k + 0.8 (k − 1) s and written 0.8 s
   * later; at the failure (1000 s) the fifth is durable (written by 904 s) and 1000 − 904 = 96 s
   * of machine time since then are lost: 192 reference seconds. The round at 1080 gives the
   * task to machine 1 (ratio 1), which resumes at 50 %: 1800 s of compute and four checkpoints
   * (3.2 s): done at 1080 + 1803.2 s. Checkpoints: five on machine 0, four on machine 1.
   */
  it("resumes from the last checkpoint written, and counts each one", () => {
    const r = run({ checkpointStore: "shared", checkpoints: 9, checkpointMb: 10 }, "FCFS", [machine([[0, 1000]]), always()], { ratios: [2, 1] });
    expect(r.turnaroundS).toBeCloseTo(1080 + 1800 + 4 * 0.8, 9);
    expect(r.lostWorkS).toBeCloseTo(2 * (1000 - (5 * 180 + 5 * 0.8)), 9);
    expect(r).toMatchObject({ failures: 1, restarts: 1, checkpoints: 9 });
  });

  /** The run starts at 7200 s: machine 0 (up 7200–8200 only) fails after 1000 s, the round at 7200 + 1080 hands the task on: turnaround 4680 s from the run's start. */
  it("counts the turnaround from the run's start", () => {
    const r = run({ checkpointStore: "shared" }, "FCFS", [machine([[0, 100], [7200, 8200]]), always()], { startS: 7200 });
    expect(r.turnaroundS).toBeCloseTo(4680, 9);
  });

  /** Machine 1 never comes up and the trace ends at 5000 s: the task is never done, the run is censored. */
  it("is censored when the trace ends first", () => {
    const r = run({ checkpointStore: "shared" }, "FCFS", [machine([[0, 1000]]), machine([])], { traceEndS: 5000 });
    expect(r).toMatchObject({ censored: true, turnaroundS: null, failures: 1 });
  });
});

describe("private checkpoints and the adaptive timeout (FCFS-AT)", () => {
  /**
   * Machine 0 (ratio 1) runs the task from 0 and is away 1000–5000 s; machine 1 is always up.
   * With private checkpoints the scheduler never sees the failure: under FCFS the task waits for
   * machine 0, which starts it over at 5000 (no checkpoint): done at 8600 s.
   */
  it("FCFS waits for the machine to return", () => {
    const r = run({ checkpointStore: "private" }, "FCFS", [machine([[0, 1000], [5000, END]]), always()]);
    expect(r.turnaroundS).toBeCloseTo(8600, 9);
    expect(r).toMatchObject({ failures: 1, restarts: 1, timeouts: 0 });
    expect(r.lostWorkS).toBeCloseTo(1000, 9);
  });

  /**
   * FCFS-AT: at assignment (t = 0) the deadline is 3600 · (1 + tol) after it. t = 0 is a Monday
   * 00:00 shifted by mondayOffsetS: Tuesday 03:00 is night (tol 0.1: 3960 s), Tuesday 10:00 day
   * (0.2 + 0.1 · 3600/3600 = 0.3: 4680 s), Sunday 00:00 weekend (0.05: 3780 s). The timeout
   * cancels machine 0's instance and machine 1 starts the task over: done at deadline + 3600.
   */
  for (const [period, offsetS, tolerance] of [
    ["night", -(DAY + 3 * H), 0.1],
    ["day", -(DAY + 10 * H), 0.3],
    ["weekend", -6 * DAY, 0.05],
  ] as const) {
    it(`reassigns the task at base · (1 + tolerance), ${period}: tolerance ${tolerance}`, () => {
      const r = run({ checkpointStore: "private" }, "FCFS-AT", [machine([[0, 1000], [20000, END]]), always()], { mondayOffsetS: offsetS });
      expect(r.turnaroundS).toBeCloseTo(3600 * (1 + tolerance) + 3600, 9);
      expect(r).toMatchObject({ timeouts: 1, restarts: 1, failures: 1 });
    });
  }

  /** A 10-hour task by day: 0.2 + 0.1 · 10 = 1.2, capped at dayMax 0.5: deadline 54000 s, done at 54000 + 36000. */
  it("caps the daytime tolerance at dayMax", () => {
    const r = run({ checkpointStore: "private", taskCpuS: 10 * H }, "FCFS-AT", [machine([[0, 1000]]), always()], { mondayOffsetS: -(DAY + 10 * H) });
    expect(r.turnaroundS).toBeCloseTo(36000 * 1.5 + 36000, 9);
  });

  /**
   * onTimeout "keep": at the deadline (3960 s, night) the instance is not cancelled, the task is
   * only queued again; machine 1, idle and not woken, takes nothing. Machine 0 returns at 5000
   * and starts the task over: done at 8600 s, as under FCFS, with one timeout counted.
   */
  it('with onTimeout "keep" leaves the instance bound to its machine', () => {
    const r = run({ checkpointStore: "private", onTimeout: "keep" }, "FCFS-AT", [machine([[0, 1000], [5000, END]]), always()], { mondayOffsetS: -(DAY + 3 * H) });
    expect(r.turnaroundS).toBeCloseTo(8600, 9);
    expect(r).toMatchObject({ timeouts: 1, restarts: 1 });
  });

  /**
   * Private checkpoint at 50 % (1 MB: 0.08 s) on machine 0 (ratio 1): reached at 1800 s, written
   * by 1800.08; machine 0 is away 2000–5000 s and resumes from its own checkpoint: 1800 s more,
   * done at 6800 s. Lost: 2000 − 1800.08 s.
   */
  it("resume from the machine's own checkpoint", () => {
    const r = run({ checkpointStore: "private", checkpoints: 1 }, "FCFS", [machine([[0, 2000], [5000, END]]), always()]);
    expect(r.turnaroundS).toBeCloseTo(6800, 9);
    expect(r.lostWorkS).toBeCloseTo(2000 - 1800.08, 9);
    expect(r.checkpoints).toBe(1);
  });
});

describe("replication (FCFS-TR)", () => {
  /** Two machines always up, ratios 1 and 2: machine 0 takes the task, idle machine 1 a replica, which ends at 1800 s. */
  it("replicates onto an idle machine; the first instance to finish completes the task", () => {
    const r = run({}, "FCFS-TR", [always(), always()], { ratios: [1, 2] });
    expect(r.turnaroundS).toBeCloseTo(1800, 9);
    expect(r).toMatchObject({ replicas: 1, restarts: 0, failures: 0 });
    const single = run({ maxInstances: 1 }, "FCFS-TR", [always(), always()], { ratios: [1, 2] });
    expect(single.turnaroundS).toBeCloseTo(3600, 9);
    expect(single.replicas).toBe(0);
  });

  /**
   * Two tasks on machines 0 (ratio 1) and 1 (ratio 2); machine 2 (ratio 4) replicates the one
   * with the latest estimated completion, task 0 (3600 s against 1800), and ends it at 900 s.
   * With maxInstances 2, machine 0 then replicates task 1 (still one instance) and machine 2
   * finds none below the limit; machine 1 ends task 1 at 1800 s. Had machine 2 picked task 1,
   * task 0 would have ended at 900 + 3600 / 2 = 2700 s.
   */
  it("replicates the task that would finish last", () => {
    const r = run({ tasks: 2, maxInstances: 2 }, "FCFS-TR", [always(), always(), always()], { ratios: [1, 2, 4] });
    expect(r.turnaroundS).toBeCloseTo(1800, 9);
    expect(r.replicas).toBe(2);
  });

  /** Plain FCFS never replicates: the idle machine stays idle and the task ends at 3600 s on machine 0. */
  it("is not done by FCFS or FCFS-AT", () => {
    for (const policy of ["FCFS", "FCFS-AT"] as const) {
      const r = run({}, policy, [always(), always()], { ratios: [1, 2] });
      expect(r.turnaroundS, policy).toBeCloseTo(3600, 9);
      expect(r.replicas, policy).toBe(0);
    }
  });
});

describe("checkpoints on demand (FCFS-PRDCT-DMD, the oracle)", () => {
  /**
   * Machine 0 (ratio 1) leaves at 1000 s; machine 1 is up from 1100 s. The round at 960 s sees
   * the failure coming before the next (1080 s): machine 0 checkpoints its 960 s of progress (1 MB,
   * 0.08 s) and, no machine being free, nothing is replicated. At 1000 s the checkpoint is
   * durable: the 1000 − 960.08 s computed after it are lost. The round at 1080 s sees machine
   * 0's failure and queues the task; machine 1, up at 1100 s, resumes it from 960 s: done at
   * 1100 + 2640 = 3740 s.
   */
  it("checkpoints a machine predicted to fail and resumes the task from there", () => {
    const r = run({}, "FCFS-PRDCT-DMD", [machine([[0, 1000]]), machine([[1100, END]])]);
    expect(r.onDemandCheckpoints).toBe(1);
    expect(r.lostWorkS).toBeCloseTo(1000 - 960.08, 9);
    expect(r.turnaroundS).toBeCloseTo(1100 + (3600 - 960), 9);
    expect(r).toMatchObject({ failures: 1, replicas: 0, restarts: 1 });
  });

  /**
   * The same with machine 1 up all along: idle at 0, it takes a replica at once (FCFS-PRDCT-DMD
   * replicates as FCFS-TR does), which ends the task at 3600 s; with maxInstances 2 the round at
   * 960 s checkpoints on demand but cannot add a third instance.
   */
  it("replicates onto an idle machine, and checkpoints on demand within maxInstances", () => {
    const r = run({ maxInstances: 2 }, "FCFS-PRDCT-DMD", [machine([[0, 1000]]), always()]);
    expect(r.turnaroundS).toBeCloseTo(3600, 9);
    expect(r).toMatchObject({ replicas: 1, onDemandCheckpoints: 1, failures: 1 });
  });
});

describe("a measured checkpoint server (docs/science.md §6.6)", () => {
  /**
   * One task, one shared checkpoint of 10 MB at 50 %: at 2 MB/s (under the 12.5 MB/s LAN) the
   * write takes 5 s instead of 0.8: done at 3605 s. The server was busy 5 s of the 3605 s run,
   * at its full bandwidth, and the write waited 5 − 10/12.5 = 4.2 s beyond its LAN time.
   */
  it("writes shared checkpoints at the model's bandwidth", () => {
    const r = run({ checkpoints: 1, checkpointMb: 10 }, "FCFS", [always()], { server: FLAT_SERVER });
    expect(r.turnaroundS).toBeCloseTo(3605, 9);
    expect(r.server!.transfers).toBe(1);
    expect(r.server!.completed).toBe(1);
    expect(r.server!.runS).toBeCloseTo(3605, 9);
    expect(r.server!.busyS).toBeCloseTo(5, 9);
    expect(r.server!.waitS).toBeCloseTo(5 - 10 / 12.5, 9);
  });

  /** Two tasks on two machines write at the same instant: 2 MB/s shared, 1 MB/s each: 10 s per write, done at 3610 s. */
  it("shares the model's bandwidth among the writes in progress", () => {
    const r = run({ tasks: 2, checkpoints: 1, checkpointMb: 10 }, "FCFS", [always(), always()], { server: FLAT_SERVER });
    expect(r.turnaroundS).toBeCloseTo(3610, 9);
    expect(r.server!.maxConcurrent).toBe(2);
  });

  /**
   * A failure during the write (machine 0 away at 1803 s, in the write that began at 1800 and
   * would end at 1805): the checkpoint is lost with the 1800 s computed; the round at 1920 hands
   * the task to machine 1 (up all along, idle), which starts over: 3600 s and its own 5 s write,
   * done at 1920 + 3605 s.
   */
  it("loses a checkpoint whose write a failure interrupts", () => {
    const r = run({ checkpoints: 1, checkpointMb: 10 }, "FCFS", [machine([[0, 1803]]), always()], { server: FLAT_SERVER });
    expect(r.turnaroundS).toBeCloseTo(1920 + 3605, 9);
    expect(r.lostWorkS).toBeCloseTo(1800, 9);
    expect(r.server!.interrupted).toBe(1);
    expect(r.server!.completed).toBe(1);
  });

  /** Private checkpoints stay on their machine: the server is not used, the write costs 10 / 12.5 s. */
  it("is not used by private checkpoints", () => {
    const r = run({ checkpoints: 1, checkpointMb: 10, checkpointStore: "private" }, "FCFS", [always()], { server: FLAT_SERVER });
    expect(r.turnaroundS).toBeCloseTo(3600.8, 9);
    expect(r.server).toBeUndefined();
  });
});

describe("the starting points (docs/science.md §6.2.7)", () => {
  const s = (over: Partial<Das06Scenario>) => scenario({ minTraceLeftDays: 0, ...over });
  /** Whole hours from Monday 08:00 to Friday 21:00 (4 · 24 + 13 + 1 = 110 of them), the trace starting on a Monday. */
  it("are the weekday window's whole hours, or the weekend's, in the trace's week", () => {
    const weekday = startTimes(s({ startTimes: "weekday" }), 0, 7 * DAY, 0);
    expect(weekday.length).toBe(4 * 24 + 13 + 1);
    expect(weekday[0]).toBe(8 * H);
    expect(weekday.at(-1)).toBe(4 * DAY + 21 * H);
    // Saturday 21:00 to Sunday 21:00: 25 hours.
    const weekend = startTimes(s({ startTimes: "weekend" }), 0, 7 * DAY, 0);
    expect(weekend.length).toBe(25);
    expect(weekend[0]).toBe(5 * DAY + 21 * H);
    expect(weekend.at(-1)).toBe(6 * DAY + 21 * H);
  });

  it("shift with the Monday, start at the window's first whole hour and leave minTraceLeftDays", () => {
    // Monday at 2 h into the trace: the weekday window starts at 10 h.
    expect(startTimes(s({ startTimes: "weekday" }), 0, 7 * DAY, 2 * H)[0]).toBe(10 * H);
    // From 8.5 h: the first whole hour is 9 h.
    expect(startTimes(s({ startTimes: "weekday" }), 8.5 * H, 7 * DAY, 0)[0]).toBe(9 * H);
    // 3 days of a 7-day trace left after the start: the last start is at day 4 (Friday 00:00, inside the window), included.
    const left = startTimes(s({ startTimes: "weekday", minTraceLeftDays: 3 }), 0, 7 * DAY, 0);
    expect(left.at(-1)).toBe(4 * DAY);
    // A list is taken as it is.
    expect(startTimes(s({ startTimes: [5, 7] }), 0, 7 * DAY, 0)).toEqual([5, 7]);
  });
});

describe("the simulator's summary and a sweep's cell", () => {
  const M01_RATIO = 1.692; // [DAS06] Table 1, type D
  const iet = 1800 / M01_RATIO; // one task of 1800 s on M01: its IET

  /**
   * One task on M01; node 0 is up except 4000–5000 s, the 31 others never. From 0 the task ends
   * at the IET; from 3600 it loses 400 s at 4000 and starts over at 5000: turnaround 1400 + IET.
   * Per policy the means over the two starting points; the cell's slowdown interval is the
   * Student-t one, mean ± t(0.975, 1) · sd / √2 with sd = (1400 / IET) / √2 and t = 12.7062.
   */
  it("keeps the mean slowdown, its interval over the starting points, the turnaround in minutes and the counts", async () => {
    const trace = ftaTrace("later.tab", 32, (node) => (node === 0 ? [[0, 4000], [5000, 8 * DAY]] : []));
    const parameters = { ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, taskCpuS: 1800, startTimes: [0, 3600], minTraceLeftDays: 0, policies: ["FCFS", "FCFS-TR"] };
    const cell = await das06Model.run(parameters, 1);
    const slowdowns = [1, (1400 + iet) / iet];
    const mean = (slowdowns[0]! + slowdowns[1]!) / 2;
    const half = (12.706204736 * (1400 / iet / Math.SQRT2)) / Math.SQRT2;
    const fcfs = cell.policies.FCFS!;
    expect(fcfs.slowdown).toBeCloseTo(mean, 9);
    expect(fcfs.slowdownLow).toBeCloseTo(mean - half, 6);
    expect(fcfs.slowdownHigh).toBeCloseTo(mean + half, 6);
    expect(fcfs.turnaroundMin).toBeCloseTo((iet + 1400 + iet) / 2 / 60, 9);
    expect(fcfs).toMatchObject({ censored: 0, runs: 2, restarts: 0.5, replicas: 0, checkpoints: 0 });
    expect(cell.metrics).toMatchObject({ startingPoints: 2, syntheticTrace: 0 });
    expect(cell.metrics.ietMin).toBeCloseTo(iet / 60, 9);
    expect(cell.metrics.events).toBe(cell.events);
    expect(cell.events).toBeGreaterThan(0);
  });

  /** One starting point: no interval, so the cell's bounds are the mean itself. */
  it("gives the mean as both bounds for one starting point", async () => {
    const trace = ftaTrace("up.tab", 32, () => [[0, 8 * DAY]]);
    const cell = await das06Model.run({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, startTimes: [0], minTraceLeftDays: 0, policies: ["FCFS"] }, 1);
    expect(cell.policies.FCFS).toMatchObject({ slowdown: 1, slowdownLow: 1, slowdownHigh: 1 });
  });

  /** The task cannot end before the trace does (node 0 up only 0–1000 s): the run is censored, counted and named in a warning, and left out of the means. */
  it("counts censored runs and says so", async () => {
    const trace = ftaTrace("short.tab", 32, (node) => (node === 0 ? [[0, 1000]] : []));
    const report = await simulateDas06(validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, startTimes: [0], minTraceLeftDays: 0, policies: ["FCFS"] }));
    expect(report.policies.FCFS).toMatchObject({ runs: 1, censored: 1 });
    expect(report.policies.FCFS!.turnaroundS.n).toBe(0);
    expect(report.policies.FCFS!.failures.mean).toBe(1);
    expect(report.warnings).toContain("FCFS: 1 of 1 runs had not finished when the trace ended (censored, left out of the means)");
  });

  /**
   * The measured server's summary: one task, one 10 MB checkpoint written at 2 MB/s (5 s) in a
   * run of IET + 5 s; the server busy 5 s, at all its bandwidth (utilisation 1), and the write
   * waited 5 − 10 / 12.5 = 4.2 s beyond its LAN time.
   */
  it("summarises what the measured server did, and says when private checkpoints leave it unused", async () => {
    const trace = ftaTrace("up2.tab", 32, () => [[0, 8 * DAY]]);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, checkpoints: 1, checkpointMb: 10, startTimes: [0], minTraceLeftDays: 0, policies: ["FCFS"], checkpointServer: { model: "paper" } });
    const report = await simulateDas06(s, undefined, { server: FLAT_SERVER });
    const p = report.policies.FCFS!;
    expect(p.turnaroundS.mean).toBeCloseTo(iet + 5, 6);
    expect(p.server!.writes.mean).toBe(1);
    expect(p.server!.writesOutsideDomain.mean).toBe(0);
    expect(p.server!.busyFraction.mean).toBeCloseTo(5 / (iet + 5), 9);
    expect(p.server!.utilisation.mean).toBeCloseTo(1, 9);
    expect(p.server!.waitS.mean).toBeCloseTo(4.2, 9);
    expect(report.checkpointServer).toMatchObject({ file: "flat" });
    const cell = await das06Model.run(s as unknown as Record<string, unknown>, 1);
    // das06Model loads the scenario's own server ("paper"): only the cell's keys are checked here.
    expect(Object.keys(cell.policies.FCFS!)).toEqual(expect.arrayContaining(["serverWrites", "serverWritesOutsideDomain", "serverBusyFraction", "serverUtilisation", "serverWaitS"]));
    const privately = await simulateDas06({ ...s, checkpointStore: "private" }, undefined, { server: FLAT_SERVER });
    expect(privately.policies.FCFS!.server).toBeUndefined();
    expect(privately.warnings).toContain('checkpointServer flat is not used: private checkpoints stay on their machine (checkpointStore "private")');
  });
});

describe("the machines a trace gives", () => {
  it("are a seeded choice of 32 among the nodes observed throughout the window, the same for the same seed", async () => {
    const trace = ftaTrace("33.tab", 33, () => [[0, 8 * DAY]]);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", startTimes: [0], minTraceLeftDays: 0 });
    const a = await loadDas06Trace(s);
    const keys = (t: typeof a) => (t.identity.synthetic ? [] : t.identity.nodes);
    expect(new Set(keys(a)).size).toBe(32);
    expect(keys(await loadDas06Trace(s))).toEqual(keys(a));
    expect(a).toMatchObject({ fromS: 0, endS: 8 * DAY, machines: expect.any(Array) });
    expect(a.machines).toHaveLength(32);
    // Another seed, another choice or order (33 · 32! orders: equal only by accident).
    expect(keys(await loadDas06Trace({ ...s, seed: 2 }))).not.toEqual(keys(a));
  });

  /**
   * Node 0 is recorded only from day 2: over the whole 8 days 31 nodes are observed throughout,
   * too few; the only 8-day window has 31, so the message says no window has enough. Days 2–8
   * have all 32: the run goes on, its machines' times from the trace's start and observed over
   * that window. A window beyond the trace is refused.
   */
  it("must be observed throughout the window; the refusal says where enough are", async () => {
    const trace = ftaTrace("late.tab", 32, (node) => (node === 0 ? [[2 * DAY, 8 * DAY]] : [[0, 8 * DAY]]), (node) => (node === 0 ? 2 * DAY : 0));
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", startTimes: [2 * DAY], minTraceLeftDays: 0 });
    await expect(loadDas06Trace(s)).rejects.toThrow(`${trace}: 31 of its 32 nodes are observed throughout days 0.0–8.0 of the trace; the machine set needs 32. No 8-day window has enough (at most 31): use a trace with more nodes`);
    const windowed = await loadDas06Trace({ ...s, windowDays: [2, 8] });
    expect(windowed).toMatchObject({ fromS: 2 * DAY, endS: 8 * DAY });
    expect(windowed.machines[0]).toMatchObject({ observedFromS: 2 * DAY, observedToS: 8 * DAY });
    await expect(loadDas06Trace({ ...s, windowDays: [0, 9] })).rejects.toThrow(`windowDays: ${trace} spans 8.00 days; the window [0, 9] goes beyond it`);
  });

  /**
   * A 40-day trace: node 0 recorded all along, nodes 1–32 from day 1 to 40. Over the whole trace
   * one node is observed throughout; of the 39-day windows (the paper's trace length), days
   * 1–40 have all 33 (more than the 32 the set needs), and the refusal says so.
   */
  it("names the window with the most nodes when one has enough", async () => {
    const trace = ftaTrace("late-nodes.tab", 33, (node) => (node === 0 ? [[0, 40 * DAY]] : [[DAY, 40 * DAY]]), (node) => (node === 0 ? 0 : DAY), () => 40 * DAY);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", startTimes: [DAY], minTraceLeftDays: 0 });
    await expect(loadDas06Trace(s)).rejects.toThrow(
      `${trace}: 1 of its 33 nodes are observed throughout days 0.0–40.0 of the trace; the machine set needs 32. Choose a window where enough are: of the 39-day windows, --window-days 1,40 has the most (33)`,
    );
  });

  /**
   * The trace starts at the epoch, a Thursday 00:00 UTC: Monday 00:00 is 4 days in. The
   * weekend window (Saturday 21:00 → Sunday 21:00) is then days 2 d 21 h → 3 d 21 h of the
   * trace: 25 whole hours. With 7 of the 8 days to be left after a start, only day 0–1
   * (Thursday) may start: no weekend hour, refused.
   */
  it("find the trace's Monday from its UTC timestamps, and refuse a window with no starting point", async () => {
    const trace = ftaTrace("thursday.tab", 32, () => [[0, 8 * DAY]]);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, startTimes: "weekend", minTraceLeftDays: 0, policies: ["FCFS"] });
    const messages: string[] = [];
    const report = await simulateDas06(s, (m) => messages.push(m));
    expect(report.startTimesS).toHaveLength(25);
    expect(report.startTimesS[0]).toBe(2 * DAY + 21 * H);
    expect((await loadDas06Trace(s)).mondayOffsetS).toBe(4 * DAY);
    // Told every tenth of the starting points (every third of 25), and at the last.
    expect(messages).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 25].map((n) => `${n} of 25 starting points, 1 policies each`));
    await expect(simulateDas06({ ...s, minTraceLeftDays: 7 })).rejects.toThrow("no starting point: days 0.0–8.0 of the trace leave no weekend hour with 7 days after it (minTraceLeftDays)");
  });
});

describe("the model the sweeps run", () => {
  it("names the files a scenario reads and refuses a bad one", () => {
    expect(das06Model.inputFiles!({ checkpointServer: { model: "m.json" }, trace: "t.tab" })).toEqual(["m.json", "t.tab"]);
    expect(das06Model.inputFiles!({ checkpointServer: { model: "paper" }, trace: null })).toEqual([]);
    expect(das06Model.inputFiles!({})).toEqual([]);
    expect(() => das06Model.validate({ ...structuredClone(DAS06_DEFAULTS), tasks: 0 })).toThrow(/tasks must be an integer/);
    expect(() => das06Model.validate({ ...structuredClone(DAS06_DEFAULTS) })).not.toThrow();
  });
});

describe("several tasks, and the noisy predictor", () => {
  /**
   * Three tasks of 3600 s on two machines always up: machine 0 takes task 0, machine 1 task 1;
   * the queue's task 2 goes to the first to finish. Ratios 1 and 2: machine 1 ends task 1 at
   * 1800 s and task 2 at 3600 s, machine 0 task 0 at 3600 s: turnaround 3600. Ratios 1 and 1:
   * both end at 3600, machine 0 (first in the request order) takes task 2: done at 7200.
   */
  it("hands the queue's tasks to machines as they free up", () => {
    expect(run({ tasks: 3 }, "FCFS", [always(), always()], { ratios: [1, 2] }).turnaroundS).toBeCloseTo(3600, 9);
    const equal = run({ tasks: 3 }, "FCFS", [always(), always()]);
    expect(equal.turnaroundS).toBeCloseTo(7200, 9);
    expect(equal).toMatchObject({ restarts: 0, replicas: 0, failures: 0 });
  });

  /**
   * Private checkpoints of two tasks on two machines (ratio 1, one checkpoint of 1 MB at 50 %,
   * 0.08 s): machine 1 (task 1) is away 2000–3000 s after its checkpoint (written by 1800.08)
   * and resumes task 1 from it: done at 3000 + 1800 = 4800 s; machine 0 ends task 0 at 3600.08.
   */
  it("keep each machine's checkpoint of each task apart", () => {
    const r = run({ tasks: 2, checkpoints: 1, checkpointStore: "private" }, "FCFS", [always(), machine([[0, 2000], [3000, END]])]);
    expect(r.turnaroundS).toBeCloseTo(4800, 9);
    expect(r.lostWorkS).toBeCloseTo(2000 - 1800.08, 9);
    expect(r).toMatchObject({ failures: 1, restarts: 1, checkpoints: 2 });
  });

  /**
   * The noisy predictor with falsePositive 1 and falseNegative 0 predicts a failure at every
   * round: one task of 3600 s alone on a machine always up checkpoints on demand at each round
   * (120, 240, … s), each pausing it 0.08 s: 30 rounds fall before it ends (the 30th at 3600 s,
   * when 3600 − 29 · 0.08 s are done), so it ends at 3600 + 30 · 0.08 s. With falsePositive 0
   * it never does: 3600 s.
   */
  it("noisy-oracle: checkpoints on demand at the rates it errs", () => {
    const always1 = run({ predictor: "noisy-oracle", falsePositive: 1, falseNegative: 0 }, "FCFS-PRDCT-DMD", [always()]);
    expect(always1.onDemandCheckpoints).toBe(30);
    expect(always1.turnaroundS).toBeCloseTo(3600 + 30 * 0.08, 9);
    const never = run({ predictor: "noisy-oracle", falsePositive: 0, falseNegative: 1 }, "FCFS-PRDCT-DMD", [machine([[0, 1000]]), always()]);
    // Machine 1 replicates at once (FCFS-PRDCT-DMD replicates as FCFS-TR does); machine 0's coming failure is missed.
    expect(never.onDemandCheckpoints).toBe(0);
    expect(never.turnaroundS).toBeCloseTo(3600, 9);
    const oracle = run({}, "FCFS-PRDCT-DMD", [always()]);
    expect(oracle.onDemandCheckpoints).toBe(0);
    expect(oracle.turnaroundS).toBeCloseTo(3600, 9);
  });

  /**
   * FCFS-AT with shared checkpoints: machine 0 leaves at 1000 s; the round at 1080 s gives the
   * task to machine 1 (3600 s: done at 4680), and machine 0's old timeout (at 3960 s, night)
   * belongs to an assignment taken back: it is ignored. No timeout counted.
   */
  it("a timeout of an assignment taken back is ignored", () => {
    const r = run({ checkpointStore: "shared" }, "FCFS-AT", [machine([[0, 1000]]), always()], { mondayOffsetS: -(DAY + 3 * H) });
    expect(r.turnaroundS).toBeCloseTo(4680, 9);
    expect(r).toMatchObject({ timeouts: 0, restarts: 1, failures: 1 });
  });
});

describe("the trace's times and the synthetic trace's size", () => {
  /**
   * A trace whose first interval starts 1000 s after the epoch (a Thursday): the machines'
   * times are from the trace's start (their interval is 0 – 8 days), and its Monday 00:00 is
   * 4 days − 1000 s in.
   */
  it("are counted from the trace's start", async () => {
    const trace = ftaTrace("later-start.tab", 32, () => [[1000, 1000 + 8 * DAY]], () => 1000, () => 1000 + 8 * DAY);
    const loaded = await loadDas06Trace(validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", startTimes: [0], minTraceLeftDays: 0 }));
    expect([loaded.machines[0]!.starts[0], loaded.machines[0]!.ends[0]]).toEqual([0, 8 * DAY]);
    expect(loaded).toMatchObject({ fromS: 0, endS: 8 * DAY, mondayOffsetS: 4 * DAY - 1000 });
  });

  /** The synthetic trace starts on a Monday unless the scenario says otherwise; one of 16 machines for a set of 32 is said; a window is days from its start. */
  it("synthetic: its Monday, its window, and fewer machines than the set", async () => {
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), startTimes: [0], minTraceLeftDays: 0 });
    expect((await loadDas06Trace(s)).mondayOffsetS).toBe(0);
    expect((await loadDas06Trace({ ...s, mondayOffsetS: 3600 })).mondayOffsetS).toBe(3600);
    expect(await loadDas06Trace({ ...s, windowDays: [1, 8] })).toMatchObject({ fromS: DAY, endS: 8 * DAY });
    const few = await loadDas06Trace({ ...s, synthetic: { ...s.synthetic, machines: 16 } });
    expect(few.machines).toHaveLength(16);
    expect(few.warnings).toEqual(["the synthetic trace has 16 machines for a set of 32"]);
    expect((await loadDas06Trace(s)).warnings).toEqual([]);
  });
});

describe("replication's choices and the instances a completion or a failure stops (FCFS-TR)", () => {
  /**
   * Ratios 1, 1, 4, maxInstances 2, shared: machine 0 (up 0–1000 s) takes the task, machine 1 a
   * replica, machine 2 finds the task at its limit and stays idle. Machine 0 fails at 1000; the
   * round at 1080 takes its instance back (one left): idle machine 2 is woken and replicates
   * the task from scratch (no checkpoint): 3600 / 4 = 900 s, done at 1980. The task is not
   * given back to the queue (an instance still runs): it is a replica, not a restart.
   * Events: at 0 the round and three requests (4); the rounds at 120, …, 1920 (16); machine 0's
   * departure at 1000 (1); machine 2's request at 1080 (1); its milestone at 1980 (1): 23.
   */
  it("wakes an idle machine when an instance is taken back, to replicate the task", () => {
    const r = run({ maxInstances: 2 }, "FCFS-TR", [machine([[0, 1000]]), always(), always()], { ratios: [1, 1, 4] });
    expect(r.turnaroundS).toBeCloseTo(1980, 9);
    expect(r).toMatchObject({ failures: 1, restarts: 0, replicas: 2, timeouts: 0, events: 23 });
    expect(r.lostWorkS).toBeCloseTo(1000, 9);
  });

  /**
   * Two tasks, ratios 1, 1, 4, maxInstances 2: machines 0 and 1 take tasks 0 and 1, machine 2
   * replicates one of them and ends it at 900 s. Both would end at 3600 s: the tie goes to the
   * lower index, task 0. Its other instance (machine 0) is stopped and machine 0 asks again:
   * it replicates task 1 (one instance), machine 2 finds both at their limit. Task 1 ends on
   * machine 1 at 3600. Had machine 0 not been stopped, machine 2 would have replicated task 1
   * at 900 and ended it at 1800.
   * Events: at 0 the round and three requests (4); the rounds at 120, …, 3480 (29); machine
   * 2's milestone at 900 and the requests of machines 0 and 2 (3); machine 2's deadline at 945
   * (900 · 1.05, t = 0 a Monday 00:00: the weekend), stale (1); at 3600 machine 0's stale
   * milestone of task 0, then machine 1's (2): 39.
   */
  it("stops the other instances of a completed task, which ask for work again", () => {
    const r = run({ tasks: 2, maxInstances: 2 }, "FCFS-TR", [always(), always(), always()], { ratios: [1, 1, 4] });
    expect(r.turnaroundS).toBeCloseTo(3600, 9);
    expect(r).toMatchObject({ replicas: 2, restarts: 0, failures: 0, events: 39 });
  });

  /**
   * The same tie with machine 0 up 0–2000 s and machine 2 up 0–1000 s: machine 2 replicates
   * task 0 (the lower index) and ends it at 900; machine 0 replicates task 1 at 900 and fails
   * at 2000, machine 2 leaves idle at 1000 (not a failure: nothing ran); task 1 ends on machine
   * 1 at 3600. Had the tie gone to task 1, task 0 would have been left to machine 0, which
   * fails, and to machine 1's replica from 900: 4500 s.
   */
  it("breaks a tie of estimated completions by the lower index", () => {
    const r = run({ tasks: 2, maxInstances: 2 }, "FCFS-TR", [machine([[0, 2000]]), always(), machine([[0, 1000]])], { ratios: [1, 1, 4] });
    expect(r.turnaroundS).toBeCloseTo(3600, 9);
    expect(r).toMatchObject({ replicas: 2, failures: 1 });
    expect(r.lostWorkS).toBeCloseTo(2000 - 900, 9);
  });

  /**
   * Estimated completion from the progress so far: task 0 runs on machine 0 from 0, task 1 on
   * machine 1 (up from 1000 s); machine 2 (ratio 4) comes up at 2000 and replicates the task
   * that would end last: task 0 has 1600 s left (2000 of 3600 done), task 1 2600 s. It ends
   * task 1 at 2000 + 900 = 2900; machine 1 then replicates task 0 (ended by machine 0 at 3600).
   * Had it picked task 0 (ending it at 2900), task 1 would have ended on machine 1 at 4600.
   */
  /**
   * Ratios 2, 1, 4: task 0 on machine 0 would end at 1800 s, task 1 on machine 1 at 3600;
   * machine 2 replicates task 1, the later (each estimate with its own instances' speed), and
   * ends it at 900; machine 1 then replicates task 0, which machine 0 ends at 1800. Had machine
   * 2 replicated task 0, task 1 would have ended at 900 + 3600 / 2 = 2700.
   */
  it("estimates each task's completion from the speed of its own instances", () => {
    const r = run({ tasks: 2, maxInstances: 2 }, "FCFS-TR", [always(), always(), always()], { ratios: [2, 1, 4] });
    expect(r.turnaroundS).toBeCloseTo(1800, 9);
    expect(r.replicas).toBe(2);
  });

  /**
   * Ratios 4, 1, 1, 1, maxInstances 3: machine 2 replicates task 1 (3600 s against task 0's
   * 900); machine 3 then replicates task 0, which has fewer instances, though task 1 would end
   * later. Machine 0 ends task 0 at 900 and replicates task 1 (two instances, below 3): at
   * ratio 4, done at 1800. Had machine 3 taken task 1, it would have reached its limit and
   * ended at 3600.
   */
  it("replicates the task with the fewest instances before the latest one", () => {
    const r = run({ tasks: 2, maxInstances: 3 }, "FCFS-TR", [always(), always(), always(), always()], { ratios: [4, 1, 1, 1] });
    expect(r.turnaroundS).toBeCloseTo(1800, 9);
    expect(r.replicas).toBe(3);
  });

  it("replicates the task whose estimated completion, from its progress, is the latest", () => {
    const r = run({ tasks: 2, maxInstances: 2 }, "FCFS-TR", [always(), machine([[1000, END]]), machine([[2000, END]])], { ratios: [1, 1, 4] });
    expect(r.turnaroundS).toBeCloseTo(3600, 9);
    expect(r).toMatchObject({ replicas: 2, restarts: 0 });
  });
});

describe("timeouts of earlier assignments, and tasks bound to a private machine", () => {
  const night = -(DAY + 3 * H); // t = 0 is a Tuesday 03:00: night, tolerance 0.1

  /**
   * FCFS-AT, shared, two tasks: machines 0 and 1 take tasks 0 and 1 at 0 (deadlines 3960 s).
   * Machine 0 is away 1000–1100 s; the round at 1080 takes task 0 back, and machine 0, back at
   * 1100, takes it again from scratch: done at 4700 (deadline 1100 + 3960). The first
   * assignment's deadline at 3960 belongs to an assignment taken back: no timeout.
   */
  it("ignores the deadline of an assignment the machine has had since", () => {
    const r = run({ tasks: 2 }, "FCFS-AT", [machine([[0, 1000], [1100, END]]), always()], { mondayOffsetS: night });
    expect(r.turnaroundS).toBeCloseTo(4700, 9);
    expect(r).toMatchObject({ timeouts: 0, restarts: 1, failures: 1 });
  });

  /**
   * FCFS-AT, private, one checkpoint at 50 % (1 MB: 0.08 s), machine 1 never up. Machine 0 writes
   * the checkpoint at 1800–1800.08, is away 2000–3000 s (199.92 s lost) and resumes from it at
   * 3000. The deadline at 3960 cancels that instance and gives machine 0 (idle, up) the task
   * again, from its checkpoint: base 1800 s, deadline 3960 + 1.1 · 1800 = 5940. Away again
   * 4000–7000 (40 s lost): the second timeout at 5940 takes the task back; machine 0, back at
   * 7000, takes it from its checkpoint: done at 8800. Had the second deadline counted the whole
   * task (base 3600), it would have fallen after 7000, and only one timeout.
   * Events: requests at 0, 3960 (two: the woken machine, and the one whose instance timed out)
   * and 7000 (4); availability changes at 2000, 3000, 4000, 7000 (4); the checkpoint's
   * milestone and its write (2); the timeouts (2); the milestone at 8800 (1); and the
   * milestones of the three instances stopped before theirs, which fire stale and change
   * nothing: at 3600.08, 4800 and 5760 (3): 16.
   */
  it("reassigns at the deadline, with a deadline from the progress the machine resumes from", () => {
    const r = run({ checkpointStore: "private", checkpoints: 1 }, "FCFS-AT", [machine([[0, 2000], [3000, 4000], [7000, END]]), machine([])], { mondayOffsetS: night });
    expect(r.turnaroundS).toBeCloseTo(8800, 9);
    expect(r).toMatchObject({ timeouts: 2, restarts: 3, failures: 2, checkpoints: 1, events: 16 });
    expect(r.lostWorkS).toBeCloseTo(2000 - 1800.08 + 40, 9);
  });

  /**
   * FCFS-TR, private, machine 1 never up: machine 0 is away 1000–3000 s and resumes the task
   * from scratch at 3000. Its deadline (t = 0 a Monday 00:00, the weekend: 3600 · 1.05 = 3780)
   * cancels that instance; the machine is asked three times to request work (the instance
   * stopped, the task queued, the timeout's own request): the first takes the task again
   * (done at 3780 + 3600), the others find it busy — no replica of its own task.
   */
  it("a machine that has work ignores its other requests", () => {
    const r = run({ checkpointStore: "private" }, "FCFS-TR", [machine([[0, 1000], [3000, END]]), machine([])]);
    expect(r.turnaroundS).toBeCloseTo(3780 + 3600, 9);
    expect(r).toMatchObject({ timeouts: 1, restarts: 2, replicas: 0, failures: 1 });
  });

  /**
   * onTimeout "keep", private: machine 0 (away 1000–8000 s) keeps its instance at the deadline
   * (3960) and the task is queued again; machine 1, up at 4000, takes it from the queue and
   * ends it at 7600 (a restart). Without the queue, machine 0 would have ended it at 11600.
   */
  it('"keep" queues the task again for the next machine that asks', () => {
    const r = run({ checkpointStore: "private", onTimeout: "keep" }, "FCFS-AT", [machine([[0, 1000], [8000, END]]), machine([[4000, END]])], { mondayOffsetS: night });
    expect(r.turnaroundS).toBeCloseTo(7600, 9);
    expect(r).toMatchObject({ timeouts: 1, restarts: 1, failures: 1 });
  });

  /**
   * Shared: machine 0 is away 1000–1050 s. Back before the round, it does not resume the task
   * (the scheduler still believes it runs there); the round at 1080 takes the task back and
   * gives it to machine 0 again, from scratch: done at 1080 + 3600.
   * Events: at 0 the round and a request (2); the rounds at 120, …, 4560 (38); the departure
   * and the return (2); at 1080 two requests, the released machine's and the one the queued
   * task wakes (2); the first instance's stale milestone at 3600 (1); the last milestone (1): 46.
   */
  it("shared: a machine back before the round waits for the scheduler", () => {
    const r = run({}, "FCFS", [machine([[0, 1000], [1050, END]])]);
    expect(r.turnaroundS).toBeCloseTo(4680, 9);
    expect(r).toMatchObject({ restarts: 1, failures: 1, events: 46 });
  });

  /**
   * FCFS-PRDCT-DMD with private checkpoints, maxInstances 1: the round at 960 s checkpoints
   * machine 0's 960 s on it before its departure at 1000, and machine 1, up at that instant,
   * gets no replica (the task is at its limit); rounds do not take private tasks back, so
   * machine 1 gets nothing after either, and machine 0, back at 2000, resumes from its
   * checkpoint: done at 2000 + 2640. By day (t = 0 a Tuesday 10:00) the deadline is
   * 1.3 · 3600 = 4680 s, after that.
   */
  it("private: rounds leave the task bound to its machine", () => {
    const r = run({ checkpointStore: "private", maxInstances: 1 }, "FCFS-PRDCT-DMD", [machine([[0, 1000], [2000, END]]), machine([[960, END]])], { mondayOffsetS: -(DAY + 10 * H) });
    expect(r.turnaroundS).toBeCloseTo(2000 + 2640, 9);
    expect(r).toMatchObject({ onDemandCheckpoints: 1, restarts: 1, replicas: 0, failures: 1 });
  });
});

describe("the trace's end", () => {
  /**
   * One machine up all along, the trace ends at 1000 s: the run is censored there, and the
   * instance running then is counted a failure with its 1000 s lost. Private FCFS has no rounds:
   * events are the request at 0 and the trace's end (2).
   */
  it("ends the instances still running", () => {
    const r = run({ checkpointStore: "private" }, "FCFS", [always()], { traceEndS: 1000 });
    expect(r).toMatchObject({ censored: true, turnaroundS: null, failures: 1, restarts: 0, events: 2 });
    expect(r.lostWorkS).toBeCloseTo(1000, 9);
  });

  /** A machine up from 500 s, the trace ending at 2000: its instance (from 500) is ended there too, 1500 s lost. */
  it("ends the instance of a machine that came up during the run", () => {
    const r = run({ checkpointStore: "private" }, "FCFS", [machine([[500, END]])], { traceEndS: 2000 });
    expect(r).toMatchObject({ censored: true, failures: 1 });
    expect(r.lostWorkS).toBeCloseTo(1500, 9);
  });

  /**
   * Shared: machine 0 fails at 1000 and the round at 1080 queues the task; machine 1 never comes
   * up and the trace ends at 5000: nobody restarts it. Events: at 0 the round and a request (2),
   * the rounds at 120, …, 4920 (41), machine 0's departure (1), the stale milestone of its
   * instance at 3600 (1), and machine 1's availability checked at the trace's end (1): 46.
   */
  it("gives the queued task to nobody when no machine comes up", () => {
    const r = run({}, "FCFS", [machine([[0, 1000]]), machine([])], { traceEndS: 5000 });
    expect(r).toMatchObject({ censored: true, failures: 1, restarts: 0, events: 46 });
  });
});

describe("checkpoints on demand: when, and the replica they start", () => {
  /**
   * A departure at 1080 s, the instant of a round, is predicted by the round before (960 s):
   * the checkpoint on demand saves 960 s; machine 1 (up at 1100) resumes from it: done at
   * 1100 + 2640. The noisy predictor that never misses (falseNegative 0) does the same.
   */
  it("counts a failure at the next round's instant as coming before it", () => {
    for (const over of [{}, { predictor: "noisy-oracle", falsePositive: 0, falseNegative: 0 } as const]) {
      const r = run(over, "FCFS-PRDCT-DMD", [machine([[0, 1080]]), machine([[1100, END]])]);
      expect(r.onDemandCheckpoints).toBe(1);
      expect(r.turnaroundS).toBeCloseTo(1100 + 2640, 9);
      expect(r.lostWorkS).toBeCloseTo(1080 - 960.08, 9);
    }
  });

  /**
   * Two tasks: machine 0 (ratio 1, up 0–1000 s) runs task 0, machine 1 (ratio 0.5) task 1;
   * machine 2 (ratio 2) comes up at 960, the round's instant, and is free at that round: the
   * round checkpoints task 0 on demand (960 of 3600 s done) and replicates it on machine 2 from
   * that checkpoint: 2640 / 2 = 1320 s, done at 2280. Machine 2 then replicates task 1 from
   * scratch: 1800 s, done at 4080. Had machine 2 waited for its own request, it would have
   * replicated task 1 (estimated to end last) and task 0 would have been restarted from the
   * queue: one restart.
   */
  it("replicates the predicted task, from its checkpoint, on a free machine", () => {
    const r = run({ tasks: 2 }, "FCFS-PRDCT-DMD", [machine([[0, 1000]]), always(), machine([[960, END]])], { ratios: [1, 0.5, 2] });
    expect(r.turnaroundS).toBeCloseTo(4080, 9);
    expect(r).toMatchObject({ onDemandCheckpoints: 1, replicas: 2, restarts: 0, failures: 1 });
  });
});

describe("a measured server's writes and the machines' other events", () => {
  /**
   * Nine checkpoints of 10 MB at 2 MB/s (5 s each) on machine 0 (up 0–2000 s): checkpoint k is
   * reached at 360 k + 5 (k − 1) s; the fifth is written by 1825, the sixth not reached. The
   * round at 2040 queues the task, machine 1 comes up at 2500 and resumes at 50 %: 1800 s and
   * four writes, done at 2500 + 1820. Lost: 2000 − 1825 s. Nine writes, all completed.
   */
  it("keeps the other machines' events while it schedules its own", () => {
    const r = run({ checkpoints: 9, checkpointMb: 10 }, "FCFS", [machine([[0, 2000]]), machine([[2500, END]])], { server: FLAT_SERVER });
    expect(r.turnaroundS).toBeCloseTo(2500 + 1820, 9);
    expect(r).toMatchObject({ checkpoints: 9, failures: 1, restarts: 1 });
    expect(r.lostWorkS).toBeCloseTo(2000 - 1825, 9);
    expect(r.server).toMatchObject({ transfers: 9, completed: 9 });
  });

  /** Started at 7200 s: the run lasts 3605 s (the task and its 5 s write), the server's share is of those. */
  it("counts the run's length from its start", () => {
    const r = run({ checkpoints: 1, checkpointMb: 10 }, "FCFS", [always()], { server: FLAT_SERVER, startS: 7200 });
    expect(r.turnaroundS).toBeCloseTo(3605, 9);
    expect(r.server!.runS).toBeCloseTo(3605, 9);
  });
});

describe("the machines a trace gives: which nodes, and what the refusals say", () => {
  /** 32 nodes observed throughout 8 days are the set itself, in the trace's order (nothing to choose). */
  it("takes all the nodes, in order, when there are just enough", async () => {
    const trace = ftaTrace("32.tab", 32, () => [[0, 8 * DAY]]);
    const loaded = await loadDas06Trace(validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", startTimes: [0], minTraceLeftDays: 0 }));
    expect(loaded.identity.synthetic ? [] : loaded.identity.nodes).toEqual(Array.from({ length: 32 }, (_, i) => String(i)));
  });

  /**
   * Node 0 is recorded only until day 6 of the trace, which starts half a day after the epoch
   * (times 43 200 s on): over the whole 8 days 31 nodes are observed throughout; the only
   * 8-day window has 31 too. From day 1 (windowDays [1, 8]) the same.
   */
  it("leaves out a node recorded for less than the window", async () => {
    const half = DAY / 2;
    const trace = ftaTrace("early-end.tab", 32, (node) => [[half, half + (node === 0 ? 6 : 8) * DAY]], () => half, (node) => half + (node === 0 ? 6 : 8) * DAY);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", startTimes: [DAY], minTraceLeftDays: 0 });
    await expect(loadDas06Trace(s)).rejects.toThrow(`${trace}: 31 of its 32 nodes are observed throughout days 0.0–8.0 of the trace; the machine set needs 32. No 8-day window has enough (at most 31): use a trace with more nodes`);
    await expect(loadDas06Trace({ ...s, windowDays: [1, 8] })).rejects.toThrow(`${trace}: 31 of its 32 nodes are observed throughout days 1.0–8.0 of the trace`);
  });

  /** The 40-day case with 32 nodes (node 0 all along, 31 from day 1): days 1–40 have exactly the 32 needed, and are named. */
  it("names a window with just enough nodes", async () => {
    const trace = ftaTrace("late-32.tab", 32, (node) => (node === 0 ? [[0, 40 * DAY]] : [[DAY, 40 * DAY]]), (node) => (node === 0 ? 0 : DAY), () => 40 * DAY);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", startTimes: [DAY], minTraceLeftDays: 0 });
    await expect(loadDas06Trace(s)).rejects.toThrow("of the 39-day windows, --window-days 1,40 has the most (32)");
  });

  /**
   * A 41-day trace: node 0 recorded all along, nodes 1–32 from day 1 to 41. The 39-day windows
   * from day 1 and day 2 both have 33 nodes: the first is named. With nodes 1–32 recorded from
   * day 0 to 20 instead (a 40-day trace), no 39-day window has more than node 0.
   */
  it("names the first of the busiest windows, counting only nodes observed to its end", async () => {
    const tied = ftaTrace("tied.tab", 33, (node) => (node === 0 ? [[0, 41 * DAY]] : [[DAY, 41 * DAY]]), (node) => (node === 0 ? 0 : DAY), () => 41 * DAY);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace: tied, machineSet: "M01", startTimes: [DAY], minTraceLeftDays: 0 });
    await expect(loadDas06Trace(s)).rejects.toThrow("of the 39-day windows, --window-days 1,40 has the most (33)");
    const early = ftaTrace("early-nodes.tab", 33, (node) => (node === 0 ? [[0, 40 * DAY]] : [[0, 20 * DAY]]), () => 0, (node) => (node === 0 ? 40 : 20) * DAY);
    await expect(loadDas06Trace({ ...s, trace: early })).rejects.toThrow("No 39-day window has enough (at most 1): use a trace with more nodes");
  });

  /** A line the reader rejects is said in the loaded trace's warnings and in the report's. */
  it("passes on the reader's warnings", async () => {
    const trace = ftaTrace("bad-line.tab", 32, () => [[0, 8 * DAY]]);
    writeFileSync(trace, `${readFileSync(trace, "utf8")}not a line of the format\n`);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, startTimes: [0], minTraceLeftDays: 0, policies: ["FCFS"] });
    const loaded = await loadDas06Trace(s);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(new RegExp(`^1 of the \\d+ lines of ${trace.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} were rejected`));
    expect((await simulateDas06(s)).warnings).toEqual(loaded.warnings);
  });

  /** The synthetic trace: a set of 32 from 40 machines keeps 32; its identity names the generator and the parameters moved from the matched ones. */
  it("synthetic: the set's size, the generator and what was moved", async () => {
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), startTimes: [0], minTraceLeftDays: 0 });
    const forty = await loadDas06Trace({ ...s, synthetic: { ...s.synthetic, machines: 40 } });
    expect(forty.machines).toHaveLength(32);
    const moved = await loadDas06Trace({ ...s, synthetic: { ...s.synthetic, meanOnHours: 6, rebootsPerOnHour: 0.5 } });
    expect(moved.identity).toMatchObject({
      synthetic: true,
      generator: "das06-like",
      caption: "synthetic classroom trace with meanOnHours 6, rebootsPerOnHour 0.5 (the generator's matched values: meanOnHours 8, rebootsPerOnHour 0)",
    });
    await expect(loadDas06Trace({ ...s, windowDays: [0, 40] })).rejects.toThrow("windowDays: the synthetic trace spans 39.00 days; the window [0, 40] goes beyond it");
  });
});

describe("the simulator's report: counts, warnings and the starting points' refusal", () => {
  const M01_RATIO = 1.692; // [DAS06] Table 1, type D

  /**
   * One task of 1800 s on M01 (IET 1800 / 1.692 s), node 0 up except 4000–5000 s, FCFS-PRDCT-DMD
   * from 0 and from 3600: from 3600 the round at 3960 sees the departure at 4000 coming and
   * checkpoints on demand (no other node is ever up). The report's checkpoints count those on
   * demand with the planned ones (none): 0 and 1, mean 0.5.
   */
  it("counts checkpoints on demand with the planned ones", async () => {
    const trace = ftaTrace("demand.tab", 32, (node) => (node === 0 ? [[0, 4000], [5000, 8 * DAY]] : []));
    const report = await simulateDas06(validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, startTimes: [0, 3600], minTraceLeftDays: 0, policies: ["FCFS-PRDCT-DMD"] }));
    const p = report.policies["FCFS-PRDCT-DMD"]!;
    expect(p.checkpoints.mean).toBeCloseTo(0.5, 12);
    // From 3600: 360 s computed at 1.692, saved at 3960.08; back at 5000 the rest, (1800 − 360 · 1.692) / 1.692 s.
    expect(p.turnaroundS.mean).toBeCloseTo((1800 / M01_RATIO + (5000 - 3600 + (1800 - 360 * M01_RATIO) / M01_RATIO)) / 2, 6);
    expect(report.schema).toBe("ckpt-lab/das06-simulation@1");
    expect(report.warnings).toEqual([]);
  });

  /** A measured server with shared checkpoints but none planned: no write, the server's utilisation 0 (not 0 / 0), and no warning. */
  it("gives a server with no write a utilisation of 0", async () => {
    const trace = ftaTrace("up3.tab", 32, () => [[0, 8 * DAY]]);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, startTimes: [0], minTraceLeftDays: 0, policies: ["FCFS"], checkpointServer: { model: "paper" } });
    const report = await simulateDas06(s, undefined, { server: FLAT_SERVER });
    expect(report.policies.FCFS!.server!.utilisation.mean).toBe(0);
    expect(report.policies.FCFS!.server!.writes.mean).toBe(0);
    expect(report.warnings).toEqual([]);
  });

  /**
   * A window from day 1 to 8 with 7 days to be left after a start: only day 1 itself may start,
   * a Friday 00:00 (the trace starts at the epoch, a Thursday): no weekend hour; the refusal
   * names the window.
   */
  it("refuses a window with no starting point, naming it", async () => {
    const trace = ftaTrace("up4.tab", 32, () => [[0, 8 * DAY]]);
    const s = validateDas06Scenario({ ...structuredClone(DAS06_DEFAULTS), trace, machineSet: "M01", tasks: 1, startTimes: "weekend", minTraceLeftDays: 7, windowDays: [1, 8], policies: ["FCFS"] });
    await expect(simulateDas06(s)).rejects.toThrow("no starting point: days 1.0–8.0 of the trace leave no weekend hour with 7 days after it (minTraceLeftDays)");
  });

  it("is the model named das06", () => {
    expect(das06Model.name).toBe("das06");
    expect(das06Model.defaults).toEqual(DAS06_DEFAULTS);
  });
});
