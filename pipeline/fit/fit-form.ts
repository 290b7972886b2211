/**
 * One least-squares fit of any registered form on the fit's cells (docs/science.md §3.2,
 * §3.5): ordinary least squares for the papers' polynomial forms (least-squares.ts), and
 * Levenberg–Marquardt for the project's nonlinear ones (fit-nonlinear.ts), with the same
 * objective, the same statistics and the same kind of refusal. Cross-validation, `--form
 * auto` and the fit stage all fit through here.
 */
import type { BandwidthForm, FormParameter } from "./forms/bandwidth-form";
import { formOf, type LinearModelForm, type ModelForm } from "./model";
import { fitDesignCells, groupByDesignRow, toFitColumns, type DesignCell, type FitColumns, type FitSample, type FitStatistics } from "./least-squares";
import { fitNonlinearCells, type NonlinearFit } from "./fit-nonlinear";
import { fitEmpiricalCells } from "./fit-empirical";
import { fitOneSizeCells, singleWriterSizeGb } from "./one-size-fit";
import { weightCells, type FitWeighting } from "./fit-weighting";

export interface FormFit extends FitStatistics {
  form: ModelForm;
  /** The fitted parameters, in the form's order (fixed ones are in `values` only). */
  fitted: readonly FormParameter[];
  /** Estimates of `fitted`, in model units. */
  estimates: number[];
  /** Every parameter by name, fixed ones included: what a model's `coefficients` holds. */
  values: Record<string, number>;
  /** Fitted parameters that ended on a bound of their form. */
  atBound: string[];
  /** False when the nonlinear solver stopped before converging (with `stopReason`); true for the linear and empirical fits. */
  converged: boolean;
  stopReason?: string;
  /** How it was solved, for the model's provenance. */
  method: string;
  /** Fitted on one size per writer (one-size-fit.ts): that size and the parameters held at 0. */
  oneSize?: { writerGb: number; held: string[] };
}

const LINEAR_METHOD = "ordinary least squares (ml-regression-multivariate-linear) on the column-scaled design; docs/science.md §3.2";
const NONLINEAR_METHOD = "nonlinear least squares, Levenberg–Marquardt from the form's starting points (pipeline/fit/levenberg-marquardt.ts); docs/science.md §3.5";

/** Fit `form` on cells grouped by design row; throws an `InputError` naming what the data lack. */
export function fitFormCells(measured: readonly DesignCell[], formName: ModelForm, weighting: FitWeighting = "unweighted"): FormFit {
  const form = formOf(formName);
  const cells = weightCells(measured, weighting);
  if (formName === "empirical") return fitEmpiricalCells(cells);
  if (singleWriterSizeGb(cells) !== null) {
    // One size per writer: the m-dependence alone (one-size-fit.ts).
    const { fit, form: derived, writerGb, held, method } = fitOneSizeCells(cells, form);
    return { ...nonlinearFormFit(formName, derived, fit), method, oneSize: { writerGb, held } };
  }
  if (form.terms !== undefined) {
    const fit = fitDesignCells(cells, formName as LinearModelForm);
    return {
      form: formName,
      fitted: form.parameters,
      estimates: fit.coefficients,
      values: Object.fromEntries(form.parameters.map((p, j) => [p.name, fit.coefficients[j]!])),
      covariance: fit.covariance,
      standardErrors: fit.standardErrors,
      sampleCount: fit.sampleCount,
      distinctPointCount: fit.distinctPointCount,
      degreesOfFreedom: fit.degreesOfFreedom,
      residualSumOfSquares: fit.residualSumOfSquares,
      residualStandardError: fit.residualStandardError,
      conditionNumber: fit.conditionNumber,
      atBound: [],
      converged: true,
      method: LINEAR_METHOD,
    };
  }
  return { ...nonlinearFormFit(formName, form, fitNonlinearCells(cells, form)), method: NONLINEAR_METHOD };
}

function nonlinearFormFit(formName: ModelForm, form: BandwidthForm, fit: NonlinearFit): FormFit {
  const estimates = fit.fittedIndex.map((j) => fit.parameters[j]!);
  return {
    form: formName,
    fitted: fit.fittedIndex.map((j) => form.parameters[j]!),
    estimates,
    values: Object.fromEntries(form.parameters.map((p, j) => [p.name, fit.parameters[j]!])),
    covariance: fit.covariance,
    standardErrors: fit.covariance.map((row, a) => Math.sqrt(Math.max(0, row[a]!))),
    sampleCount: fit.sampleCount,
    distinctPointCount: fit.distinctPointCount,
    degreesOfFreedom: fit.degreesOfFreedom,
    residualSumOfSquares: fit.residualSumOfSquares,
    residualStandardError: Math.sqrt(fit.residualSumOfSquares / fit.degreesOfFreedom),
    conditionNumber: fit.conditionNumber,
    atBound: fit.atBound,
    converged: fit.converged,
    stopReason: fit.stopReason,
    method: NONLINEAR_METHOD,
  };
}

/** `fitFormCells` on samples (runs or means), grouped by their exact (m, V). */
export function fitForm(samples: readonly FitSample[] | FitColumns, form: ModelForm, weighting: FitWeighting = "unweighted"): FormFit {
  return fitFormCells(groupByDesignRow(toFitColumns(samples)), form, weighting);
}
