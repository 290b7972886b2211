/**
 * A minimal predictive reading of a model for the schedule tests: one new burst's bandwidth
 * is lognormal around the model's mean, bw · exp(σ Z), σ given. Not the fit's predictive
 * distribution (pipeline/fit/predictive-bandwidth.ts): a stand-in whose quantiles are known
 * in closed form, so that a miss probability can be checked against a Monte Carlo of U.
 */
import { bandwidthEvaluator, type BandwidthModel } from "../../pipeline/fit/model";
import { standardNormalQuantile } from "../../pipeline/place/laws/standard-normal";
import type { BandwidthQuantile } from "../../pipeline/schedule";

export function lognormalReading(model: BandwidthModel, sigma: number): BandwidthQuantile {
  const mean = bandwidthEvaluator(model);
  return (m, vGb, q) => mean(m, vGb) * Math.exp(sigma * standardNormalQuantile(q));
}
