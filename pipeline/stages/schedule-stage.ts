/**
 * The schedule stage (docs/science.md §4): ScheduleCkpt on one example instance with its baselines
 * (sequential greedy, all in parallel), recorded for a Gantt chart, and the papers'
 * campaigns over seeds (families A, B, C; identical sizes; waves; scaling).
 *
 * The planning model is a parameter: "paper" (default: the published coefficients, what
 * the papers' numbers were computed with, so the campaign compares with them) or
 * "fitted" (the fit stage's model, when it ran; what a cluster's report plans with). Measured
 * scheduler times (every `…Micros` field) go to the volatile `schedule-timings`; the rest is
 * deterministic. `schedule-paper` is the same stage under the published model with its own
 * artifacts (`paper-campaign`…): the reproduction table's campaign when a cluster's report
 * plans with its own model and the reproduction is asked for as well.
 *
 * Under a fitted model with a predictive part, the example is also planned at confidence
 * 0.95 next to its mean plan, with the model's band and a replay of the observations
 * (`plans-that-hold`, schedule/plans-that-hold.ts); null otherwise (the published model has
 * no predictive distribution, so the reproduction is unchanged).
 *
 * Scenarios follow the model: the example is family A (an Azur instance) under the paper
 * model, and under a fitted one (`example.apps = "auto"`) an instance scaled to that
 * model's fitted domain (`modelExampleInstance`). A scenario the model cannot price
 * (`modelNotApplicableReason`) is not run: it is listed in `notApplicable` of the
 * artifacts with the reason, and `strict` makes it fatal.
 */
import { readFileSync } from "node:fs";
import { PAPER_MODEL, type BandwidthModel } from "../fit/model";
import type { Stage } from "../runner/stage";
import { readInputs } from "./catalog";
import type * as ScheduleLibrary from "../schedule";
import type { CampaignPart, Criterion, ScheduleDomainPolicy, EstimatorName, IdleStart, Application } from "../schedule";
import { InputError } from "../shared/errors";
import { settleNotApplicable, type NotApplicable } from "../shared/not-applicable";
import { projectPath } from "./project-path";
import { splitTimings } from "../shared/split-timings";

export interface ScheduleStageParameters {
  model: "paper" | "fitted";
  /** Outside the model's fitted domain: refuse or extrapolate (the older strict and warn are read as those). */
  domain: ScheduleDomainPolicy;
  estimator: EstimatorName;
  idleStart: IdleStart;
  /** Fail on a scenario the model cannot answer (`ckpt pipeline --strict`) instead of listing it. */
  strict: boolean;
  /** `apps`: an applications CSV, or "auto" (family A under the paper model, a model-scaled instance under a fitted one; `deadlineS` then applies to family A only). */
  example: { apps: string; deadlineS: number; k0: number; criterion: Criterion };
  campaign: { parts: CampaignPart[]; seeds: number; firstSeed: number; k0s: number[]; criteria: Criterion[]; scalingNs: number[]; scalingSeeds: number };
}

