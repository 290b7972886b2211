/**
 * index_bw_max ([Y-thesis] Algorithm 2, docs/science.md §4.3): the candidates of one ScheduleCkpt
 * decision, chosen bandwidth-wise. Starting from the checkpoints in progress (CKPT, with
 * their remaining volume V'), walk the applications not started yet in criterion order and
 * add application i while bw(|I'|, V') ≤ bw(|I'| + 1, V' + s_i); stop at the first one that
 * would lower the aggregated bandwidth (a `while`, not a filter). With CKPT empty the walk
 * starts from bw(0, 0) = e.
 *
 * Since the walk stops at the first rejection, I − CKPT is always a *prefix* of the
 * waiting list, so the function returns its length. O(r) evaluations, r = that length.
 *
 * Decisions: a candidate for which the model has no usable bandwidth (≤ 0, or above the
 * fitted domain under the policy `refuse`) "would lower the bandwidth" and stops the walk;
 * ties (equal bandwidth) add, as the `≤` of Algorithm 2 says. If the running set itself
 * has no usable bandwidth (possible only under `--domain extrapolate` with a truth model other
 * than the plan), any usable candidate counts as an improvement.
 *
 * The idle start is the one place where the faithful reading can stall a whole run: bw(0, 0)
 * is the model's constant term e, a number no measurement pins down. On a device that is
 * fastest with one writer the fitted e can exceed every bw(1, s_i) (a collapsing small NFS:
 * e = 74 MB/s above bw(1, ·) ≤ 62 MB/s), and then no application is ever a candidate and
 * ScheduleCkpt saves nothing while one checkpoint at a time would save everything.
 * `idleStart = "admit-first"` (an option, not the default) admits the first waiting
 * application whenever the device is idle and its own bandwidth is usable, and compares
 * from there on.
 */
import type { BandwidthOracle } from "./bandwidth-oracle";

/** How index_bw_max starts on an idle device: from bw(0, 0) = e (faithful) or by admitting the first candidate. */
export type IdleStart = "constant-term" | "admit-first";
export const IDLE_STARTS: readonly IdleStart[] = ["constant-term", "admit-first"];

/**
 * @param waiting applications not started, in criterion order, in `[from, to)`
 * @param sizesMb image size of every application, MB
 * @param runningCount |CKPT|
 * @param runningRemainingMb Σ of the remaining sizes of CKPT, MB
 * @returns r: the candidates are `waiting[from .. from + r)`
 */
// Parenthesised so that V8 compiles it with the module, not on the first decision (see schedule-ckpt.ts, "Cold start").
export const indexBwMax = (function indexBwMax(
  waiting: Int32Array,
  from: number,
  to: number,
  sizesMb: Float64Array,
  runningCount: number,
  runningRemainingMb: number,
  bandwidth: BandwidthOracle,
  idleStart: IdleStart = "constant-term",
): number {
  let m = runningCount;
  let volumeMb = runningRemainingMb;
  let current = m === 0 ? (idleStart === "constant-term" ? bandwidth.idleBandwidthMbPerS : -Infinity) : bandwidth.bandwidthMbPerS(m, volumeMb / 1000);
  if (!(current > 0)) current = -Infinity;
  let k = from;
  for (; k < to; k++) {
    const sizeMb = sizesMb[waiting[k]!]!;
    const next = bandwidth.bandwidthMbPerS(m + 1, (volumeMb + sizeMb) / 1000);
    if (!(next >= current)) break;
    m++;
    volumeMb += sizeMb;
    current = next;
  }
  return k - from;
});
