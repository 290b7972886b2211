/**
 * The [BKT] simulator (docs/science.md §6.1): a scenario's policies on the same platform,
 * replication after replication (seed, seed + 1, …), each policy run on common random
 * numbers (the same clients, jobs and availability histories), summarised per policy with
 * 95 % intervals and paired differences to the first policy. Also the model the sweeps run
 * (`ckpt simulate sweep` with `"simulator": "bkt"`).
 */
import { createLaw } from "../../place/laws/create-law";
import type { FailureLaw } from "../../place/laws/failure-law";
import { parseLawString } from "../../place/laws/law-string";
import { meanWithCi, type MeanWithCi } from "../../schedule/mean-confidence-interval";
import { createRandomStreams } from "../engine/random-streams";
import type { SimulationResult, SimulatorModel } from "../simulator";
import type { AvailabilityTrace } from "../traces/availability-trace";
import { readAvailabilityTrace } from "../traces/read-availability-trace";
import { drawPlatform } from "./bkt-platform";
import { runBkt, type BktRunResult } from "./bkt-run";
import { BKT_PAPER_PRESET, validateBktScenario, type BktPolicy, type BktScenario } from "./bkt-scenario";

export interface BktPolicySummary {
  makespanH: MeanWithCi;
  /** (Checkpoint overhead + lost computation) / clients, h: [BKT] Figs 1(b)–3(b). */
  averageWasteH: MeanWithCi;
  checkpointOverheadH: MeanWithCi;
  lostComputationH: MeanWithCi;
  connectionWaitH: MeanWithCi;
  duplicateWorkH: MeanWithCi;
  checkpointsTaken: MeanWithCi;
  checkpointsAccepted: MeanWithCi;
  copies: MeanWithCi;
  uploadedMbit: MeanWithCi;
  unfinishedRuns: number;
}

export interface BktReport {
  schema: "ckpt-lab/bkt-simulation@1";
  scenario: BktScenario;
  seeds: number[];
  /** The availability trace used, by content hash, when the scenario names one. */
  trace: { file: string; sha256: string; nodes: number } | null;
  policyLaw: string;
  policies: Record<string, BktPolicySummary>;
  /** Per policy other than the first: its makespan minus the first policy's, paired by seed. */
  pairedMakespanDifferenceH: Record<string, MeanWithCi>;
  runs: (BktRunResult & { seed: number })[];
  events: number;
  warnings: string[];
}

const H = 3600;

