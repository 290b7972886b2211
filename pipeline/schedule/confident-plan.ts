/**
 * Plans with a stated probability (docs/science.md §4.7): ScheduleCkpt planned on a
 * quantile of the model's predictive distribution instead of its mean, the probability
 * that a plan misses the deadline, and what the confidence costs against the mean plan.
 *
 * How the bursts of one release vary together — the one decision the predictive
 * distribution of ONE burst leaves open. The cautious default here is **one factor for the
 * whole release** (comonotone): a slow release is slow at every (m, V) it meets, at the
 * same quantile u of each burst's predictive distribution, so the release's bandwidth is
 * bw_u(m, V) = quantile(m, V, u) with one u ~ U(0, 1). Under it:
 *
 * - the plan at confidence c is ScheduleCkpt on bw_q with q = 1 − c (planned and
 *   executed on bw_q: every checkpoint it starts is planned to end by T at that quantile),
 *   or the mean plan when that one already misses T with probability ≤ 1 − c and saves at
 *   least as much (ScheduleCkpt is a heuristic: planned on a slower device it can give up
 *   a checkpoint the mean plan ends long before T; the confidence then costs nothing);
 * - a plan's miss probability is P(U < u*), u* the smallest quantile at which playing it
 *   under bw_u ends every checkpoint it started by T, found by bisection on u. The plan is
 *   played as a timetable (`play-timetable.ts`: each checkpoint started at its planned
 *   time, as the release hook does), not re-decided on the completions the faster or
 *   slower device gives. Bisection assumes that a faster release never makes the plan
 *   miss; the assumption is checked on a grid of quantiles and a break is reported
 *   (`monotoneOnGrid`), with the grid's share of missing quantiles beside the bisection.
 *
 * Comonotone bursts are the worst case for a plan that must hold as a whole: with
 * independent bursts, a slow burst at one (m, V) is made up by others. The measured traces
 * show how much correlation there is (pipeline/schedule/README.md, "How bursts vary
 * together"). Complexity: 22 + GRID executions of ScheduleCkpt per plan.
 */
import { InputError } from "../shared/errors";
import { applicationColumns, type Application } from "./application";
import { createBandwidthOracle, type BandwidthFunction } from "./bandwidth-oracle";
import { playTimetable, type TimetableOutcome } from "./play-timetable";
import { scheduleByWaves } from "./schedule-by-waves";
import { scheduleCkpt, type ScheduleCkptOutcome } from "./schedule-ckpt";
import type { ScheduleOptions } from "./schedule-options";

/** The q-quantile (MB/s) of the aggregated bandwidth of one new burst of m checkpoints of V GB in total. */
export type BandwidthQuantile = (m: number, vGb: number, q: number) => number;

/** Quantiles the bisection works within: below `QUANTILE_FLOOR` a miss probability is reported as "≤ 1e-6". */
export const QUANTILE_FLOOR = 1e-6;
const BISECTION_STEPS = 22;
/** Quantile grid (midpoints of GRID equal bins) for the monotonicity check and the expected saved work. */
const GRID = 100;

/** A confidence: a number in (0, 1), or "mean" for the papers' plans on the model's mean. */
export type Confidence = number | "mean";

/** Read `--confidence`: "mean" or a number strictly between 0 and 1. */
export function parseConfidence(text: string, flag = "--confidence"): Confidence {
  if (text === "mean") return "mean";
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value <= 0 || value >= 1) {
    throw new InputError(`${flag} must be a probability strictly between 0 and 1 (e.g. 0.95), or "mean" for the plan on the model's mean; found "${text}"`);
  }
  return value;
}

export interface PlanMissProbability {
  /** P(U < u*) under the one-factor assumption (≤ QUANTILE_FLOOR when the plan holds at the floor). */
  missProbability: number;
  /** u*: the smallest quantile at which every started checkpoint ends by T (null: not even at 1 − QUANTILE_FLOOR). */
  quantileMet: number | null;
  /** Whether "meets T" never turned false at a higher grid quantile. */
  monotoneOnGrid: boolean;
  /** Share of the grid's quantiles at which the plan misses (equals missProbability to 1/GRID when monotone). */
  gridMissShare: number;
  /** E[CTNYS] over U (grid midpoints): the work the plan saves on average, s. */
  expectedCtnysS: number;
}

