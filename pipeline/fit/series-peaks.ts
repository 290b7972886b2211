/**
 * Each size series' measured peak (ī, bw_ī) next to the one the model predicts (docs/science.md
 * §3.1, [Y-thesis] Table 4.1): where a fit puts the collapse matters more to ScheduleCkpt
 * than its average error.
 *
 * Decision: the predicted curve is evaluated at the series' own measured m (all of them,
 * including those after the peak), so that measured and predicted peaks are maxima over
 * the same set; ties keep the smallest m, as ingest does for the measured peak.
 */
import type { SizeSeries } from "../ingest/observations";
import { bandwidthEvaluator, type BandwidthModel } from "./model";

export interface SeriesPeakComparison {
  sizeMb: number;
  /** The series' group (run attributes), when ingest grouped the series. */
  group?: Record<string, string | null>;
  measured: { m: number; bwMbPerS: number };
  predicted: { m: number; bwMbPerS: number };
  /** The model's bandwidth at the measured ī. */
  predictedAtMeasuredPeakMbPerS: number;
}

export function compareSeriesPeaks(
  series: readonly SizeSeries[],
  model: Pick<BandwidthModel, "form" | "coefficients" | "bandwidthCapMbPerS">,
): SeriesPeakComparison[] {
  const bw = bandwidthEvaluator(model);
  return series.map((s) => {
    let best = { m: NaN, bwMbPerS: -Infinity };
    for (const point of s.points) {
      const value = bw(point.m, point.vGb);
      if (value > best.bwMbPerS) best = { m: point.m, bwMbPerS: value };
    }
    return {
      sizeMb: s.sizeMb,
      ...(s.group !== undefined ? { group: s.group } : {}),
      measured: { m: s.peak.m, bwMbPerS: s.peak.bwMbPerS },
      predicted: best,
      predictedAtMeasuredPeakMbPerS: bw(s.peak.m, s.points.find((point) => point.m === s.peak.m)?.vGb ?? (s.peak.m * s.sizeMb) / 1000),
    };
  });
}
