/**
 * The [DAS06] simulator (docs/science.md §6.2): a scenario's policies on the same machines and
 * the same availability, from every starting point of the scenario, summarised per policy
 * by the mean turnaround and slowdown (turnaround / IET) with 95 % intervals; censored runs
 * (the trace ended first) are counted, never dropped silently. Also the model the sweeps run.
 *
 * The trace is an FTA table or a Godfrey .avt file or, when none is given, the labelled
 * synthetic classroom trace (classroom-trace.ts): every report made from the latter says
 * `synthetic: true`. A trace with more machines than the set maps a seeded, recorded choice
 * of the nodes observed throughout the window onto it.
 *
 * A measured checkpoint server (`checkpointServer`, docs/science.md §6.6) is loaded once, named
 * in the report (file and hash), and reported per policy: its utilisation, the time writes
 * waited for it, the writes that took it outside its fitted domain.
 */
import { meanWithCi, withCi95, type MeanWithCi95 as MeanWithCi } from "../../stats/mean-confidence-interval";
import { InputError } from "../../shared/errors";
import { createRandomStreams } from "../engine/random-streams";
import type { SimulationResult, SimulatorModel } from "../simulator";
import { rejectedLinesWarnings, requireNodes, type AvailabilityTrace, type NodeAvailability } from "../traces/availability-trace";
import { readAvailabilityTrace } from "../traces/read-availability-trace";
import { loadMeasuredServer, measuredServerIdentity, type MeasuredServer, type MeasuredServerIdentity } from "../server/measured-server";
import { generateClassroomTrace } from "./classroom-trace";
import { runDas06, type Das06RunResult } from "./das06-run";
import { classroomOptionsOf, DAS06_DEFAULTS, validateDas06Scenario, type Das06Policy, type Das06Scenario } from "./das06-scenario";
import { idealExecutionTime, machineRatios } from "./machines";

const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

export interface Das06PolicySummary {
  turnaroundS: MeanWithCi;
  slowdown: MeanWithCi;
  runs: number;
  censored: number;
  failures: MeanWithCi;
  restarts: MeanWithCi;
  replicas: MeanWithCi;
  checkpoints: MeanWithCi;
  /** With a measured server only: per run, the writes, those outside the model's domain, the server's busy share and utilisation, the time writes waited (s). */
  server?: { writes: MeanWithCi; writesOutsideDomain: MeanWithCi; busyFraction: MeanWithCi; utilisation: MeanWithCi; waitS: MeanWithCi };
}

export interface Das06Report {
  schema: "ckpt-lab/das06-simulation@1";
  scenario: Das06Scenario;
  /** The trace: a file with its hash, or the synthetic classroom trace (labelled). */
  trace: { synthetic: true; generator: "das06-like"; caption: string; seed: number } | { synthetic: false; file: string; sha256: string; nodes: string[] };
  ietS: number;
  startTimesS: number[];
  /** The measured checkpoint server, when the scenario gives one (used by shared checkpoints). */
  checkpointServer?: MeasuredServerIdentity;
  policies: Record<string, Das06PolicySummary>;
  events: number;
  warnings: string[];
}

export interface LoadedTrace {
  machines: NodeAvailability[];
  /** The part of the trace the runs use, s from its start: starting points inside it, runs censored at its end. */
  fromS: number;
  endS: number;
  /** Seconds from the trace's start to a Monday 00:00. */
  mondayOffsetS: number;
  identity: Das06Report["trace"];
  warnings: string[];
}

/** 1970-01-01 was a Thursday: Monday 00:00 UTC is 4 days after the epoch, modulo a week. */
const mondayAfter = (epochS: number) => (((4 * DAY - epochS) % WEEK) + WEEK) % WEEK;

/** The synthetic trace's caption: matched to the paper's statistics, or which of the generator's parameters were moved from there. */
function syntheticCaption(synthetic: Das06Scenario["synthetic"]): string {
  const defaults = DAS06_DEFAULTS.synthetic;
  const moved = (["meanOnHours", "meanAvailability", "rebootsPerOnHour"] as const).filter((key) => synthetic[key] !== defaults[key]);
  return moved.length === 0
    ? "synthetic trace matched to [DAS06] §3.1 statistics"
    : `synthetic classroom trace with ${moved.map((key) => `${key} ${synthetic[key]}`).join(", ")} (the generator's matched values: ${moved.map((key) => `${key} ${Number(defaults[key].toFixed(6))}`).join(", ")})`;
}

