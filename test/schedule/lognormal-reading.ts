/**
 * A minimal predictive reading of a model for the schedule tests: one new burst's bandwidth
 * is lognormal around the model's mean, bw · exp(σ Z), σ given. Not the fit's predictive
 * distribution (pipeline/fit/predictive-bandwidth.ts): a stand-in whose quantiles are known
 * in closed form, so that a miss probability can be checked against a Monte Carlo of U.
 */
import { fitBandwidthModel } from "../../pipeline/fit/fit-bandwidth-model";
import { bandwidthEvaluator, type BandwidthModel } from "../../pipeline/fit/model";
import type { RunObservation } from "../../pipeline/ingest/observations";
import { summariseRuns } from "../../pipeline/ingest/summarise-runs";
import { standardNormalQuantile } from "../../pipeline/stats/standard-normal";
import type { BandwidthQuantile } from "../../pipeline/schedule";

export function lognormalReading(model: BandwidthModel, sigma: number): BandwidthQuantile {
  const mean = bandwidthEvaluator(model);
  return (m, vGb, q) => mean(m, vGb) * Math.exp(sigma * standardNormalQuantile(q));
}

/**
 * The fit of a trace's runs with the stand-in reading: `ckpt fit`'s default (form auto,
 * cell means) for the mean, σ the pooled within-cell standard deviation of log bandwidth
 * (n − 1 per cell). No parameter uncertainty: a lower bound on the predictive spread.
 */
export function fitWithLognormalReading(runs: readonly RunObservation[]): { model: BandwidthModel; quantile: BandwidthQuantile; sigma: number } {
  const model = fitBandwidthModel(summariseRuns(runs)).model;
  const byCell = new Map<string, number[]>();
  for (const run of runs) {
    if (run.uniformSizeMb === null) continue;
    const key = `${run.m}/${run.uniformSizeMb}`;
    const values = byCell.get(key) ?? [];
    values.push(Math.log(run.aggregatedBwMbPerS));
    byCell.set(key, values);
  }
  let squares = 0;
  let dof = 0;
  for (const values of byCell.values()) {
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    squares += values.reduce((sum, x) => sum + (x - mean) ** 2, 0);
    dof += values.length - 1;
  }
  const sigma = Math.sqrt(squares / dof);
  return { model, quantile: lognormalReading(model, sigma), sigma };
}
