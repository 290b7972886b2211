/**
 * The human-readable report of a fit (what `ckpt fit` prints without `--json`): the
 * model's equation, the coefficient table with standard errors and 95 % intervals, the
 * metrics, and every size series' peak, measured vs predicted. Residuals of each point
 * are in the JSON report.
 */
import type { FitReport } from "./fit-bandwidth-model";
import { compact, significant, tableWithNumbers } from "./format-cells";

const EQUATIONS = {
  paper: "bw(m, V) = a·m²·V² + b·m² + c·V² + d·m + e",
  full: "bw(m, V) = Σ_{i,j ≤ 2} a_ij·m^i·V^j",
} as const;

// provenance.fitPoints reads "<kind>, <rule>", e.g. "per-(m, v) means, up to each series' peak".
const fitPointsKind = (fitPoints: unknown) => String(fitPoints).slice(0, String(fitPoints).lastIndexOf(", "));
const fitPointsRule = (fitPoints: unknown) => String(fitPoints).slice(String(fitPoints).lastIndexOf(", ") + 2);

export function formatFitReport(report: FitReport): string {
  const { model, metrics } = report;
  const lines: string[] = [];
  lines.push(`${EQUATIONS[model.form]}   (${model.form} form; m a count, V in GB = MB/1000, bw in MB/s)`);
  lines.push(
    `fit on ${metrics.pointCount} ${fitPointsKind(model.provenance.fitPoints)} (${metrics.runCount} runs, ${report.seriesPeaks.length} size series), ${fitPointsRule(model.provenance.fitPoints)}; ` +
      `${metrics.degreesOfFreedom} degrees of freedom`,
  );
  for (const note of report.notes) lines.push(`note: ${note}`);
  lines.push(
    `fitted domain: m ∈ [${model.domain.mMin}, ${model.domain.mMax}], V ∈ [${compact(model.domain.vGbMin)}, ${compact(model.domain.vGbMax)}] GB`,
  );
  lines.push("");
  lines.push(
    tableWithNumbers(
      ["coef", "term", "estimate", "std. error", "t", "95 % CI low", "95 % CI high"],
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
  lines.push(`(intervals: estimate ± t·SE with t = ${metrics.tQuantile.toFixed(4)}, Student t at 0.975 with ${metrics.degreesOfFreedom} d.f.)`);
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
        ["condition number (scaled design)", metrics.conditionNumber.toPrecision(3)],
      ],
      [1],
    ),
  );
  if (cv?.reason) lines.push(`CV not computed: ${cv.reason}`);
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
