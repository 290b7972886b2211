/**
 * "Which checkpoint policy for my machines, saving to my server?" (docs/science.md §6.6): the
 * [DAS06] classroom grid and the [BKT] grid, scaled down to run in seconds, each with three
 * servers — the one a user measured and fitted, the published Azur model ([Y11] eq. 4), and
 * an ideal server that never holds a transfer below its machine's link — and, per grid cell
 * and server, the policies ranked by the simulator's headline metric (the makespan for [BKT],
 * the mean slowdown for [DAS06]; lower is better).
 *
 * Both grids put checkpoint traffic where a server can matter: [DAS06]'s classroom writes its
 * shared checkpoints over a 100 Mbit/s LAN; the [BKT] clients sit on a LAN (not the paper's
 * 1–2 Mbit/s volunteer links, over which no server binds) with images of hundreds of MB after
 * slices of minutes, a project choice stated with the results. A server whose model cannot
 * price a load the runs reach (bw ≤ 0, or outside its domain under "refuse") is reported as
 * not applicable there, with the reason, and left out of that cell's ranking.
 */
import { PAPER_MODEL, type BandwidthModel } from "../../fit/model";
import { InputError } from "../../shared/errors";
import { sha256OfJson } from "../../shared/hash";
import { BKT_PAPER_PRESET, validateBktScenario } from "../bkt/bkt-scenario";
import { simulateBkt } from "../bkt/bkt-simulator";
import { DAS06_DEFAULTS, validateDas06Scenario } from "../das06/das06-scenario";
import { simulateDas06 } from "../das06/das06-simulator";
import { measuredServerIdentity, type MeasuredServer, type MeasuredServerIdentity } from "./measured-server";
import type { ServerComparisonParameters } from "./server-comparison-parameters";

export type ServerKey = "fitted" | "azur" | "ideal";

export interface ComparedServer {
  key: ServerKey;
  label: string;
  /** The model and its identity; null for the ideal server. */
  model: MeasuredServerIdentity | null;
}

export interface PolicyResult {
  mean: number;
  low: number | null;
  high: number | null;
  n: number;
}

export interface ServerOutcome {
  /** Per policy, the metric's mean and 95 % interval; empty when not applicable. */
  policies: Record<string, PolicyResult>;
  /** Policies from best to worst (lower metric first; ties keep the policies' order). */
  ranking: string[];
  /** What the server did, averaged over the policies' runs: its busy share of the run, transfers outside the model's domain per run. */
  server: { busyFraction: number; outsideDomain: number } | null;
  /** Why this server has no result in this cell. */
  notApplicable?: string;
}

export interface ComparisonCell {
  label: string;
  outcomes: Record<ServerKey, ServerOutcome>;
}

export interface SimulatorComparison {
  metric: { name: "makespanH" | "slowdown"; label: string };
  /** The grid's fixed settings in words, for captions. */
  setting: string;
  policies: string[];
  cells: ComparisonCell[];
}

export interface ServerComparison {
  schema: "ckpt-lab/server-comparison@1";
  servers: ComparedServer[];
  bkt: SimulatorComparison;
  das06: SimulatorComparison;
}

/**
 * Run both grids with the three servers.
 * @param fitted the user's model and what names it (its artifact's path and hash)
 */
