/**
 * Observations built in memory for the fit stage's tests: runs drawn around a known
 * model, aggregated the way SPEC §3.1 (and the ingest stage's contract,
 * pipeline/ingest/observations.ts) says: per (m, v) count, mean, sample sd; each series'
 * peak is its largest mean (first m on ties); mixed-size runs are validation runs.
 */
import type { Observations, RunObservation, SeriesPoint, SizeSeries } from "../../pipeline/ingest/observations";
import { bandwidthEvaluator, PAPER_MODEL, type BandwidthModel } from "../../pipeline/fit/model";
import { createRandom } from "../../pipeline/shared/random";

export function observationsFromRuns(runs: RunObservation[]): Observations {
  const bySize = new Map<number, Map<number, number[]>>();
  for (const run of runs) {
    if (run.uniformSizeMb === null) continue;
    let byM = bySize.get(run.uniformSizeMb);
    if (!byM) bySize.set(run.uniformSizeMb, (byM = new Map()));
    let values = byM.get(run.m);
    if (!values) byM.set(run.m, (values = []));
    values.push(run.aggregatedBwMbPerS);
  }
  const series: SizeSeries[] = [...bySize.entries()]
    .sort(([a], [b]) => a - b)
    .map(([sizeMb, byM]) => {
      const points: SeriesPoint[] = [...byM.entries()]
        .sort(([a], [b]) => a - b)
        .map(([m, values]) => {
          const mean = values.reduce((s, x) => s + x, 0) / values.length;
          const sd = values.length < 2 ? 0 : Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / (values.length - 1));
          return { sizeMb, m, vGb: (m * sizeMb) / 1000, count: values.length, meanBwMbPerS: mean, sdBwMbPerS: sd };
        });
      let peak = points[0]!;
      for (const point of points) if (point.meanBwMbPerS > peak.meanBwMbPerS) peak = point;
      return { sizeMb, points, peak: { m: peak.m, bwMbPerS: peak.meanBwMbPerS } };
    });
  return { runs, series, validationRuns: runs.filter((run) => run.uniformSizeMb === null) };
}

export interface SyntheticCampaign {
  seed?: number;
  /** Runs per (m, v). */
  repetitions?: number;
  /** Standard deviation of the noise added to each run, MB/s. */
  noiseMbPerS?: number;
  sizesMb?: number[];
  mMax?: number;
  model?: BandwidthModel;
  /** Mixed-size runs (prefixes of D1, SPEC §3.4) to add as validation runs. */
  withValidationRuns?: boolean;
}

/** Table 4.1's sizes at m = 1..mMax, `repetitions` runs each, around the published model. */
export function syntheticRuns(options: SyntheticCampaign = {}): RunObservation[] {
  const {
    seed = 7,
    repetitions = 3,
    noiseMbPerS = 0.8,
    sizesMb = [15, 46, 76, 114, 271, 414, 684],
    mMax = 16,
    model = PAPER_MODEL,
    withValidationRuns = false,
  } = options;
  const random = createRandom(seed);
  const bw = bandwidthEvaluator(model);
  const runs: RunObservation[] = [];
  for (const sizeMb of sizesMb) {
    for (let m = 1; m <= mMax; m++) {
      for (let r = 0; r < repetitions; r++) {
        const vGb = (m * sizeMb) / 1000;
        const value = bw(m, vGb) + noiseMbPerS * random.normal();
        runs.push({ runId: `v${sizeMb}-m${m}-r${r}`, m, vGb, aggregatedBwMbPerS: Math.max(0.5, value), uniformSizeMb: sizeMb });
      }
    }
  }
  if (withValidationRuns) {
    const d1 = [105, 451, 135, 241, 329, 172, 211, 281, 117, 494, 113, 301];
    let total = 0;
    d1.forEach((size, i) => {
      total += size;
      const m = i + 1;
      if (m >= 2) runs.push({ runId: `d1-m${m}`, m, vGb: total / 1000, aggregatedBwMbPerS: bw(m, total / 1000) + random.normal(), uniformSizeMb: null });
    });
  }
  return runs;
}

export function syntheticObservations(options: SyntheticCampaign = {}): Observations {
  return observationsFromRuns(syntheticRuns(options));
}
