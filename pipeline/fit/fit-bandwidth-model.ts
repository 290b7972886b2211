/**
 * The fit stage: observations in, a fitted bandwidth model (plain data, the model artifact)
 * and its full report out. Pure: no files, no clock, no global randomness; the same
 * observations and options give a byte-identical model.
 *
 * Steps (docs/science.md §3): select the fit points (`selectFitPoints`: means or runs, up to the
 * peaks or all) → least squares in the chosen form (`fitForm`: OLS for the papers' forms,
 * Levenberg–Marquardt for the project's, refusing data that cannot identify it) →
 * parameters with standard errors, t statistics and 95 % confidence intervals (Student t
 * with N − q degrees of freedom) → R², adjusted R², RMSE, MAE, E_global, k-fold CV RMSE →
 * residual of every fit point, measured vs predicted peak of every size series, and the
 * error on the mixed-size validation runs.
 *
 * `form: "auto"` (the default for a user's traces) fits every registered form on every
 * point, scores each by k-fold CV RMSE on the same folds and keeps the one `chooseForm`
 * picks (select-form.ts: lowest CV RMSE, ties within one standard error to the simpler);
 * the report and the model carry every candidate (`selection`). Every point, because the
 * papers' peak rule belongs to their form's method (it cannot follow a collapse), and the
 * forms must be judged on the whole measured curve to tell which can.
 *
 * The model's domain is the box of (m, V) spanned by the fit points: predictions outside
 * it are flagged as extrapolations by `predict`.
 *
 * Clusters unlike Azur. The papers' rule keeps only the points up to each size series'
 * peak. On a device that is fastest with one writer (every peak at m = 1), or whose series
 * peak too early, that rule leaves a design that cannot identify the form; the fit then
 * uses every point and says so (`FitReport.notes`, the model's `notes`), rather than
 * refusing data that do hold the curve. A refusal names only options verified to work on
 * the same input. A poor fit (R² < 0.9 or E_global > 15 %) is not refused but warned
 * about, with its numbers.
 */
import type { Observations } from "../ingest/observations";
import { InputError } from "../shared/errors";
import { TOOL_VERSION } from "../shared/version";
import { crossValidate, type CrossValidation } from "./cross-validation";
import { eGlobal } from "./e-global";
import { DEFAULT_FIT_OPTIONS, type FitOptions } from "./fit-options";
import { selectFitPoints, type FitPointKind } from "./fit-points";
import { goodnessOfFit, POOR_FIT_E_GLOBAL_PERCENT, POOR_FIT_R_SQUARED } from "./goodness-of-fit";
import { fitForm, type FormFit } from "./fit-form";
import { bandwidthEvaluator, formOf, inModelDomain, isModelForm, MODEL_FORMS, MODEL_UNITS, type BandwidthCapSource, type BandwidthModel, type ModelDomain, type ModelForm } from "./model";
import { measuredBandwidthCap, type MeasuredCap } from "./measured-cap";
import { predictiveDistribution } from "./predictive-distribution";
import { chooseForm, type FormCandidate, type FormSelection } from "./select-form";
import { compareSeriesPeaks, type SeriesPeakComparison } from "./series-peaks";
import { studentTQuantile } from "../stats/student-t";
import { cellWriterGb, fitEmpiricalCells, requireReplicates } from "./fit-empirical";
import { fittedBandwidthDefinition } from "./fitted-bandwidth-definition";
import { groupByDesignRow } from "./least-squares";
import { empiricalOnlyNote } from "./empirical-selection";
import { oneSizeNote } from "./one-size-fit";
import { chooseWeighting, FIT_WEIGHTINGS, type FitWeighting } from "./fit-weighting";
import { extrapolationScore, type ExtrapolationScore } from "./extrapolation-score";

export { DEFAULT_FIT_OPTIONS, type FitOptions } from "./fit-options";

/** A file the observations came from, for provenance. */
export interface InputFile {
  path: string;
  sha256: string;
  /** For the traces behind an observations file: that file's path. */
  via?: string;
}

export const CONFIDENCE_LEVEL = 0.95;

export { POOR_FIT_E_GLOBAL_PERCENT, POOR_FIT_R_SQUARED } from "./goodness-of-fit";

