/**
 * The place stage: the DP placer and its baselines on the example jobs (docs/science.md §5), each a
 * scenario of the parameters: a slices file, a failure law, the objective the DP
 * minimises, and for jobs given by checkpoint sizes the nodes writing together, whose
 * costs come from the bandwidth model (the fitted one when the fit stage ran, else the
 * published one). Every policy is simulated (Monte Carlo, seeded).
 *
 * Output `placements` is deterministic; the solver times (every `…Micros` field) go to
 * `place-timings`, declared volatile (they are measured).
 *
 * A scenario whose costs come from the bandwidth model is not applicable when one of its
 * (m, V) points lies outside the model's fitted domain or gets no usable bandwidth: it is
 * listed with the reason in the `place-not-applicable` artifact and skipped (fatal with
 * `strict`). `nodes: "auto"` writes with 8 nodes, or with the model's largest fitted m
 * when that is smaller.
 */
import { readFileSync } from "node:fs";
import { domainText, PAPER_MODEL, predict, type BandwidthModel } from "../fit/model";
import type { Objective } from "../place";
import type { ScenarioPlacement } from "../place/scenario-placement";
import type { Stage } from "../runner/stage";
import { readInputs } from "./catalog";
import { InputError } from "../shared/errors";
import { settleNotApplicable, type NotApplicable } from "../shared/not-applicable";
import { projectPath } from "./project-path";
import { splitTimings } from "../shared/split-timings";

export interface PlaceScenario {
  /** One line saying what the scenario shows (for the report). */
  description: string;
  /** Slices file (p,c or p,size_mb), relative to the project root. */
  slices: string;
  /** A law string (pipeline/place/README.md), e.g. [BKT] Table I's availability. */
  law: string;
  objective: Objective;
  /** For p,size_mb files: nodes checkpointing together ("auto": 8, or fewer if the model was fitted on fewer), and a latency per checkpoint (s). */
  nodes: number | "auto";
  latencySeconds: number;
}

export interface PlaceStageParameters {
  scenarios: Record<string, PlaceScenario>;
  alpha: number;
  beta: number;
  quantumSeconds: number;
  simulations: number;
  seed: number;
  /** Fail on a scenario the model cannot answer (`ckpt pipeline --strict`) instead of listing it. */
  strict: boolean;
}

/** Nodes of a scenario whose `nodes` is "auto". */
const AUTO_NODES = 8;

/** [BKT] Table I: SETI@home-like hosts' availability, Weibull(shape 0.431, scale 1.682 h). */
const AVAILABILITY_LAW = "weibull:shape=0.431,scale=1.682,unit=h";
/** [BKT] Table I: host lifetime, Weibull(shape 0.58, scale 137 days): rare failures. */
const LIFETIME_LAW = "weibull:shape=0.58,scale=137,unit=d";

export const DEFAULT_PLACE_PARAMETERS: PlaceStageParameters = {
  scenarios: {
    availability: {
      description: "the 8-slice example job on a volunteer host that leaves after Weibull(0.431, 1.682 h) ([BKT] Table I availability)",
      slices: "data/place/example-job.csv",
      law: AVAILABILITY_LAW,
      objective: "paper",
      nodes: 1,
      latencySeconds: 0,
    },
    "rare-failures": {
      description:
        "the same job under [BKT]'s host lifetime Weibull(0.58, 137 d), the DP minimising the complete objective (docs/science.md §5.3: the papers' objective prices checkpoints at nothing when failures are rare)",
      slices: "data/place/example-job.csv",
      law: LIFETIME_LAW,
      objective: "complete",
      nodes: 1,
      latencySeconds: 0,
    },
    "costs-from-model": {
      description: "a 6-slice job given by checkpoint sizes, 8 nodes checkpointing together: costs from the bandwidth model plus 2 s latency",
      slices: "data/place/example-sizes.csv",
      law: AVAILABILITY_LAW,
      objective: "paper",
      nodes: "auto",
      latencySeconds: 2,
    },
  },
  alpha: 1,
  beta: 0,
  quantumSeconds: 60,
  simulations: 20000,
  seed: 1,
  strict: false,
};

