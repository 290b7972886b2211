/**
 * The fit's options and their defaults, apart from the fit itself so that what only needs
 * the defaults (the pipeline's fit stage, listing its parameters) does not load it.
 */
import type { FitPointKind } from "./fit-points";
import type { ModelForm } from "./model";

export interface FitOptions {
  /** "paper" (5 terms, default) or "full" (9 terms). */
  form: ModelForm;
  /** "means" (default): one point per (m, v) cell; "runs": every run. */
  points: FitPointKind;
  /** Fit every point, not only those up to each series' peak. */
  allPoints: boolean;
  /** k of the k-fold cross-validation; 0 skips it. */
  folds: number;
  /** Seed of the fold assignment. */
  seed: number;
}

export const DEFAULT_FIT_OPTIONS: FitOptions = { form: "paper", points: "means", allPoints: false, folds: 5, seed: 1 };