export interface CoefficientEstimate {
  /** `a`..`e` (paper form), `a00`..`a22` (full form), or a project form's parameter (`lambda`…). */
  name: string;
  /** The term it multiplies (`m²·V²`), or the parameter's symbol (`λ`). */
  term: string;
  estimate: number;
  standardError: number;
  tStatistic: number;
  /**
   * 95 % confidence interval: estimate ± t_{0.975, N−p} · SE, cut at the form's bounds; for a
   * parameter on a bound (`atBound`), one-sided: [bound, estimate ∓ t_{0.95, N−p} · SE].
   */
  ci95: [number, number];
  /** "lower" or "upper" when the estimate sits on that bound of the form (its interval is then one-sided). */
  atBound?: "lower" | "upper";
}

/**
 * The 95 % interval of a parameter that a form bounds (lower ≤ θ ≤ upper): a symmetric t
 * interval would cross the bound, claiming values the form excludes. On a bound, the
 * estimate is the end of a one-sided interval from the bound inward (t_{0.95}: the 5 % all
 * on the side the data can see); off it, the symmetric interval cut at the bounds.
 */
function boundedInterval(estimate: number, se: number, tTwoSided: number, tOneSided: number, lower = -Infinity, upper = Infinity): Pick<CoefficientEstimate, "ci95" | "atBound"> {
  if (estimate === lower && Number.isFinite(lower)) return { ci95: [lower, Math.min(upper, estimate + tOneSided * se)], atBound: "lower" };
  if (estimate === upper && Number.isFinite(upper)) return { ci95: [Math.max(lower, estimate - tOneSided * se), upper], atBound: "upper" };
  return { ci95: [Math.max(lower, estimate - tTwoSided * se), Math.min(upper, estimate + tTwoSided * se)] };
}

export interface FitMetrics {
  /** N: fit points (means or runs). */
  pointCount: number;
  /** Runs behind the fit points. */
  runCount: number;
  distinctPointCount: number;
  parameterCount: number;
  degreesOfFreedom: number;
  rSquared: number;
  adjustedRSquared: number;
  rmseMbPerS: number;
  maeMbPerS: number;
  residualStandardErrorMbPerS: number;
  /** The papers' MAPE over the per-(m, v) means up to each series' peak, %. */
  eGlobalPercent: number;
  eGlobalPointCount: number;
  crossValidation: CrossValidation | null;
  /** κ of the design (linear forms) or of the Jacobian at the optimum (nonlinear) with unit-norm columns (refused above 1e6). */
  conditionNumber: number;
  /** t_{0.975, N−p}, the quantile behind the intervals. */
  tQuantile: number;
  /** How the least squares weighed the samples (fit-weighting.ts). */
  weighting: FitWeighting;
  /** False when the nonlinear fit stopped before a minimum (then `stopReason`). */
  converged: boolean;
  stopReason?: string;
  /** The relative error one step past the largest measured m (extrapolation-score.ts); absent for the papers' fit. */
  extrapolation?: ExtrapolationScore;
}

/**
 * The residual of every fit point, as columns (entry i of each column is point i, in the
 * order of `selectFitPoints`): with `--points runs` there are ~10^5 points, and columns
 * keep the fit within its time budget. JSON prints them as arrays.
 */
export interface PointResiduals {
  m: Float64Array;
  vGb: Float64Array;
  sizeMb: Float64Array;
  runCount: Float64Array;
  /** Run ids when the points are runs, else null. */
  runId: string[] | null;
  observedMbPerS: Float64Array;
  predictedMbPerS: Float64Array;
  /** observed − predicted. */
  residualMbPerS: Float64Array;
}

export interface ValidationSummary {
  runCount: number;
  rmseMbPerS: number | null;
  mapePercent: number | null;
  runs: { runId: string; m: number; vGb: number; observedMbPerS: number; predictedMbPerS: number; residualMbPerS: number; inDomain: boolean }[];
}

/** Everything `ckpt fit --json` prints; `model` is the artifact `--out` writes. */
export interface FitReport {
  model: BandwidthModel;
  coefficients: CoefficientEstimate[];
  /** Covariance of the coefficients, in coefficient order (model units). */
  covariance: number[][];
  metrics: FitMetrics;
  seriesPeaks: SeriesPeakComparison[];
  residuals: PointResiduals;
  validation: ValidationSummary;
  /** What a reader of the model must know: the peak rule not applied, a poor fit. Also in `model.notes`. */
  notes: string[];
  /** `form: "auto"`: every candidate form with its scores, and the one kept. Also in `model.selection`. */
  selection?: FormSelection;
}

