/**
 * One step past the data: fit a form without the largest measured m of each size series
 * and predict the runs there (docs/science.md §4.7). (On a full grid, every series ends at
 * the same m: that m is held out; on the papers' designs each series ends at its own peak,
 * and one series' last point alone would make a noisy score.) Cross-validation holds out cells inside the measured range,
 * where every smooth form that follows the points does well; a plan at a larger m (more
 * applications checkpointing at once) asks the form what it does past them. A form that
 * bends away there — the USL falling like 1/m after its peak on a device that saturates —
 * scores badly here while a form that follows the plateau does not, and `--form auto`
 * (select-form.ts) uses this score next to the cross-validated one.
 *
 * Score: √(mean ((y − ŷ)/y)²) over the held-out runs (or means), the same relative error as
 * cross-validation's; null, with the reason, when the points left do not identify the form,
 * or there are fewer than three distinct m.
 */
import { InputError } from "../shared/errors";
import { relativeSquaredError } from "./cross-validation";
import { fitFormCells } from "./fit-form";
import type { FitWeighting } from "./fit-weighting";
import { groupByDesignRow, toFitColumns, type FitColumns, type FitSample } from "./least-squares";
import { bandwidthEvaluator, type ModelForm } from "./model";

export interface ExtrapolationScore {
  /** The largest m held out (each series' largest is). */
  heldOutM: number | null;
  /** Relative RMSE on the held-out points, predicted by the fit on the others; null with `reason`. */
  relativeRmse: number | null;
  /**
   * Its standard error over the held-out points: sd of their squared relative errors / √n,
   * carried to the root by the delta method (÷ 2·RMSE), as cross-validation's over folds.
   * A score from one or two cells is noisy; the tie rule counts this noise.
   */
  standardError?: number | null;
  reason?: string;
}

/**
 * @example extrapolationScore(points, "usl", "relative").relativeRmse // 0.21 on a plateau
 */
export function extrapolationScore(samples: (readonly FitSample[] | FitColumns) & { sizeMb?: ArrayLike<number> }, form: ModelForm, weighting: FitWeighting): ExtrapolationScore {
  const columns = toFitColumns(samples);
  const n = columns.m.length;
  const ms = [...new Set(Array.from(columns.m))].sort((a, b) => a - b);
  if (ms.length < 3) return { heldOutM: null, relativeRmse: null, reason: `${ms.length} distinct m measured: holding out the largest leaves too few to extrapolate from` };
  // A point's series: its size per writer (MB), as given or V/m.
  const sizes = (samples as { sizeMb?: ArrayLike<number> }).sizeMb;
  const seriesOf = (i: number): number => (sizes !== undefined ? sizes[i]! : Math.round((1e6 * columns.vGb[i]!) / columns.m[i]!) / 1000);
  const lastM = new Map<number, number>();
  for (let i = 0; i < n; i++) lastM.set(seriesOf(i), Math.max(lastM.get(seriesOf(i)) ?? -Infinity, columns.m[i]!));
  const heldOut = Uint8Array.from({ length: n }, (_, i) => (columns.m[i] === lastM.get(seriesOf(i)) && columns.m[i] !== ms[0] ? 1 : 0));
  const heldOutM = Math.max(...[...lastM.values()]);
  const keep = (i: number) => heldOut[i] === 0;
  const training = {
    m: Float64Array.from({ length: n }, (_, i) => columns.m[i]!).filter((_, i) => keep(i)),
    vGb: Float64Array.from({ length: n }, (_, i) => columns.vGb[i]!).filter((_, i) => keep(i)),
    bwMbPerS: Float64Array.from({ length: n }, (_, i) => columns.bwMbPerS[i]!).filter((_, i) => keep(i)),
  };
  let bw: (m: number, vGb: number) => number;
  try {
    bw = bandwidthEvaluator({ form, coefficients: fitFormCells(groupByDesignRow(training), form, weighting).values, bandwidthCapMbPerS: null });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { heldOutM, relativeRmse: null, reason: `without each series' largest m, the points ${error.message.replace(/^cannot fit [^:]*: /, "cannot identify the form: ")}` };
  }
  const squared: number[] = [];
  for (let i = 0; i < n; i++) if (heldOut[i] === 1) squared.push(relativeSquaredError(columns.bwMbPerS[i]!, bw(columns.m[i]!, columns.vGb[i]!)));
  const count = squared.length;
  const mean = squared.reduce((a, b) => a + b, 0) / count;
  const relativeRmse = Math.sqrt(mean);
  const sd = count > 1 ? Math.sqrt(squared.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (count - 1)) : 0;
  return { heldOutM, relativeRmse, standardError: relativeRmse > 0 ? sd / Math.sqrt(count) / (2 * relativeRmse) : 0 };
}