export const DEFAULT_SCHEDULE_PARAMETERS: ScheduleStageParameters = {
  model: "paper",
  domain: "refuse",
  estimator: "static",
  idleStart: "constant-term",
  strict: false,
  // Family A of docs/science.md §4.5, seed 1 (n = 25, T = 180 s), at the papers' largest k0.
  example: { apps: "auto", deadlineS: 180, k0: 2, criterion: "p" },
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

/** The confidence the report's confident plan is made at (the default of `ckpt schedule --confidence` for a fitted model). */
const REPORT_CONFIDENCE = 0.95;

function scheduleStageFor(spec: {
  name: string;
  summary: string;
  example: string;
  campaign: string;
  timings: string;
  plans: string;
  defaults: ScheduleStageParameters;
}): Stage<ScheduleStageParameters> {
  return {
    name: spec.name,
    summary: spec.summary,
    inputs: ["model?", "observations?"],
    // The fitted model (and the observations it was fitted on) only when planning with it:
    // under the published one, new traces leave the campaigns as they are, and they need not
    // wait for the fit.
    inputsUsed: (parameters) => (parameters.model === "fitted" ? ["model?", "observations?"] : []),
    outputs: [spec.example, spec.campaign, spec.timings, spec.plans],
    volatileOutputs: [spec.timings],
    module: __filename,
    defaults: spec.defaults,
    // Under a fitted model the example is derived from the model's domain: no file of the project's is read.
    inputFiles: ({ parameters }) => (parameters.example.apps === "auto" && parameters.model === "fitted" ? [] : [projectPath(exampleAppsFile(parameters.example.apps))]),
    async run(context) {
      // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
      const library = await import("../schedule/index.js");
      const { modelNotApplicableReason, runCampaign } = library;
      const p = context.parameters;
      const fitted = readInputs(context.inputs, ["model"]).model;
      if (p.model === "fitted" && fitted === undefined) {
        throw new InputError('schedule.model is "fitted" but no fit stage ran before; use schedule.model=paper or give traces to fit');
      }
      const model = p.model === "fitted" ? fitted! : PAPER_MODEL;
      const notApplicable: NotApplicable[] = [];
      const run = runExample(library, p, model, notApplicable, context.progress);
      const example = run?.example ?? null;
      const observations = p.model === "fitted" ? readInputs(context.inputs, ["observations"]).observations : undefined;
      const plans =
        run !== null && observations !== undefined
          ? library.plansThatHold({ model, observations: observations.observations, apps: run.apps, options: { ...run.options, record: false }, confidence: REPORT_CONFIDENCE })
          : null;
      if (plans !== null) {
        const replay = "notApplicable" in plans.replay ? plans.replay.notApplicable : `replay: the mean plan misses T in ${plans.replay.mean.misses} of ${plans.replay.mean.replays}, the confident plan in ${plans.replay.confident.misses}`;
        context.progress(`example at confidence ${REPORT_CONFIDENCE}: miss probability ${plans.plans.confident.missProbability.toPrecision(3)} (mean plan ${plans.plans.mean.missProbability.toPrecision(3)}); ${replay}`);
      }
      const c = p.campaign;
      const parts = c.parts.filter((part) => {
        const reason = modelNotApplicableReason(model, campaignPartInstance(library, part));
        if (reason !== null) notApplicable.push({ scenario: `campaign ${part}`, reason });
        return reason === null;
      });
      const campaign = runCampaign({
        model,
        domain: p.domain,
        estimator: p.estimator,
        parts,
        seeds: c.seeds,
        firstSeed: c.firstSeed,
        k0s: c.k0s,
        criteria: c.criteria,
        exact: null,
        scalingNs: c.scalingNs,
        scalingSeeds: c.scalingSeeds,
        ...(p.idleStart !== "constant-term" ? { idleStart: p.idleStart } : {}),
      });
      context.progress(`campaign: ${campaign.runs.length} ScheduleCkpt runs over ${c.seeds} seeds per family`);
      settleNotApplicable("schedule", notApplicable, p.strict);
      for (const entry of notApplicable) context.progress(`warning: ${entry.scenario} not applicable: ${entry.reason}`);
      const exampleSplit = splitTimings(example);
      const campaignSplit = splitTimings(campaign);
      return {
        artifacts: {
          [spec.example]: exampleSplit.value,
          [spec.campaign]: { ...(campaignSplit.value as object), notApplicable },
          [spec.timings]: { unit: "µs", example: exampleSplit.timings, campaign: campaignSplit.timings },
          [spec.plans]: plans,
        },
      };
    },
  };
}

export const scheduleStage = scheduleStageFor({
  name: "schedule",
  summary: "ScheduleCkpt on an example instance (Gantt) and the papers' campaigns over seeds",
  example: "schedule-example",
  campaign: "campaign",
  timings: "schedule-timings",
  plans: "plans-that-hold",
  defaults: DEFAULT_SCHEDULE_PARAMETERS,
});

/** The papers' campaigns under the published model, for the reproduction table of a cluster's report (`--with reproduction`). */
export const paperScheduleStage = scheduleStageFor({
  name: "schedule-paper",
  summary: "the papers' campaigns with the published model, for the reproduction table of a cluster's report",
  example: "paper-schedule-example",
  campaign: "paper-campaign",
  timings: "paper-schedule-timings",
  plans: "paper-plans-that-hold",
  defaults: { ...DEFAULT_SCHEDULE_PARAMETERS, model: "paper" },
});

const FAMILY_A_FILE = "data/schedule/family-a-seed-1.csv";

function exampleAppsFile(apps: string): string {
  return apps === "auto" ? FAMILY_A_FILE : apps;
}

/** The first instance of a campaign part, to ask whether the model can price it at all. */
function campaignPartInstance(library: typeof ScheduleLibrary, part: CampaignPart): Application[] {
  const { CAMPAIGN_PARTS, familyInstance, identicalSizeInstance, randomInstance, scaledFamilyC, wavesInstance } = library;
  if (part === "A" || part === "B" || part === "C") return familyInstance(part, 1);
  if (part === "identical") return identicalSizeInstance(10);
  if (part === "waves") return wavesInstance(1);
  if (part === "scaling") return randomInstance(scaledFamilyC(25), "N25", 1);
  throw new InputError(`schedule.campaign.parts: unknown part "${String(part)}"; known: ${CAMPAIGN_PARTS.join(", ")}`);
}

/**
 * ScheduleCkpt and its baselines on the example instance, or null (with the reason in
 * `notApplicable`) when the model cannot price it.
 */
function runExample(library: typeof ScheduleLibrary, p: ScheduleStageParameters, model: BandwidthModel, notApplicable: NotApplicable[], progress: (message: string) => void) {
  const { allInParallel, idleStartStallReason, modelExampleInstance, modelNotApplicableReason, parseAppsCsv, resolveScheduleOptions, scheduleCkpt, sequentialGreedy } = library;
  let apps: Application[];
  let deadlineS = p.example.deadlineS;
  let source: string;
  if (p.example.apps === "auto" && model !== PAPER_MODEL) {
    const derived = modelExampleInstance(model);
    if (derived === null) {
      notApplicable.push({ scenario: "example", reason: `the model "${model.name}" predicts no usable bandwidth on its own domain` });
      return null;
    }
    apps = derived.apps;
    deadlineS = derived.deadlineS;
    source = `derived from the model's domain: ${derived.description}`;
  } else {
    const file = exampleAppsFile(p.example.apps);
    apps = parseAppsCsv(readFileSync(projectPath(file), "utf8"), file);
    source = file;
  }
  const reason = modelNotApplicableReason(model, apps);
  if (reason !== null) {
    notApplicable.push({ scenario: "example", reason });
    return null;
  }
  const options = resolveScheduleOptions({
    model,
    deadlineS,
    k0: p.example.k0,
    criterion: p.example.criterion,
    estimator: p.estimator,
    domain: p.domain,
    idleStart: p.idleStart,
    record: true,
  });
  const scheduleCkptOutcome = scheduleCkpt(apps, options);
  const sequential = sequentialGreedy(apps, options);
  const idleStall = idleStartStallReason(model, apps, p.idleStart, scheduleCkptOutcome.startedCount);
  const example = {
    apps: source,
    model: model.name,
    deadlineS,
    k0: p.example.k0,
    criterion: p.example.criterion,
    estimator: p.estimator,
    idleStart: p.idleStart,
    scheduleCkpt: scheduleCkptOutcome,
    sequentialGreedy: sequential,
    allInParallel: allInParallel(apps, options),
    notes: idleStall === null ? [] : [`${idleStall} (sequential greedy saves ${sequential.ctnys} s here)`],
  };
  progress(
    `example (${source}): ScheduleCkpt saves ${example.scheduleCkpt.ctnys} s of ${example.scheduleCkpt.totalP} s (sequential ${example.sequentialGreedy.ctnys}, all in parallel ${example.allInParallel.ctnys})`,
  );
  for (const note of example.notes) progress(`warning: ${note}`);
  return { example, apps, options };
}
