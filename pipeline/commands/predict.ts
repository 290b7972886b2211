/**
 * `ckpt predict`: the bandwidth and duration of one new checkpoint burst under a fitted
 * model, with its prediction interval (docs/science.md §3.6).
 */
import { DOMAIN_POLICY_ALIASES, SCHEDULE_DOMAIN_POLICIES } from "../bandwidth/outside-domain";
import { predictBurst } from "../fit/burst-prediction";
import { formatBurstPrediction } from "../fit/format-burst-prediction";
import { loadModel } from "../fit/load-model";
import { defineCommand } from "../command-line/command";

export const command = defineCommand({
  name: "predict",
  title: "the bandwidth of one new checkpoint burst at (m, V): mean and prediction interval (docs/science.md §3.6)",
  usage: ["ckpt predict --model <model.json> --m <writers> --size-mb <MB per writer> [--level 0.95] [--domain refuse|extrapolate] [--json]"],
  description: `m writers each checkpoint --size-mb MB at once (V = m · size / 1000 GB). The model's mean
bandwidth, the central prediction interval at --level for ONE new burst (the run-to-run
variance measured in the model's replicates plus the parameters' uncertainty), and the
burst's duration quantiles (total MB / bandwidth). Needs a model fitted by \`ckpt fit\`
from traces with replicate runs; the papers' published model has no band.`,
  options: {
    model: { kind: "string", required: true, value: "<model.json>", help: "a model written by `ckpt fit --out`" },
    m: { kind: "integer", required: true, value: "<writers>", min: 1, help: "the number of writers checkpointing together" },
    "size-mb": { kind: "number", required: true, value: "<MB>", help: "each writer's checkpoint size, MB" },
    level: { kind: "number", value: "<p>", default: 0.95, help: "the interval's level, strictly between 0 and 1" },
    domain: {
      kind: "choice",
      choices: SCHEDULE_DOMAIN_POLICIES,
      aliases: DOMAIN_POLICY_ALIASES,
      default: "refuse",
      help: "a point outside the model's fitted domain: refuse it, saying how far, or extrapolate, answering with a warning",
    },
    json: {
      kind: "flag",
      help: 'print { "level", "mean", "lower", "upper" (MB/s), "m", "sizeMb", "vGb", "durationS": { "lower", "median", "upper", "atLevel", "atMean" }, "inDomain" }',
    },
  },
  notes: `Example:
  ckpt fit my-cluster.csv --out model.json
  ckpt predict --model model.json --m 8 --size-mb 512 --level 0.95`,
  run({ values }, io) {
    const model = loadModel(values.model);
    const prediction = predictBurst(model, values.m, values["size-mb"], values.level, values.domain);
    if (prediction.warning !== undefined && values.json) io.stderr(`warning: ${prediction.warning}`);
    io.stdout(values.json ? JSON.stringify(prediction, null, 2) : formatBurstPrediction(model, prediction));
    return 0;
  },
});
