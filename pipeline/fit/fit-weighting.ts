/**
 * How the least squares weighs the fit's samples (docs/science.md §4.7): on MB/s as they
 * are (the papers' fit, [Y11], [Y-thesis] §4.2), or by their relative error.
 *
 * Why a choice: run-to-run variation of a checkpoint burst is multiplicative on the
 * clusters we measured (a slower server slows every writer of a run: a cell's spread grows
 * with its bandwidth). Unweighted least squares on MB/s then lets the plateau cells, whose
 * errors are largest in MB/s, decide the fit, fits the small-bandwidth cells badly in
 * relative terms, and gives parameter intervals that assume one spread for all cells. The
 * relative fit gives each sample the weight 1 / ȳ_c² (ȳ_c its cell's mean over its runs):
 * weighted least squares with the variance of a run proportional to the square of its
 * mean — to first order the fit on ln bw, without its bias on the mean (the model still
 * estimates the mean bandwidth, which the predictive distribution expects). The cell's
 * mean, not the sample itself, is the scale, so that a run measured slow does not get a
 * larger weight for it.
 *
 * Chosen from the residuals of the replicates (`chooseWeighting`): the slope of ln sd
 * against ln mean over the cells measured at least twice (run-to-run-variance.ts) is 0 for
 * additive noise and 1 for multiplicative; at 0.5 or above the relative fit is used. With
 * fewer than three replicated cells the slope is not measured, and the fit stays on MB/s.
 * The papers' form keeps the papers' method (unweighted on MB/s) unless asked otherwise,
 * so that the reproduction is theirs.
 */
import type { DesignCell, FitColumns } from "./least-squares";
import { runToRunVariance } from "./run-to-run-variance";

export type FitWeighting = "unweighted" | "relative";
export const FIT_WEIGHTINGS: readonly (FitWeighting | "auto")[] = ["auto", "unweighted", "relative"];

/** The spread slope at or above which the noise is called multiplicative. */
export const MULTIPLICATIVE_SPREAD_SLOPE = 0.5;

export interface WeightingChoice {
  weighting: FitWeighting;
  /** Why, with the measured slope: printed in the fit's notes. */
  reason: string;
  spreadSlope: number | null;
}

/**
 * The weighting of a fit: the one asked for, or under "auto" the one the replicates' spread
 * calls for (the papers' form: theirs).
 * @example chooseWeighting("auto", "usl", runs).weighting // "relative"
 */
export function chooseWeighting(requested: FitWeighting | "auto", form: string, runs: FitColumns): WeightingChoice {
  const spreadSlope = runToRunVariance(runs).spreadSlope;
  const slope = spreadSlope === null ? "not measured (fewer than 3 cells with two runs)" : spreadSlope.toFixed(2);
  if (requested !== "auto") return { weighting: requested, reason: `weighting ${requested}, as asked (spread slope ${slope})`, spreadSlope };
  if (form === "paper") {
    return { weighting: "unweighted", reason: `unweighted least squares on MB/s, the papers' method for their form (spread slope ${slope}; --weighting relative to weigh by relative error)`, spreadSlope };
  }
  if (spreadSlope !== null && spreadSlope >= MULTIPLICATIVE_SPREAD_SLOPE) {
    return {
      weighting: "relative",
      reason: `relative weights (1 / cell mean²): the replicates' spread grows with their mean (slope of ln sd on ln mean ${slope} ≥ ${MULTIPLICATIVE_SPREAD_SLOPE}: multiplicative run-to-run noise)`,
      spreadSlope,
    };
  }
  return {
    weighting: "unweighted",
    reason: `unweighted least squares on MB/s: ${spreadSlope === null ? `the replicates' spread slope is ${slope}` : `the replicates' spread does not grow with their mean (slope of ln sd on ln mean ${slope} < ${MULTIPLICATIVE_SPREAD_SLOPE})`}`,
    spreadSlope,
  };
}

/** The cells with the weights of `weighting` (unweighted: as they are). */
export function weightCells(cells: readonly DesignCell[], weighting: FitWeighting): readonly DesignCell[] {
  if (weighting === "unweighted") return cells;
  // Field by field rather than by spread: every fit of --form auto weighs its cells (10,000 per fit, dozens of fits).
  return cells.map((cell) => ({
    m: cell.m,
    vGb: cell.vGb,
    count: cell.count,
    meanBwMbPerS: cell.meanBwMbPerS,
    sumSquaredDeviations: cell.sumSquaredDeviations,
    weight: cell.meanBwMbPerS > 0 ? 1 / (cell.meanBwMbPerS * cell.meanBwMbPerS) : 1,
  }));
}
