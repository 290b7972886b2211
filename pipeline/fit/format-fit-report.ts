/**
 * The human-readable report of a fit (what `ckpt fit` prints without `--json`): the
 * model's equation, the coefficient table with standard errors and 95 % intervals, the
 * metrics, and every size series' peak, measured vs predicted. Residuals of each point
 * are in the JSON report.
 */
import { describePredictionBand, predictionBandWidth } from "./prediction-band";
import type { FitReport } from "./fit-bandwidth-model";
import { compact, significant, tableWithNumbers } from "./format-cells";
import { domainText, formOf, parametersOf } from "./model";

// provenance.fitPoints reads "<kind>, <rule>", e.g. "per-(m, v) means, up to each series' peak".
const fitPointsKind = (fitPoints: unknown) => String(fitPoints).slice(0, String(fitPoints).lastIndexOf(", "));
const fitPointsRule = (fitPoints: unknown) => String(fitPoints).slice(String(fitPoints).lastIndexOf(", ") + 2);

export function formatFitReport(report: FitReport): string {
  const { model, metrics } = report;
  const lines: string[] = [];
  const form = formOf(model.form);
  if (report.selection) lines.push(...formatSelection(report), "");
  lines.push(`${form.formula}   (${model.form} form; m a count, V in GB = MB/1000, bw in MB/s)`);
  lines.push(
    `fit on ${metrics.pointCount} ${fitPointsKind(model.provenance.fitPoints)} (${metrics.runCount} runs, ${report.seriesPeaks.length} size series), ${fitPointsRule(model.provenance.fitPoints)}; ` +
      `${metrics.degreesOfFreedom} degrees of freedom`,
  );
  for (const note of report.notes) lines.push(`note: ${note}`);
  const d = model.domain;
  lines.push(
    `fitted domain: ${domainText({ ...d, vGbMin: Number(compact(d.vGbMin)), vGbMax: Number(compact(d.vGbMax)), ...(d.writerGbMin !== undefined && d.writerGbMax !== undefined ? { writerGbMin: Number(compact(d.writerGbMin)), writerGbMax: Number(compact(d.writerGbMax)) } : {}) })}`,
  );
  lines.push("");
  lines.push(
    tableWithNumbers(
      form.terms ? ["coef", "term", "estimate", "std. error", "t", "95 % CI low", "95 % CI high"] : ["parameter", "symbol", "estimate", "std. error", "t", "95 % CI low", "95 % CI high"],
      report.coefficients.map((c) => [
        c.name,
        c.term,
        significant(c.estimate),
        significant(c.standardError, 3),
        c.tStatistic.toFixed(2),
        significant(c.ci95[0]),
        significant(c.ci95[1]),
      ]),
      [2, 3, 4, 5, 6],
    ),
  );
  lines.push(
    model.form === "empirical"
      ? "(intervals: each cell's mean ± t·SE, SE = sd/√runs, Student t at 0.975 with the cell's runs − 1 d.f.)"
      : `(intervals: estimate ± t·SE with t = ${metrics.tQuantile.toFixed(4)}, Student t at 0.975 with ${metrics.degreesOfFreedom} d.f.)`,
  );
  const fixed = parametersOf(model).filter((p) => p.fixed && !p.internal);
  if (fixed.length > 0) lines.push(`fixed from the data: ${fixed.map((p) => `${p.symbol} = ${compact(model.coefficients[p.name]!)} ${p.unit} (${p.meaning.replace(/ \(fixed from the data\)$/, "")})`).join("; ")}`);
  const atBound = parametersOf(model).filter((p) => !p.fixed && (model.coefficients[p.name] === p.lower || model.coefficients[p.name] === p.upper));
  if (atBound.length > 0) lines.push(`on a bound of the form: ${atBound.map((p) => `${p.symbol} = ${significant(model.coefficients[p.name]!)}`).join(", ")} (its 95 % interval is one-sided, from the bound inward: a symmetric interval would cross it)`);
  lines.push("");
  const cv = metrics.crossValidation;
  lines.push(
    tableWithNumbers(
      ["metric", "value"],
      [
        ["R²", metrics.rSquared.toFixed(6)],
        ["adjusted R²", metrics.adjustedRSquared.toFixed(6)],
        ["RMSE (MB/s)", metrics.rmseMbPerS.toFixed(4)],
        ["MAE (MB/s)", metrics.maeMbPerS.toFixed(4)],
        ["residual std. error (MB/s)", metrics.residualStandardErrorMbPerS.toFixed(4)],
        [`E_global (%, ${metrics.eGlobalPointCount} means up to the peaks)`, metrics.eGlobalPercent.toFixed(3)],
        [
          cv === null ? "cross-validated RMSE" : `${cv.folds}-fold CV RMSE (MB/s, seed ${cv.seed})`,
          cv === null ? "skipped (--folds 0)" : cv.rmseMbPerS === null ? "not computed" : cv.rmseMbPerS.toFixed(4),
        ],
        [form.terms ? "condition number (scaled design)" : "condition number (scaled Jacobian)", metrics.conditionNumber.toPrecision(3)],
      ],
      [1],
    ),
  );
  if (cv?.reason) lines.push(`CV not computed: ${cv.reason}`);
  const band = predictionBandWidth(model);
  lines.push(
    band === null
      ? "no prediction band: no (m, v) cell was measured twice, so the run-to-run variance is unknown (measure each point at least twice)"
      : describePredictionBand(band),
  );
  lines.push("");
  lines.push("peaks per size series (measured ī, bw_ī vs the model's maximum over the same m):");
  const grouped = report.seriesPeaks.some((s) => s.group !== undefined);
  const groupLabel = (group: Record<string, string | null> | undefined) =>
    Object.entries(group ?? {})
      .map(([name, value]) => `${name}=${value ?? "—"}`)
      .join(" ");
  lines.push(
    tableWithNumbers(
      [...(grouped ? ["group"] : []), "size MB", "measured ī", "measured bw", "predicted î", "predicted bw", "model at measured ī"],
      report.seriesPeaks.map((s) => [
        ...(grouped ? [groupLabel(s.group)] : []),
        String(s.sizeMb),
        String(s.measured.m),
        s.measured.bwMbPerS.toFixed(2),
        String(s.predicted.m),
        s.predicted.bwMbPerS.toFixed(2),
        s.predictedAtMeasuredPeakMbPerS.toFixed(2),
      ]),
      grouped ? [1, 2, 3, 4, 5, 6] : [0, 1, 2, 3, 4, 5],
    ),
  );
  const validation = report.validation;
  if (validation.runCount > 0) {
    lines.push("");
    lines.push(
      `validation (${validation.runCount} mixed-size runs, not fitted): RMSE ${validation.rmseMbPerS!.toFixed(4)} MB/s, ` +
        `MAPE ${validation.mapePercent!.toFixed(3)} %, ${validation.runs.filter((r) => !r.inDomain).length} outside the fitted domain`,
    );
  }
  lines.push("");
  lines.push("Residuals of every fit point and the coefficients' covariance: --json.");
  return lines.join("\n");
}

