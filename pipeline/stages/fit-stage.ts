/**
 * The fit stage: observations → the fitted bandwidth model (the `model` artifact, what
 * `ckpt fit --out` writes and every later stage can use) and the full fit report (`fit`:
 * coefficients with standard errors and 95 % intervals, R², E_global, cross-validation,
 * the residual of every fit point, measured vs predicted peaks, validation runs).
 */
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel, type FitOptions } from "../fit";
import type { ObservationsArtifact } from "../ingest/observations-artifact";
import { artifactPath } from "../runner/run-stages";
import type { Stage } from "../runner/stage";

export const fitStage: Stage<FitOptions> = {
  name: "fit",
  summary: "observations → bw(m, V) by least squares: the model artifact and its fit report",
  inputs: ["observations"],
  outputs: ["model", "fit"],
  module: __filename,
  defaults: DEFAULT_FIT_OPTIONS,
  async run(context) {
    const artifact = context.inputs.observations as ObservationsArtifact;
    const upstream = context.provenance.filter((p) => p.name !== artifactPath("observations")).map((p) => ({ path: p.name, sha256: p.sha256 }));
    const observationsFile = context.provenance.find((p) => p.name === artifactPath("observations"))!;
    const report = fitBandwidthModel(artifact.observations, context.parameters, [
      { path: observationsFile.name, sha256: observationsFile.sha256 },
      ...upstream,
    ]);
    const m = report.metrics;
    context.progress(
      `${report.model.form} form on ${m.pointCount} points (${m.runCount} runs): R² = ${m.rSquared.toFixed(4)}, E_global = ${m.eGlobalPercent.toFixed(2)} %, RMSE = ${m.rmseMbPerS.toFixed(3)} MB/s`,
    );
    // The residual columns are typed arrays (fast to fill); artifacts are JSON arrays.
    const asArrays = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof Float64Array ? Array.from(v) : v)));
    return { artifacts: { model: report.model, fit: asArrays(report) } };
  },
};