/** The scenario's availability, as 32 (or `synthetic.machines`) machines in seconds from the trace's start. */
export async function loadDas06Trace(s: Das06Scenario, machineCount = 32): Promise<LoadedTrace> {
  if (s.trace === null) {
    const trace = generateClassroomTrace(classroomOptionsOf(s.synthetic));
    const machines = trace.machines.map((m, i) => ({ key: String(i), starts: Float64Array.from(m.starts), ends: Float64Array.from(m.ends), observedFromS: 0, observedToS: trace.spanS }));
    const [fromS, endS] = windowOf(s, trace.spanS, "the synthetic trace");
    return {
      machines: machines.slice(0, machineCount),
      fromS,
      endS,
      mondayOffsetS: s.mondayOffsetS ?? 0,
      identity: { synthetic: true, generator: "das06-like", caption: syntheticCaption(s.synthetic), seed: s.synthetic.seed },
      warnings: machines.length < machineCount ? [`the synthetic trace has ${machines.length} machines for a set of ${machineCount}`] : [],
    };
  }
  const trace = await readAvailabilityTrace(s.trace);
  const [fromS, endS] = windowOf(s, trace.endS - trace.startS, s.trace);
  // A machine of the set must be observed throughout the window: outside its observed span a
  // node is neither up nor down (e.g. not yet installed), and counting it down would turn
  // years of absence into turnaround.
  const observed = trace.nodes.flatMap((node, i) => (node.observedFromS <= trace.startS + fromS && node.observedToS >= trace.startS + endS ? [i] : []));
  requireNodes(trace, machineCount, "the machine set");
  if (observed.length < machineCount) {
    const best = busiestWindow(trace, Math.min(39, (trace.endS - trace.startS) / DAY));
    throw new InputError(
      `${s.trace}: ${observed.length} of its ${trace.nodes.length} nodes are observed throughout days ${(fromS / DAY).toFixed(1)}–${(endS / DAY).toFixed(1)} of the trace; ` +
        `the machine set needs ${machineCount}. ` +
        (best.nodes >= machineCount
          ? `Choose a window where enough are: of the ${best.days}-day windows, --window-days ${best.fromDay},${best.fromDay + best.days} has the most (${best.nodes})`
          : `No ${best.days}-day window has enough (at most ${best.nodes}): use a trace with more nodes`),
    );
  }
  let chosen = observed;
  if (observed.length > machineCount) {
    const random = createRandomStreams(s.seed).stream("trace machines");
    chosen = [...observed];
    for (let i = chosen.length - 1; i > 0; i--) {
      const j = Math.floor(random.next() * (i + 1));
      [chosen[i], chosen[j]] = [chosen[j]!, chosen[i]!];
    }
    chosen = chosen.slice(0, machineCount);
  }
  const machines = chosen.map((i) => {
    const node = trace.nodes[i]!;
    return { key: node.key, starts: node.starts.map((t) => t - trace.startS), ends: node.ends.map((t) => t - trace.startS), observedFromS: fromS, observedToS: endS };
  });
  return {
    machines,
    fromS,
    endS,
    mondayOffsetS: s.mondayOffsetS ?? mondayAfter(trace.startS),
    identity: { synthetic: false, file: s.trace, sha256: trace.sha256, nodes: machines.map((m) => m.key) },
    warnings: [...trace.warnings, ...rejectedLinesWarnings(trace)],
  };
}

/** The whole-day window of `days` (the paper's trace length, 39) with the most nodes observed throughout it. */
function busiestWindow(trace: AvailabilityTrace, wanted: number): { fromDay: number; days: number; nodes: number } {
  const days = Math.max(1, Math.floor(wanted));
  let best = { fromDay: 0, days, nodes: 0 };
  for (let fromDay = 0; (fromDay + days) * DAY <= trace.endS - trace.startS; fromDay++) {
    const [from, to] = [trace.startS + fromDay * DAY, trace.startS + (fromDay + days) * DAY];
    let nodes = 0;
    for (const node of trace.nodes) if (node.observedFromS <= from && node.observedToS >= to) nodes++;
    if (nodes > best.nodes) best = { fromDay, days, nodes };
  }
  return best;
}

