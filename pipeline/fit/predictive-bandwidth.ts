/**
 * The predictive distribution of the aggregated bandwidth of ONE new checkpoint burst at
 * (m, V), from a fitted model's `predictive` part (predictive-distribution.ts has the
 * model and its derivation; docs/science.md §3.6):
 *
 *     q-quantile = bŵ · exp(−s²/2 + t_{q, ν} · s),   s² = σ²_run + σ²_release/R + τ² + gᵀΣg / bŵ²
 *
 * Callers plan on these (ckpt predict, ScheduleCkpt's and release's confident plans, the
 * DP's cost quantile, ckpt fit --check). The domain is not checked here: a caller that
 * extrapolates says so itself (ckpt predict refuses unless told).
 *
 * Hot loops call `bandwidthQuantile` per (m, V): the model's evaluator, gradient buffers and
 * covariance are prepared once per model object, and the t quantiles once per level.
 */
import { InputError } from "../shared/errors";
import { formOf, parametersOf, type BandwidthModel } from "./model";
import { bandwidthEvaluator, evaluationCoefficients } from "./model";
import { noPredictiveError, type PredictiveDistribution } from "./predictive-distribution";
import { studentTQuantile } from "../stats/student-t";

/** True when the model carries what a prediction interval needs (run-to-run variance, covariance). */
export function hasPredictive(model: BandwidthModel): boolean {
  const p = model.predictive;
  return p !== undefined && p !== null && p.degreesOfFreedom >= 1 && Number.isFinite(p.runToRunLogSd);
}

interface Prepared {
  predictive: PredictiveDistribution;
  mean: (m: number, vGb: number) => number;
  /** ∂bw/∂θ_a at (m, V), for the fitted parameters in the covariance's order. */
  gradient: (m: number, vGb: number, out: Float64Array) => void;
  covariance: Float64Array;
  g: Float64Array;
  /** Quantiles of t_ν, by probability. */
  tQuantiles: Map<number, number>;
  /** σ²_release / R: the fit's level's share of its repetitions' factors (0 for older models). */
  levelVariance: number;
}

const prepared = new WeakMap<BandwidthModel, Prepared>();

function prepare(model: BandwidthModel): Prepared {
  const cached = prepared.get(model);
  if (cached !== undefined) return cached;
  if (!hasPredictive(model)) throw noPredictiveError(model.name);
  const predictive = model.predictive!;
  const form = formOf(model.form);
  const k = evaluationCoefficients(model);
  const parameters = parametersOf(model);
  const index = predictive.parameters.map((name) => parameters.findIndex((p) => p.name === name));
  if (index.some((j) => j < 0)) throw new InputError(`model "${model.name}": "predictive.parameters" ${JSON.stringify(predictive.parameters)} are not all parameters of the ${model.form} form`);
  const q = index.length;
  const full = new Float64Array(parameters.length);
  const unit = new Float64Array(parameters.length);
  const gradient =
    form.gradient !== undefined
      ? (m: number, vGb: number, out: Float64Array) => {
          form.gradient!(k, m, vGb, full);
          for (let a = 0; a < q; a++) out[a] = full[index[a]!]!;
        }
      : // A linear form: ∂bw/∂θ_j is its term j, the form evaluated at the unit vector e_j.
        (m: number, vGb: number, out: Float64Array) => {
          for (let a = 0; a < q; a++) {
            unit.fill(0);
            unit[index[a]!] = 1;
            out[a] = form.evaluate(unit, m, vGb);
          }
        };
  const covariance = new Float64Array(q * q);
  predictive.covariance.forEach((row, a) => row.forEach((value, b) => (covariance[a * q + b] = value)));
  const result: Prepared = { predictive, mean: bandwidthEvaluator(model), gradient, covariance, g: new Float64Array(q), tQuantiles: new Map(), levelVariance: (predictive.releaseCount ?? 0) > 0 ? (predictive.releaseLogSd ?? 0) ** 2 / predictive.releaseCount! : 0 };
  prepared.set(model, result);
  return result;
}

/** The mean bŵ and the predictive log standard deviation s at (m, V). */
function meanAndLogSd(p: Prepared, model: BandwidthModel, m: number, vGb: number): { mean: number; logSd: number } {
  const mean = p.mean(m, vGb);
  if (!(Number.isFinite(mean) && mean > 0)) {
    throw new InputError(`model "${model.name}" gives bw(${m}, ${vGb} GB) = ${mean} MB/s, not a usable bandwidth (must be > 0): no predictive distribution there`);
  }
  const q = p.g.length;
  p.gradient(m, vGb, p.g);
  let parameterVariance = 0;
  for (let a = 0; a < q; a++) {
    let row = 0;
    for (let b = 0; b < q; b++) row += p.covariance[a * q + b]! * p.g[b]!;
    parameterVariance += p.g[a]! * row;
  }
  // A cap (b_max) makes the mean flat in the parameters where it binds.
  const capped = model.bandwidthCapMbPerS !== null && mean >= model.bandwidthCapMbPerS;
  const variance = p.predictive.runToRunLogSd ** 2 + p.levelVariance + p.predictive.lackOfFitLogSd ** 2 + (capped ? 0 : Math.max(0, parameterVariance) / (mean * mean));
  return { mean, logSd: Math.sqrt(variance) };
}

function tQuantile(p: Prepared, probability: number): number {
  let t = p.tQuantiles.get(probability);
  if (t === undefined) {
    t = studentTQuantile(probability, p.predictive.degreesOfFreedom);
    p.tQuantiles.set(probability, t);
  }
  return t;
}

function requireProbability(name: string, value: number): void {
  if (!(value > 0 && value < 1)) throw new InputError(`${name} must be a number strictly between 0 and 1, got ${value}`);
}

/**
 * The q-quantile (0 < q < 1), MB/s, of the aggregated bandwidth of one new checkpoint burst
 * of m writers writing V GB in all. Throws an InputError for a model without `predictive`
 * (the published one, older files) or where the model gives no usable bandwidth.
 * @example bandwidthQuantile(model, 8, 4.096, 0.05) // the bandwidth 95 % of bursts exceed
 */
export function bandwidthQuantile(model: BandwidthModel, m: number, vGb: number, q: number): number {
  requireProbability("the quantile q", q);
  const p = prepare(model);
  const { mean, logSd } = meanAndLogSd(p, model, m, vGb);
  return mean * Math.exp(-0.5 * logSd * logSd + tQuantile(p, q) * logSd);
}

/**
 * The central prediction interval at `level` (0 < level < 1) for one new burst: its bounds
 * are the (1 ∓ level)/2 quantiles, `mean` the model's mean bandwidth, all in MB/s.
 * @example predictionInterval(model, 8, 4.096, 0.95) // { level: 0.95, mean, lower, upper }
 */
export function predictionInterval(model: BandwidthModel, m: number, vGb: number, level: number): { level: number; mean: number; lower: number; upper: number } {
  requireProbability("the level", level);
  const p = prepare(model);
  const { mean, logSd } = meanAndLogSd(p, model, m, vGb);
  const t = tQuantile(p, 0.5 + level / 2);
  const centre = mean * Math.exp(-0.5 * logSd * logSd);
  return { level, mean, lower: centre * Math.exp(-t * logSd), upper: centre * Math.exp(t * logSd) };
}