function requireOptions(options: FitOptions): void {
  if (options.form !== "auto" && !isModelForm(options.form)) {
    throw new InputError(`form must be "auto" or one of ${MODEL_FORMS.join(", ")}, got "${String(options.form)}"`);
  }
  if (options.form === "auto" && options.folds === 0) throw new InputError("form \"auto\" chooses by cross-validation: it needs folds ≥ 2, not 0");
  if (options.points !== "means" && options.points !== "runs") throw new InputError(`points must be "means" or "runs", got "${String(options.points)}"`);
  if (!Number.isInteger(options.folds) || options.folds < 0 || options.folds === 1) {
    throw new InputError(`folds must be 0 (no cross-validation) or an integer ≥ 2, got ${options.folds}`);
  }
  if (!Number.isInteger(options.seed)) throw new InputError(`seed must be an integer, got ${options.seed}`);
  const weighting = options.weighting ?? "auto";
  if (!FIT_WEIGHTINGS.includes(weighting)) throw new InputError(`weighting must be one of ${FIT_WEIGHTINGS.join(", ")}, got "${String(weighting)}"`);
  const cap = options.capMbPerS ?? 0;
  if (cap !== "measured" && !(typeof cap === "number" && Number.isFinite(cap) && cap >= 0)) {
    throw new InputError(`the device cap (--cap-mb-per-s) must be a bandwidth in MB/s > 0, "measured" (the largest cell mean of the traces), or 0 for none declared; got ${JSON.stringify(cap)}`);
  }
}

/**
 * Fit bw(m, V) to the observations.
 * @example fitBandwidthModel(observations, DEFAULT_FIT_OPTIONS).model.coefficients // { a, b, c, d, e }
 */
export function fitBandwidthModel(observations: Observations, options: FitOptions = DEFAULT_FIT_OPTIONS, inputs: InputFile[] = []): FitReport {
  requireOptions(options);
  // One model, one aggregated bandwidth: refused before any fit when the runs mix both.
  fittedBandwidthDefinition(observations);
  if (options.form === "auto") return fitAutomatically(observations, options, inputs);
  // The empirical form follows every measured cell: the papers' peak rule is not its method.
  return fitOneForm(observations, { ...options, form: options.form, ...(options.form === "empirical" ? { allPoints: true } : {}) }, inputs);
}

/** The options of one form's fit; `scoreExtrapolation`: under --form auto, every candidate (the papers' form too) is scored one step past the data. */
type OneFormOptions = FitOptions & { form: ModelForm; scoreExtrapolation?: boolean };

/**
 * Every registered form on every point and the same folds; the chosen one's report, with
 * every candidate in `selection` (select-form.ts).
 */
function fitAutomatically(observations: Observations, options: FitOptions, inputs: InputFile[]): FitReport {
  // Every form is scored; only the chosen one's report is completed (its covariance, predictive
  // distribution, peaks and validation): on 10,000 cells the empirical form's dense covariance
  // alone is 10^8 numbers, built and then thrown away when another form is chosen.
  const scoredForms = new Map<ModelForm, ScoredForm>();
  const candidates: FormCandidate[] = MODEL_FORMS.map((form) => {
    let parameterCount = formOf(form).parameters.filter((p) => !p.fixed).length;
    try {
      const scoredForm = scoreOneForm(observations, { ...options, form, allPoints: true, scoreExtrapolation: true });
      scoredForms.set(form, scoredForm);
      const { metrics } = scoredForm;
      // What was fitted: fewer on one size per writer, one per measured cell for the empirical form.
      parameterCount = metrics.parameterCount;
      const cv = metrics.crossValidation;
      const extrapolation = metrics.extrapolation;
      const converged = metrics.converged;
      const reasons = [
        ...(converged ? [] : [`its fit did not converge (${metrics.stopReason ?? "stopped"} before a minimum): not chosen`]),
        ...(cv?.reason ? [`cross-validation not computed: ${cv.reason}`] : []),
      ];
      return {
        form,
        cvRmseMbPerS: cv?.rmseMbPerS ?? null,
        cvStandardErrorMbPerS: cv?.standardErrorMbPerS ?? null,
        cvRelativeRmse: cv?.relativeRmse ?? null,
        cvRelativeStandardError: cv?.relativeStandardError ?? null,
        extrapolationRelativeRmse: extrapolation?.relativeRmse ?? null,
        extrapolationStandardError: extrapolation?.standardError ?? null,
        rSquared: metrics.rSquared,
        eGlobalPct: metrics.eGlobalPercent,
        parameterCount,
        parameters: scoredForm.fit.values,
        converged,
        ...(reasons.length > 0 ? { reason: reasons.join("; ") } : {}),
      };
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return {
        form,
        cvRmseMbPerS: null,
        cvStandardErrorMbPerS: null,
        cvRelativeRmse: null,
        cvRelativeStandardError: null,
        extrapolationRelativeRmse: null,
        rSquared: null,
        eGlobalPct: null,
        parameterCount,
        parameters: null,
        reason: error.message,
      };
    }
  });
  const selection = chooseForm(candidates, options.folds, options.seed);
  const report = completeReport(scoredForms.get(selection.chosen)!, observations, inputs);
  const unscored = selection.candidates.filter((c) => c.score === null).map((c) => `${c.form} (${c.reason ?? "not cross-validated"})`);
  const empiricalOnly = empiricalOnlyNote(selection);
  const notes = [
    `form chosen ${selection.tieBelowMbPerS === null ? "without" : "by"} cross-validation among ${MODEL_FORMS.join(", ")}: ${selection.rule}`,
    ...(empiricalOnly !== null ? [empiricalOnly] : []),
    ...(unscored.length > 0 ? [`not scored: ${unscored.join("; ")}`] : []),
    ...report.notes,
  ];
  const model: BandwidthModel = {
    ...report.model,
    provenance: { ...report.model.provenance, options: { ...options, allPoints: true } },
    notes,
    selection,
  };
  return { ...report, model, notes, selection };
}

