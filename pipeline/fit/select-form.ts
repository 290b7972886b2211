/**
 * `--form auto`: which form of bw(m, V) to keep, from every candidate's held-out errors on
 * the same points and the same folds (cross-validation.ts, extrapolation-score.ts).
 *
 * Score: the larger of a form's k-fold CV relative RMSE (cells held out inside the measured
 * range) and its extrapolation relative RMSE (the largest measured m held out, predicted by
 * the fit on the smaller ones) — a form must both interpolate and carry one step past the
 * data, so that one that bends away past the points (the USL falling like 1/m on a device
 * that saturates) loses to one that follows the plateau. Relative errors, because run-to-run
 * noise is multiplicative: in MB/s the plateau cells would decide alone. When the
 * extrapolation cannot be scored (fewer than three distinct m, or the points below the
 * largest m do not identify the form), the CV score is the score, and the rule says so.
 *
 * Rule: the lowest score wins, except that forms within one standard error of it (the
 * standard error of the part that makes the best form's score: its CV's over the folds, or
 * its extrapolation's over the held-out points) are tied, and a tie goes to the simpler form —
 * fewer fitted parameters, then the lower score, then the registry's order (the
 * "one-standard-error rule" of Breiman et al., *Classification and Regression Trees*, 1984,
 * §3.4.3; Hastie, Tibshirani, Friedman, *The Elements of Statistical Learning*, 2nd ed.,
 * §7.10). A candidate that cannot be fitted, whose fit did not converge, or whose CV cannot
 * be computed (some fold's training points do not identify it), is listed with the reason
 * and not chosen. When no form can be cross-validated (too few distinct points for some
 * fold) but some can be fitted on every point, the simplest of those is kept, and the rule
 * says it was chosen without cross-validation: a small first sweep still gives a model.
 */
import { InputError } from "../shared/errors";
import { POOR_FIT_E_GLOBAL_PERCENT, POOR_FIT_R_SQUARED } from "./goodness-of-fit";
import type { ModelForm } from "./forms/registry";

export interface FormCandidate {
  form: ModelForm;
  /** k-fold CV RMSE on the fit points, MB/s; null when not computed (see `reason`). */
  cvRmseMbPerS: number | null;
  cvStandardErrorMbPerS: number | null;
  /** k-fold CV relative RMSE, √(mean ((y − ŷ)/y)²); null when not computed. */
  cvRelativeRmse: number | null;
  cvRelativeStandardError: number | null;
  /** Relative RMSE at the largest measured m, fitted without it; null when not computed. */
  extrapolationRelativeRmse: number | null;
  /** Its standard error over the held-out points (extrapolation-score.ts); absent: 0. */
  extrapolationStandardError?: number | null;
  /** What selection compares: max(CV relative, extrapolation relative); null when not scored. */
  score?: number | null;
  rSquared: number | null;
  /** The papers' E_global (%) over the means up to each series' peak. */
  eGlobalPct: number | null;
  /** Fitted parameters (fixed ones not counted): the simplicity of the tie rule. */
  parameterCount: number;
  /** Every parameter by name, as the model would hold them; null when the form could not be fitted. */
  parameters: Record<string, number> | null;
  /** False when the fit stopped before converging (fit-nonlinear.ts): such a form is not chosen. */
  converged?: boolean;
  /** Why the form was not fitted or not scored. */
  reason?: string;
}

export interface FormSelection {
  chosen: ModelForm;
  /** The rule, in words, with its numbers. */
  rule: string;
  /** The score (relative) at or below which a candidate ties the best; null when no form could be cross-validated. */
  tieBelowScore: number | null;
  /** The best-scoring form's CV RMSE plus its SE, MB/s, for display; null when no form could be cross-validated. */
  tieBelowMbPerS: number | null;
  folds: number;
  seed: number;
  candidates: FormCandidate[];
}

/**
 * @example chooseForm(candidates, 5, 1).chosen // "usl"
 */
