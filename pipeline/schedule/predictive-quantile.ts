/**
 * A fitted model's predictive distribution as the quantile function the confident plans
 * take (confident-plan.ts), and the rule that says which plan a model gets.
 *
 * Where the model's mean gives no usable bandwidth (≤ 0: the papers' quadratic outside its
 * data) there is no distribution either; the quantile is NaN there, which the oracle treats
 * as infeasible like the mean's own ≤ 0 (bandwidth-oracle.ts), instead of the fit's error.
 */
import { bandwidthEvaluator, type BandwidthModel } from "../fit/model";
import { bandwidthQuantile, hasPredictive } from "../fit/predictive-bandwidth";
import { InputError } from "../shared/errors";
import type { BandwidthQuantile, Confidence } from "./confident-plan";

export function predictiveQuantile(model: BandwidthModel): BandwidthQuantile {
  const mean = bandwidthEvaluator(model);
  return (m, vGb, q) => {
    const bw = mean(m, vGb);
    return Number.isFinite(bw) && bw > 0 ? bandwidthQuantile(model, m, vGb, q) : NaN;
  };
}

/**
 * The confidence a plan is made at: the one asked for, or by default 0.95 for a model that
 * carries a predictive distribution (fitted by this project) and the mean for one that
 * does not (the published model, older files). A number asked of a model without one is
 * refused with how to refit.
 */
export function resolveConfidence(asked: Confidence | undefined, model: BandwidthModel, flag = "--confidence"): Confidence {
  if (asked === undefined) return hasPredictive(model) ? 0.95 : "mean";
  if (asked !== "mean" && !hasPredictive(model)) {
    throw new InputError(
      `${flag} ${asked} needs the model's predictive distribution, and model "${model.name}" has none (no "predictive" field: ` +
        (model.name === "paper" ? "the published model carries its coefficients only" : "written before models carried it, or fitted on traces without a repeated (m, v)") +
        `). Refit it from traces with replicate runs — \`ckpt fit <traces> --out model.json\` — or plan on the mean with ${flag} mean`,
    );
  }
  return asked;
}
