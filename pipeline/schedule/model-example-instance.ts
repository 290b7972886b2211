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
 * sizes, seeded: the same model gives the same instance. A model that holds at measured
 * sizes per writer only (fitted on one size per writer, as IOR's and fio's scaling runs
 * are, or the empirical form) takes its sizes from them instead: every application of the
 * one size, or whole MB within the measured sizes' range — a rounded size would be outside
 * such a model's domain, and every set of it infeasible. When that range holds no whole MB
 * (sizes per writer spread over less than 1 MB, though not one size), every application
 * takes the smallest measured size, and the description says which of the two it is.
 */
import { compact } from "../fit/format-cells";
import { bandwidthEvaluator, type BandwidthModel, type ModelDomain } from "../fit/model";
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
  const { sizeMinMb, sizeMaxMb, sizeMb, why } = exampleSizes(d, mMax);
  const random = createRandom(seed);
  const apps: Application[] = Array.from({ length: n }, (_, i) => ({
    id: `x-${i + 1}`,
    pS: random.integer(300, 1800),
    sizeMb: sizeMb ?? random.integer(sizeMinMb, sizeMaxMb),
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
  // Whole seconds, or two significant digits below 10 s: a device that writes everything in
  // under 2 s (a fast scaling run's model) would otherwise get T = 1 s and save it all.
  const halfTimeS = (0.5 * totalMb) / bestMbPerS;
  const deadlineS = halfTimeS >= 9.5 ? Math.round(halfTimeS) : Number(halfTimeS.toPrecision(2));
  return {
    apps,
    deadlineS,
    description:
      `${n} applications (2 × the model's largest m, ${mMax}), ` +
      (sizeMb === undefined
        ? `images uniform in [${sizeMinMb}, ${sizeMaxMb}] MB (the application sizes it was fitted on), `
        : `images of ${compact(sizeMb, 6)} MB (${why}), `) +
      `p uniform in [300, 1800] s, T = ${deadlineS} s (half the time to write all ${(totalMb / 1000).toFixed(2)} GB at its best predicted ${bestMbPerS.toFixed(1)} MB/s)`,
  };
}

/** The range of whole-MB image sizes to draw from, or the one size every image has and why. */
function exampleSizes(d: ModelDomain, mMax: number): { sizeMinMb: number; sizeMaxMb: number; sizeMb?: number; why?: string } {
  if (d.writerGbMin !== undefined && d.writerGbMax !== undefined) {
    const low = Math.ceil(d.writerGbMin * 1000);
    const high = Math.floor(d.writerGbMax * 1000);
    const smallestMb = Number((d.writerGbMin * 1000).toPrecision(12));
    // One size: the domain of a one-size fit (one-size-fit.ts sets min = max).
    if (d.writerGbMin === d.writerGbMax) return { sizeMinMb: low, sizeMaxMb: low, sizeMb: smallestMb, why: "the one size per writer it was fitted on" };
    if (low > high) {
      const largestMb = Number((d.writerGbMax * 1000).toPrecision(12));
      return { sizeMinMb: low, sizeMaxMb: low, sizeMb: smallestMb, why: `the smallest of its sizes per writer, ${compact(smallestMb, 6)}–${compact(largestMb, 6)} MB, a range that holds no whole MB` };
    }
    return { sizeMinMb: low, sizeMaxMb: high };
  }
  const sizeMinMb = Math.max(1, Math.round(d.vGbMin * 1000));
  return { sizeMinMb, sizeMaxMb: Math.max(sizeMinMb, Math.round((d.vGbMax * 1000) / mMax)) };
}