export const placeStage: Stage<PlaceStageParameters> = {
  name: "place",
  summary: "DP checkpoint placement vs Young, Daly and none, with Monte Carlo, on the example jobs",
  inputs: ["model?"],
  outputs: ["placements", "place-not-applicable", "place-timings"],
  volatileOutputs: ["place-timings"],
  module: __filename,
  defaults: DEFAULT_PLACE_PARAMETERS,
  inputFiles: ({ parameters }) => [
    ...new Set(Object.values(parameters.scenarios).flatMap((s) => [s.slices, ...empiricalFile(s.law)]).map(projectPath)),
  ],
  async run(context) {
    // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
    const { costsFromSizes, createLaw, parseDurationsCsv, parseLawString, parseSlicesCsv, placeJob, POLICY_NAMES } = await import("../place/index.js");
    const parameters = context.parameters;
    const model: BandwidthModel = readInputs(context.inputs, ["model"]).model ?? PAPER_MODEL;
    const placements: ScenarioPlacement[] = [];
    const notApplicable: NotApplicable[] = [];
    for (const [name, scenario] of Object.entries(parameters.scenarios)) {
      const file = projectPath(scenario.slices);
      const table = parseSlicesCsv(readFileSync(file, "utf8"), scenario.slices);
      let costsSeconds = table.costsSeconds;
      let costSource = `costs from ${scenario.slices}`;
      const warnings: string[] = [];
      if (costsSeconds === undefined) {
        const nodes = scenario.nodes === "auto" ? Math.max(1, Math.min(AUTO_NODES, Math.floor(model.domain.mMax))) : scenario.nodes;
        const reason = outsideModel(model, nodes, table.sizesMb!);
        if (reason !== null) {
          notApplicable.push({ scenario: name, reason });
          context.progress(`warning: ${name} not applicable: ${reason}`);
          continue;
        }
        const costs = costsFromSizes(table.sizesMb!, { model, nodes, latencySeconds: scenario.latencySeconds });
        costsSeconds = costs.costsSeconds;
        warnings.push(...costs.warnings);
        costSource = `sizes from ${scenario.slices} through the ${model.name} bandwidth model, ${nodes} nodes writing together, ${scenario.latencySeconds} s latency`;
      }
      context.progress(`${name}: ${scenario.law}, objective ${scenario.objective}, ${parameters.simulations} simulated runs per policy`);
      const parsed = parseLawString(scenario.law, (path) => parseDurationsCsv(readFileSync(projectPath(path), "utf8"), path));
      const placement = placeJob({ slicesSeconds: table.slicesSeconds, costsSeconds }, createLaw(parsed.spec), {
        policies: POLICY_NAMES,
        alpha: parameters.alpha,
        beta: parameters.beta,
        objective: scenario.objective,
        quantumSeconds: parameters.quantumSeconds,
        simulate: { runs: parameters.simulations, seed: parameters.seed },
      });
      placement.warnings.unshift(...parsed.warnings, ...warnings);
      placements.push({ name, scenario, costSource, placement });
    }
    settleNotApplicable("place", notApplicable, parameters.strict);
    if (Object.keys(parameters.scenarios).length === 0) throw new InputError("place: no scenarios; give at least one in place.scenarios");
    // Solver times are measured: they go to the volatile place-timings, null in placements.
    const split = splitTimings(placements);
    return {
      artifacts: { placements: split.value, "place-not-applicable": notApplicable, "place-timings": { unit: "µs", timings: split.timings } },
    };
  },
};

function empiricalFile(law: string): string[] {
  const match = /^\s*empirical\s*:\s*([^;]+)/i.exec(law);
  return match ? [match[1]!.trim()] : [];
}

/** Why the model cannot price these checkpoints (a point outside its fitted domain, or no usable bandwidth), or null. */
function outsideModel(model: BandwidthModel, nodes: number, sizesMb: number[]): string | null {
  for (const sizeMb of sizesMb) {
    if (sizeMb === 0) continue;
    const vGb = (nodes * sizeMb) / 1000;
    const prediction = predict(model, nodes, vGb);
    if (!prediction.inDomain || prediction.bandwidthMbPerS === null) {
      return (
        `costs from the bandwidth model "${model.name}" need bw(m = ${nodes}, V = ${vGb} GB) (${nodes} nodes writing ${sizeMb} MB each), ` +
        (prediction.bandwidthMbPerS === null
          ? `where it predicts ${prediction.rawMbPerS.toFixed(3)} MB/s, no usable bandwidth`
          : `outside its fitted domain ${domainText(model.domain)}`)
      );
    }
  }
  return null;
}