function fitOneForm(observations: Observations, options: OneFormOptions, inputs: InputFile[]): FitReport {
  return completeReport(scoreOneForm(observations, options), observations, inputs);
}

/**
 * One form's fit with what `--form auto` compares (metrics with the CV and extrapolation
 * scores), every refusal included; `completeReport` adds the rest of its report. Kept apart so
 * that `--form auto` completes only the chosen form's report: nothing in the completion can
 * refuse a form, so the candidates are what they would be with every report completed.
 */
interface ScoredForm {
  options: OneFormOptions;
  fit: FormFit;
  points: SelectedPoints;
  /** The fit's own runs (whatever --points says). */
  runs: ReturnType<typeof selectFitPoints>;
  notes: string[];
  coefficients: CoefficientEstimate[];
  shape: Pick<BandwidthModel, "form" | "coefficients" | "bandwidthCapMbPerS" | "bandwidthCapSource">;
  bw: (m: number, vGb: number) => number;
  domain: ModelDomain;
  residuals: PointResiduals;
  metrics: FitMetrics;
}

function scoreOneForm(observations: Observations, options: OneFormOptions): ScoredForm {
  // The weighting, from every run's replicates (fit-weighting.ts); the fit's own runs below.
  const allRuns = selectFitPoints(observations, { points: "runs", upToPeak: false });
  const weightingChoice = chooseWeighting(options.weighting ?? "auto", options.form, allRuns);
  const weighting = weightingChoice.weighting;
  const selected = fitWithPeakRule(observations, options, weighting);
  const { notes } = selected;
  if (weighting !== "unweighted" || options.form !== "paper") notes.push(`least squares: ${weightingChoice.reason}`);
  // Cross-validation scores every form on the same points; the empirical form's own
  // statistics are its cells' runs (each cell's mean is its parameter, their spread its error).
  const cvPoints = selected.points;
  let { points, fit } = selected;
  const empirical = options.form === "empirical";
  if (empirical) {
    points = { ...selectFitPoints(observations, { points: "runs", upToPeak: false }), upToPeak: false };
    fit = fitEmpiricalCells(groupByDesignRow(points));
    requireReplicates(fit);
    const single = fit.values;
    const onceMeasured = Object.keys(single).filter((name) => name.startsWith("runs_") && single[name] === 1).length;
    notes.push(
      `the empirical form's statistics are its runs' (each measured cell's mean is a parameter, their spread its uncertainty); its cross-validation holds out the same ${options.points === "means" ? "per-(m, v) means" : "runs"} as the other forms', each answered by interpolation between the cells left`,
    );
    if (onceMeasured > 0) notes.push(`${onceMeasured} of the ${fit.distinctPointCount} cells have one run: their uncertainty is the other cells' pooled spread`);
  }
  if (!fit.converged) {
    notes.push(
      `the ${options.form} fit did not converge (Levenberg–Marquardt stopped: ${fit.stopReason ?? "no minimum"}): its parameters and intervals are those of the last step, not of a minimum; ` +
        `do not plan with it (--form auto never chooses such a fit)`,
    );
  }
  if (fit.oneSize) notes.push(oneSizeNote(options.form, fit.oneSize.writerGb, fit.oneSize.held, Object.fromEntries(formOf(options.form).parameters.map((q) => [q.name, q.symbol]))));
  const p = fit.estimates.length;
  const coefficientValues = fit.values;
  const cap = deviceCap(observations, options);
  const capMbPerS = cap?.capMbPerS ?? null;
  const shape = { form: options.form, coefficients: coefficientValues, bandwidthCapMbPerS: capMbPerS, bandwidthCapSource: cap?.source };
  if (options.form !== "paper" || cap !== null) notes.push(capNote(cap, options.form));
  const bw = bandwidthEvaluator(shape);

  const tQuantile = studentTQuantile(0.5 + CONFIDENCE_LEVEL / 2, fit.degreesOfFreedom);
  const tOneSided = studentTQuantile(CONFIDENCE_LEVEL, fit.degreesOfFreedom);
  // The empirical form's cells share a few run counts: each quantile once, not once per cell (10,000 cells).
  const cellQuantiles = new Map<number, number>();
  const cellQuantile = (runs: number): number => {
    let t = cellQuantiles.get(runs);
    if (t === undefined) cellQuantiles.set(runs, (t = studentTQuantile(0.5 + CONFIDENCE_LEVEL / 2, runs - 1)));
    return t;
  };
  const coefficients: CoefficientEstimate[] = fit.fitted.map((parameter, j) => {
    const estimate = fit.estimates[j]!;
    const standardError = fit.standardErrors[j]!;
    // A measured cell's interval: Student t with its own runs' degrees of freedom (the pooled ones when measured once).
    const runs = empirical ? fit.values[parameter.name.replace(/^bw_/, "runs_")]! : 0;
    const t = empirical && runs >= 2 ? cellQuantile(runs) : tQuantile;
    return {
      name: parameter.name,
      // A measured cell says where it is; a form's parameter is its symbol.
      term: empirical ? parameter.meaning.replace(/^measured mean at /, "") : parameter.symbol,
      estimate,
      standardError,
      tStatistic: estimate / standardError,
      ...boundedInterval(estimate, standardError, t, tOneSided, parameter.lower, parameter.upper),
    };
  });

  const pointCount = points.m.length;
  const predicted = new Float64Array(pointCount);
  const residual = new Float64Array(pointCount);
  let runCount = 0;
  let mMin = Infinity;
  let mMax = -Infinity;
  let vGbMin = Infinity;
  let vGbMax = -Infinity;
  for (let i = 0; i < pointCount; i++) {
    const m = points.m[i]!;
    const vGb = points.vGb[i]!;
    predicted[i] = bw(m, vGb);
    residual[i] = points.bwMbPerS[i]! - predicted[i]!;
    runCount += points.runCount[i]!;
    if (m < mMin) mMin = m;
    if (m > mMax) mMax = m;
    if (vGb < vGbMin) vGbMin = vGb;
    if (vGb > vGbMax) vGbMax = vGb;
  }
  // The box of the points used: outside it, predictions are extrapolations.
  const domain: ModelDomain = { mMin, mMax, vGbMin, vGbMax, ...writerSizeDomain(fit, points) };
  const residuals: PointResiduals = {
    m: points.m,
    vGb: points.vGb,
    sizeMb: points.sizeMb,
    runCount: points.runCount,
    runId: points.runId,
    observedMbPerS: points.bwMbPerS,
    predictedMbPerS: predicted,
    residualMbPerS: residual,
  };
  const goodness = goodnessOfFit(points.bwMbPerS, predicted, p);
  const errorMetric = eGlobal(observations, shape);
  const crossValidation = options.folds === 0 ? null : crossValidate(cvPoints, options.form, options.folds, options.seed, weighting);
  // One step past the data: every candidate of --form auto, and the project's forms (not the papers' method, which has none).
  const extrapolation = options.scoreExtrapolation === true || options.form !== "paper" || weighting !== "unweighted" ? extrapolationScore(cvPoints, options.form, weighting) : null;
  // The fit's own runs (whatever --points says), for the run-to-run variance of one new burst.
  const runs = options.points === "runs" ? points : selectFitPoints(observations, { points: "runs", upToPeak: points.upToPeak });

  const metrics: FitMetrics = {
    pointCount,
    runCount,
    distinctPointCount: fit.distinctPointCount,
    parameterCount: p,
    degreesOfFreedom: fit.degreesOfFreedom,
    ...goodness,
    // Weighted, the fit's σ̂ is relative: the MB/s figure is the runs' own residuals'.
    residualStandardErrorMbPerS: weighting === "unweighted" ? fit.residualStandardError : unweightedResidualStandardError(runs, bw, fit.degreesOfFreedom),
    eGlobalPercent: errorMetric.percent,
    eGlobalPointCount: errorMetric.pointCount,
    crossValidation,
    conditionNumber: fit.conditionNumber,
    tQuantile,
    weighting,
    converged: fit.converged,
    ...(fit.stopReason !== undefined && !fit.converged ? { stopReason: fit.stopReason } : {}),
    ...(extrapolation !== null ? { extrapolation } : {}),
  };
  // The empirical form's covariance is diagonal (SE² on it, 0 elsewhere): finite when its
  // diagonal is, which is checked without building the n × n matrix its getter makes.
  const covariance = empirical ? [fit.standardErrors.map((se) => se * se)] : fit.covariance;
  requireFiniteStatistics({ coefficients, covariance, metrics }, points.bwMbPerS);
  return { options, fit, points, runs, notes, coefficients, shape, bw, domain, residuals, metrics };
}

