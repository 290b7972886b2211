/**
 * The numbers a cluster's report shows of its plans' uncertainty (issue 34, point 6),
 * computed here so that the report only draws them:
 *
 * - the prediction band of the fitted model over its fitted domain, per measured size v:
 *   mean, lower and upper bandwidth at `level` for m over the domain (predictive-bandwidth.ts);
 * - the example instance planned on the mean and at `confidence`, side by side, each with
 *   its miss probability under the one-factor predictive distribution (confident-plan.ts)
 *   and the work the confidence gives up;
 * - the replay (replay/): each repetition of the observations replayed as a measured release
 *   against a model fitted without it (leave one repetition out, as the NFS replay test),
 *   both plans played on it; the miss rates of the mean and the confident plan, and the
 *   95 % interval's coverage of the held-out runs. Not applicable (said) when no cell was
 *   measured at least twice.
 *
 * Null when the model has no predictive part (the published one): there is no band to draw.
 * Deterministic: the fits' folds are seeded, the plans have no randomness.
 */
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel } from "../fit/fit-bandwidth-model";
import { InputError } from "../shared/errors";
import { MODEL_FORMS, type BandwidthModel } from "../fit/model";
import { hasPredictive, predictionInterval } from "../fit/predictive-bandwidth";
import type { Observations } from "../ingest/observations";
import { summariseRuns } from "../ingest/summarise-runs";
import type { Application } from "./application";
import { confidentPlan } from "./confident-plan";
import { predictiveQuantile } from "./predictive-quantile";
import { replayCoverage, replayPlans, replayReleases, splitRunsHoldingOut } from "./replay";
import type { ScheduleOptions } from "./schedule-options";

export interface BandPoint {
  m: number;
  vGb: number;
  meanMbPerS: number;
  lowerMbPerS: number;
  upperMbPerS: number;
}

export interface PlanSide {
  plan: "mean" | number;
  started: number;
  plannedCtnysS: number;
  missProbability: number;
}

export interface ReplaySide {
  plan: "mean" | number;
  replays: number;
  misses: number;
  missRate: number;
}

export interface PlansThatHold {
  schema: "ckpt-lab/plans-that-hold@1";
  level: number;
  confidence: number;
  band: { sizeMb: number; points: BandPoint[] }[];
  plans: { deadlineS: number; apps: number; mean: PlanSide; confident: PlanSide; workGivenUpS: number; workGivenUpShare: number };
  replay: { folds: number; mean: ReplaySide; confident: ReplaySide; workGivenUpShare: number; coverage: number; heldOutRuns: number } | { notApplicable: string };
}

export interface PlansThatHoldInput {
  model: BandwidthModel;
  observations: Observations;
  apps: readonly Application[];
  /** The example's schedule options (model, deadline, estimator, k0 …). */
  options: ScheduleOptions;
  confidence: number;
  level?: number;
}

/** The band over the domain's integer m, for each measured size series (V = m·v inside the domain). */
function band(model: BandwidthModel, observations: Observations, level: number): PlansThatHold["band"] {
  const d = model.domain;
  const sizes = [...new Set(observations.series.map((s) => s.sizeMb))].sort((a, b) => a - b);
  return sizes.map((sizeMb) => {
    const points: BandPoint[] = [];
    for (let m = Math.max(1, Math.ceil(d.mMin)); m <= d.mMax; m++) {
      const vGb = (m * sizeMb) / 1000;
      if (vGb < d.vGbMin || vGb > d.vGbMax) continue;
      try {
        const interval = predictionInterval(model, m, vGb, level);
        points.push({ m, vGb, meanMbPerS: interval.mean, lowerMbPerS: interval.lower, upperMbPerS: interval.upper });
      } catch {
        // No usable bandwidth there (≤ 0): the band has a gap, as the mean curve has.
      }
    }
    return { sizeMb, points };
  });
}

const side = (plan: "mean" | number, summary: { started: string[]; plannedCtnysS: number; missProbability: number }): PlanSide => ({
  plan,
  started: summary.started.length,
  plannedCtnysS: summary.plannedCtnysS,
  missProbability: summary.missProbability,
});

/** Leave one repetition out, for every repetition the cells all have. */
function replay(input: PlansThatHoldInput): PlansThatHold["replay"] {
  const counts = new Map<string, number>();
  for (const run of input.observations.runs) {
    if (run.uniformSizeMb === null) continue;
    const key = `${run.m}/${run.uniformSizeMb}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const folds = counts.size === 0 ? 0 : Math.min(...counts.values());
  if (folds < 2) return { notApplicable: "no replay: some (m, v) cell was measured once, so no repetition can be held out and replayed against a model fitted without it" };
  const form = (MODEL_FORMS as readonly string[]).includes(input.model.form) ? (input.model.form as (typeof MODEL_FORMS)[number]) : DEFAULT_FIT_OPTIONS.form;
  const totals = { mean: 0, confident: 0, replays: 0, meanPlanned: 0, confidentPlanned: 0, inside: 0, runs: 0 };
  for (let rank = 1; rank <= folds; rank++) {
    const split = splitRunsHoldingOut(input.observations.runs, rank);
    let model: BandwidthModel;
    try {
      model = fitBandwidthModel(summariseRuns(split.fitting), { ...DEFAULT_FIT_OPTIONS, form }).model;
    } catch (error) {
      // Two runs per cell leave one: the empirical form, for one, has no spread left to fit.
      if (!(error instanceof InputError)) throw error;
      return { notApplicable: `no replay: the ${form} form cannot be fitted without repetition ${rank} (${error.message})` };
    }
    if (!hasPredictive(model)) return { notApplicable: `no replay: the model fitted without repetition ${rank} has no run-to-run variance (no cell measured twice in the rest)` };
    const quantile = predictiveQuantile(model);
    const report = replayPlans([{ apps: [...input.apps], deadlineS: input.options.deadlineS }], { ...input.options, model, truthModel: model }, quantile, input.confidence, replayReleases(split));
    totals.mean += report.mean.misses;
    totals.confident += report.confident.misses;
    totals.replays += report.replays;
    totals.meanPlanned += report.mean.plannedCtnysS * report.replays;
    totals.confidentPlanned += report.confident.plannedCtnysS * report.replays;
    const coverage = replayCoverage(split, quantile, 0.95);
    totals.inside += coverage.inside;
    totals.runs += coverage.runs;
  }
  const sideOf = (plan: "mean" | number, misses: number): ReplaySide => ({ plan, replays: totals.replays, misses, missRate: misses / totals.replays });
  return {
    folds,
    mean: sideOf("mean", totals.mean),
    confident: sideOf(input.confidence, totals.confident),
    workGivenUpShare: totals.meanPlanned > 0 ? (totals.meanPlanned - totals.confidentPlanned) / totals.meanPlanned : 0,
    coverage: totals.runs > 0 ? totals.inside / totals.runs : 0,
    heldOutRuns: totals.runs,
  };
}

export function plansThatHold(input: PlansThatHoldInput): PlansThatHold | null {
  const { model, confidence } = input;
  if (!hasPredictive(model)) return null;
  const level = input.level ?? 0.95;
  const report = confidentPlan(input.apps, input.options, predictiveQuantile(model), confidence);
  return {
    schema: "ckpt-lab/plans-that-hold@1",
    level,
    confidence,
    band: band(model, input.observations, level),
    plans: {
      deadlineS: input.options.deadlineS,
      apps: input.apps.length,
      mean: side("mean", report.mean),
      confident: side(confidence, report.confident),
      workGivenUpS: report.costS,
      workGivenUpShare: report.costShare,
    },
    replay: replay(input),
  };
}
