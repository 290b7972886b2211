/**
 * Generated clusters for the replay tests, written out (docs/science.md §4.7):
 *
 * - the curve B(m, v) of a shape of `ckpt synth` (pipeline/ingest/synthetic-cluster.ts:
 *   collapse, saturate, link-flat), over its grid of m and v;
 * - `repetitions` runs of every cell, repetition after repetition (the time order: all
 *   cells of repetition 1, then of repetition 2, …);
 * - run-level multiplicative noise with a part shared by a repetition: run r of cell c
 *   measures B(m, v) · exp(σ_release · Z_r + σ_run · Z_{r,c}), Z standard normal, seeded.
 *   Z_r is the release's factor (a slow server slows every burst of the release), Z_{r,c}
 *   the run's own.
 *
 * Aggregated runs only (RunObservation): the fit and the replay need nothing else.
 */
import type { RunObservation } from "../../pipeline/ingest/observations";
import { CLUSTER_SHAPES, type ClusterShapeName } from "../../pipeline/ingest/synthetic-cluster";
import type { Application, ReplayInstance } from "../../pipeline/schedule";
import { createRandom } from "../../pipeline/shared/random";

export interface GeneratedCampaign {
  shape: ClusterShapeName;
  seed: number;
  repetitions: number;
  sigmaRelease: number;
  sigmaRun: number;
}

export function generatedRuns(campaign: GeneratedCampaign): RunObservation[] {
  const shape = CLUSTER_SHAPES[campaign.shape];
  const random = createRandom(campaign.seed);
  const runs: RunObservation[] = [];
  for (let r = 1; r <= campaign.repetitions; r++) {
    const release = campaign.sigmaRelease * random.normal();
    for (const sizeMb of shape.sizesMb) {
      for (const m of shape.mValues) {
        runs.push({
          runId: `${campaign.shape}-v${sizeMb}-m${m}-r${r}`,
          m,
          vGb: (m * sizeMb) / 1000,
          aggregatedBwMbPerS: shape.bandwidthMbPerS(m, sizeMb) * Math.exp(release + campaign.sigmaRun * random.normal()),
          uniformSizeMb: sizeMb,
          attributes: { repetition: String(r) },
        });
      }
    }
  }
  return runs;
}

/**
 * Instances on a shape's grid: n = the largest m applications, sizes uniform over the
 * shape's v range, p uniform in [300, 1800] s (docs/science.md §4.5's law), and T the time
 * the noiseless device takes to write `share` of their volume at its bandwidth for
 * half the applications at the median size — tight enough that a plan fills T.
 */
export function generatedInstances(shapeName: ClusterShapeName, seed: number, count: number, share = 0.6): ReplayInstance[] {
  const shape = CLUSTER_SHAPES[shapeName];
  const random = createRandom(seed);
  const n = Math.max(...shape.mValues);
  const vMin = Math.min(...shape.sizesMb);
  const vMax = Math.max(...shape.sizesMb);
  const medianV = [...shape.sizesMb].sort((a, b) => a - b)[Math.floor(shape.sizesMb.length / 2)]!;
  return Array.from({ length: count }, (_, k) => {
    const apps: Application[] = Array.from({ length: n }, (_, i) => ({
      id: `a${i + 1}`,
      pS: Math.round(random.uniform(300, 1800)),
      sizeMb: Math.round(Math.exp(random.uniform(Math.log(vMin), Math.log(vMax)))),
    }));
    const totalMb = apps.reduce((sum, app) => sum + app.sizeMb, 0);
    const halfM = shape.mValues.reduce((best, m) => (Math.abs(m - n / 2) < Math.abs(best - n / 2) ? m : best), shape.mValues[0]!);
    const deadlineS = Math.round(((share * totalMb) / shape.bandwidthMbPerS(halfM, medianV)) * 10) / 10;
    return { apps, deadlineS: deadlineS + k * 0 };
  });
}
