/**
 * Several applications per node ([Y-thesis] §6.4, docs/science.md §4.6): checkpointing several images
 * of one node at once is slower than one image of the same total size ([Y-thesis] Table
 * 6.1), so one process per node is checkpointed at a time, by *waves*: wave j holds the
 * j-th application (in input order) of every node, and ScheduleCkpt runs wave after wave
 * while time remains — wave j + 1 starts when wave j's loop has ended (nothing running,
 * nothing more to start), with the deadline still T.
 *
 * Decisions: an application of wave j that ScheduleCkpt did not select is not carried to
 * a later wave (the thesis runs each wave on its own). A wave starting at or after T gets
 * nothing; a stalled device ends all waves. With one application per node there is one
 * wave and this is plain ScheduleCkpt. A caller whose applications span several nodes
 * (the release hook's multi-node jobs) gives the waves itself.
 */
import type { Application } from "./application";
import { addEvaluationCounts, type BandwidthEvaluationCounts } from "./bandwidth-oracle";
import type { BandwidthStep, DeviceStall } from "./fluid-device";
import { scheduleCkpt, type ScheduleCkptOutcome, type ScheduleDecision } from "./schedule-ckpt";
import type { ScheduleOptions } from "./schedule-options";
import { summarizeOutcome, type AppOutcome } from "./strategy-outcome";

export interface WaveSummary {
  wave: number;
  startS: number;
  endS: number;
  appIds: string[];
  checkpointedCount: number;
  ctnys: number;
  iterations: number;
  schedulerMicros: number;
}

export interface WavesOutcome extends ScheduleCkptOutcome {
  waves: WaveSummary[];
}

/** The waves: indices into `apps`, wave by wave, each in input order. */
export function wavesOf(apps: readonly Application[]): number[][] {
  const seen = new Map<string, number>();
  const waves: number[][] = [];
  apps.forEach((app, index) => {
    const node = app.node ?? `#${index}`;
    const rank = seen.get(node) ?? 0;
    seen.set(node, rank + 1);
    (waves[rank] ??= []).push(index);
  });
  return waves;
}

/** `waves`: indices into `apps`, wave by wave (default: by node, `wavesOf`). */
export function scheduleByWaves(apps: readonly Application[], options: ScheduleOptions, waves: readonly (readonly number[])[] = wavesOf(apps)): WavesOutcome {
  const appOutcomes: (AppOutcome | undefined)[] = new Array(apps.length);
  const decisions: ScheduleDecision[] = [];
  const steps: BandwidthStep[] = [];
  const summaries: WaveSummary[] = [];
  let evaluations: BandwidthEvaluationCounts | null = null;
  let truthEvaluations: BandwidthEvaluationCounts | null = null;
  let stall: DeviceStall | null = null;
  let timeS = 0;
  let iterations = 0;
  let schedulerMicros = 0;
  for (let w = 0; w < waves.length; w++) {
    const members = waves[w]!;
    const waveApps = members.map((index) => apps[index]!);
    const runnable = stall === null && timeS < options.deadlineS;
    const appIds = waveApps.map((a) => a.id);
    if (!runnable) {
      members.forEach((index) => {
        const app = apps[index]!;
        appOutcomes[index] = {
          id: app.id,
          checkpointed: false,
          start: null,
          finish: null,
          missed: false,
          pS: app.pS,
          sizeMb: app.sizeMb,
          ...(app.node !== undefined ? { node: app.node } : {}),
          wave: w + 1,
        };
      });
      summaries.push({ wave: w + 1, startS: timeS, endS: timeS, appIds, checkpointedCount: 0, ctnys: 0, iterations: 0, schedulerMicros: 0 });
      continue;
    }
    const outcome = scheduleCkpt(waveApps, options, timeS);
    outcome.apps.forEach((appOutcome, k) => (appOutcomes[members[k]!] = { ...appOutcome, wave: w + 1 }));
    for (const decision of outcome.decisions) decisions.push({ ...decision, wave: w + 1 });
    steps.push(...outcome.bandwidthSteps);
    evaluations = evaluations === null ? outcome.evaluations : addEvaluationCounts(evaluations, outcome.evaluations);
    truthEvaluations = truthEvaluations === null ? outcome.truthEvaluations : addEvaluationCounts(truthEvaluations, outcome.truthEvaluations);
    stall ??= outcome.stall;
    iterations += outcome.iterations;
    schedulerMicros += outcome.schedulerMicros;
    summaries.push({
      wave: w + 1,
      startS: timeS,
      endS: outcome.endS,
      appIds,
      checkpointedCount: outcome.checkpointed.length,
      ctnys: outcome.ctnys,
      iterations: outcome.iterations,
      schedulerMicros: outcome.schedulerMicros,
    });
    timeS = outcome.endS;
  }
  const zeroCounts: BandwidthEvaluationCounts = { evaluations: 0, aboveDomain: 0, belowDomain: 0, nonPositive: 0, firstAboveDomain: null, firstNonPositive: null };
  return {
    ...summarizeOutcome("schedule-ckpt", options.deadlineS, appOutcomes as AppOutcome[], { stall, bandwidthSteps: steps, truthEvaluations: truthEvaluations ?? zeroCounts }),
    endS: timeS,
    iterations,
    schedulerMicros,
    evaluations: evaluations ?? zeroCounts,
    decisions,
    waves: summaries,
  };
}
