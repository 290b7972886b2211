/**
 * Generated clusters for the predictive distribution's tests: three shapes of bw(m, V)
 * unlike one another, each measured with run-level multiplicative noise (one factor per
 * run: a slower server slows every writer of the run), so that coverage claims are checked
 * on runs the fit never saw (new seeds), not on the fit's residuals.
 *
 * Shapes (m writers, v = V/m MB each, bw in MB/s):
 * - "quadratic": the published model of [Y11] eq. 4 (PAPER_MODEL), an Azur-like device that
 *   peaks and falls, inside its domain (m ≤ 16, V ≤ 3.42 GB, sizes of [Y-thesis] Table 4.1).
 * - "saturating": m links of 110 MB/s into an 800 MB/s server, a smooth minimum
 *   ((m·110)^−4 + 800^−4)^−1/4, slightly slower for large v (× (1 − 0.05·v/1000)).
 * - "collapse": a shared server's USL curve, 60·m / (1 + 0.08(m − 1) + 0.004 m(m − 1)).
 * Noise: bw_run = bw · exp(σ·z − σ²/2), z standard normal, σ = 0.07 (the ±7 % of issue 34's
 * saturating cluster), so that E[bw_run] = bw.
 */
import type { Observations, RunObservation } from "../../pipeline/ingest/observations";
import { summariseRuns } from "../../pipeline/ingest/summarise-runs";
import { bandwidthEvaluator, PAPER_MODEL } from "../../pipeline/fit/model";
import { createRandom } from "../../pipeline/shared/random";

export type GeneratedShape = "quadratic" | "saturating" | "collapse";
export const GENERATED_SHAPES: readonly GeneratedShape[] = ["quadratic", "saturating", "collapse"];

const paper = bandwidthEvaluator(PAPER_MODEL);

/** The generating bandwidth of each shape, MB/s. */
export function generatedBandwidth(shape: GeneratedShape, m: number, sizeMb: number): number {
  switch (shape) {
    case "quadratic":
      return paper(m, (m * sizeMb) / 1000);
    case "saturating":
      return ((m * 110) ** -4 + 800 ** -4) ** -0.25 * (1 - (0.05 * sizeMb) / 1000);
    case "collapse":
      return (60 * m) / (1 + 0.08 * (m - 1) + 0.004 * m * (m - 1));
  }
}

export interface GeneratedCampaign {
  shape: GeneratedShape;
  seed: number;
  /** Runs per (m, v). */
  repetitions?: number;
  /** σ of ln bw from run to run. */
  logSd?: number;
  mMax?: number;
  sizesMb?: readonly number[];
}

export const GENERATED_SIZES_MB: Record<GeneratedShape, readonly number[]> = {
  quadratic: [15, 46, 76, 114, 271, 414, 684],
  saturating: [64, 256, 1024, 2048],
  collapse: [64, 256, 1024],
};

/** Runs of one campaign: every size at m = 1..mMax, `repetitions` runs each. */
export function generatedRuns(campaign: GeneratedCampaign): RunObservation[] {
  const { shape, seed, repetitions = 4, logSd = 0.07, mMax = 16, sizesMb = GENERATED_SIZES_MB[shape] } = campaign;
  const random = createRandom(seed);
  const runs: RunObservation[] = [];
  for (const sizeMb of sizesMb) {
    for (let m = 1; m <= mMax; m++) {
      // The published model is only known inside its domain (V ≤ 3.42 GB): the quadratic shape stays there.
      if (shape === "quadratic" && (m * sizeMb) / 1000 > PAPER_MODEL.domain.vGbMax) continue;
      for (let r = 0; r < repetitions; r++) {
        const factor = Math.exp(logSd * random.normal() - (logSd * logSd) / 2);
        runs.push({ runId: `s${seed}-v${sizeMb}-m${m}-r${r}`, m, vGb: (m * sizeMb) / 1000, aggregatedBwMbPerS: generatedBandwidth(shape, m, sizeMb) * factor, uniformSizeMb: sizeMb });
      }
    }
  }
  return runs;
}

export function generatedObservations(campaign: GeneratedCampaign): Observations {
  return summariseRuns(generatedRuns(campaign));
}