export interface PlanSummary extends PlanMissProbability {
  /** The quantile planned on, or null for the model's mean. */
  plannedQuantile: number | null;
  /** Ids started (in input order) and the Σ p they were meant to save, s. */
  started: string[];
  plannedCtnysS: number;
}

export interface ConfidentPlanReport {
  schema: "ckpt-lab/confident-plan@1";
  confidence: number;
  dependence: "one factor per release, comonotone bursts";
  confident: PlanSummary;
  mean: PlanSummary;
  /** mean.plannedCtnysS − confident.plannedCtnysS: the work given up for the confidence, s. */
  costS: number;
  /** costS / mean.plannedCtnysS (0 when the mean plan saves nothing). */
  costShare: number;
  warnings: string[];
}

function execute(apps: readonly Application[], options: ScheduleOptions, waves?: readonly (readonly number[])[]): ScheduleCkptOutcome {
  return waves !== undefined && waves.length > 1 ? scheduleByWaves(apps, options, waves) : scheduleCkpt(apps, options);
}

/** bw_u as a function of (m, V): the whole release at quantile u. */
export function bandwidthAtQuantile(quantile: BandwidthQuantile, u: number): BandwidthFunction {
  return (m, vGb) => quantile(m, vGb, u);
}

/** The plan `options` describe (its `planBandwidth`, or the model's mean) as it plans itself: start times, NaN when not started. */
export function plannedTimetable(apps: readonly Application[], options: ScheduleOptions, waves?: readonly (readonly number[])[]): { outcome: ScheduleCkptOutcome; startS: Float64Array } {
  const outcome = execute(apps, { ...options, truthBandwidth: options.planBandwidth, truthModel: options.model, record: false }, waves);
  return { outcome, startS: Float64Array.from(outcome.apps, (app) => app.start ?? NaN) };
}

/** Play a timetable of `apps` on the device `bandwidth` (within `options.model`'s domain, by its policy). */
export function playPlan(apps: readonly Application[], startS: ArrayLike<number>, options: ScheduleOptions, bandwidth: BandwidthFunction): TimetableOutcome {
  const { sizesMb, pS } = applicationColumns(apps);
  return playTimetable(sizesMb, pS, startS, createBandwidthOracle(options.model, options.domain, bandwidth), options.deadlineS);
}

/**
 * The miss probability of the plan `options` describe (its `planBandwidth`, or the model's
 * mean), played under bw_u for the release's one factor u.
 */
export function planMissProbability(
  apps: readonly Application[],
  options: ScheduleOptions,
  quantile: BandwidthQuantile,
  waves?: readonly (readonly number[])[],
): PlanMissProbability {
  const { startS } = plannedTimetable(apps, options, waves);
  const run = (u: number) => playPlan(apps, startS, options, bandwidthAtQuantile(quantile, u));
  const meets = (u: number) => run(u).missed.length === 0;
  let monotoneOnGrid = true;
  let misses = 0;
  let ctnys = 0;
  let metBefore = false;
  for (let i = 0; i < GRID; i++) {
    const outcome = run((i + 0.5) / GRID);
    const met = outcome.missed.length === 0;
    if (!met) misses++;
    if (metBefore && !met) monotoneOnGrid = false;
    metBefore ||= met;
    ctnys += outcome.ctnysS;
  }
  let missProbability: number;
  let quantileMet: number | null;
  if (meets(QUANTILE_FLOOR)) {
    missProbability = QUANTILE_FLOOR;
    quantileMet = QUANTILE_FLOOR;
  } else if (!meets(1 - QUANTILE_FLOOR)) {
    missProbability = 1;
    quantileMet = null;
  } else {
    let low = QUANTILE_FLOOR; // misses
    let high = 1 - QUANTILE_FLOOR; // meets
    for (let step = 0; step < BISECTION_STEPS; step++) {
      const middle = (low + high) / 2;
      if (meets(middle)) high = middle;
      else low = middle;
    }
    missProbability = high;
    quantileMet = high;
  }
  return { missProbability, quantileMet, monotoneOnGrid, gridMissShare: misses / GRID, expectedCtnysS: ctnys / GRID };
}