function windowOf(s: Das06Scenario, spanS: number, what: string): [number, number] {
  if (s.windowDays === null) return [0, spanS];
  const [from, to] = [s.windowDays[0] * DAY, s.windowDays[1] * DAY];
  if (to > spanS) throw new InputError(`windowDays: ${what} spans ${(spanS / DAY).toFixed(2)} days; the window [${s.windowDays.join(", ")}] goes beyond it`);
  return [from, to];
}

/**
 * The starting points (docs/science.md §6.2.7): whole hours of the weekday (Mon 08:00 → Fri
 * 21:00) or weekend (Sat 21:00 → Sun 21:00) window inside [fromS, endS], leaving
 * minTraceLeftDays before endS.
 */
export function startTimes(s: Das06Scenario, fromS: number, endS: number, mondayOffsetS: number): number[] {
  if (Array.isArray(s.startTimes)) return s.startTimes;
  const last = endS - s.minTraceLeftDays * DAY;
  const out: number[] = [];
  for (let t = Math.ceil(fromS / HOUR) * HOUR; t <= last; t += HOUR) {
    const inWeek = (((t - mondayOffsetS) % WEEK) + WEEK) % WEEK;
    const window = s.startTimes === "weekday" ? [8 * HOUR, 4 * DAY + 21 * HOUR] : [5 * DAY + 21 * HOUR, 6 * DAY + 21 * HOUR];
    if (inWeek >= window[0]! && inWeek <= window[1]!) out.push(t);
  }
  return out;
}

/**
 * `progress` hears every tenth of the starting points: a long trace has thousands of them.
 * `loaded.server`: a measured server the caller already holds, in place of loading the
 * scenario's `checkpointServer.model`.
 */
export async function simulateDas06(input: Das06Scenario, progress?: (message: string) => void, loaded?: { server?: MeasuredServer }): Promise<Das06Report> {
  const s = validateDas06Scenario({ ...input });
  const ratios = machineRatios(s.machineSet, 32, s.ratios);
  const trace = await loadDas06Trace(s, ratios.length);
  const starts = startTimes(s, trace.fromS, trace.endS, trace.mondayOffsetS);
  if (starts.length === 0) {
    throw new InputError(
      `no starting point: days ${(trace.fromS / DAY).toFixed(1)}–${(trace.endS / DAY).toFixed(1)} of the trace leave no ${s.startTimes} hour with ${s.minTraceLeftDays} days after it (minTraceLeftDays)`,
    );
  }
  const ietS = idealExecutionTime(ratios, s.tasks, s.taskCpuS);
  const server = s.checkpointServer === null ? null : (loaded?.server ?? loadMeasuredServer(s.checkpointServer));
  const streams = createRandomStreams(s.seed);
  const runs = new Map<Das06Policy, Das06RunResult[]>(s.policies.map((p) => [p, []]));
  let events = 0;
  starts.forEach((startS, index) => {
    // One request order per starting point, the same for every policy.
    const order = streams.stream("request order", index);
    const permutation = Int32Array.from({ length: ratios.length }, (_, i) => i);
    for (let i = permutation.length - 1; i > 0; i--) {
      const j = Math.floor(order.next() * (i + 1));
      [permutation[i], permutation[j]] = [permutation[j]!, permutation[i]!];
    }
    const requestRank = new Int32Array(ratios.length);
    permutation.forEach((machine, rank) => (requestRank[machine] = rank));
    for (const policy of s.policies) {
      const run = runDas06({
        scenario: s,
        policy,
        machines: trace.machines,
        traceEndS: trace.endS,
        ratios,
        startS,
        requestRank,
        predictorRandom: createRandomStreams(s.seed).stream("predictor", index),
        mondayOffsetS: trace.mondayOffsetS,
        server,
      });
      events += run.events;
      runs.get(policy)!.push(run);
    }
    const tenth = Math.ceil(starts.length / 10);
    if (progress && ((index + 1) % tenth === 0 || index + 1 === starts.length)) progress(`${index + 1} of ${starts.length} starting points, ${s.policies.length} policies each`);
  });
  const policies: Record<string, Das06PolicySummary> = {};
  for (const [policy, list] of runs) {
    const finished = list.filter((r) => r.turnaroundS !== null);
    const stat = (values: number[]) => withCi95(meanWithCi(values));
    policies[policy] = {
      turnaroundS: stat(finished.map((r) => r.turnaroundS!)),
      slowdown: stat(finished.map((r) => r.turnaroundS! / ietS)),
      runs: list.length,
      censored: list.length - finished.length,
      failures: stat(list.map((r) => r.failures)),
      restarts: stat(list.map((r) => r.restarts)),
      replicas: stat(list.map((r) => r.replicas)),
      checkpoints: stat(list.map((r) => r.checkpoints + r.onDemandCheckpoints)),
      ...(server !== null && s.checkpointStore === "shared"
        ? {
            server: {
              writes: stat(list.map((r) => r.server!.transfers)),
              writesOutsideDomain: stat(list.map((r) => r.server!.transfersOutsideDomain)),
              busyFraction: stat(list.map((r) => (r.server!.runS > 0 ? r.server!.busyS / r.server!.runS : 0))),
              utilisation: stat(list.map((r) => (r.server!.capacityMb > 0 ? r.server!.deliveredMb / r.server!.capacityMb : 0))),
              waitS: stat(list.map((r) => r.server!.waitS)),
            },
          }
        : {}),
    };
  }
  const warnings = [...trace.warnings];
  if (server !== null && s.checkpointStore === "private") warnings.push(`checkpointServer ${server.file} is not used: private checkpoints stay on their machine (checkpointStore "private")`);
  for (const [policy, summary] of Object.entries(policies)) {
    if (summary.censored > 0) warnings.push(`${policy}: ${summary.censored} of ${summary.runs} runs had not finished when the trace ended (censored, left out of the means)`);
  }
  return {
    schema: "ckpt-lab/das06-simulation@1",
    scenario: s,
    trace: trace.identity,
    ietS,
    startTimesS: starts,
    ...(server !== null ? { checkpointServer: measuredServerIdentity(server) } : {}),
    policies,
    events,
    warnings,
  };
}

