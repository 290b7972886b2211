/**
 * What a fitted model keeps so that it can answer, besides its mean, the distribution of
 * the aggregated bandwidth of ONE new checkpoint burst at (m, V) (docs/science.md §3.6;
 * the queries are in predictive-bandwidth.ts).
 *
 * Model of one burst: ln bw_new = ln bŵ(m, V) − s²/2 + s·T, T a Student t with the
 * replicates' degrees of freedom, and
 *
 *     s²(m, V) = σ²_run + τ² + gᵀ Σ g / bŵ²
 *
 * σ²_run the run-to-run variance of ln bw in the replicates (run-to-run-variance.ts), τ²
 * the lack of fit that the replicates do not explain, and gᵀΣg/bŵ² the parameters'
 * uncertainty carried to ln bŵ by the delta method (g = ∂bw/∂θ at the estimate, Σ the
 * fit's covariance). The −s²/2 makes the distribution's mean bŵ (what least squares on MB/s
 * estimates), its median a little below.
 *
 * Why the delta method and not a bootstrap of cells: the prediction needs nothing but the
 * covariance the fit already has (a bootstrap would refit every form hundreds of times,
 * beyond the fit's 1 s budget on 10,000 means), and on the project's designs the
 * parameters' part is a small share of s² next to σ²_run; the coverage this gives is
 * checked on held-out runs of generated clusters (test/fit/predictive-coverage.test.ts).
 */
import { InputError } from "../shared/errors";
import type { FitColumns } from "./least-squares";
import { groupByDesignRow, toFitColumns } from "./least-squares";
import { runToRunVariance } from "./run-to-run-variance";

export const PREDICTIVE_METHOD = "delta-lognormal";

export interface PredictiveDistribution {
  /** "delta-lognormal": the form above. */
  method: typeof PREDICTIVE_METHOD;
  /** σ_run: √(pooled within-cell variance of ln bw) over the fit's replicate runs. */
  runToRunLogSd: number;
  /**
   * The Student t's degrees of freedom: Satterthwaite's for the release and own parts of the
   * run-to-run variance (Σ_c (n_c − 1) of the replicates when no repetition shares a factor).
   */
  degreesOfFreedom: number;
  /** σ_release: the part of σ_run shared by the runs of one repetition (absent in older models: 0). */
  releaseLogSd?: number;
  /** R: the repetitions it was measured on. */
  releaseCount?: number;
  replicatedCellCount: number;
  replicateRunCount: number;
  /** Slope of ln sd against ln mean over the replicated cells (≈ 1: multiplicative noise). */
  spreadSlope: number | null;
  /** τ: the cells' spread of ln bw around the model beyond what σ_run explains (0 when none). */
  lackOfFitLogSd: number;
  /** The fitted parameters, in the order of `covariance`'s rows. */
  parameters: string[];
  /** Covariance of those parameters (model units): the fit's. */
  covariance: number[][];
}

/**
 * The predictive part of a model from its fit: the fit's runs (one sample per run, not
 * means), the fitted bandwidth as a function, and the fit's parameters with their
 * covariance. Null when no cell of the runs has two runs: the run-to-run variance is then
 * not measured, and the model answers its mean only.
 */