/** `--form auto`: every candidate form side by side, the chosen one marked, and the rule. */
function formatSelection(report: FitReport): string[] {
  const selection = report.selection!;
  const cell = (value: number | null, digits: number) => (value === null ? "—" : value.toFixed(digits));
  return [
    `forms compared by ${selection.folds}-fold cross-validation (seed ${selection.seed}) on the same points:`,
    tableWithNumbers(
      ["form", "parameters", "CV RMSE (MB/s)", "± SE", "CV rel. %", "extrap. rel. %", "score %", "R²", "E_global %", ""],
      selection.candidates.map((c) => [
        c.form,
        String(c.parameterCount),
        cell(c.cvRmseMbPerS, 4),
        cell(c.cvStandardErrorMbPerS, 4),
        cell(c.cvRelativeRmse === null ? null : 100 * c.cvRelativeRmse, 2),
        cell(c.extrapolationRelativeRmse === null ? null : 100 * c.extrapolationRelativeRmse, 2),
        cell(c.score === null || c.score === undefined ? null : 100 * c.score, 2),
        cell(c.rSquared, 4),
        cell(c.eGlobalPct, 2),
        c.form === selection.chosen ? "chosen" : c.converged === false ? "did not converge" : c.reason ? "not scored (note below)" : "",
      ]),
      [1, 2, 3, 4, 5, 6, 7, 8],
    ),
  ];
}
