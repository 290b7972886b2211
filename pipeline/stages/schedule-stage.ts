/**
 * The schedule stage (docs/science.md §4): ScheduleCkpt on one example instance with its baselines
 * (sequential greedy, all in parallel), recorded for a Gantt chart, and the papers'
 * campaigns over seeds (families A, B, C; identical sizes; waves; scaling).
 *
 * The planning model is a parameter: "paper" (default: the published coefficients, what
 * the papers' numbers were computed with, so the campaign compares with them) or
 * "fitted" (the fit stage's model, when it ran). Measured scheduler times (every
 * `…Micros` field) go to the volatile `schedule-timings`; the rest is deterministic.
 */
import { readFileSync } from "node:fs";
import { PAPER_MODEL, type BandwidthModel } from "../fit/model";
import type { Stage } from "../runner/stage";
import {
  allInParallel,
  parseAppsCsv,
  resolveScheduleOptions,
  runCampaign,
  scheduleCkpt,
  sequentialGreedy,
  type CampaignPart,
  type Criterion,
  type DomainPolicy,
  type EstimatorName,
} from "../schedule";
import { InputError } from "../shared/errors";
import { projectPath } from "./project-path";
import { splitTimings } from "../shared/split-timings";

export interface ScheduleStageParameters {
  model: "paper" | "fitted";
  domain: DomainPolicy;
  estimator: EstimatorName;
  example: { apps: string; deadlineS: number; k0: number; criterion: Criterion };
  campaign: { parts: CampaignPart[]; seeds: number; firstSeed: number; k0s: number[]; criteria: Criterion[]; scalingNs: number[]; scalingSeeds: number };
}

export const DEFAULT_SCHEDULE_PARAMETERS: ScheduleStageParameters = {
  model: "paper",
  domain: "strict",
  estimator: "static",
  // Family A of docs/science.md §4.5, seed 1 (n = 25, T = 180 s): the papers' largest k0.
  example: { apps: "data/schedule/family-a-seed-1.csv", deadlineS: 180, k0: 2, criterion: "p" },
  campaign: {
    parts: ["A", "B", "C", "identical", "waves", "scaling"],
    seeds: 100,
    firstSeed: 1,
    k0s: [0, 1, 2],
    criteria: ["p", "density"],
    scalingNs: [25, 50, 100, 200, 500],
    scalingSeeds: 5,
  },
};

export const scheduleStage: Stage<ScheduleStageParameters> = {
  name: "schedule",
  summary: "ScheduleCkpt on an example instance (Gantt) and the papers' campaigns over seeds",
  inputs: ["model?"],
  outputs: ["schedule-example", "campaign", "schedule-timings"],
  volatileOutputs: ["schedule-timings"],
  module: __filename,
  defaults: DEFAULT_SCHEDULE_PARAMETERS,
  inputFiles: ({ parameters }) => [projectPath(parameters.example.apps)],
  async run(context) {
    const p = context.parameters;
    const fitted = context.inputs.model as BandwidthModel | undefined;
    if (p.model === "fitted" && fitted === undefined) {
      throw new InputError('schedule.model is "fitted" but no fit stage ran before; use schedule.model=paper or give traces to fit');
    }
    const model = p.model === "fitted" ? fitted! : PAPER_MODEL;
    const apps = parseAppsCsv(readFileSync(projectPath(p.example.apps), "utf8"), p.example.apps);
    const options = resolveScheduleOptions({
      model,
      deadlineS: p.example.deadlineS,
      k0: p.example.k0,
      criterion: p.example.criterion,
      estimator: p.estimator,
      domain: p.domain,
      record: true,
    });
    const example = {
      apps: p.example.apps,
      model: model.name,
      deadlineS: p.example.deadlineS,
      k0: p.example.k0,
      criterion: p.example.criterion,
      estimator: p.estimator,
      scheduleCkpt: scheduleCkpt(apps, options),
      sequentialGreedy: sequentialGreedy(apps, options),
      allInParallel: allInParallel(apps, options),
    };
    context.progress(
      `example ${p.example.apps}: ScheduleCkpt saves ${example.scheduleCkpt.ctnys} s of ${example.scheduleCkpt.totalP} s (sequential ${example.sequentialGreedy.ctnys}, all in parallel ${example.allInParallel.ctnys})`,
    );
    const c = p.campaign;
    const campaign = runCampaign({
      model,
      domain: p.domain,
      estimator: p.estimator,
      parts: c.parts,
      seeds: c.seeds,
      firstSeed: c.firstSeed,
      k0s: c.k0s,
      criteria: c.criteria,
      exact: null,
      scalingNs: c.scalingNs,
      scalingSeeds: c.scalingSeeds,
    });
    context.progress(`campaign: ${campaign.runs.length} ScheduleCkpt runs over ${c.seeds} seeds per family`);
    const exampleSplit = splitTimings(example);
    const campaignSplit = splitTimings(campaign);
    return {
      artifacts: {
        "schedule-example": exampleSplit.value,
        campaign: campaignSplit.value,
        "schedule-timings": { unit: "µs", example: exampleSplit.timings, campaign: campaignSplit.timings },
      },
    };
  },
};
