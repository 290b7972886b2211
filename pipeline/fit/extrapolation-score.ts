/**
 * One step past the data: fit a form without the largest measured m and predict the runs
 * there (docs/science.md §4.7). Cross-validation holds out cells inside the measured range,
 * where every smooth form that follows the points does well; a plan at a larger m (more
 * applications checkpointing at once) asks the form what it does past them. A form that
 * bends away there — the USL falling like 1/m after its peak on a device that saturates —
 * scores badly here while a form that follows the plateau does not, and `--form auto`
 * (select-form.ts) uses this score next to the cross-validated one.
 *
 * Score: √(mean ((y − ŷ)/y)²) over the held-out runs (or means) at the largest m, the same
 * relative error as cross-validation's; null, with the reason, when the points below it do
 * not identify the form, or there are fewer than three distinct m.
 */
import { InputError } from "../shared/errors";
import { relativeSquaredError } from "./cross-validation";
import { fitFormCells } from "./fit-form";
import type { FitWeighting } from "./fit-weighting";
import { groupByDesignRow, toFitColumns, type FitColumns, type FitSample } from "./least-squares";
import { bandwidthEvaluator, type ModelForm } from "./model";

export interface ExtrapolationScore {
  /** The m held out: the largest measured. */
  heldOutM: number | null;
  /** Relative RMSE on the points at `heldOutM`, predicted by the fit on every smaller m; null with `reason`. */
  relativeRmse: number | null;
  reason?: string;
}

/**
 * @example extrapolationScore(points, "usl", "relative").relativeRmse // 0.21 on a plateau
 */
export function extrapolationScore(samples: readonly FitSample[] | FitColumns, form: ModelForm, weighting: FitWeighting): ExtrapolationScore {
  const columns = toFitColumns(samples);
  const ms = [...new Set(Array.from(columns.m))].sort((a, b) => a - b);
  if (ms.length < 3) return { heldOutM: null, relativeRmse: null, reason: `${ms.length} distinct m measured: holding out the largest leaves too few to extrapolate from` };
  const heldOutM = ms[ms.length - 1]!;
  const cells = groupByDesignRow(columns);
  const training = cells.filter((cell) => cell.m < heldOutM);
  let bw: (m: number, vGb: number) => number;
  try {
    bw = bandwidthEvaluator({ form, coefficients: fitFormCells(training, form, weighting).values, bandwidthCapMbPerS: null });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { heldOutM, relativeRmse: null, reason: `without m = ${heldOutM}, the points ${error.message.replace(/^cannot fit [^:]*: /, "cannot identify the form: ")}` };
  }
  let sum = 0;
  let count = 0;
  for (let i = 0; i < columns.m.length; i++) {
    if (columns.m[i] !== heldOutM) continue;
    sum += relativeSquaredError(columns.bwMbPerS[i]!, bw(heldOutM, columns.vGb[i]!));
    count += 1;
  }
  return { heldOutM, relativeRmse: Math.sqrt(sum / count) };
}
