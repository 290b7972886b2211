/**
 * k-fold cross-validated RMSE of the least-squares fit: the error on points the fit did
 * not see (docs/science.md §3.3 asks for held-out error next to the in-sample figures).
 *
 * Folds: the fit points are shuffled with the seeded generator (`createRandom(seed)`, a
 * Fisher–Yates shuffle from simple-statistics) and dealt round-robin, so fold sizes differ
 * by at most one and a seed always gives the same folds. Each fold is predicted by the fit
 * on the other k − 1 (same solver, same identifiability rules); CV RMSE =
 * √(Σ held-out squared errors / N).
 *
 * Any registered form (fit-form.ts: OLS for the papers' forms, Levenberg–Marquardt for the
 * project's), so that `--form auto` scores every candidate on the same folds.
 *
 * Folds are grouped by (m, V) cell: the cells are shuffled and dealt, and every fit point of
 * a cell (its mean, or with `--points runs` each of its replicate runs) goes to the cell's
 * fold, so a cell's replicates never sit on both sides of a fold — held-out runs whose
 * cell the fit saw would score the replicates' noise, not the form. (With per-cell means
 * these are the folds of the points themselves.)
 *
 * Two scores: the RMSE in MB/s (what the papers' reproduction reports), and the relative
 * RMSE, √(mean ((y − ŷ)/y)²) over the held-out points, which `--form auto` selects on: with
 * multiplicative run-to-run noise an error of 5 MB/s is nothing on an 800 MB/s plateau
 * and everything at 40 MB/s, and the MB/s score would let the plateau cells decide alone.
 * The fit inside each fold uses the weighting of the fit itself (fit-weighting.ts).
 *
 * Standard error: the spread of the folds' mean squared errors, SE(MSE) = sd_f(MSE_f)/√k
 * (Hastie, Tibshirani, Friedman, *The Elements of Statistical Learning*, 2nd ed., §7.10,
 * "one-standard-error rule"), carried to the RMSE by the delta method,
 * SE(RMSE) = SE(MSE) / (2·RMSE). `--form auto` calls two forms tied within it.
 *
 * Decision: when some fold's training points cannot identify the form (e.g. the fold held
 * every point at one m), the CV figure is not computed (null) and the reason is reported:
 * an average over the folds that happened to be fittable would be biased.
 *
 * Cost: the samples are grouped by design row once; each fold then accumulates its
 * training cells in typed arrays and solves the small compressed problem, O(k·N) in all.
 */
import { InputError } from "../shared/errors";
import { createRandom } from "../shared/random";
import { fitFormCells } from "./fit-form";
import { groupByDesignRow, toFitColumns, type DesignCell, type FitColumns, type FitSample } from "./least-squares";
import { bandwidthEvaluator, type ModelForm } from "./model";
import type { FitWeighting } from "./fit-weighting";
import { shuffleInPlace } from "simple-statistics";

export interface CrossValidation {
  folds: number;
  seed: number;
  /** √(mean held-out squared error), MB/s; null when a fold could not be fitted. */
  rmseMbPerS: number | null;
  /** Its standard error over the folds (delta method on the folds' MSEs), MB/s; null with it. */
  standardErrorMbPerS?: number | null;
  /** √(mean held-out ((y − ŷ)/y)²): the relative error `--form auto` selects on; null with `rmseMbPerS`. */
  relativeRmse?: number | null;
  /** Its standard error over the folds, as for the MB/s score. */
  relativeStandardError?: number | null;
  /** Why `rmseMbPerS` is null. */
  reason?: string;
}

/** Fold of each sample (0..folds−1), from a seeded shuffle. */
export function assignFolds(sampleCount: number, folds: number, seed: number): Int32Array {
  const order = Array.from({ length: sampleCount }, (_, i) => i);
  shuffleInPlace(order, createRandom(seed).next);
  const fold = new Int32Array(sampleCount);
  for (let position = 0; position < sampleCount; position++) fold[order[position]!] = position % folds;
  return fold;
}

/**
 * @example crossValidate(points, "paper", 5, 1).rmseMbPerS
 */