function summarise(apps: readonly Application[], options: ScheduleOptions, plannedQuantile: number | null, quantile: BandwidthQuantile, waves?: readonly (readonly number[])[]): PlanSummary {
  const planned = plannedTimetable(apps, options, waves).outcome;
  return {
    plannedQuantile,
    started: planned.apps.filter((app) => app.start !== null).map((app) => app.id),
    plannedCtnysS: planned.plannedCtnys,
    ...planMissProbability(apps, options, quantile, waves),
  };
}

/** Options planning (and executing) on bw_q, or on the model's mean when `plannedQuantile` is null. */
export function planOptionsAt(options: ScheduleOptions, quantile: BandwidthQuantile, plannedQuantile: number | null): ScheduleOptions {
  const planBandwidth = plannedQuantile === null ? undefined : bandwidthAtQuantile(quantile, plannedQuantile);
  return { ...options, planBandwidth, truthBandwidth: planBandwidth };
}

/** A plan holds at `confidence` when its miss probability is at most 1 − confidence (the bisection's own resolution allowed). */
const holdsAt = (miss: PlanMissProbability, confidence: number) => miss.missProbability <= 1 - confidence + 1e-6;

/**
 * The plan at `confidence` (the module's comment) with the two it was chosen from: planned
 * on bw_q, or on the mean when the mean plan holds at that confidence and saves at least as
 * much, or when it holds and the quantile plan does not.
 */
function choosePlan(apps: readonly Application[], options: ScheduleOptions, quantile: BandwidthQuantile, confidence: number, waves?: readonly (readonly number[])[]) {
  const summaryAt = (plannedQuantile: number | null) => summarise(apps, planOptionsAt(options, quantile, plannedQuantile), plannedQuantile, quantile, waves);
  const mean = summaryAt(null);
  const atQuantile = summaryAt(1 - confidence);
  const keepMean = holdsAt(mean, confidence) && (mean.plannedCtnysS >= atQuantile.plannedCtnysS || !holdsAt(atQuantile, confidence));
  return { mean, confident: keepMean ? mean : atQuantile };
}

/** The plan at `confidence`: its options (`planBandwidth` undefined exactly when the mean plan was kept) and its summary, miss probability included. */
export function confidentChoice(
  apps: readonly Application[],
  options: ScheduleOptions,
  quantile: BandwidthQuantile,
  confidence: number,
  waves?: readonly (readonly number[])[],
): { options: ScheduleOptions; plan: PlanSummary } {
  const plan = choosePlan(apps, options, quantile, confidence, waves).confident;
  return { options: planOptionsAt(options, quantile, plan.plannedQuantile), plan };
}

/**
 * The plan at `confidence` next to the mean plan, each with its miss probability under the
 * one-factor predictive distribution, and the work the confidence gives up.
 */
export function confidentPlan(
  apps: readonly Application[],
  options: ScheduleOptions,
  quantile: BandwidthQuantile,
  confidence: number,
  waves?: readonly (readonly number[])[],
): ConfidentPlanReport {
  if (!(confidence > 0 && confidence < 1)) throw new InputError(`the confidence must be strictly between 0 and 1, found ${confidence}`);
  const { mean, confident } = choosePlan(apps, options, quantile, confidence, waves);
  const warnings: string[] = [];
  const plans = confident === mean ? ([["the mean plan, kept at this confidence,", mean]] as const) : ([["the confident plan", confident], ["the mean plan", mean]] as const);
  for (const [name, plan] of plans) {
    if (!plan.monotoneOnGrid) {
      warnings.push(`${name} meets T at some quantile of the release's bandwidth and misses it at a higher one: the bisection's miss probability ${plan.missProbability.toPrecision(3)} assumes the opposite; ${(plan.gridMissShare * 100).toFixed(0)} % of a grid of ${GRID} quantiles miss`);
    }
  }
  if (!holdsAt(confident, confidence)) {
    warnings.push(`the plan at confidence ${confidence} misses T with probability ${confident.missProbability.toPrecision(3)}, more than ${(1 - confidence).toPrecision(3)}: the ${options.estimator} estimate is optimistic at that quantile (--estimator fluid plans on the execution's own progression)`);
  }
  const costS = mean.plannedCtnysS - confident.plannedCtnysS;
  return {
    schema: "ckpt-lab/confident-plan@1",
    confidence,
    dependence: "one factor per release, comonotone bursts",
    confident,
    mean,
    costS,
    costShare: mean.plannedCtnysS > 0 ? costS / mean.plannedCtnysS : 0,
    warnings,
  };
}
