/**
 * The bandwidth model as ScheduleCkpt consumes it: `bw(m, V)` in MB/s (V in GB = MB /
 * 1000), with the fitted-domain policy applied and every evaluation counted.
 *
 * Why a policy at all: the published model was fitted on m ∈ [1, 18], V ≤ 3.42 GB
 * ([Y-thesis] Table 4.1 up to each peak) and the quadratic collapses outside it — bw(70,
 * 21 GB) < 0 — while a family-C instance can reach 70 applications and 21 GB. docs/science.md §3.2:
 * "treat bw ≤ 0 (or beyond the fitted domain) as infeasible / unknown, never divide by
 * it". The two policies:
 *
 * - `strict` (the default): a point **above** the fitted box (more concurrent checkpoints
 *   `m > mMax` or more data `V > vGbMax` than was ever measured) is infeasible: the set is
 *   never started, a running set that reaches it stalls. A point **below** the box is
 *   used and counted (`belowDomain`): the fluid progression (docs/science.md §4.2) re-evaluates the
 *   model on the *remaining* sizes, so every checkpoint ends with V → 0 (below the
 *   smallest measured V = 15 MB), where the polynomial tends smoothly to its m-only part
 *   `b·m² + d·m + e`; refusing it would make every fluid estimate infeasible and a single
 *   10 MB application unschedulable, which no researcher wants.
 * - `warn`: every point with a usable value is used; points outside the box are counted
 *   (`aboveDomain`, `belowDomain`) so that the output can say how much of a result rests
 *   on extrapolation.
 *
 * In both, a value ≤ 0 or NaN is infeasible (returned as NaN, counted as `nonPositive`),
 * never divided by. `bw(0, 0) = e` (index_bw_max's starting point, docs/science.md §4.3) is a
 * definition, not a prediction: it is read with `idleBandwidthMbPerS` and not counted.
 *
 * The returned function is allocation-free; the counters live in the closure.
 */
import { bandwidthEvaluator, type BandwidthModel } from "../fit/model";

export type DomainPolicy = "strict" | "warn";
export const DOMAIN_POLICIES: readonly DomainPolicy[] = ["strict", "warn"];

export interface BandwidthEvaluationCounts {
  /** Every call of `bandwidthMbPerS`. */
  evaluations: number;
  /** Points above the fitted box (m > mMax or V > vGbMax); infeasible under `strict`. */
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
  readonly policy: DomainPolicy;
  /** Aggregated bandwidth in MB/s for m concurrent checkpoints of V GB, or NaN when infeasible. */
  bandwidthMbPerS(m: number, vGb: number): number;
  /** bw(0, 0) = the model's constant term: the bandwidth of an idle device (docs/science.md §4.3). */
  readonly idleBandwidthMbPerS: number;
  counts(): BandwidthEvaluationCounts;
  resetCounts(): void;
}

export function createBandwidthOracle(model: BandwidthModel, policy: DomainPolicy = "strict"): BandwidthOracle {
  const raw = bandwidthEvaluator(model);
  const { mMin, mMax, vGbMin, vGbMax } = model.domain;
  const strict = policy === "strict";
  let evaluations = 0;
  let aboveDomain = 0;
  let belowDomain = 0;
  let nonPositive = 0;
  let firstAboveDomain: BandwidthEvaluationCounts["firstAboveDomain"] = null;
  let firstNonPositive: BandwidthEvaluationCounts["firstNonPositive"] = null;
  return {
    model,
    policy,
    idleBandwidthMbPerS: raw(0, 0),
    // Parenthesised: compiled with its factory, not on the first decision (schedule-ckpt.ts, "Cold start").
    bandwidthMbPerS: (function bandwidthMbPerS(m: number, vGb: number): number {
      evaluations++;
      if (m > mMax || vGb > vGbMax) {
        aboveDomain++;
        if (firstAboveDomain === null) firstAboveDomain = { m, vGb };
        if (strict) return NaN;
      } else if (m < mMin || vGb < vGbMin) {
        belowDomain++;
      }
      const bw = raw(m, vGb);
      if (bw > 0) return bw;
      nonPositive++;
      if (firstNonPositive === null) firstNonPositive = { m, vGb, rawMbPerS: bw };
      return NaN;
    }),
    counts: () => ({ evaluations, aboveDomain, belowDomain, nonPositive, firstAboveDomain, firstNonPositive }),
    resetCounts() {
      evaluations = aboveDomain = belowDomain = nonPositive = 0;
      firstAboveDomain = null;
      firstNonPositive = null;
    },
  };
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