export function predictiveDistribution(
  runs: FitColumns,
  bandwidth: (m: number, vGb: number) => number,
  parameters: readonly string[],
  covariance: number[][],
): PredictiveDistribution | null {
  const replicates = runToRunVariance(runs);
  if (replicates.degreesOfFreedom < 1) return null;
  // Lack of fit: Σ_c [(mean_c ln y − ln bŵ_c)² − σ²_run / n_c] / cells, floored at 0.
  const columns = toFitColumns(runs);
  const cellOf = new Int32Array(columns.m.length);
  const cells = groupByDesignRow(columns, cellOf);
  const logSum = new Float64Array(cells.length);
  const count = new Float64Array(cells.length);
  for (let i = 0; i < columns.m.length; i++) {
    const y = columns.bwMbPerS[i]!;
    if (!(y > 0)) continue;
    logSum[cellOf[i]!] += Math.log(y);
    count[cellOf[i]!] += 1;
  }
  // The cell means' own noise: the repetitions' shared factor is common to every cell, and the fit's level absorbs its mean.
  const variance = replicates.ownLogSd ** 2;
  let excess = 0;
  let used = 0;
  cells.forEach((cell, c) => {
    const predicted = bandwidth(cell.m, cell.vGb);
    if (count[c]! === 0 || !(predicted > 0)) return;
    excess += (logSum[c]! / count[c]! - Math.log(predicted)) ** 2 - variance / count[c]!;
    used += 1;
  });
  const lackOfFit = used > 0 ? Math.max(0, excess / used) : 0;
  return {
    method: PREDICTIVE_METHOD,
    runToRunLogSd: replicates.logSd,
    degreesOfFreedom: replicates.effectiveDegreesOfFreedom,
    releaseLogSd: replicates.releaseLogSd,
    releaseCount: replicates.releaseCount,
    replicatedCellCount: replicates.replicatedCellCount,
    replicateRunCount: replicates.replicateRunCount,
    spreadSlope: replicates.spreadSlope,
    lackOfFitLogSd: Math.sqrt(lackOfFit),
    parameters: [...parameters],
    covariance: covariance.map((row) => [...row]),
  };
}

/** Check the predictive part of a model file (loadModel); `fail` throws with the file's name. */
export function validatePredictive(value: unknown, fittedParameters: readonly string[], fail: (what: string) => never): PredictiveDistribution {
  if (typeof value !== "object" || value === null) return fail(`"predictive" must be an object`);
  const p = value as Partial<PredictiveDistribution>;
  if (p.method !== PREDICTIVE_METHOD) fail(`"predictive.method" must be "${PREDICTIVE_METHOD}", found ${JSON.stringify(p.method)}`);
  for (const key of ["runToRunLogSd", "lackOfFitLogSd"] as const) {
    if (typeof p[key] !== "number" || !(p[key]! >= 0) || !Number.isFinite(p[key])) fail(`"predictive.${key}" must be a finite number ≥ 0, found ${JSON.stringify(p[key])}`);
  }
  if (p.releaseLogSd !== undefined && !(typeof p.releaseLogSd === "number" && Number.isFinite(p.releaseLogSd) && p.releaseLogSd >= 0)) {
    fail(`"predictive.releaseLogSd" must be a finite number ≥ 0 when present, found ${JSON.stringify(p.releaseLogSd)}`);
  }
  if (p.releaseCount !== undefined && !(Number.isInteger(p.releaseCount) && p.releaseCount >= 0)) fail(`"predictive.releaseCount" must be an integer ≥ 0 when present, found ${JSON.stringify(p.releaseCount)}`);
  if (typeof p.degreesOfFreedom !== "number" || !(p.degreesOfFreedom >= 1)) fail(`"predictive.degreesOfFreedom" must be a number ≥ 1, found ${JSON.stringify(p.degreesOfFreedom)}`);
  const names = p.parameters;
  if (!Array.isArray(names) || names.join(",") !== fittedParameters.join(",")) {
    fail(`"predictive.parameters" must list the form's fitted parameters ${JSON.stringify(fittedParameters)}, found ${JSON.stringify(names)}`);
  }
  const q = fittedParameters.length;
  const covariance = p.covariance;
  if (!Array.isArray(covariance) || covariance.length !== q || covariance.some((row) => !Array.isArray(row) || row.length !== q || row.some((x) => typeof x !== "number" || !Number.isFinite(x)))) {
    fail(`"predictive.covariance" must be a ${q} × ${q} matrix of finite numbers`);
  }
  return p as PredictiveDistribution;
}

/** The refusal for a model without replicate variance, with how to get one. */
export function noPredictiveError(modelName: string): InputError {
  return new InputError(
    `model "${modelName}" has no run-to-run variance (the "predictive" field), which a prediction interval needs: ` +
      (modelName === "paper"
        ? "the papers' published model carries its coefficients only. "
        : "it was written before models carried it, or its traces have no (m, v) cell measured twice. ") +
      "Refit it from traces with replicate runs (at least two runs of some (m, v)): `ckpt fit <traces> --out model.json` writes the run-to-run variance and the parameters' covariance into the model.",
  );
}
