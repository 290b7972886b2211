/**
 * The [BKT] simulator (docs/science.md §6.1): a scenario's policies on the same platform,
 * replication after replication (seed, seed + 1, …), each policy run on common random
 * numbers (the same clients, jobs and availability histories), summarised per policy with
 * 95 % intervals and paired differences to the first policy. Also the model the sweeps run
 * (`ckpt simulate sweep` with `"simulator": "bkt"`).
 *
 * Users' policy modules (`policyModules`, docs/science.md §6.7) run after the built-in
 * policies, each in a worker of its own for the whole simulation, on the same common random
 * numbers; a measured server (`server.model`, §6.6) is loaded once and named in the report.
 */
import { createLaw } from "../../place/laws/create-law";
import type { FailureLaw } from "../../place/laws/failure-law";
import { meanWithCi, withCi95, type MeanWithCi95 as MeanWithCi } from "../../stats/mean-confidence-interval";
import { InputError } from "../../shared/errors";
import { createRandomStreams } from "../engine/random-streams";
import type { SimulationResult, SimulatorModel } from "../simulator";
import { rejectedLinesWarnings, requireNodes, type AvailabilityTrace } from "../traces/availability-trace";
import { readAvailabilityTrace } from "../traces/read-availability-trace";
import { loadMeasuredServer, measuredServerIdentity, type MeasuredServer, type MeasuredServerIdentity } from "../server/measured-server";
import { drawPlatform } from "./bkt-platform";
import { runBkt, type BktRunResult } from "./bkt-run";
import { BKT_PAPER_PRESET, BKT_POLICIES, bktLaw, isMeasuredServer, validateBktScenario, type BktScenario } from "./bkt-scenario";
import { loadPolicyModule, type LoadedPolicyModule } from "./policy-module";

export interface BktPolicySummary {
  makespanH: MeanWithCi;
  /** (Checkpoint overhead + lost computation) / clients, h: [BKT] Figs 1(b)–3(b). */
  averageWasteH: MeanWithCi;
  checkpointOverheadH: MeanWithCi;
  lostComputationH: MeanWithCi;
  connectionWaitH: MeanWithCi;
  duplicateWorkH: MeanWithCi;
  checkpointsTaken: MeanWithCi;
  /** Of the slice boundaries copies reached with slices left, the share their plans checkpointed. */
  checkpointShare: MeanWithCi;
  checkpointsAccepted: MeanWithCi;
  copies: MeanWithCi;
  /** Transient failures (ends of availability intervals) and departures, per run. */
  failures: { transient: MeanWithCi; permanent: MeanWithCi };
  /** What crossed the server's link: uploads (checkpoints and results) and restart downloads, Mbit. */
  uploadedMbit: MeanWithCi;
  downloadedMbit: MeanWithCi;
  sentMbit: MeanWithCi;
  /** Events the engine handled per run (their rate, which depends on the machine, is in the command's `timing`). */
  events: MeanWithCi;
  /** DP solves and plans reused from the cache per run (the DP policies; 0 for the others). */
  dpCalls: MeanWithCi;
  dpCacheHits: MeanWithCi;
  unfinishedRuns: number;
  /** With a measured server only (docs/science.md §6.6). */
  server?: ServerSummary;
}

/** What a measured server did under one policy, per run. */
export interface ServerSummary {
  transfers: MeanWithCi;
  /** Transfers in progress while the model was evaluated outside its fitted domain. */
  transfersOutsideDomain: MeanWithCi;
  /** Share of the run during which the server had a transfer in progress. */
  busyFraction: MeanWithCi;
  /** Share of the model's bandwidth the transfers used while it was busy. */
  utilisation: MeanWithCi;
  /** Time transfers spent slowed down by the server (beyond size / their own link), h. */
  waitH: MeanWithCi;
  maxConcurrent: MeanWithCi;
}

export interface BktReport {
  schema: "ckpt-lab/bkt-simulation@1";
  scenario: BktScenario;
  seeds: number[];
  /** The availability trace used, when the scenario names one: its identity, where t = 0 is in it, and the nodes observed there. */
  trace: { file: string; sha256: string; nodes: number; startDays: number; nodesObservedAtStart: number } | null;
  policyLaw: string;
  /** The measured server, when the scenario gives one: the model's file, hash, form, domain and the two choices. */
  server?: MeasuredServerIdentity;
  /** Users' policy modules, when the scenario gives some: the file, its hash and the policy's name. */
  policyModules?: { file: string; sha256: string; name: string }[];
  policies: Record<string, BktPolicySummary>;
  /** Per policy other than the first: its makespan minus the first policy's, paired by seed. */
  pairedMakespanDifferenceH: Record<string, MeanWithCi>;
  runs: (BktRunResult & { seed: number })[];
  events: number;
  warnings: string[];
}

