/**
 * The simulators' speed.
 *
 * - The engine's events per second under the hold model of bench/simulate-engine.bench.ts
 *   (10^4 pending events, one in ten handled events cancels and reschedules another),
 *   against the same model on a binary heap of objects, median of 5 on one core.
 * - The [BKT] simulator at the paper's largest setting (docs/science.md §6.4: 10^4 jobs on
 *   2·10^4 clients, one replication, one core, the built library): none and Daly periodic
 *   together ≤ 20 s, the DP policy ≤ 2 minutes; one run each (tens of seconds), with the
 *   model's events per second (events include the policies' planning).
 * - The [DAS06] paper grid (docs/science.md §6.2.7: 96 cells × 4 policies from every
 *   starting point of their window, synthetic classroom trace), one run in one process:
 *   ≤ 1 minute (bench/simulate-das06.bench.ts repeats it and checks determinism).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as MergeModule from "../../pipeline/simulate/sweep/merge-sweep";
import type * as RunShardModule from "../../pipeline/simulate/sweep/run-shard";
import type * as SweepSpecModule from "../../pipeline/simulate/sweep/sweep-spec";
import type * as SimulatorModule from "../../pipeline/simulate/simulator";
import type * as BktScenarioModule from "../../pipeline/simulate/bkt/bkt-scenario";
import type * as BktSimulatorModule from "../../pipeline/simulate/bkt/bkt-simulator";
import { median, timeRuns } from "../harness";
import { engineHold, objectHeapHold } from "../simulate-engine.bench";
import { ROOT, formatRatio, type Anchor } from "./anchor";

const PENDING = 10_000;
const TARGET_M_EVENTS_PER_S = 1;

export async function simulateAnchor(): Promise<Anchor> {
  let events = 0;
  const engineMs = median(await timeRuns(() => (events = engineHold(PENDING)), 5));
  const referenceMs = median(await timeRuns(() => objectHeapHold(PENDING), 5));
  const rate = events / engineMs / 1000;
  const referenceRate = events / referenceMs / 1000;
  return {
    work: `simulation engine, hold model, ${PENDING.toLocaleString("en-US")} pending events`,
    reference: `a binary heap of objects: ${referenceRate.toFixed(2)} M events/s`,
    ours: `${rate.toFixed(2)} M events/s`,
    ratio: engineMs / referenceMs,
    target: `≥ ${TARGET_M_EVENTS_PER_S} M events/s`,
    met: rate >= TARGET_M_EVENTS_PER_S,
    notes: [`${events.toLocaleString("en-US")} events per run; time per event ${formatRatio(engineMs / referenceMs)} the object heap's`],
  };
}

export async function bktAnchors(): Promise<Anchor[]> {
  const bkt = join(ROOT, "dist", "pipeline", "simulate", "bkt");
  const { BKT_PAPER_PRESET } = require(join(bkt, "bkt-scenario")) as typeof BktScenarioModule;
  const { simulateBkt } = require(join(bkt, "bkt-simulator")) as typeof BktSimulatorModule;
  const run = async (policy: "none" | "periodic" | "pckp") => {
    const started = performance.now();
    const report = await simulateBkt({ ...BKT_PAPER_PRESET, clients: 20_000, jobs: 10_000, policies: [policy] });
    const seconds = (performance.now() - started) / 1000;
    const result = report.runs[0]!;
    return { seconds, events: result.events, dpCalls: result.dpCalls, dpCacheHits: result.dpCacheHits };
  };
  const none = await run("none");
  const periodic = await run("periodic");
  const pckp = await run("pckp");
  const rate = (r: { seconds: number; events: number }) => `${(r.events / r.seconds / 1e6).toFixed(2)} M events/s`;
  const both = none.seconds + periodic.seconds;
  return [
    {
      work: "[BKT] simulator, 2·10^4 clients, 10^4 jobs, one replication: none + Daly periodic",
      reference: "—",
      ours: `${both.toFixed(1)} s`,
      ratio: null,
      target: "≤ 20 s on one core",
      met: both <= 20,
      notes: [`none ${none.seconds.toFixed(1)} s (${none.events.toLocaleString("en-US")} events, ${rate(none)}); periodic ${periodic.seconds.toFixed(1)} s (${periodic.events.toLocaleString("en-US")} events, ${rate(periodic)}); ${(both / 20).toFixed(2)} of the target`],
    },
    {
      work: "[BKT] simulator, the same with the DP policy (PCkP)",
      reference: "—",
      ours: `${pckp.seconds.toFixed(1)} s`,
      ratio: null,
      target: "≤ 2 min",
      met: pckp.seconds <= 120,
      notes: [`${pckp.events.toLocaleString("en-US")} events, ${rate(pckp)}; ${pckp.dpCalls.toLocaleString("en-US")} DP solves, ${pckp.dpCacheHits.toLocaleString("en-US")} plans from the cache; one core; ${(pckp.seconds / 120).toFixed(2)} of the target`],
    },
  ];
}

export async function das06Anchor(): Promise<Anchor> {
  const dist = join(ROOT, "dist", "pipeline", "simulate");
  const { parseSweepSpec } = require(join(dist, "sweep", "sweep-spec")) as typeof SweepSpecModule;
  const { runShard } = require(join(dist, "sweep", "run-shard")) as typeof RunShardModule;
  const { mergeSweep } = require(join(dist, "sweep", "merge-sweep")) as typeof MergeModule;
  const { SIMULATORS } = require(join(dist, "simulator")) as typeof SimulatorModule;
  const path = join(ROOT, "data", "simulations", "das06-paper-grid.json");
  const spec = parseSweepSpec(readFileSync(path, "utf8"), path);
  const folder = mkdtempSync(join(tmpdir(), "ckpt-bench-das06-"));
  try {
    const started = performance.now();
    await runShard(spec, SIMULATORS, folder);
    const seconds = (performance.now() - started) / 1000;
    const cells = mergeSweep(spec, [folder]).cells;
    const events = cells.reduce((sum, c) => sum + Number(c.metrics.events ?? 0), 0);
    const startingPoints = cells.reduce((sum, c) => sum + Number(c.metrics.startingPoints ?? 0), 0);
    return {
      work: `[DAS06] paper grid (${cells.length} cells, ${startingPoints.toLocaleString("en-US")} starting points × ${(spec.parameters.policies as string[]).length} policies)`,
      reference: "—",
      ours: `${seconds.toFixed(1)} s`,
      ratio: null,
      target: "≤ 1 min on one core",
      met: seconds <= 60,
      notes: [`${events.toLocaleString("en-US")} events, ${(events / seconds / 1e6).toFixed(2)} M events/s; one run in one process; ${(seconds / 60).toFixed(2)} of the target`],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
