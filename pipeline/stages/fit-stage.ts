/**
 * The fit stages: observations → the fitted bandwidth model (the model artifact, what
 * `ckpt fit --out` writes and later stages can use) and the full fit report
 * (coefficients with standard errors and 95 % intervals, R², E_global, cross-validation,
 * the residual of every fit point, measured vs predicted peaks, validation runs).
 *
 * `fit` fits the pipeline's traces; `fit-machine`, `fit-nfs`, … the traces this project
 * measured (measured-clusters.ts).
 */
import { DEFAULT_FIT_OPTIONS, type FitOptions } from "../fit/fit-options";
import { artifactPath } from "../runner/run-stages";
import type { Stage } from "../runner/stage";
import { measuredArtifactNames, readRequired, type ArtifactName } from "./catalog";
import { MEASURED_CLUSTERS } from "./measured-clusters";

// The stages load their computations when they run (`await import`), not with the stage
// list: a pipeline run whose stages are all up to date loads none of them.

function fitStageFor(spec: { name: string; summary: string; input: "observations" | `${string}-observations` & ArtifactName; model: ArtifactName; report: ArtifactName; defaults: FitOptions }): Stage<FitOptions> {
  return {
    name: spec.name,
    summary: spec.summary,
    inputs: [spec.input],
    outputs: [spec.model, spec.report],
    module: __filename,
    defaults: spec.defaults,
    // b_max: a declared MB/s (0: none) or measured from the traces (--cap-mb-per-s).
    parameterWords: { capMbPerS: ["measured"] },
    async run(context) {
      const { fitBandwidthModel } = await import("../fit/fit-bandwidth-model.js");
      const { [spec.input]: artifact } = readRequired(context.inputs, [spec.input]);
      const own = artifactPath(spec.input);
      const observationsFile = context.provenance.find((p) => p.name === own)!;
      // Provenance: the observations artifact, then the trace files it was made from.
      const report = fitBandwidthModel(artifact.observations, context.parameters, [{ path: own, sha256: observationsFile.sha256 }, ...artifact.inputs]);
      const m = report.metrics;
      const chosen = report.selection
        ? report.selection.tieBelowMbPerS === null
          ? " (the simplest form that fits: too few points to cross-validate any)"
          : ` (chosen by ${report.selection.folds}-fold cross-validation among ${report.selection.candidates.map((c) => c.form).join(", ")})`
        : "";
      context.progress(
        `${report.model.form} form${chosen} on ${m.pointCount} points (${m.runCount} runs): R² = ${m.rSquared.toFixed(4)}, E_global = ${m.eGlobalPercent.toFixed(2)} %, RMSE = ${m.rmseMbPerS.toFixed(3)} MB/s`,
      );
      for (const note of report.notes) context.progress(`note: ${note}`);
      // The residual columns are typed arrays (fast to fill); artifacts are JSON arrays.
      const { fitReportArtifact } = await import("../fit/fit-report-artifact.js");
      return { artifacts: { [spec.model]: report.model, [spec.report]: fitReportArtifact(report) } };
    },
  };
}

export const fitStage = fitStageFor({
  name: "fit",
  summary: "observations → bw(m, V) by least squares: the model artifact and its fit report",
  input: "observations",
  model: "model",
  report: "fit",
  // A cluster's traces: the form cross-validation chooses. The reproduction sets fit.form=paper (run.ts).
  defaults: DEFAULT_FIT_OPTIONS,
});

/** One per measured cluster (measured-clusters.ts): `fit-machine`, `fit-nfs`, … */
export const measuredFitStages = MEASURED_CLUSTERS.map((cluster) =>
  fitStageFor({
    name: `fit-${cluster.key}`,
    summary: `${cluster.who}'s observations → its bw(m, V) (${cluster.key}-model, ${cluster.key}-fit)`,
    input: measuredArtifactNames(cluster.key).observations,
    model: measuredArtifactNames(cluster.key).model,
    report: measuredArtifactNames(cluster.key).fit,
    // Fitted with the papers' method, to be read next to the published model (measured-clusters.ts).
    defaults: { ...DEFAULT_FIT_OPTIONS, form: "paper" },
  }),
);
