/**
 * The bandwidth model as ScheduleCkpt consumes it: `bw(m, V)` in MB/s (V in GB = MB /
 * 1000), with the fitted-domain policy applied and every evaluation counted.
 *
 * Why a policy at all: the published model was fitted on m ∈ [1, 18], V ≤ 3.42 GB
 * ([Y-thesis] Table 4.1 up to each peak) and the quadratic collapses outside it — bw(70,
 * 21 GB) < 0 — while a family-C instance can reach 70 applications and 21 GB. docs/science.md §3.2:
 * "treat bw ≤ 0 (or beyond the fitted domain) as infeasible / unknown, never divide by
 * it". The two policies (bandwidth/outside-domain.ts; `strict` and `warn` are their older
 * aliases):
 *
 * - `refuse` (the default): a point **above** the fitted box (more concurrent checkpoints
 *   `m > mMax` or more data `V > vGbMax` than was ever measured) is infeasible: the set is
 *   never started, a running set that reaches it stalls. A point **below** the box is
 *   used and counted (`belowDomain`): the fluid progression (docs/science.md §4.2) re-evaluates the
 *   model on the *remaining* sizes, so every checkpoint ends with V → 0 (below the
 *   smallest measured V = 15 MB), where the polynomial tends smoothly to its m-only part
 *   `b·m² + d·m + e`; refusing it would make every fluid estimate infeasible and a single
 *   10 MB application unschedulable, which no researcher wants.
 * - `extrapolate`: every point with a usable value is used; points outside the box are counted
 *   (`aboveDomain`, `belowDomain`) so that the output can say how much of a result rests
 *   on extrapolation.
 *
 * In both, a value ≤ 0 or NaN is infeasible (returned as NaN, counted as `nonPositive`),
 * never divided by. `bw(0, 0) = e` (index_bw_max's starting point, docs/science.md §4.3) is a
 * definition, not a prediction: it is read with `idleBandwidthMbPerS` and not counted (the
 * project's forms give bw(0, V) = 0: an idle device moves nothing).
 *
 * `bandwidthMbPerS` is allocation-free; the counters are fields of the oracle.
 */
import type { FormEvaluate } from "../fit/forms/bandwidth-form";
import { bandwidthAt, evaluationCoefficients, formOf, writerSizeBoundsGb, type BandwidthModel } from "../fit/model";
import { scheduleDomainPolicy, type ScheduleDomainPolicy } from "../bandwidth/outside-domain";

export { SCHEDULE_DOMAIN_POLICIES, scheduleDomainPolicy, type ScheduleDomainPolicy } from "../bandwidth/outside-domain";

/**
 * bw(m, V in GB) in MB/s given as a function instead of a form's coefficients: a quantile
 * of the model's predictive distribution (`confident-plan.ts`) or a replayed run's measured
 * bandwidth (`replay-plan.ts`). The model still gives the name and the fitted domain.
 */
export type BandwidthFunction = (m: number, vGb: number) => number;

export interface BandwidthEvaluationCounts {
  /** Every call of `bandwidthMbPerS`. */
  evaluations: number;
  /** Points above the fitted box (m > mMax or V > vGbMax, or V/m above the sizes per writer of a model that has them); infeasible under `refuse`. */
  aboveDomain: number;
  /** Points below the fitted box (V < vGbMin or m < mMin); used under both policies. */
  belowDomain: number;
  /** Points where the model gave a value ≤ 0 or NaN (infeasible). */
  nonPositive: number;
  /** The first point above the domain, to quote in messages. */
  firstAboveDomain: { m: number; vGb: number } | null;
  /** The first point where the model gave no usable value. */
  firstNonPositive: { m: number; vGb: number; rawMbPerS: number } | null;
}

export interface BandwidthOracle {
  readonly model: BandwidthModel;
  readonly policy: ScheduleDomainPolicy;
  /** Aggregated bandwidth in MB/s for m concurrent checkpoints of V GB, or NaN when infeasible. */
  bandwidthMbPerS(m: number, vGb: number): number;
  /** bw(0, 0): the paper form's constant term e, the bandwidth of an idle device (docs/science.md §4.3); 0 for the project's forms. */
  readonly idleBandwidthMbPerS: number;
  counts(): BandwidthEvaluationCounts;
  resetCounts(): void;
}

