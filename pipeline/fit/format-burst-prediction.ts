/** The human-readable answer of `ckpt predict`. */
import type { BurstPrediction } from "./burst-prediction";
import { compact } from "./format-cells";
import type { BandwidthModel } from "./model";

const percent = (level: number): string => `${compact(100 * level, 6)} %`;

export function formatBurstPrediction(model: BandwidthModel, p: BurstPrediction): string {
  const d = model.domain;
  const low = (1 - p.level) / 2;
  return [
    `model: ${model.name} (${model.form} form; fitted domain m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${compact(d.vGbMin)}, ${compact(d.vGbMax)}] GB)`,
    `one checkpoint burst: m = ${p.m} writers × ${compact(p.sizeMb, 6)} MB = ${compact(p.vGb, 6)} GB`,
    ...(p.warning ? [`warning: ${p.warning}`] : []),
    "",
    `bandwidth (MB/s): mean ${p.mean.toFixed(2)}; ${percent(p.level)} prediction interval [${p.lower.toFixed(2)}, ${p.upper.toFixed(2)}] (${((p.lower / p.mean - 1) * 100).toFixed(1)} % / +${((p.upper / p.mean - 1) * 100).toFixed(1)} %)`,
    `duration (s): at the mean bandwidth ${p.durationS.atMean.toFixed(2)}; median ${p.durationS.median.toFixed(2)}; ` +
      `${percent(low)}–${percent(1 - low)} quantiles [${p.durationS.lower.toFixed(2)}, ${p.durationS.upper.toFixed(2)}]; ` +
      `done within ${p.durationS.atLevel.toFixed(2)} s with probability ${compact(p.level, 6)}`,
  ].join("\n");
}
