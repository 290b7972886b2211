/**
 * The fit stage's part of the report (docs/science.md §3): the fitted model against the measurements
 * it was fitted on (surface with the data points, curves per size with peaks, D1–D3), the
 * residuals against the fitted values, observed against predicted (fit points and the
 * held-out mixed-size runs), and the tables: coefficients with their 95 % intervals next
 * to the published ones, the goodness of fit, measured vs predicted peaks per series. When
 * the form was chosen by cross-validation (`--form auto`), the candidates first: their
 * table and their curves over the measured means (candidates-figures.ts).
 */
import type { FitReportArtifact } from "../../fit/fit-report-artifact";
import type { Observations } from "../../ingest/observations";
import type { Figure } from "./figure";
import { measuredSeries } from "./measured-series";
import { modelFigures } from "./model-figures";
import { observedPredictedFigure } from "./observed-predicted-spec";
import { residualsFigure } from "./residuals-spec";
import type { Table } from "../tables/table";
import { formOf, type BandwidthModel } from "../../fit/model";
import { modelAxes } from "./model-axes";
import { candidatesFigure, candidatesTable } from "./candidates-figures";

/** Sizes measured by a single run (e.g. the first block of a data set), drawn in grey. */
const OTHER = "other sizes";

export function fitFigures(
  fit: FitReportArtifact,
  observations: Observations,
  paperModel: BandwidthModel,
  observationsLabel: string,
  modelLabel = "fitted model",
): { figures: Figure[]; tables: Table[] } {
  const labelled = measuredSeries(observations);
  const labelOf = new Map(labelled.map((l) => [l.series.sizeMb, l.label]));
  const series = labelled.map((l) => l.label);
  const r = fit.residuals;
  const points = r.m.map((m, i) => ({
    series: labelOf.get(r.sizeMb[i]!) ?? OTHER,
    m,
    observedMbPerS: round(r.observedMbPerS[i]!),
    predictedMbPerS: round(r.predictedMbPerS[i]!),
    residualMbPerS: round(r.residualMbPerS[i]!),
  }));
  const usedSeries = series.filter((s) => points.some((p) => p.series === s));
  const neutral = points.some((p) => p.series === OTHER) ? [OTHER] : [];
  const validation = "validation run (mixed sizes)";
  const fitPoint = "fit point";
  const axes = modelAxes(fit.model, observations);
  const candidates = fit.selection ? candidatesFigure(fit.selection, fit.model, observations, observationsLabel, axes.mMax) : null;
  const figures: Figure[] = [
    ...(candidates ? [candidates] : []),
    ...modelFigures(fit.model, {
      idPrefix: "fitted-model",
      modelLabel,
      observations,
      observationsLabel,
      ...axes,
      // D1–D3 are Azur's data sets: drawn only when the traces hold runs of them.
      datasets: observations.runs.some((run) => /^D[123]$/.test(run.attributes?.dataset ?? "")),
      surfacePoints: {
        label: "fit points",
        selection: String(fit.model.provenance.fitPoints ?? ""),
        points: points.map((p, i) => ({ m: p.m, vGb: round(r.vGb[i]!), bwMbPerS: p.observedMbPerS, label: `v = ${p.series} MB` })),
      },
    }),
    residualsFigure({
      id: "fitted-model-residuals",
      title: "Residuals of the fit",
      caption:
        `Observed − fitted bandwidth at each fit point (${String(fit.model.provenance.fitPoints ?? "")}) against the fitted value. ` +
        `A least-squares fit leaves no trend here; a curve means the form misses something.`,
      seriesTitle: "application size v (MB)",
      series: usedSeries,
      neutralSeries: neutral,
      points: points.map((p) => ({ series: p.series, m: p.m, predictedMbPerS: p.predictedMbPerS, residualMbPerS: p.residualMbPerS })),
    }),
    observedPredictedFigure({
      id: "fitted-model-observed-predicted",
      title: "Observed against predicted bandwidth",
      caption:
        `Every fit point (${String(fit.model.provenance.fitPoints ?? "")}) and every held-out mixed-size run (the D1–D3 kind of experiment, docs/science.md §3.4) of ${observationsLabel}, ` +
        `observed against what the fitted model predicts (filled: fit points; hollow: held-out runs); on the dashed line the prediction is exact.`,
      seriesTitle: "application size v (MB)",
      series: usedSeries,
      neutralSeries: [...neutral, "mixed sizes"],
      kinds: [
        { kind: fitPoint, hollow: false },
        { kind: validation, hollow: true },
      ],
      points: [
        ...points.map((p) => ({ series: p.series, kind: fitPoint, m: p.m, observedMbPerS: p.observedMbPerS, predictedMbPerS: p.predictedMbPerS })),
        ...fit.validation.runs.map((run) => ({
          series: "mixed sizes",
          kind: validation,
          m: run.m,
          observedMbPerS: round(run.observedMbPerS),
          predictedMbPerS: round(run.predictedMbPerS),
        })),
      ],
    }),
  ];
  return {
    figures,
    tables: [...(fit.selection ? [candidatesTable(fit.selection)] : []), coefficientTable(fit, paperModel), metricsTable(fit), peaksTable(fit, labelOf)],
  };
}