export function chooseForm(candidates: readonly FormCandidate[], folds: number, seed: number): FormSelection {
  const withScores = candidates.map((c) => ({ ...c, score: scoreOf(c) }));
  // A form the fit itself calls poor (R², E_global past the warning thresholds) is not chosen while another is not.
  const good = withScores.filter((c) => c.score !== null && !poorFit(c));
  const scored = good.length > 0 ? good : withScores.filter((c) => c.score !== null);
  const poor = withScores.filter((c) => c.score !== null && !scored.includes(c)).map((c) => c.form);
  const fitted = withScores.filter((c) => c.parameters !== null);
  if (scored.length === 0 && fitted.length > 0) {
    const simplest = fitted.reduce((a, b) => (b.parameterCount < a.parameterCount ? b : a));
    const rule =
      `no form could be cross-validated on these points (some fold's training points do not identify any form); the simplest form that fits them all, ` +
      `${simplest.form} (${simplest.parameterCount} parameters), is kept without cross-validation: add runs at more m and sizes to compare the forms`;
    return { chosen: simplest.form, rule, tieBelowScore: null, tieBelowMbPerS: null, folds, seed, candidates: withScores };
  }
  if (scored.length === 0) {
    throw new InputError(
      `--form auto: no form could be fitted on these points (${candidates.map((c) => `${c.form}: ${c.reason ?? "no CV"}`).join("; ")}); ` +
        `add runs at more m and sizes, or fewer folds (--folds)`,
    );
  }
  const best = scored.reduce((a, b) => (b.score! < a.score! ? b : a));
  // The standard error of whichever part makes the best form's score.
  const extrapolates = best.extrapolationRelativeRmse !== null && best.extrapolationRelativeRmse > best.cvRelativeRmse!;
  const bestStandardError = extrapolates ? (best.extrapolationStandardError ?? 0) : (best.cvRelativeStandardError ?? 0);
  const tieBelowScore = best.score! + bestStandardError;
  const tied = scored.filter((c) => c.score! <= tieBelowScore);
  const chosen = tied.reduce((a, b) => (b.parameterCount < a.parameterCount || (b.parameterCount === a.parameterCount && b.score! < a.score!) ? b : a));
  const others = tied.filter((c) => c !== chosen).map((c) => c.form);
  const percent = (x: number) => `${(100 * x).toPrecision(3)} %`;
  const what = (c: FormCandidate) =>
    `${c.form} (CV ${percent(c.cvRelativeRmse!)} ± ${percent(c.cvRelativeStandardError ?? 0)}, ${c.extrapolationRelativeRmse === null ? "extrapolation not scored" : `extrapolation ${percent(c.extrapolationRelativeRmse)} ± ${percent(c.extrapolationStandardError ?? 0)}`})`;
  const rule =
    `lowest score, the larger of the ${folds}-fold CV relative RMSE and the relative error at the largest measured m fitted without it: ${what(best)}; ` +
    (chosen === best && others.length === 0
      ? "no other form within one standard error"
      : `within one standard error (≤ ${percent(tieBelowScore)}): ${[chosen.form, ...others].join(", ")}; the simplest, ${chosen.form} (${chosen.parameterCount} parameters), is kept`) +
    (poor.length > 0 ? `; not considered, their fit being poor (R² < ${POOR_FIT_R_SQUARED} or E_global > ${POOR_FIT_E_GLOBAL_PERCENT} %): ${poor.join(", ")}` : "");
  const tieBelowMbPerS = best.cvRmseMbPerS === null ? null : best.cvRmseMbPerS + (best.cvStandardErrorMbPerS ?? 0);
  return { chosen: chosen.form, rule, tieBelowScore, tieBelowMbPerS, folds, seed, candidates: withScores };
}

function poorFit(c: FormCandidate): boolean {
  return (c.rSquared !== null && c.rSquared < POOR_FIT_R_SQUARED) || (c.eGlobalPct !== null && c.eGlobalPct > POOR_FIT_E_GLOBAL_PERCENT);
}

/** max(CV relative RMSE, extrapolation relative RMSE), the CV one alone when the extrapolation was not scored; null when not cross-validated or not fitted. */
function scoreOf(c: FormCandidate): number | null {
  if (c.parameters === null || c.converged === false || c.cvRelativeRmse === null || c.cvRmseMbPerS === null) return null;
  return c.extrapolationRelativeRmse === null ? c.cvRelativeRmse : Math.max(c.cvRelativeRmse, c.extrapolationRelativeRmse);
}
