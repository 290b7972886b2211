/**
 * Where a fitted curve turns down but the measurements do not: an artefact of the form, not a
 * property of the cluster (docs/science.md §3.5). The papers' quadratic, fitted on a device
 * that saturates, bends over and falls past its last measured m; a reader who sees the fall
 * drawn would plan for a collapse the cluster never showed.
 *
 * For each size series, the model's curve m ↦ bw(m, m·v) over m = 1..mMax (the range a
 * figure draws, usually past the fitted domain) "turns down" when its maximum comes before
 * mMax and the curve ends more than `tolerance` (5 %) below it; the measured means turn down
 * when their last mean is more than `tolerance` below their highest. An artefact is a series
 * whose curve turns down while its measured means do not.
 */
import type { SizeSeries } from "../ingest/observations";
import { bandwidthEvaluator, inModelDomain, type BandwidthModel } from "./model";

export interface TurnDownArtefact {
  sizeMb: number;
  /** The curve's maximum over m = 1..mMax. */
  peak: { m: number; bwMbPerS: number };
  /** Where the curve ends (m = mMax) and its value there. */
  end: { m: number; bwMbPerS: number };
  /** The fall lies (partly) outside the fitted domain. */
  pastDomain: boolean;
  /** The measured series: its highest mean and its last. */
  measured: { peakM: number; peakMbPerS: number; lastM: number; lastMbPerS: number };
}

export const TURN_DOWN_TOLERANCE = 0.05;

export function turnDownArtefacts(
  model: Pick<BandwidthModel, "form" | "coefficients" | "bandwidthCapMbPerS" | "domain">,
  series: readonly SizeSeries[],
  mMax: number,
  tolerance = TURN_DOWN_TOLERANCE,
): TurnDownArtefact[] {
  const bw = bandwidthEvaluator(model);
  const artefacts: TurnDownArtefact[] = [];
  for (const s of series) {
    if (s.points.length < 2) continue;
    let peak = { m: 0, bwMbPerS: -Infinity };
    for (let m = 1; m <= mMax; m++) {
      const value = bw(m, (m * s.sizeMb) / 1000);
      if (Number.isFinite(value) && value > peak.bwMbPerS) peak = { m, bwMbPerS: value };
    }
    const endValue = bw(mMax, (mMax * s.sizeMb) / 1000);
    const end = { m: mMax, bwMbPerS: Number.isFinite(endValue) ? endValue : 0 };
    if (!(peak.m < mMax && end.bwMbPerS < (1 - tolerance) * peak.bwMbPerS)) continue;
    const points = [...s.points].sort((a, b) => a.m - b.m);
    const highest = points.reduce((a, b) => (b.meanBwMbPerS > a.meanBwMbPerS ? b : a));
    const last = points[points.length - 1]!;
    if (last.meanBwMbPerS < (1 - tolerance) * highest.meanBwMbPerS) continue; // the cluster does fall: not an artefact
    let pastDomain = false;
    for (let m = peak.m; m <= mMax && !pastDomain; m++) pastDomain = !inModelDomain(model, m, (m * s.sizeMb) / 1000);
    artefacts.push({
      sizeMb: s.sizeMb,
      peak,
      end,
      pastDomain,
      measured: { peakM: highest.m, peakMbPerS: highest.meanBwMbPerS, lastM: last.m, lastMbPerS: last.meanBwMbPerS },
    });
  }
  return artefacts;
}