const H = 3600;
const DAY = 86400;

/** The nodes observed at instant t (from their first recorded interval to their last). */
function observedAt(trace: AvailabilityTrace, t: number): number[] {
  return trace.nodes.flatMap((node, i) => (node.observedFromS <= t && t < node.observedToS ? [i] : []));
}

/** The whole day of the trace at which the most nodes are observed (a sweep over the sorted observation bounds). */
function busiestDay(trace: AvailabilityTrace): { day: number; nodes: number } {
  const from = Float64Array.from(trace.nodes, (n) => n.observedFromS).sort();
  const to = Float64Array.from(trace.nodes, (n) => n.observedToS).sort();
  let best = { day: 0, nodes: 0 };
  for (let day = 0, started = 0, ended = 0; day * DAY < trace.endS - trace.startS; day++) {
    const t = trace.startS + day * DAY;
    while (started < from.length && from[started]! <= t) started++;
    while (ended < to.length && to[ended]! <= t) ended++;
    if (started - ended > best.nodes) best = { day, nodes: started - ended };
  }
  return best;
}

/** Which trace node each client follows: a seeded permutation of the nodes observed at t = 0, reused cyclically when clients outnumber them. */
function nodeOfClients(observed: number[], clients: number, seed: number): Int32Array {
  const random = createRandomStreams(seed).stream("trace nodes");
  const order = Int32Array.from(observed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return Int32Array.from({ length: clients }, (_, c) => order[c % order.length]!);
}

/** The policies' failure law: the availability law, or the trace's available intervals as an empirical law. */
function policyLawOf(scenario: BktScenario, trace: AvailabilityTrace | null): FailureLaw {
  if (trace === null) return bktLaw(scenario.availability, "availability");
  const durationsSeconds: number[] = [];
  for (const node of trace.nodes) for (let i = 0; i < node.starts.length; i++) durationsSeconds.push(node.ends[i]! - node.starts[i]!);
  return createLaw({ kind: "empirical", durationsSeconds, source: trace.source });
}

/** Where a run stands, for a progress bar: runs done of all, and the running one's jobs done. */
export interface BktProgress {
  run: number;
  runs: number;
  seed: number;
  policy: string;
  completedJobs: number;
  jobs: number;
  timeH: number;
  events: number;
}

/** Wall-clock time of each run, told to the caller apart from the report (which must not depend on the machine). */
export type BktRunTimer = (policy: string, seed: number, seconds: number, events: number) => void;

/**
 * @param loaded a measured server the caller already holds (the pipeline's fitted model, an
 *   artifact): used in place of loading the scenario's `server.model`
 */
export async function simulateBkt(input: BktScenario, progress?: (state: BktProgress) => void, timer?: BktRunTimer, loaded?: { server?: MeasuredServer }): Promise<BktReport> {
  const scenario = validateBktScenario({ ...input });
  const trace = scenario.trace === null ? null : await readAvailabilityTrace(scenario.trace);
  const warnings: string[] = [];
  let observed: number[] = [];
  let originS = 0;
  if (trace !== null) {
    requireNodes(trace, 1, "a [BKT] run");
    originS = trace.startS + scenario.traceStartDays * DAY;
    if (originS >= trace.endS) throw new InputError(`traceStartDays: ${scenario.trace} spans ${((trace.endS - trace.startS) / DAY).toFixed(1)} days; start inside it (traceStartDays < that)`);
    observed = observedAt(trace, originS);
    const best = busiestDay(trace);
    const hint = best.nodes > observed.length ? `; the most are observed at day ${best.day} (${best.nodes} nodes): --trace-start-days ${best.day}` : "";
    if (observed.length === 0) throw new InputError(`${scenario.trace}: no node is observed at day ${scenario.traceStartDays} of the trace (traceStartDays)${hint}`);
    if (observed.length < scenario.clients) warnings.push(`${observed.length} nodes of the trace are observed at day ${scenario.traceStartDays} for ${scenario.clients} clients: nodes are reused cyclically (a seeded permutation)${hint}`);
    warnings.push(...rejectedLinesWarnings(trace), ...trace.warnings);
  }
  const law = policyLawOf(scenario, trace);
  const server = isMeasuredServer(scenario.server) ? (loaded?.server ?? loadMeasuredServer(scenario.server)) : null;
  const modules: LoadedPolicyModule[] = [];
  const runs: (BktRunResult & { seed: number })[] = [];
  const seeds = Array.from({ length: scenario.replications }, (_, r) => scenario.seed + r);
  try {
    for (const file of scenario.policyModules) {
      modules.push(await loadPolicyModule(file, law.spec, scenario.slicesPerJob[1], scenario.policyTimeLimitS, [...BKT_POLICIES, ...modules.map((m) => m.policy.name)]));
    }
    const policyRuns = [
      ...scenario.policies.map((policy) => ({ name: policy as string, policy, label: undefined })),
      ...modules.map((m) => ({ name: m.policy.name, policy: m.policy, label: `policy module ${m.identity.file} ("${m.policy.name}")` })),
    ];
    const total = seeds.length * policyRuns.length;
    for (const seed of seeds) {
      const platform = drawPlatform(scenario, createRandomStreams(seed));
      const mapping = trace === null ? null : { trace, originS, nodeOfClient: nodeOfClients(observed, scenario.clients, seed) };
      for (const { name, policy, label } of policyRuns) {
        const index = runs.length;
        const tell = progress && ((completedJobs: number, timeS: number, events: number) => progress({ run: index, runs: total, seed, policy: name, completedJobs, jobs: scenario.jobs, timeH: timeS / H, events }));
        tell?.(0, 0, 0);
        const started = performance.now();
        // A fresh set of streams per run: every policy sees the same availability draws.
        const run = runBkt({ scenario, platform, streams: createRandomStreams(seed), policy, ...(label ? { policyLabel: label } : {}), server, trace: mapping, policyLaw: law, ...(tell ? { progress: tell } : {}) });
        timer?.(name, seed, (performance.now() - started) / 1000, run.events);
        runs.push({ ...run, seed });
        if (run.makespanS === null) warnings.push(`seed ${seed}, ${name}: ${run.unfinishedJobs} job(s) unfinished at ${(run.endS / H).toFixed(1)} h (horizon ${scenario.horizonHours} h, or every client departed)`);
      }
    }
    if (progress) progress({ run: total, runs: total, seed: seeds[seeds.length - 1]!, policy: policyRuns[policyRuns.length - 1]!.name, completedJobs: scenario.jobs, jobs: scenario.jobs, timeH: 0, events: 0 });
  } finally {
    await Promise.all(modules.map((m) => m.close()));
  }
  const policyNames = [...scenario.policies, ...modules.map((m) => m.policy.name)];
  const policies: Record<string, BktPolicySummary> = {};
  for (const policy of policyNames) {
    const mine = runs.filter((r) => r.policy === policy);
    const stat = (pick: (r: BktRunResult) => number) => withCi95(meanWithCi(mine.map(pick)));
    policies[policy] = {
      makespanH: withCi95(meanWithCi(mine.filter((r) => r.makespanS !== null).map((r) => r.makespanS! / H))),
      averageWasteH: stat((r) => (r.checkpointOverheadS + r.lostComputationS) / scenario.clients / H),
      checkpointOverheadH: stat((r) => r.checkpointOverheadS / H),
      lostComputationH: stat((r) => r.lostComputationS / H),
      connectionWaitH: stat((r) => r.connectionWaitS / H),
      duplicateWorkH: stat((r) => r.duplicateWorkS / H),
      checkpointsTaken: stat((r) => r.checkpointsTaken),
      checkpointShare: stat(checkpointShare),
      checkpointsAccepted: stat((r) => r.checkpointsAccepted),
      copies: stat((r) => r.copies),
      failures: { transient: stat((r) => r.failuresTransient), permanent: stat((r) => r.failuresPermanent) },
      uploadedMbit: stat((r) => r.uploadedMbit),
      downloadedMbit: stat((r) => r.downloadedMbit),
      sentMbit: stat((r) => r.uploadedMbit + r.downloadedMbit),
      events: stat((r) => r.events),
      dpCalls: stat((r) => r.dpCalls),
      dpCacheHits: stat((r) => r.dpCacheHits),
      unfinishedRuns: mine.filter((r) => r.makespanS === null).length,
      ...(server !== null ? { server: serverSummary(mine) } : {}),
    };
  }
  const [first, ...others] = policyNames;
  const pairedMakespanDifferenceH: Record<string, MeanWithCi> = {};
  for (const policy of others) {
    const differences = seeds.flatMap((seed) => {
      const a = runs.find((r) => r.seed === seed && r.policy === policy)?.makespanS;
      const b = runs.find((r) => r.seed === seed && r.policy === first)?.makespanS;
      return a != null && b != null ? [(a - b) / H] : [];
    });
    pairedMakespanDifferenceH[`${policy} − ${first}`] = withCi95(meanWithCi(differences));
  }
  return {
    schema: "ckpt-lab/bkt-simulation@1",
    scenario,
    seeds,
    trace: trace === null ? null : { file: trace.source, sha256: trace.sha256, nodes: trace.nodes.length, startDays: scenario.traceStartDays, nodesObservedAtStart: observed.length },
    policyLaw: law.description,
    ...(server !== null ? { server: measuredServerIdentity(server) } : {}),
    ...(modules.length > 0 ? { policyModules: modules.map((m) => m.identity) } : {}),
    policies,
    pairedMakespanDifferenceH,
    runs,
    events: runs.reduce((s, r) => s + r.events, 0),
    warnings,
  };
}

/** Checkpoints the plans asked for per slice boundary reached (0 when no copy reached one). */
function checkpointShare(run: BktRunResult): number {
  return run.sliceBoundaries === 0 ? 0 : run.checkpointDecisions / run.sliceBoundaries;
}

function serverSummary(runs: BktRunResult[]): ServerSummary {
  const stat = (pick: (r: BktRunResult, s: NonNullable<BktRunResult["server"]>) => number) => withCi95(meanWithCi(runs.map((r) => pick(r, r.server!))));
  return {
    transfers: stat((_, s) => s.transfers),
    transfersOutsideDomain: stat((_, s) => s.transfersOutsideDomain),
    busyFraction: stat((r, s) => (r.endS > 0 ? s.busyS / r.endS : 0)),
    utilisation: stat((_, s) => (s.capacityMb > 0 ? s.deliveredMb / s.capacityMb : 0)),
    waitH: stat((_, s) => s.waitS / H),
    maxConcurrent: stat((_, s) => s.maxConcurrent),
  };
}

/** The files a scenario reads (a measured server's model, policy modules, a trace): a sweep's cells record their hashes. */
export function bktInputFiles(parameters: Record<string, unknown>): string[] {
  const s = parameters as Partial<BktScenario>;
  const server = s.server as { model?: unknown } | undefined;
  return [
    ...(typeof server?.model === "string" && server.model !== "paper" ? [server.model] : []),
    ...(Array.isArray(s.policyModules) ? s.policyModules : []),
    ...(typeof s.trace === "string" ? [s.trace] : []),
  ];
}

/** The model the sweeps run: one replication of the scenario per (parameters, seed). */
export const bktModel: SimulatorModel = {
  name: "bkt",
  defaults: BKT_PAPER_PRESET as unknown as Record<string, unknown>,
  module: __filename,
  validate(parameters) {
    validateBktScenario({ ...parameters, replications: 1 });
  },
  inputFiles: bktInputFiles,
  async run(parameters, seed, progress): Promise<SimulationResult> {
    const report = await simulateBkt(
      { ...(parameters as unknown as BktScenario), seed, replications: 1 },
      progress && ((p) => void (p.events === 0 && p.run < p.runs && progress(`seed ${seed}, policy ${p.policy}…`))),
    );
    const policies: Record<string, Record<string, number>> = {};
    for (const run of report.runs) {
      policies[run.policy] = {
        makespanH: run.makespanS === null ? NaN : run.makespanS / H,
        averageWasteH: (run.checkpointOverheadS + run.lostComputationS) / report.scenario.clients / H,
        checkpointOverheadH: run.checkpointOverheadS / H,
        lostComputationH: run.lostComputationS / H,
        connectionWaitH: run.connectionWaitS / H,
        checkpointsTaken: run.checkpointsTaken,
        sliceBoundaries: run.sliceBoundaries,
        checkpointShare: checkpointShare(run),
        checkpointsAccepted: run.checkpointsAccepted,
        copies: run.copies,
        failuresTransient: run.failuresTransient,
        failuresPermanent: run.failuresPermanent,
        sentMbit: run.uploadedMbit + run.downloadedMbit,
        unfinishedJobs: run.unfinishedJobs,
        ...(run.server ? serverMetrics(run.server, run.endS) : {}),
      };
    }
    return { metrics: { events: report.events }, policies, events: report.events };
  },
};

/** A measured server's metrics in a sweep's cells (none without one, so link-server cells keep their bytes). */
export function serverMetrics(server: NonNullable<BktRunResult["server"]>, endS: number): Record<string, number> {
  return {
    serverTransfers: server.transfers,
    serverTransfersOutsideDomain: server.transfersOutsideDomain,
    serverBusyFraction: endS > 0 ? server.busyS / endS : 0,
    serverUtilisation: server.capacityMb > 0 ? server.deliveredMb / server.capacityMb : 0,
    serverWaitH: server.waitS / H,
  };
}