export async function compareServers(fitted: { model: BandwidthModel; file: string; sha256: string }, parameters: ServerComparisonParameters, progress: (message: string) => void = () => {}): Promise<ServerComparison> {
  const measured = (model: BandwidthModel, file: string, sha256: string): MeasuredServer => ({ model, file, sha256, outsideDomain: parameters.outsideDomain, volume: "whole" });
  const servers: { key: ServerKey; label: string; server: MeasuredServer | null }[] = [
    { key: "fitted", label: `fitted (${fitted.model.form})`, server: measured(fitted.model, fitted.file, fitted.sha256) },
    { key: "azur", label: "Azur ([Y11] eq. 4)", server: measured(PAPER_MODEL, "paper", sha256OfJson(PAPER_MODEL)) },
    { key: "ideal", label: "ideal", server: null },
  ];
  const b = parameters.bkt;
  const bktCells: ComparisonCell[] = [];
  for (const jobs of b.jobs) {
    const outcomes = {} as Record<ServerKey, ServerOutcome>;
    for (const { key, server } of servers) {
      progress(`[BKT] ${b.clients} clients, ${jobs} jobs, ${key} server`);
      // Ideal: a link that no set of connections can fill (each transfer at its client's link).
      const serverField = server === null ? { mbps: 100 * b.hostMbps[1], connections: 100 } : { model: server.file, connections: 100, outsideDomain: server.outsideDomain, volume: server.volume };
      // Checked before the runs: a wrong parameter is an error, not a server's finding.
      const scenario = validateBktScenario({
        ...BKT_PAPER_PRESET,
        clients: b.clients,
        jobs,
        sliceHours: b.sliceHours,
        checkpointMbit: b.checkpointMb,
        checkpointSizeUnit: "MB",
        hostMbps: b.hostMbps,
        policies: b.policies,
        replications: b.seeds,
        server: serverField,
      });
      outcomes[key] = await outcome(async () => {
        const report = await simulateBkt(scenario, undefined, undefined, server === null ? {} : { server });
        return {
          policies: Object.fromEntries(Object.entries(report.policies).map(([p, s]) => [p, pick(s.makespanH)])),
          server: server === null ? null : serverUse(Object.values(report.policies).map((s) => [s.server!.busyFraction.mean, s.server!.transfersOutsideDomain.mean])),
        };
      });
    }
    bktCells.push({ label: `${b.clients} clients, ${jobs} jobs`, outcomes });
  }
  const d = parameters.das06;
  const das06Cells: ComparisonCell[] = [];
  for (const machineSet of d.machineSets) {
    const outcomes = {} as Record<ServerKey, ServerOutcome>;
    for (const { key, server } of servers) {
      progress(`[DAS06] ${machineSet}, ${key} server`);
      const scenario = validateDas06Scenario({
        ...structuredClone(DAS06_DEFAULTS),
        machineSet,
        tasks: d.tasks,
        taskCpuS: d.taskCpuS,
        checkpoints: d.checkpoints,
        checkpointMb: d.checkpointMb,
        checkpointStore: "shared",
        windowDays: d.windowDays,
        policies: d.policies,
        checkpointServer: server === null ? null : { model: server.file, outsideDomain: server.outsideDomain, volume: server.volume },
      });
      outcomes[key] = await outcome(async () => {
        const report = await simulateDas06(scenario, undefined, server === null ? {} : { server });
        return {
          policies: Object.fromEntries(Object.entries(report.policies).map(([p, s]) => [p, pick(s.slowdown)])),
          server: server === null ? null : serverUse(Object.values(report.policies).map((s) => [s.server!.busyFraction.mean, s.server!.writesOutsideDomain.mean])),
        };
      });
    }
    das06Cells.push({ label: `${machineSet}, ${d.tasks} tasks of ${d.taskCpuS} s`, outcomes });
  }
  return {
    schema: "ckpt-lab/server-comparison@1",
    servers: servers.map(({ key, label, server }) => ({ key, label, model: server === null ? null : measuredServerIdentity(server) })),
    bkt: {
      metric: { name: "makespanH", label: "makespan (h)" },
      setting:
        `${b.seeds} seed(s); the [BKT] paper preset with clients on a LAN (${b.hostMbps.join("–")} Mbit/s), slices of ${b.sliceHours.map((h) => h * 60).join("–")} min and checkpoint images of ` +
        `${b.checkpointMb.join("–")} MB (a project choice: over the paper's 1–2 Mbit/s links no server binds), 100 connections, transient failures suspend`,
      policies: b.policies,
      cells: bktCells,
    },
    das06: {
      metric: { name: "slowdown", label: "mean slowdown" },
      setting: `the SYNTHETIC classroom trace (days ${d.windowDays.join("–")}, every weekday starting hour), ${d.checkpoints} shared checkpoints of ${d.checkpointMb} MB per execution over a 12.5 MB/s LAN, perfect predictor`,
      policies: d.policies,
      cells: das06Cells,
    },
  };
}

function pick(m: { mean: number; low: number | null; high: number | null; n: number }): PolicyResult {
  return { mean: m.mean, low: m.low, high: m.high, n: m.n };
}

function serverUse(perPolicy: [number, number][]): { busyFraction: number; outsideDomain: number } {
  return { busyFraction: perPolicy.reduce((s, [b]) => s + b, 0) / perPolicy.length, outsideDomain: perPolicy.reduce((s, [, o]) => s + o, 0) / perPolicy.length };
}

/** One server's result in one cell: ranked, or not applicable with the model's reason. */
async function outcome(run: () => Promise<Omit<ServerOutcome, "ranking">>): Promise<ServerOutcome> {
  try {
    const result = await run();
    const names = Object.keys(result.policies);
    const ranking = names.filter((p) => Number.isFinite(result.policies[p]!.mean)).sort((a, b) => result.policies[a]!.mean - result.policies[b]!.mean || names.indexOf(a) - names.indexOf(b));
    return { ...result, ranking };
  } catch (error) {
    // A model that cannot price the load: a finding about that model, not a failure of the report.
    if (!(error instanceof InputError)) throw error;
    return { policies: {}, ranking: [], server: null, notApplicable: error.message };
  }
}