function coefficientTable(fit: FitReportArtifact, paperModel: BandwidthModel): Table {
  const comparable = fit.model.form === paperModel.form;
  const form = formOf(fit.model.form);
  const fixed = form.parameters.filter((p) => p.fixed && !p.internal);
  const method = form.terms
    ? "Ordinary least squares"
    : fit.model.form === "empirical"
      ? "The measured cells' means (each the mean of its runs, its interval from their spread)"
      : "Nonlinear (Levenberg–Marquardt) least squares";
  return {
    id: "fitted-model-coefficients",
    title: `Fitted ${form.terms ? "coefficients" : "parameters"} with their 95 % confidence intervals`,
    caption:
      `${method} of the ${fit.model.form} form, ${form.formula} (V in GB, bw in MB/s), ` +
      `t quantile ${fit.metrics.tQuantile.toFixed(3)} with ${fit.metrics.degreesOfFreedom} degrees of freedom` +
      (form.terms || fit.model.form === "empirical" ? "" : "; intervals from the Jacobian at the optimum (asymptotic, as scipy's curve_fit)") +
      (fixed.length > 0 ? `; ${fixed.map((p) => p.symbol).join(", ")} fixed from the data, not fitted` : "") +
      (comparable ? "; next to them the published coefficients ([Y11] eq. 4) and whether each lies in our interval." : "."),
    columns: [
      { key: "name", label: "coefficient" },
      { key: "term", label: "term" },
      { key: "estimate", label: "estimate", decimals: 6 },
      { key: "se", label: "standard error", decimals: 6 },
      { key: "low", label: "95 % CI low", decimals: 6 },
      { key: "high", label: "95 % CI high", decimals: 6 },
      ...(comparable
        ? [
            { key: "published", label: "published", decimals: 6 },
            { key: "inside", label: "published in CI" },
          ]
        : []),
    ],
    rows: [
      ...fit.coefficients.map((c) => {
        const published = comparable ? (paperModel.coefficients[c.name] ?? null) : null;
        return {
          name: c.name,
          term: c.term,
          estimate: c.estimate,
          se: c.standardError,
          low: c.ci95[0],
          high: c.ci95[1],
          ...(comparable ? { published, inside: published === null ? null : c.ci95[0] <= published && published <= c.ci95[1] ? "yes" : "no" } : {}),
        };
      }),
      ...fixed.map((p) => ({ name: p.name, term: `${p.symbol} (${p.meaning})`, estimate: fit.model.coefficients[p.name] ?? null, se: null, low: null, high: null })),
    ],
  };
}

function metricsTable(fit: FitReportArtifact): Table {
  const m = fit.metrics;
  const rows: [string, number | string | null, string][] = [
    ["fit points (N)", m.pointCount, "count"],
    ["runs behind them", m.runCount, "count"],
    ["parameters", m.parameterCount, "count"],
    ["R²", m.rSquared, ""],
    ["adjusted R²", m.adjustedRSquared, ""],
    ["RMSE", m.rmseMbPerS, "MB/s"],
    ["MAE", m.maeMbPerS, "MB/s"],
    ["residual standard error", m.residualStandardErrorMbPerS, "MB/s"],
    ["E_global (the papers' MAPE up to the peaks)", m.eGlobalPercent, "%"],
    [`cross-validated RMSE${m.crossValidation ? ` (${m.crossValidation.folds}-fold)` : ""}`, m.crossValidation?.rmseMbPerS ?? null, "MB/s"],
    ["condition number of the scaled design", m.conditionNumber, ""],
    ["mixed-size validation runs", fit.validation.runCount, "count"],
    ["their RMSE", fit.validation.rmseMbPerS, "MB/s"],
    ["their MAPE", fit.validation.mapePercent, "%"],
  ];
  return {
    id: "fitted-model-metrics",
    title: "Goodness of fit",
    caption: "Regression figures of the fit, the papers' E_global, the cross-validated error and the error on the mixed-size runs held out of the fit.",
    columns: [
      { key: "metric", label: "metric" },
      // Counts whole, the rest to 4 significant digits (readableNumber): no "30.0000 points".
      { key: "value", label: "value" },
      { key: "unit", label: "unit" },
    ],
    rows: rows.map(([metric, value, unit]) => ({ metric, value, unit })),
  };
}

function peaksTable(fit: FitReportArtifact, labelOf: Map<number, string>): Table {
  return {
    id: "fitted-model-peaks",
    title: "Measured and predicted peak of each size series",
    caption: "The peak (ī, bw_ī) of each measured series next to the fitted model's, over the same m (docs/science.md §3.1: where the collapse starts matters to ScheduleCkpt).",
    columns: [
      { key: "series", label: "series (MB)" },
      { key: "measuredM", label: "measured ī" },
      { key: "measuredBw", label: "measured bw_ī", unit: "MB/s", decimals: 2 },
      { key: "predictedM", label: "predicted ī" },
      { key: "predictedBw", label: "predicted bw_ī", unit: "MB/s", decimals: 2 },
    ],
    rows: fit.seriesPeaks
      .filter((p) => labelOf.has(p.sizeMb))
      .map((p) => ({
        series: labelOf.get(p.sizeMb)!,
        measuredM: p.measured.m,
        measuredBw: p.measured.bwMbPerS,
        predictedM: p.predicted.m,
        predictedBw: p.predicted.bwMbPerS,
      })),
  };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
