/**
 * How wide a model's prediction band is over its fitted domain, in one line a reader can
 * take in: the relative distance of the band's bounds from the mean (what the fit report
 * and the model card print; docs/science.md §3.6).
 *
 * Summarised on a grid of the domain (every integer m of it, times 9 volumes spaced
 * evenly in ln V), at the points where the model gives a usable bandwidth: the median
 * relative width, and the widest.
 */
import { bandwidthEvaluator, type BandwidthModel } from "./model";
import { hasPredictive, predictionInterval } from "./predictive-bandwidth";

export interface PredictionBandWidth {
  level: number;
  /** Median over the grid of (lower/mean − 1) and (upper/mean − 1), as fractions. */
  medianLower: number;
  medianUpper: number;
  /** The widest (upper − lower)/mean over the grid, and where. */
  widest: { relativeWidth: number; m: number; vGb: number };
  runToRunLogSd: number;
  lackOfFitLogSd: number;
  degreesOfFreedom: number;
}

const VOLUMES = 9;

/** Null for a model without a predictive part. */
export function predictionBandWidth(model: BandwidthModel, level = 0.95): PredictionBandWidth | null {
  if (!hasPredictive(model)) return null;
  const d = model.domain;
  const mean = bandwidthEvaluator(model);
  const lowers: number[] = [];
  const uppers: number[] = [];
  let widest = { relativeWidth: -Infinity, m: d.mMin, vGb: d.vGbMin };
  const mStep = Math.max(1, Math.ceil((d.mMax - d.mMin) / 64));
  for (let m = Math.ceil(d.mMin); m <= d.mMax; m += mStep) {
    for (let i = 0; i < VOLUMES; i++) {
      const vGb = d.vGbMax > d.vGbMin ? d.vGbMin * (d.vGbMax / d.vGbMin) ** (i / (VOLUMES - 1)) : d.vGbMin;
      const bw = mean(m, vGb);
      if (!(Number.isFinite(bw) && bw > 0)) continue;
      const band = predictionInterval(model, m, vGb, level);
      lowers.push(band.lower / band.mean - 1);
      uppers.push(band.upper / band.mean - 1);
      const relativeWidth = (band.upper - band.lower) / band.mean;
      if (relativeWidth > widest.relativeWidth) widest = { relativeWidth, m, vGb };
    }
  }
  if (lowers.length === 0) return null;
  const p = model.predictive!;
  return {
    level,
    medianLower: median(lowers),
    medianUpper: median(uppers),
    widest,
    runToRunLogSd: p.runToRunLogSd,
    lackOfFitLogSd: p.lackOfFitLogSd,
    degreesOfFreedom: p.degreesOfFreedom,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** "95 % prediction band of one new burst: −8.1 % / +8.8 % around the mean (median over the domain), widest 19 % at m = 16, V = 32 GB; …" */
export function describePredictionBand(band: PredictionBandWidth): string {
  const pct = (x: number) => `${x < 0 ? "−" : "+"}${Math.abs(100 * x).toFixed(1)} %`;
  return (
    `${Number((100 * band.level).toPrecision(6))} % prediction band of one new burst: ${pct(band.medianLower)} / ${pct(band.medianUpper)} around the mean (median over the fitted domain), ` +
    `widest ${(100 * band.widest.relativeWidth).toFixed(1)} % of the mean at m = ${band.widest.m}, V = ${Number(band.widest.vGb.toPrecision(4))} GB; ` +
    `run-to-run σ = ${(100 * band.runToRunLogSd).toFixed(1)} % (${band.degreesOfFreedom} d.f. of replicates), lack of fit τ = ${(100 * band.lackOfFitLogSd).toFixed(1)} %`
  );
}
