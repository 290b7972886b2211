/**
 * `ckpt peaks`: the curve i ↦ bw(i, Σ_{k≤i} s_k) of a data set and its peak (docs/science.md §3.4),
 * from the published model or a fitted one.
 */
import { formatPeakCurve } from "../fit/format-peak-curve";
import { loadModel } from "../fit/load-model";
import { peakCurve } from "../fit/peak-curve";
import { defineCommand } from "../command-line/command";

export const command = defineCommand({
  name: "peaks",
  title: "where does checkpointing a data set by growing prefixes peak? (docs/science.md §3.4)",
  usage: ["ckpt peaks --model <file|paper> --sizes <s1,s2,…> [--json]"],
  description: `For sizes s_1..s_n (MB), point i of the curve is bw(i, Σ_{k≤i} s_k / 1000): the aggregated
bandwidth when the first i applications checkpoint together. The peak (ī, bw_ī) is its
maximum over the points where the model gives a usable (> 0) bandwidth.`,
  options: {
    model: {
      kind: "string",
      required: true,
      value: "<file|paper>",
      help: 'a model written by `ckpt fit --out`, or "paper" for the published coefficients of [Y11] eq. 4',
    },
    sizes: { kind: "numbers", required: true, value: "<s1,s2,…>", help: "application sizes in MB, comma-separated, in checkpoint order" },
    json: {
      kind: "flag",
      help: 'print { "curve": [{ "m", "sizeMb", "bw", "inDomain" }], "peak": { "m", "bw" } } (sizeMb = the cumulative Σ in MB; bw in MB/s; inDomain false = extrapolation)',
    },
  },
  notes: `Example (data set D1 of [Y11] Table 1; measured peak ī = 9, 31.20 MB/s):
  ckpt peaks --model paper --sizes 105,451,135,241,329,172,211,281,117,494,113,301`,
  run({ values }, io) {
    const model = loadModel(values.model);
    const result = peakCurve(model, values.sizes);
    io.stdout(values.json ? JSON.stringify(result, null, 2) : formatPeakCurve(model, result));
    return 0;
  },
});