export function createBandwidthOracle(model: BandwidthModel, domainPolicy: ScheduleDomainPolicy = "refuse", bandwidth?: BandwidthFunction): BandwidthOracle {
  // Read again: a notebook's plain JavaScript may still pass an older word, or a wrong one.
  const policy = scheduleDomainPolicy(domainPolicy);
  const { mMin, mMax, vGbMin, vGbMax } = model.domain;
  // A model that holds at measured sizes per writer only (one size, or the empirical form's cells):
  // more data per writer than measured is above its domain, less is below. Others: no bound.
  const { low: writerGbMin, high: writerGbMax } = writerSizeBoundsGb(model.domain);
  // A function replaces the form (and its cap: a quantile or a measured run carries its own).
  // Only plans with a confidence and replays pass one, so the campaigns' hot loops keep
  // their single call target per form.
  const evaluate: FormEvaluate = bandwidth === undefined ? formOf(model.form).evaluate : (_k, m, vGb) => bandwidth(m, vGb);
  const coefficients = bandwidth === undefined ? evaluationCoefficients(model) : new Float64Array(0);
  const capMbPerS = bandwidth === undefined ? (model.bandwidthCapMbPerS ?? Infinity) : Infinity;
  const state: OracleState = {
    model,
    policy,
    evaluate,
    coefficients,
    capMbPerS,
    mMin,
    mMax,
    vGbMin,
    vGbMax,
    writerGbMin,
    writerGbMax,
    refusesAboveDomain: policy === "refuse",
    evaluations: 0,
    aboveDomain: 0,
    belowDomain: 0,
    nonPositive: 0,
    firstAboveDomain: null,
    firstNonPositive: null,
    idleBandwidthMbPerS: idleBandwidth(model, bandwidth),
    bandwidthMbPerS: countedBandwidth,
    counts: countsOf,
    resetCounts,
  };
  return state;
}

/**
 * bw(0, 0): the replacing function's own value when it has one (a quantile of the paper
 * form's e, so that index_bw_max compares like with like), else the form's definition
 * (0 for the project's forms, whose idle device moves nothing; a measured device has no
 * idle cell).
 */
function idleBandwidth(model: BandwidthModel, bandwidth: BandwidthFunction | undefined): number {
  const own = bandwidth?.(0, 0);
  if (own !== undefined && Number.isFinite(own) && own > 0) return own;
  return bandwidthAt(formOf(model.form).evaluate, evaluationCoefficients(model), model.bandwidthCapMbPerS ?? Infinity, 0, 0);
}

/**
 * An oracle's fields. Its methods are the module-level functions below, shared by every
 * oracle: ScheduleCkpt makes two oracles per run, and a closure per oracle would give V8 a
 * new call target each run, which undoes the inlining of the hot loops (a "wrong call
 * target" deoptimisation, then generic calls; measured as runs 1.6× slower, at random).
 */
interface OracleState extends BandwidthOracle, BandwidthEvaluationCounts {
  readonly evaluate: FormEvaluate;
  readonly coefficients: Float64Array;
  readonly capMbPerS: number;
  readonly mMin: number;
  readonly mMax: number;
  readonly vGbMin: number;
  readonly vGbMax: number;
  readonly writerGbMin: number;
  readonly writerGbMax: number;
  readonly refusesAboveDomain: boolean;
}

// Parenthesised: compiled with the module, not on the first decision (schedule-ckpt.ts, "Cold start").
// The rare cases are out of line so that this stays small enough for V8 to inline into ks_bw's loops.
const countedBandwidth = (function bandwidthMbPerS(this: OracleState, m: number, vGb: number): number {
  this.evaluations++;
  if (m > this.mMax || vGb > this.vGbMax || vGb > m * this.writerGbMax) {
    if (countAboveDomain(this, m, vGb)) return NaN;
  } else if (m < this.mMin || vGb < this.vGbMin || vGb < m * this.writerGbMin) {
    this.belowDomain++;
  }
  const bw = bandwidthAt(this.evaluate, this.coefficients, this.capMbPerS, m, vGb);
  return bw > 0 ? bw : countNonPositive(this, m, vGb, bw);
});

/** Count a point above the box; true when the policy makes it infeasible. */
function countAboveDomain(state: OracleState, m: number, vGb: number): boolean {
  state.aboveDomain++;
  if (state.firstAboveDomain === null) state.firstAboveDomain = { m, vGb };
  return state.refusesAboveDomain;
}

function countNonPositive(state: OracleState, m: number, vGb: number, rawMbPerS: number): number {
  state.nonPositive++;
  if (state.firstNonPositive === null) state.firstNonPositive = { m, vGb, rawMbPerS };
  return NaN;
}

function countsOf(this: OracleState): BandwidthEvaluationCounts {
  const { evaluations, aboveDomain, belowDomain, nonPositive, firstAboveDomain, firstNonPositive } = this;
  return { evaluations, aboveDomain, belowDomain, nonPositive, firstAboveDomain, firstNonPositive };
}

function resetCounts(this: OracleState): void {
  this.evaluations = this.aboveDomain = this.belowDomain = this.nonPositive = 0;
  this.firstAboveDomain = null;
  this.firstNonPositive = null;
}

/** Add two count records (e.g. over the waves of a run); the first example points are kept. */
export function addEvaluationCounts(a: BandwidthEvaluationCounts, b: BandwidthEvaluationCounts): BandwidthEvaluationCounts {
  return {
    evaluations: a.evaluations + b.evaluations,
    aboveDomain: a.aboveDomain + b.aboveDomain,
    belowDomain: a.belowDomain + b.belowDomain,
    nonPositive: a.nonPositive + b.nonPositive,
    firstAboveDomain: a.firstAboveDomain ?? b.firstAboveDomain,
    firstNonPositive: a.firstNonPositive ?? b.firstNonPositive,
  };
}