/** The rest of a scored form's report: covariance, predictive distribution, peaks, the model artifact, validation. */
function completeReport(scored: ScoredForm, observations: Observations, inputs: InputFile[]): FitReport {
  const { options, fit, points, runs, notes, coefficients, shape, bw, domain, residuals, metrics } = scored;
  const empirical = options.form === "empirical";
  const capMbPerS = shape.bandwidthCapMbPerS;
  const coefficientValues = shape.coefficients;
  const seriesPeaks = compareSeriesPeaks(observations.series, shape);
  const predictive = predictiveDistribution(runs, bw, fit.fitted.map((parameter) => parameter.name), fit.covariance);
  if (options.form === "empirical" && metrics.rSquared < POOR_FIT_R_SQUARED) {
    // It passes through every cell's mean: what it leaves is the runs' own spread, not a misfit.
    notes.push(
      `R² = ${metrics.rSquared.toFixed(3)}: the empirical form passes through every measured cell's mean, so the variance it leaves is the runs' spread around those means ` +
        `(run to run, RMSE ${metrics.rmseMbPerS.toFixed(3)} MB/s), which its predictive band carries`,
    );
  } else if (metrics.rSquared < POOR_FIT_R_SQUARED || metrics.eGlobalPercent > POOR_FIT_E_GLOBAL_PERCENT) {
    notes.push(
      `poor fit: R² = ${metrics.rSquared.toFixed(3)} (warned below ${POOR_FIT_R_SQUARED}), E_global = ${metrics.eGlobalPercent.toFixed(1)} % (warned above ${POOR_FIT_E_GLOBAL_PERCENT} %); ` +
        `the ${options.form} form does not follow this device's curve well — look at the residuals before using the model, or let cross-validation choose a form (ckpt fit --form auto; pipeline --param fit.form=auto)`,
    );
  }
  const model: BandwidthModel = {
    schema: "ckpt-lab/bandwidth-model@1",
    name: `fitted ${options.form} form`,
    form: options.form,
    coefficients: coefficientValues,
    units: MODEL_UNITS,
    domain,
    bandwidthCapMbPerS: capMbPerS,
    ...(shape.bandwidthCapSource !== undefined ? { bandwidthCapSource: shape.bandwidthCapSource } : {}),
    metrics: { ...metrics, coefficients, covariance: fit.covariance, seriesPeaks },
    provenance: {
      tool: "ckpt fit",
      toolVersion: TOOL_VERSION,
      inputs,
      options: { ...options },
      fitPoints: `${options.points === "means" && !empirical ? "per-(m, v) means" : "runs"}, ${points.upToPeak ? "up to each series' peak" : "all points"}`,
      method: fit.method,
      ...fittedBandwidthDefinition(observations),
    },
    ...(notes.length > 0 ? { notes } : {}),
    predictive,
  };
  return {
    model,
    coefficients,
    covariance: fit.covariance,
    metrics,
    seriesPeaks,
    residuals,
    validation: validationSummary(observations, model),
    notes,
  };
}

