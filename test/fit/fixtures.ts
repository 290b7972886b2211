/**
 * Observations built in memory for the fit stage's tests: runs drawn around a known
 * model, aggregated by the ingest stage's own `summariseRuns` (docs/science.md §3.1).
 */
import type { Observations, RunObservation } from "../../pipeline/ingest/observations";
import { summariseRuns } from "../../pipeline/ingest/summarise-runs";
import { bandwidthEvaluator, PAPER_MODEL, type BandwidthModel } from "../../pipeline/fit/model";
import { createRandom } from "../../pipeline/shared/random";

export interface SyntheticCampaign {
  seed?: number;
  /** Runs per (m, v). */
  repetitions?: number;
  /** Standard deviation of the noise added to each run, MB/s. */
  noiseMbPerS?: number;
  sizesMb?: number[];
  mMax?: number;
  model?: BandwidthModel;
  /** Mixed-size runs (prefixes of D1, docs/science.md §3.4) to add as validation runs. */
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
  return summariseRuns(syntheticRuns(options));
}
