/**
 * Can a bandwidth model answer for an instance at all? ScheduleCkpt itself copes with a
 * model that is unusable on part of (m, V) (the fitted-domain policy of
 * `bandwidth-oracle.ts` makes sets above the fitted box infeasible), but when the model
 * cannot price even one application checkpointed alone — bw(1, s_i) above the fitted box or
 * ≤ 0 for every i — every strategy's result would be an artifact of the model, not of the
 * cluster, and the instance is not applicable to that model. "Above" as in the oracle's
 * policy `refuse`: sizes below the smallest fitted V are priced (the fluid progression needs
 * them, see bandwidth-oracle.ts) and counted there as extrapolations.
 */
import { bandwidthEvaluator, domainText, predict, writerSizeBoundsGb, type BandwidthModel } from "../fit/model";
import type { Application } from "./application";

/** Null when the model prices at least one application alone; else the reason, in words. */
export function modelNotApplicableReason(model: BandwidthModel, apps: readonly Application[]): string | null {
  let largestMb = 0;
  let smallestMb = Infinity;
  const d = model.domain;
  // A model that holds at measured sizes per writer only prices no larger one (the oracle's policy `refuse`).
  const writerGbMax = writerSizeBoundsGb(d).high;
  for (const app of apps) {
    const vGb = app.sizeMb / 1000;
    if (1 <= d.mMax && vGb <= d.vGbMax && vGb <= writerGbMax && predict(model, 1, vGb).bandwidthMbPerS !== null) return null;
    largestMb = Math.max(largestMb, app.sizeMb);
    smallestMb = Math.min(smallestMb, app.sizeMb);
  }
  return (
    `the model "${model.name}" gives no usable bandwidth within its fitted domain for any application checkpointed alone ` +
    `(sizes ${smallestMb}–${largestMb} MB; fitted on ${domainText(d)})`
  );
}

/**
 * Why ScheduleCkpt started nothing, when the reason is index_bw_max's idle start: with the
 * faithful `idleStart = "constant-term"` the first candidate must beat bw(0, 0) = e, and on a
 * model whose e exceeds bw(1, s_i) for every application none ever does (see
 * `index-bw-max.ts`). Null when that is not what happened.
 */
export function idleStartStallReason(model: BandwidthModel, apps: readonly Application[], idleStart: string, startedCount: number): string | null {
  if (idleStart !== "constant-term" || startedCount > 0 || apps.length === 0) return null;
  const bw = bandwidthEvaluator(model);
  const e = bw(0, 0);
  let best = -Infinity;
  for (const app of apps) best = Math.max(best, bw(1, app.sizeMb / 1000));
  if (!(e > best)) return null;
  return (
    `ScheduleCkpt started nothing: index_bw_max admits a first application only if bw(1, s) ≥ bw(0, 0) = e (docs/science.md §4.3), ` +
    `and on the model "${model.name}" e = ${e.toFixed(2)} MB/s exceeds bw(1, s) for every application (at most ${best.toFixed(2)} MB/s), as on a device that is fastest with one writer. ` +
    `idleStart "admit-first" (ckpt schedule --idle-start admit-first; pipeline --param schedule.idleStart=admit-first) admits the first candidate on an idle device`
  );
}