/** The cap b_max a fit's options ask for: declared (a number > 0), measured from the traces, or none (0). */
function deviceCap(observations: Observations, options: FitOptions): { capMbPerS: number; source: BandwidthCapSource; measured?: MeasuredCap } | null {
  const cap = options.capMbPerS ?? 0;
  if (cap === "measured") {
    const measured = measuredBandwidthCap(observations);
    return { capMbPerS: measured.capMbPerS, source: "measured", measured };
  }
  return cap > 0 ? { capMbPerS: cap, source: "declared" } : null;
}

/** What the model's notes say of its cap: none declared is said too (the papers' form excepted, whose reproduction is theirs). */
function capNote(cap: ReturnType<typeof deviceCap>, form: ModelForm): string {
  if (cap === null) {
    return (
      `device cap b_max: none declared (docs/science.md §3.2): the ${form} form's own shape is the model's only ceiling; declare the rated bandwidth of the server or links ` +
      `with --cap-mb-per-s B, or take the largest cell mean measured with --cap-mb-per-s measured, to hold the model below it`
    );
  }
  if (cap.measured === undefined) return `device cap b_max = ${cap.capMbPerS} MB/s, declared (--cap-mb-per-s): the model never answers above it`;
  const at = cap.measured;
  return (
    `device cap b_max = ${Number(cap.capMbPerS.toPrecision(6))} MB/s, measured (--cap-mb-per-s measured): the largest mean of a measured (m, V) cell, ` +
    `at m = ${at.m}, V = ${Number(at.vGb.toPrecision(6))} GB (${at.runCount} run${at.runCount === 1 ? "" : "s"}); the model never answers above it`
  );
}

