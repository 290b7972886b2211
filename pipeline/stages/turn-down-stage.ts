/**
 * The turn-down stage: where the fitted curves turn down while the measurements do not (an
 * artefact of the form, docs/science.md §3.5), over the range the report's figures draw,
 * and the forms that follow the data (fit/turn-down-findings.ts). When the fit was asked for
 * one form, it fits every form on the same observations to find them, as `--form auto`
 * would: work the report used to redo each time it was drawn.
 */
import type { Stage } from "../runner/stage";
import { ARTIFACTS, readRequired } from "./catalog";

export const turnDownStage: Stage = {
  name: "turn-down",
  summary: "the fitted curves' turn-downs the measurements do not show, and the forms that follow the data",
  inputs: [ARTIFACTS.observations.name, ARTIFACTS.fit.name],
  outputs: [ARTIFACTS["turn-down"].name],
  module: __filename,
  defaults: {},
  async run(context) {
    // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
    const { turnDownFindings } = await import("../fit/turn-down-findings.js");
    const { DEFAULT_FIT_OPTIONS, fitBandwidthModel } = await import("../fit/fit-bandwidth-model.js");
    const { InputError } = await import("../shared/errors.js");
    // The range the report draws the model over (its figures' axes).
    const { modelAxes } = await import("../report/figures/model-axes.js");
    const { observations, fit } = readRequired(context.inputs, ["observations", "fit"]);
    const compareForms = () => {
      // Every form scored by cross-validation on every point; none when the observations identify none.
      try {
        return fitBandwidthModel(observations.observations, { ...DEFAULT_FIT_OPTIONS, form: "auto" }).selection!.candidates;
      } catch (error) {
        if (error instanceof InputError) return [];
        throw error;
      }
    };
    const findings = turnDownFindings(fit, observations.observations.series, modelAxes(fit.model, observations.observations).mMax, compareForms);
    return { artifacts: { "turn-down": findings } };
  },
};
