/**
 * The curves a bandwidth model predicts, as the papers draw them, through the fit stage's
 * `peakCurve` (docs/science.md §3.4): a size series `m ↦ bw(m, m·v)` is the curve of m identical
 * applications of v MB; a data set's curve is `i ↦ bw(i, Σ_{k≤i} s_k)`.
 */
import type { BandwidthModel } from "../fit/model";
import { peakCurve, type PeakCurve } from "../fit/peak-curve";

/** `m ↦ bw(m, m·v/1000)` for m = 1..mMax, and its peak over usable values. */
export function sizeSeriesCurve(model: BandwidthModel, sizeMb: number, mMax: number): PeakCurve {
  return peakCurve(model, new Array<number>(mMax).fill(sizeMb));
}

/** A point's bandwidth is usable when finite and > 0 (docs/science.md §3.2). */
export function usable(bw: number): boolean {
  return Number.isFinite(bw) && bw > 0;
}