export function crossValidate(samples: readonly FitSample[] | FitColumns, form: ModelForm, folds: number, seed: number, weighting: FitWeighting = "unweighted"): CrossValidation {
  const columns = toFitColumns(samples);
  const n = columns.m.length;
  if (!Number.isInteger(folds) || folds < 2) throw new InputError(`cross-validation needs an integer number of folds ≥ 2, got ${folds}`);
  const cellOf = new Int32Array(n);
  const cells = groupByDesignRow(columns, cellOf);
  // Not an error: a first sweep (IOR's usual 1, 2, 4 tasks) still gets its fit, and
  // --form auto keeps a form without cross-validation, said in its rule.
  if (folds > cells.length) {
    return { folds, seed, rmseMbPerS: null, standardErrorMbPerS: null, reason: `cannot make ${folds} folds of ${cells.length} measured (m, V) cells: use at most ${cells.length} folds (--folds)` };
  }
  const foldOfCell = assignFolds(cells.length, folds, seed);
  const foldOf = Int32Array.from(cellOf, (c) => foldOfCell[c]!);
  const y = columns.bwMbPerS;
  const count = new Float64Array(cells.length);
  const mean = new Float64Array(cells.length);
  const spread = new Float64Array(cells.length);
  const predicted = new Float64Array(cells.length);
  let squaredErrorSum = 0;
  let relativeSquaredSum = 0;
  const foldMse: number[] = [];
  const foldRelativeMse: number[] = [];
  for (let fold = 0; fold < folds; fold++) {
    count.fill(0);
    mean.fill(0);
    spread.fill(0);
    for (let i = 0; i < n; i++) {
      if (foldOf[i] === fold) continue;
      const c = cellOf[i]!;
      count[c] = count[c]! + 1;
      const delta = y[i]! - mean[c]!;
      mean[c] = mean[c]! + delta / count[c]!;
      spread[c] = spread[c]! + delta * (y[i]! - mean[c]!);
    }
    const training: DesignCell[] = [];
    cells.forEach((cell, c) => {
      if (count[c]! > 0) training.push({ m: cell.m, vGb: cell.vGb, count: count[c]!, meanBwMbPerS: mean[c]!, sumSquaredDeviations: spread[c]! });
    });
    let coefficients: Record<string, number>;
    try {
      coefficients = fitFormCells(training, form, weighting).values;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return {
        folds,
        seed,
        rmseMbPerS: null,
        standardErrorMbPerS: null,
        relativeRmse: null,
        relativeStandardError: null,
        reason: `fold ${fold + 1} of ${folds}: the other folds' points ${error.message.replace(/^cannot fit [^:]*: /, "cannot identify the form: ")}`,
      };
    }
    const bw = bandwidthEvaluator({ form, coefficients, bandwidthCapMbPerS: null });
    cells.forEach((cell, c) => {
      predicted[c] = bw(cell.m, cell.vGb);
    });
    let foldSum = 0;
    let foldRelativeSum = 0;
    let foldCount = 0;
    for (let i = 0; i < n; i++) {
      if (foldOf[i] !== fold) continue;
      const error = y[i]! - predicted[cellOf[i]!]!;
      foldSum += error * error;
      foldRelativeSum += relativeSquaredError(y[i]!, predicted[cellOf[i]!]!);
      foldCount += 1;
    }
    squaredErrorSum += foldSum;
    relativeSquaredSum += foldRelativeSum;
    foldMse.push(foldSum / foldCount);
    foldRelativeMse.push(foldRelativeSum / foldCount);
  }
  const rmseMbPerS = Math.sqrt(squaredErrorSum / n);
  const relativeRmse = Math.sqrt(relativeSquaredSum / n);
  return {
    folds,
    seed,
    rmseMbPerS,
    standardErrorMbPerS: rootStandardError(foldMse, rmseMbPerS),
    relativeRmse,
    relativeStandardError: rootStandardError(foldRelativeMse, relativeRmse),
  };
}

/**
 * ((y − ŷ)/y)², the squared relative error of one prediction; a measured bandwidth ≤ 0 (not
 * a bandwidth) scores on the prediction's scale instead, so that it stays finite.
 */
export function relativeSquaredError(observed: number, predicted: number): number {
  const scale = observed > 0 ? observed : Math.abs(predicted) > 0 ? Math.abs(predicted) : 1;
  return ((observed - predicted) / scale) ** 2;
}

/** SE of a root-mean-square score from its folds' mean squares: sd/√k, by the delta method (÷ 2·RMS). */
function rootStandardError(foldMeanSquares: readonly number[], root: number): number {
  const k = foldMeanSquares.length;
  const mean = foldMeanSquares.reduce((a, b) => a + b, 0) / k;
  const sd = Math.sqrt(foldMeanSquares.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (k - 1));
  return root > 0 ? sd / Math.sqrt(k) / (2 * root) : 0;
}
