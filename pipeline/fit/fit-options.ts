/**
 * The fit's options and their defaults, apart from the fit itself so that what only needs
 * the defaults (the pipeline's fit stage, listing its parameters) does not load it.
 */
import type { FitPointKind } from "./fit-points";
import type { ModelForm } from "./forms/registry";

export interface FitOptions {
  /**
   * A registered form (forms/registry.ts), or "auto" (default): every form fitted on every
   * point, the one with the lowest cross-validated RMSE kept, ties to the simpler
   * (select-form.ts). The papers' reproduction fits "paper".
   */
  form: ModelForm | "auto";
  /** "means" (default): one point per (m, v) cell; "runs": every run. */
  points: FitPointKind;
  /** Fit every point, not only those up to each series' peak (always, under "auto"). */
  allPoints: boolean;
  /** k of the k-fold cross-validation; 0 skips it (not with "auto"). */
  folds: number;
  /** Seed of the fold assignment. */
  seed: number;
}

export const DEFAULT_FIT_OPTIONS: FitOptions = { form: "auto", points: "means", allPoints: false, folds: 5, seed: 1 };
