/**
 * The fit's options and their defaults, apart from the fit itself so that what only needs
 * the defaults (the pipeline's fit stage, listing its parameters) does not load it.
 */
import type { FitPointKind } from "./fit-points";
import type { ModelForm } from "./forms/registry";
import type { FitWeighting } from "./fit-weighting";

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
  /**
   * "auto" (default): relative weights when the replicates' spread grows with their mean,
   * unweighted otherwise, and always unweighted for the paper form (the papers' method);
   * "unweighted": least squares on MB/s; "relative": weights 1 / cell mean² (fit-weighting.ts).
   */
  weighting: FitWeighting | "auto";
  /**
   * The device's cap b_max (docs/science.md §3.2): the model never answers above it. A
   * number: declared by the user, MB/s (a link's or a server's rated bandwidth); "measured":
   * the largest per-(m, V) cell mean of the traces (measured-cap.ts). 0 (default): none
   * declared, and the model says so in its notes.
   */
  capMbPerS: number | "measured";
}

export const DEFAULT_FIT_OPTIONS: FitOptions = { form: "auto", points: "means", allPoints: false, folds: 5, seed: 1, weighting: "auto", capMbPerS: 0 };