/** Which trace node each client follows: a seeded permutation of the nodes, reused cyclically when clients outnumber them. */
function nodeOfClients(trace: AvailabilityTrace, clients: number, seed: number): Int32Array {
  const random = createRandomStreams(seed).stream("trace nodes");
  const order = Int32Array.from({ length: trace.nodes.length }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return Int32Array.from({ length: clients }, (_, c) => order[c % order.length]!);
}

/** The policies' failure law: the availability law, or the trace's available intervals as an empirical law. */
function policyLawOf(scenario: BktScenario, trace: AvailabilityTrace | null): FailureLaw {
  if (trace === null) return createLaw(parseLawString(scenario.availability).spec);
  const durationsSeconds: number[] = [];
  for (const node of trace.nodes) for (let i = 0; i < node.starts.length; i++) durationsSeconds.push(node.ends[i]! - node.starts[i]!);
  return createLaw({ kind: "empirical", durationsSeconds, source: trace.source });
}

export async function simulateBkt(input: BktScenario, progress?: (message: string) => void): Promise<BktReport> {
  const scenario = validateBktScenario({ ...input });
  const trace = scenario.trace === null ? null : await readAvailabilityTrace(scenario.trace);
  const warnings: string[] = [];
  if (trace !== null) {
    if (trace.nodes.length === 0) throw new Error(`the trace ${scenario.trace} has no node`);
    if (trace.nodes.length < scenario.clients) warnings.push(`the trace has ${trace.nodes.length} nodes for ${scenario.clients} clients: nodes are reused cyclically (a seeded permutation)`);
    if (trace.counts.rejected > 0) warnings.push(`${trace.counts.rejected} line(s) of the trace were rejected (ckpt simulate trace-stats lists them)`);
    warnings.push(...trace.warnings);
  }
  const law = policyLawOf(scenario, trace);
  const runs: (BktRunResult & { seed: number })[] = [];
  const seeds = Array.from({ length: scenario.replications }, (_, r) => scenario.seed + r);
  for (const seed of seeds) {
    const platform = drawPlatform(scenario, createRandomStreams(seed));
    const mapping = trace === null ? null : { trace, nodeOfClient: nodeOfClients(trace, scenario.clients, seed) };
    for (const policy of scenario.policies) {
      progress?.(`seed ${seed}, policy ${policy}: ${scenario.clients} clients, ${scenario.jobs} jobs…`);
      // A fresh set of streams per run: every policy sees the same availability draws.
      const run = runBkt({ scenario, platform, streams: createRandomStreams(seed), policy, trace: mapping, policyLaw: law, ...(progress ? { progress } : {}) });
      runs.push({ ...run, seed });
      if (run.makespanS === null) warnings.push(`seed ${seed}, ${policy}: ${run.unfinishedJobs} job(s) unfinished at ${(run.endS / H).toFixed(1)} h (horizon ${scenario.horizonHours} h, or every client departed)`);
    }
  }
  const policies: Record<string, BktPolicySummary> = {};
  for (const policy of scenario.policies) {
    const mine = runs.filter((r) => r.policy === policy);
    const stat = (pick: (r: BktRunResult) => number) => meanWithCi(mine.map(pick));
    policies[policy] = {
      makespanH: meanWithCi(mine.filter((r) => r.makespanS !== null).map((r) => r.makespanS! / H)),
      averageWasteH: stat((r) => (r.checkpointOverheadS + r.lostComputationS) / scenario.clients / H),
      checkpointOverheadH: stat((r) => r.checkpointOverheadS / H),
      lostComputationH: stat((r) => r.lostComputationS / H),
      connectionWaitH: stat((r) => r.connectionWaitS / H),
      duplicateWorkH: stat((r) => r.duplicateWorkS / H),
      checkpointsTaken: stat((r) => r.checkpointsTaken),
      checkpointsAccepted: stat((r) => r.checkpointsAccepted),
      copies: stat((r) => r.copies),
      uploadedMbit: stat((r) => r.uploadedMbit),
      unfinishedRuns: mine.filter((r) => r.makespanS === null).length,
    };
  }
  const [first, ...others] = scenario.policies;
  const pairedMakespanDifferenceH: Record<string, MeanWithCi> = {};
  for (const policy of others) {
    const differences = seeds.flatMap((seed) => {
      const a = runs.find((r) => r.seed === seed && r.policy === policy)?.makespanS;
      const b = runs.find((r) => r.seed === seed && r.policy === first)?.makespanS;
      return a != null && b != null ? [(a - b) / H] : [];
    });
    pairedMakespanDifferenceH[`${policy} − ${first}`] = meanWithCi(differences);
  }
  return {
    schema: "ckpt-lab/bkt-simulation@1",
    scenario,
    seeds,
    trace: trace === null ? null : { file: trace.source, sha256: trace.sha256, nodes: trace.nodes.length },
    policyLaw: law.description,
    policies,
    pairedMakespanDifferenceH,
    runs,
    events: runs.reduce((s, r) => s + r.events, 0),
    warnings,
  };
}

/** The model the sweeps run: one replication of the scenario per (parameters, seed). */
export const bktModel: SimulatorModel = {
  name: "bkt",
  defaults: BKT_PAPER_PRESET as unknown as Record<string, unknown>,
  module: __filename,
  validate(parameters) {
    validateBktScenario({ ...parameters, replications: 1 });
  },
  async run(parameters, seed, progress): Promise<SimulationResult> {
    const report = await simulateBkt({ ...(parameters as unknown as BktScenario), seed, replications: 1 }, progress);
    const policies: Record<string, Record<string, number>> = {};
    for (const run of report.runs) {
      policies[run.policy] = {
        makespanH: run.makespanS === null ? NaN : run.makespanS / H,
        averageWasteH: (run.checkpointOverheadS + run.lostComputationS) / report.scenario.clients / H,
        checkpointOverheadH: run.checkpointOverheadS / H,
        lostComputationH: run.lostComputationS / H,
        connectionWaitH: run.connectionWaitS / H,
        checkpointsTaken: run.checkpointsTaken,
        checkpointsAccepted: run.checkpointsAccepted,
        copies: run.copies,
        unfinishedJobs: run.unfinishedJobs,
      };
    }
    return { metrics: { events: report.events }, policies, events: report.events };
  },
};
