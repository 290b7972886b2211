/**
 * `--form auto`: which form of bw(m, V) to keep, from every candidate's cross-validated
 * error on the same points and the same folds (cross-validation.ts).
 *
 * Rule: the lowest k-fold CV RMSE wins, except that forms within one standard error of it
 * are tied, and a tie goes to the simpler form — fewer fitted parameters, then the lower
 * CV RMSE, then the registry's order (the "one-standard-error rule" of Breiman et al.,
 * *Classification and Regression Trees*, 1984, §3.4.3; Hastie, Tibshirani, Friedman, *The
 * Elements of Statistical Learning*, 2nd ed., §7.10). The standard error is the best form's,
 * over the folds. A candidate that cannot be fitted, or whose CV cannot be computed (some
 * fold's training points do not identify it), is listed with the reason and not chosen.
 * When no form can be cross-validated (too few distinct points for some fold) but some can
 * be fitted on every point, the simplest of those is kept, and the rule says it was chosen
 * without cross-validation: a small first sweep still gives a model.
 */
import { InputError } from "../shared/errors";
import type { ModelForm } from "./forms/registry";

export interface FormCandidate {
  form: ModelForm;
  /** k-fold CV RMSE on the fit points, MB/s; null when not computed (see `reason`). */
  cvRmseMbPerS: number | null;
  cvStandardErrorMbPerS: number | null;
  rSquared: number | null;
  /** The papers' E_global (%) over the means up to each series' peak. */
  eGlobalPct: number | null;
  /** Fitted parameters (fixed ones not counted): the simplicity of the tie rule. */
  parameterCount: number;
  /** Every parameter by name, as the model would hold them; null when the form could not be fitted. */
  parameters: Record<string, number> | null;
  /** Why the form was not fitted or not scored. */
  reason?: string;
}

export interface FormSelection {
  chosen: ModelForm;
  /** The rule, in words, with its numbers. */
  rule: string;
  /** The CV RMSE below which a candidate ties the best, MB/s; null when no form could be cross-validated. */
  tieBelowMbPerS: number | null;
  folds: number;
  seed: number;
  candidates: FormCandidate[];
}

/**
 * @example chooseForm(candidates, 5, 1).chosen // "usl"
 */
export function chooseForm(candidates: readonly FormCandidate[], folds: number, seed: number): FormSelection {
  const scored = candidates.filter((c) => c.cvRmseMbPerS !== null);
  const fitted = candidates.filter((c) => c.parameters !== null);
  if (scored.length === 0 && fitted.length > 0) {
    const simplest = fitted.reduce((a, b) => (b.parameterCount < a.parameterCount ? b : a));
    const rule =
      `no form could be cross-validated on these points (some fold's training points do not identify any form); the simplest form that fits them all, ` +
      `${simplest.form} (${simplest.parameterCount} parameters), is kept without cross-validation: add runs at more m and sizes to compare the forms`;
    return { chosen: simplest.form, rule, tieBelowMbPerS: null, folds, seed, candidates: [...candidates] };
  }
  if (scored.length === 0) {
    throw new InputError(
      `--form auto: no form could be fitted on these points (${candidates.map((c) => `${c.form}: ${c.reason ?? "no CV"}`).join("; ")}); ` +
        `add runs at more m and sizes, or fewer folds (--folds)`,
    );
  }
  const best = scored.reduce((a, b) => (b.cvRmseMbPerS! < a.cvRmseMbPerS! ? b : a));
  const tieBelowMbPerS = best.cvRmseMbPerS! + (best.cvStandardErrorMbPerS ?? 0);
  const tied = scored.filter((c) => c.cvRmseMbPerS! <= tieBelowMbPerS);
  const chosen = tied.reduce((a, b) =>
    b.parameterCount < a.parameterCount || (b.parameterCount === a.parameterCount && b.cvRmseMbPerS! < a.cvRmseMbPerS!) ? b : a,
  );
  const others = tied.filter((c) => c !== chosen).map((c) => c.form);
  const rule =
    `lowest ${folds}-fold CV RMSE: ${best.form} (${best.cvRmseMbPerS!.toPrecision(4)} ± ${(best.cvStandardErrorMbPerS ?? 0).toPrecision(2)} MB/s); ` +
    (chosen === best && others.length === 0
      ? "no other form within one standard error"
      : `within one standard error (≤ ${tieBelowMbPerS.toPrecision(4)} MB/s): ${[chosen.form, ...others].join(", ")}; the simplest, ${chosen.form} (${chosen.parameterCount} parameters), is kept`);
  return { chosen: chosen.form, rule, tieBelowMbPerS, folds, seed, candidates: [...candidates] };
}