/** The model the sweeps run: every starting point of the scenario per (parameters, seed). */
export const das06Model: SimulatorModel = {
  name: "das06",
  defaults: DAS06_DEFAULTS as unknown as Record<string, unknown>,
  module: __filename,
  validate(parameters) {
    validateDas06Scenario({ ...parameters });
  },
  inputFiles(parameters) {
    const s = parameters as Partial<Das06Scenario>;
    const model = s.checkpointServer?.model;
    return [...(typeof model === "string" && model !== "paper" ? [model] : []), ...(typeof s.trace === "string" ? [s.trace] : [])];
  },
  async run(parameters, seed, progress): Promise<SimulationResult> {
    const report = await simulateDas06({ ...(parameters as unknown as Das06Scenario), seed }, progress);
    const policies: Record<string, Record<string, number>> = {};
    for (const [policy, p] of Object.entries(report.policies)) {
      policies[policy] = {
        slowdown: p.slowdown.mean,
        // The 95 % interval over the starting points (the merge's own intervals are over seeds).
        slowdownLow: p.slowdown.low ?? p.slowdown.mean,
        slowdownHigh: p.slowdown.high ?? p.slowdown.mean,
        turnaroundMin: p.turnaroundS.mean / 60,
        censored: p.censored,
        runs: p.runs,
        restarts: p.restarts.mean,
        replicas: p.replicas.mean,
        checkpoints: p.checkpoints.mean,
        ...(p.server
          ? {
              serverWrites: p.server.writes.mean,
              serverWritesOutsideDomain: p.server.writesOutsideDomain.mean,
              serverBusyFraction: p.server.busyFraction.mean,
              serverUtilisation: p.server.utilisation.mean,
              serverWaitS: p.server.waitS.mean,
            }
          : {}),
      };
    }
    // `syntheticTrace` 1 labels every table made from the synthetic classroom trace (merged.csv included).
    const metrics = { ietMin: report.ietS / 60, startingPoints: report.startTimesS.length, events: report.events, syntheticTrace: report.trace.synthetic ? 1 : 0 };
    return { metrics, policies, events: report.events };
  },
};
