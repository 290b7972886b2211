/**
 * k-fold cross-validated RMSE of the least-squares fit: the error on points the fit did
 * not see (SPEC §3.3 asks for held-out error next to the in-sample figures).
 *
 * Folds: the fit points are shuffled with the seeded generator (`createRandom(seed)`, a
 * Fisher–Yates shuffle from simple-statistics) and dealt round-robin, so fold sizes differ
 * by at most one and a seed always gives the same folds. Each fold is predicted by the fit
 * on the other k − 1 (same solver, same identifiability rules); CV RMSE =
 * √(Σ held-out squared errors / N).
 *
 * Decision: when some fold's training points cannot identify the form (e.g. the fold held
 * every point at one m), the CV figure is not computed (null) and the reason is reported:
 * an average over the folds that happened to be fittable would be biased.
 *
 * Cost: one grouping of the training samples and one small solve per fold, O(k·N).
 */
import { InputError } from "../shared/errors";
import { createRandom } from "../shared/random";
import { fitDesignCells, groupByDesignRow, type FitSample } from "./least-squares";
import { bandwidthEvaluator, type ModelForm } from "./model";
import { shuffleInPlace } from "./simple-statistics";

export interface CrossValidation {
  folds: number;
  seed: number;
  /** √(mean held-out squared error), MB/s; null when a fold could not be fitted. */
  rmseMbPerS: number | null;
  /** Why `rmseMbPerS` is null. */
  reason?: string;
}

/** Fold of each sample (0..folds−1), from a seeded shuffle. */
export function assignFolds(sampleCount: number, folds: number, seed: number): Int32Array {
  const order = Array.from({ length: sampleCount }, (_, i) => i);
  shuffleInPlace(order, createRandom(seed).next);
  const fold = new Int32Array(sampleCount);
  order.forEach((sample, position) => {
    fold[sample] = position % folds;
  });
  return fold;
}

/**
 * @example crossValidate(points, "paper", 5, 1).rmseMbPerS
 */
export function crossValidate(samples: readonly FitSample[], form: ModelForm, folds: number, seed: number): CrossValidation {
  if (!Number.isInteger(folds) || folds < 2) throw new InputError(`cross-validation needs an integer number of folds ≥ 2, got ${folds}`);
  if (folds > samples.length) {
    throw new InputError(`cannot make ${folds} folds of ${samples.length} fit points: use at most ${samples.length} folds (or 0 to skip cross-validation)`);
  }
  const foldOf = assignFolds(samples.length, folds, seed);
  let squaredErrorSum = 0;
  for (let fold = 0; fold < folds; fold++) {
    const training: FitSample[] = [];
    for (let i = 0; i < samples.length; i++) if (foldOf[i] !== fold) training.push(samples[i]!);
    let coefficients: Record<string, number>;
    try {
      const fit = fitDesignCells(groupByDesignRow(training), form);
      coefficients = Object.fromEntries(fit.terms.map((term, j) => [term.name, fit.coefficients[j]!]));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return { folds, seed, rmseMbPerS: null, reason: `fold ${fold + 1} of ${folds}: the other folds' points ${error.message.replace(/^cannot fit [^:]*: /, "cannot identify the form: ")}` };
    }
    const bw = bandwidthEvaluator({ form, coefficients, bandwidthCapMbPerS: null });
    for (let i = 0; i < samples.length; i++) {
      if (foldOf[i] !== fold) continue;
      const sample = samples[i]!;
      const error = sample.bwMbPerS - bw(sample.m, sample.vGb);
      squaredErrorSum += error * error;
    }
  }
  return { folds, seed, rmseMbPerS: Math.sqrt(squaredErrorSum / samples.length) };
}
