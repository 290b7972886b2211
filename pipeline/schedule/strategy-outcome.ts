/**
 * What a strategy did to an instance, as the execution (the fluid device under the truth
 * model) played it out: per application whether its checkpoint completed by the deadline,
 * when it started and finished; CTNYS / RCTNYS (docs/science.md §4.1); the bandwidth over time.
 * Plain serialisable data, the same shape for ScheduleCkpt, the baselines and the exact
 * solver's plan, so that a report can draw any of them.
 *
 * Decision (static-estimator misses): a checkpoint that started but finished after T
 * (beyond a relative 1e-9 of float noise), or never finished because the device stalled,
 * is *missed*: the workstation is handed back first, so its p counts in RCTNYS, not CTNYS.
 * `plannedCtnys` keeps what the strategy believed it would save.
 */
import type { Application } from "./application";
import type { BandwidthEvaluationCounts, BandwidthOracle } from "./bandwidth-oracle";
import type { BandwidthStep, DeviceStall, FluidDevice } from "./fluid-device";

export type StrategyName = "schedule-ckpt" | "sequential-greedy" | "all-in-parallel" | "exact-simultaneous";

export interface AppOutcome {
  id: string;
  /** The checkpoint completed by the deadline. */
  checkpointed: boolean;
  /** Start time, seconds (null: never started). */
  start: number | null;
  /** Finish time, seconds (null: not started, or never finished because the device stalled). */
  finish: number | null;
  /** Started, but not completed by the deadline. */
  missed: boolean;
  pS: number;
  sizeMb: number;
  node?: string;
  /** The wave it belongs to, when several applications share a node (docs/science.md §4.6). */
  wave?: number;
}

export interface StrategyOutcome {
  strategy: StrategyName;
  deadlineS: number;
  /** In input order. */
  apps: AppOutcome[];
  /** Ids of the checkpointed applications, in input order. */
  checkpointed: string[];
  /** Σ p of the checkpointed applications, s. */
  ctnys: number;
  /** Σ p of the others, s (ctnys + rctnys = totalP). */
  rctnys: number;
  totalP: number;
  /** ctnys / totalP (0 when totalP = 0). */
  ctnysShare: number;
  /** Σ p of every started application: what the strategy expected to save. */
  plannedCtnys: number;
  startedCount: number;
  /** Ids started but not completed by the deadline, in input order. */
  missed: string[];
  stall: DeviceStall | null;
  /** Finish time of the last checkpoint that finished, s (null if none did). */
  lastFinishS: number | null;
  /** The device's bandwidth over time (empty when not recorded). */
  bandwidthSteps: BandwidthStep[];
  /** Bandwidth evaluations made by the execution (truth model). */
  truthEvaluations: BandwidthEvaluationCounts;
}

/** Relative slack under which a finish time counts as "by the deadline" (float noise only). */
export const DEADLINE_TOLERANCE = 1e-9;

export function meetsDeadline(finishS: number, deadlineS: number): boolean {
  return finishS <= deadlineS + DEADLINE_TOLERANCE * Math.max(1, deadlineS);
}

/** Read the per-application outcome off a device after a strategy has run on it. */
export function outcomeFromDevice(
  strategy: StrategyName,
  apps: readonly Application[],
  device: FluidDevice,
  deadlineS: number,
  truth: BandwidthOracle,
): StrategyOutcome {
  const appOutcomes = apps.map((app, index): AppOutcome => {
    const startS = device.startS[index]!;
    const finishS = device.finishS[index]!;
    const started = !Number.isNaN(startS);
    const finished = !Number.isNaN(finishS);
    const done = finished && meetsDeadline(finishS, deadlineS);
    return {
      id: app.id,
      checkpointed: done,
      start: started ? startS : null,
      finish: finished ? finishS : null,
      missed: started && !done,
      pS: app.pS,
      sizeMb: app.sizeMb,
      ...(app.node !== undefined ? { node: app.node } : {}),
    };
  });
  return summarizeOutcome(strategy, deadlineS, appOutcomes, { stall: device.stall, bandwidthSteps: device.steps, truthEvaluations: truth.counts() });
}

/** The totals of a strategy's per-application outcomes (in input order), with what the execution reports. */
export function summarizeOutcome<S extends StrategyName>(
  strategy: S,
  deadlineS: number,
  apps: AppOutcome[],
  execution: Pick<StrategyOutcome, "stall" | "bandwidthSteps" | "truthEvaluations">,
): StrategyOutcome & { strategy: S } {
  let ctnys = 0;
  let rctnys = 0;
  let totalP = 0;
  let plannedCtnys = 0;
  let startedCount = 0;
  let lastFinishS: number | null = null;
  const checkpointed: string[] = [];
  const missed: string[] = [];
  for (const app of apps) {
    totalP += app.pS;
    if (app.start !== null) {
      startedCount++;
      plannedCtnys += app.pS;
    }
    if (app.finish !== null && (lastFinishS === null || app.finish > lastFinishS)) lastFinishS = app.finish;
    if (app.checkpointed) {
      ctnys += app.pS;
      checkpointed.push(app.id);
    } else {
      rctnys += app.pS;
      if (app.missed) missed.push(app.id);
    }
  }
  return {
    strategy,
    deadlineS,
    apps,
    checkpointed,
    ctnys,
    rctnys,
    totalP,
    ctnysShare: totalP > 0 ? ctnys / totalP : 0,
    plannedCtnys,
    startedCount,
    missed,
    stall: execution.stall,
    lastFinishS,
    bandwidthSteps: execution.bandwidthSteps,
    truthEvaluations: execution.truthEvaluations,
  };
}
