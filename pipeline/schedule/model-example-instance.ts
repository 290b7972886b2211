/**
 * An example instance scaled to a bandwidth model's fitted domain, for clusters unlike
 * Azur (the papers' family A has 100–500 MB images and T = 180 s, which a 950 MB/s parallel
 * file system writes in seconds and a 3 GB-domain NFS model cannot price).
 *
 * Rule (a project choice, stated in reports): n = 2 · mMax applications, so that the device
 * cannot take them all at once; image sizes uniform between the smallest application size
 * the model saw (vGbMin at m = 1) and the largest it saw at its largest m (vGbMax / mMax);
 * p uniform in [300, 1800] s (families B and C's law, docs/science.md §4.5); and T half the
 * time the model needs to write everything at its best predicted bandwidth for the
 * instance's mean size, so that the choice of what to checkpoint matters. Integer p and
 * sizes, seeded: the same model gives the same instance.
 */
import { bandwidthEvaluator, type BandwidthModel } from "../fit/model";
import { createRandom } from "../shared/random";
import type { Application } from "./application";

export interface ModelExampleInstance {
  apps: Application[];
  deadlineS: number;
  /** How the instance was derived, for the report. */
  description: string;
}

/** Null when the model has no usable bandwidth anywhere on its domain's diagonal. */
export function modelExampleInstance(model: BandwidthModel, seed = 1): ModelExampleInstance | null {
  const d = model.domain;
  const mMax = Math.max(1, Math.floor(d.mMax));
  const n = 2 * mMax;
  const sizeMinMb = Math.max(1, Math.round(d.vGbMin * 1000));
  const sizeMaxMb = Math.max(sizeMinMb, Math.round((d.vGbMax * 1000) / mMax));
  const random = createRandom(seed);
  const apps: Application[] = Array.from({ length: n }, (_, i) => ({
    id: `x-${i + 1}`,
    pS: random.integer(300, 1800),
    sizeMb: random.integer(sizeMinMb, sizeMaxMb),
  }));
  const totalMb = apps.reduce((sum, app) => sum + app.sizeMb, 0);
  const meanMb = totalMb / n;
  const bw = bandwidthEvaluator(model);
  let bestMbPerS = 0;
  for (let m = Math.max(1, Math.ceil(d.mMin)); m <= mMax; m++) {
    const value = bw(m, (m * meanMb) / 1000);
    if (Number.isFinite(value) && value > bestMbPerS) bestMbPerS = value;
  }
  if (!(bestMbPerS > 0)) return null;
  const deadlineS = Math.max(1, Math.round((0.5 * totalMb) / bestMbPerS));
  return {
    apps,
    deadlineS,
    description:
      `${n} applications (2 × the model's largest m, ${mMax}), images uniform in [${sizeMinMb}, ${sizeMaxMb}] MB (the application sizes it was fitted on), ` +
      `p uniform in [300, 1800] s, T = ${deadlineS} s (half the time to write all ${(totalMb / 1000).toFixed(2)} GB at its best predicted ${bestMbPerS.toFixed(1)} MB/s)`,
  };
}
