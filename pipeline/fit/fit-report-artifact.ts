/**
 * The fit report as the `fit` artifact holds it (stages/fit-stage.ts writes it, the report
 * draws it): JSON, so the residual columns, typed arrays while the fit fills them, are arrays.
 */
import type { FitReport, PointResiduals } from "./fit-bandwidth-model";

export type FitReportArtifact = Omit<FitReport, "residuals"> & {
  residuals: { [K in keyof PointResiduals]: PointResiduals[K] extends Float64Array ? number[] : PointResiduals[K] };
};

/** The report as its artifact: every typed array a plain array. */
export function fitReportArtifact(report: FitReport): FitReportArtifact {
  return JSON.parse(JSON.stringify(report, (_key, v: unknown) => (v instanceof Float64Array ? Array.from(v) : v))) as FitReportArtifact;
}