/**
 * The sizes per writer a model holds at, when it holds at measured ones only: the one size
 * of a one-size fit, the measured sizes of the empirical form. Absent otherwise.
 */
function writerSizeDomain(fit: FormFit, points: SelectedPoints): Pick<ModelDomain, "writerGbMin" | "writerGbMax"> {
  if (fit.oneSize) return { writerGbMin: fit.oneSize.writerGb, writerGbMax: fit.oneSize.writerGb };
  if (fit.form !== "empirical") return {};
  let writerGbMin = Infinity;
  let writerGbMax = -Infinity;
  for (let i = 0; i < points.m.length; i++) {
    const writerGb = cellWriterGb({ m: points.m[i]!, vGb: points.vGb[i]! });
    writerGbMin = Math.min(writerGbMin, writerGb);
    writerGbMax = Math.max(writerGbMax, writerGb);
  }
  return { writerGbMin, writerGbMax };
}

/** √(Σ over the fit's runs of (y − bŵ)² / (N − p)), MB/s: the unweighted fit's σ̂, for a weighted one. */
function unweightedResidualStandardError(runs: { m: ArrayLike<number>; vGb: ArrayLike<number>; bwMbPerS: ArrayLike<number> }, bw: (m: number, vGb: number) => number, degreesOfFreedom: number): number {
  let sum = 0;
  for (let i = 0; i < runs.m.length; i++) sum += (runs.bwMbPerS[i]! - bw(runs.m[i]!, runs.vGb[i]!)) ** 2;
  return Math.sqrt(sum / degreesOfFreedom);
}

/** The fit points actually used, with the rule that selected them. */
type SelectedPoints = ReturnType<typeof selectFitPoints> & { upToPeak: boolean };

