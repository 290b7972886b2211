/**
 * Proof by replay (docs/science.md §4.7): plans made from the fitting half of a trace,
 * played against the releases of its replay half (measured devices, not the model). For
 * replay r, instance r mod K is planned twice — on the model's mean and at the confidence
 * — and both timetables are played on release r (play-timetable.ts); a plan misses when a
 * checkpoint it started does not end by T. One release per replay keeps replays
 * independent, so that a miss rate's binomial margin holds at the number of replays.
 *
 * Also the coverage of the predictive distribution's central interval on the replay
 * half's runs: the share of held-out runs inside [q((1 − level)/2), q((1 + level)/2)].
 */
import type { Application } from "../application";
import type { BandwidthFunction } from "../bandwidth-oracle";
import { confidentChoice, playPlan, plannedTimetable, type BandwidthQuantile } from "../confident-plan";
import type { ScheduleOptions } from "../schedule-options";
import type { RunSplit } from "./split-runs";

export interface ReplayInstance {
  apps: Application[];
  deadlineS: number;
}

export interface ReplayedPlans {
  /** "mean" or the confidence. */
  plan: "mean" | number;
  replays: number;
  /** Replays in which a started checkpoint did not end by T. */
  misses: number;
  missRate: number;
  /** Mean Σ p the plans meant to save, s. */
  plannedCtnysS: number;
  /** Mean Σ p actually saved on the replayed releases, s. */
  savedCtnysS: number;
  /** Mean Σ p of the started checkpoints that missed T, s. */
  missedWorkS: number;
}

export interface ReplayReport {
  replays: number;
  mean: ReplayedPlans;
  confident: ReplayedPlans;
  /** Mean (mean plan − confident plan) planned Σ p: the work given up for the confidence, s, and as a share. */
  workGivenUpS: number;
  workGivenUpShare: number;
}

export function replayPlans(
  instances: readonly ReplayInstance[],
  options: ScheduleOptions,
  quantile: BandwidthQuantile,
  confidence: number,
  releases: readonly BandwidthFunction[],
): ReplayReport {
  const plans = instances.map((instance) => {
    const base = { ...options, deadlineS: instance.deadlineS };
    return [base, confidentChoice(instance.apps, base, quantile, confidence).options].map((planOptions) => {
      const { outcome, startS } = plannedTimetable(instance.apps, planOptions);
      return { options: planOptions, startS, plannedCtnysS: outcome.plannedCtnys };
    });
  });
  const tally = (plan: "mean" | number): ReplayedPlans => ({ plan, replays: 0, misses: 0, missRate: 0, plannedCtnysS: 0, savedCtnysS: 0, missedWorkS: 0 });
  const results = [tally("mean"), tally(confidence)];
  releases.forEach((release, r) => {
    const k = r % instances.length;
    const apps = instances[k]!.apps;
    plans[k]!.forEach((plan, which) => {
      const played = playPlan(apps, plan.startS, plan.options, release);
      const result = results[which]!;
      result.replays++;
      if (played.missed.length > 0) result.misses++;
      result.plannedCtnysS += plan.plannedCtnysS;
      result.savedCtnysS += played.ctnysS;
      result.missedWorkS += played.missed.reduce((sum, index) => sum + apps[index]!.pS, 0);
    });
  });
  for (const result of results) {
    const n = Math.max(result.replays, 1);
    result.missRate = result.misses / n;
    result.plannedCtnysS /= n;
    result.savedCtnysS /= n;
    result.missedWorkS /= n;
  }
  const [mean, confident] = results as [ReplayedPlans, ReplayedPlans];
  const workGivenUpS = mean.plannedCtnysS - confident.plannedCtnysS;
  return { replays: releases.length, mean, confident, workGivenUpS, workGivenUpShare: mean.plannedCtnysS > 0 ? workGivenUpS / mean.plannedCtnysS : 0 };
}

/** Share of the replay half's runs inside the predictive distribution's central `level` interval. */
export function replayCoverage(split: RunSplit, quantile: BandwidthQuantile, level: number): { runs: number; inside: number; coverage: number } {
  let runs = 0;
  let inside = 0;
  for (const cell of split.replayByCell.values()) {
    const vGb = (cell.m * cell.sizeMb) / 1000;
    const lower = quantile(cell.m, vGb, (1 - level) / 2);
    const upper = quantile(cell.m, vGb, (1 + level) / 2);
    for (const run of cell.runs) {
      runs++;
      if (run.aggregatedBwMbPerS >= lower && run.aggregatedBwMbPerS <= upper) inside++;
    }
  }
  return { runs, inside, coverage: runs > 0 ? inside / runs : NaN };
}