function tryFit(points: SelectedPoints, form: ModelForm, weighting: FitWeighting): FormFit | InputError {
  try {
    return fitForm(points, form, weighting);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
}

/**
 * Fit under the papers' peak rule, falling back to every point when that rule leaves an
 * unidentifiable design; refuse (naming only options that work on this input) when even
 * every point cannot identify the form.
 */
function fitWithPeakRule(observations: Observations, options: OneFormOptions, weighting: FitWeighting): { points: SelectedPoints; fit: FormFit; notes: string[] } {
  const select = (upToPeak: boolean): SelectedPoints => ({ ...selectFitPoints(observations, { points: options.points, upToPeak }), upToPeak });
  const notes: string[] = [];
  const requested = select(!options.allPoints);
  let points = requested;
  let fit = tryFit(requested, options.form, weighting);
  if (fit instanceof InputError && requested.upToPeak) {
    const every = select(false);
    const fallback = tryFit(every, options.form, weighting);
    if (!(fallback instanceof InputError)) {
      const peakMs = [...new Set(observations.series.map((series) => series.peak.m))].sort((a, b) => a - b);
      notes.push(
        `the papers' rule (fit only the points up to each size series' peak; the peaks are at m ∈ {${peakMs.join(", ")}}) leaves too little to identify the ${options.form} form ` +
          `(${fit.message.replace(/^cannot fit .*?\): /, "").replace(/\. .*$/, "")}), so the model is fitted on all ${every.m.length} points, past the peaks too`,
      );
      points = every;
      fit = fallback;
    }
  }
  requireVaryingBandwidth(points);
  if (fit instanceof InputError) {
    // The one option that can help when the data cannot: fewer terms. Named only if it works here.
    if (options.form === "full" && paperFormFits(observations, options)) {
      throw new InputError(`${fit.message} On these data the paper form does fit: --form paper.`, { cause: fit });
    }
    throw fit;
  }
  return { points, fit, notes };
}

/**
 * Refuse fit points that all have one bandwidth: the data then show no dependence on m or V,
 * the coefficients other than the constant are not determined by anything but rounding, and
 * R² (1 − SSE/SST with SST = 0) is undefined. The constant itself is the honest answer.
 */
function requireVaryingBandwidth(points: SelectedPoints): void {
  const bw = points.bwMbPerS;
  if (bw.length === 0) return;
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < bw.length; i++) {
    if (bw[i]! < low) low = bw[i]!;
    if (bw[i]! > high) high = bw[i]!;
  }
  if (high - low <= 1e-9 * Math.max(1, Math.abs(high))) {
    throw new InputError(
      `every one of the ${bw.length} fit points has the same aggregated bandwidth, ${Number(high.toPrecision(10))} MB/s: the traces show no dependence on m or V, ` +
        `so bw(m, V)'s coefficients and R² are not defined by them. That constant is what these data say; to fit the model, measure runs whose bandwidth varies ` +
        `(other m, other sizes), and check the traces' times (identical durations often mean a clock with too coarse a resolution)`,
    );
  }
}

/**
 * Refuse statistics that overflowed: finite bandwidths beyond ≈ 1e150 MB/s have squares
 * (sums of squares, variances, R²) no double holds. Such bandwidths are not measurements
 * but a unit mistake; a model with its R² and standard errors missing would hide that.
 */
function requireFiniteStatistics(statistics: object, bwMbPerS: Float64Array): void {
  const finite = (value: unknown): boolean =>
    typeof value === "number" ? Number.isFinite(value) : value === null || typeof value !== "object" || Object.values(value).every(finite);
  if (finite(statistics)) return;
  let largest = 0;
  for (const bw of bwMbPerS) largest = Math.max(largest, Math.abs(bw));
  throw new InputError(
    `the fit's statistics overflow on these data: aggregated bandwidths up to ${largest.toPrecision(3)} MB/s have sums of squares beyond the largest double ` +
      `(bandwidths must stay below about 1e150 MB/s); such values are not measurements: check the units of ckpt_mb (MB) and of the times (s)`,
  );
}

function paperFormFits(observations: Observations, options: OneFormOptions): boolean {
  try {
    fitWithPeakRule(observations, { ...options, form: "paper" }, "unweighted");
    return true;
  } catch (error) {
    if (error instanceof InputError) return false;
    throw error;
  }
}

/** The model's error on the mixed-size runs (the D1–D3 kind of experiment, docs/science.md §3.4). */
function validationSummary(observations: Observations, model: BandwidthModel): ValidationSummary {
  const bw = bandwidthEvaluator(model);
  const runs = observations.validationRuns.map((run) => {
    const predictedMbPerS = bw(run.m, run.vGb);
    return {
      runId: run.runId,
      m: run.m,
      vGb: run.vGb,
      observedMbPerS: run.aggregatedBwMbPerS,
      predictedMbPerS,
      residualMbPerS: run.aggregatedBwMbPerS - predictedMbPerS,
      inDomain: inModelDomain(model, run.m, run.vGb),
    };
  });
  if (runs.length === 0) return { runCount: 0, rmseMbPerS: null, mapePercent: null, runs };
  let squared = 0;
  let percent = 0;
  for (const run of runs) {
    squared += run.residualMbPerS ** 2;
    percent += Math.abs(run.residualMbPerS) / run.observedMbPerS;
  }
  return { runCount: runs.length, rmseMbPerS: Math.sqrt(squared / runs.length), mapePercent: (100 * percent) / runs.length, runs };
}
