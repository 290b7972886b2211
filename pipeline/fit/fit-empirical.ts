/**
 * The empirical form's "fit" (forms/empirical-form.ts, docs/science.md §3.5.2): each
 * measured cell (m, V/m) keeps the mean of its runs as its parameter, with the runs' spread
 * as its uncertainty — SE_i = sd_i / √n_i, sd_i the sample standard deviation of the cell's
 * n_i runs; a cell measured once takes the pooled within-cell deviation of the others,
 * √(Σ within-cell squares / Σ (n_i − 1)), said so in the model's notes. The residual degrees of
 * freedom are N − n (runs less cells): a fit needs at least one cell measured twice to say
 * anything about its uncertainty (`requireReplicates`).
 *
 * Cross-validation fits it on the other folds' cells like any form (fit-form.ts): a held-out
 * cell is then answered by interpolation between its measured neighbours — the test of the
 * form's claim to follow the device between the cells it saw.
 */
import { InputError } from "../shared/errors";
import { empiricalCellNames } from "./forms/empirical-form";
import type { FormFit } from "./fit-form";
import type { DesignCell } from "./least-squares";
import type { FormParameter } from "./forms/bandwidth-form";
import { formOf } from "./forms/registry";

/** A cell's size per writer, rounded so that a series' cells share it exactly (V is a sum in MB / 1000). */
export function cellWriterGb(cell: Pick<DesignCell, "m" | "vGb">): number {
  return Number((cell.vGb / cell.m).toPrecision(12));
}

interface MergedCell {
  m: number;
  writerGb: number;
  count: number;
  mean: number;
  sumSquaredDeviations: number;
}

/** Cells of equal (m, rounded V/m) merged (Chan et al.'s pairwise update), sorted by V/m then m. */
function mergeCells(cells: readonly DesignCell[]): MergedCell[] {
  const byKey = new Map<string, MergedCell>();
  for (const cell of cells) {
    const writerGb = cellWriterGb(cell);
    const key = `${cell.m} ${writerGb}`;
    const merged = byKey.get(key);
    if (merged === undefined) {
      byKey.set(key, { m: cell.m, writerGb, count: cell.count, mean: cell.meanBwMbPerS, sumSquaredDeviations: cell.sumSquaredDeviations });
      continue;
    }
    const count = merged.count + cell.count;
    const delta = cell.meanBwMbPerS - merged.mean;
    merged.sumSquaredDeviations += cell.sumSquaredDeviations + (delta * delta * merged.count * cell.count) / count;
    merged.mean += (delta * cell.count) / count;
    merged.count = count;
  }
  return [...byKey.values()].sort((a, b) => a.writerGb - b.writerGb || a.m - b.m);
}

/** Refuse cells that give the empirical form no uncertainty: every cell measured once. */
export function requireReplicates(fit: FormFit): void {
  if (fit.degreesOfFreedom >= 1) return;
  throw new InputError(
    `cannot use the empirical form: its uncertainty is the spread of each cell's repeated runs, and each of the ${fit.distinctPointCount} measured cells has one run ` +
      `(${fit.sampleCount} runs in all). Repeat the measurements (at least two runs of one (m, size)), or use a smooth form (--form auto)`,
  );
}

/** The empirical form's parameters and statistics from the cells (means and spreads of their runs). */
export function fitEmpiricalCells(cells: readonly DesignCell[]): FormFit {
  const merged = mergeCells(cells);
  if (merged.length === 0) throw new InputError("cannot fit the empirical form: there are no fit points");
  let sampleCount = 0;
  let withinSumOfSquares = 0;
  let withinDegreesOfFreedom = 0;
  for (const cell of merged) {
    sampleCount += cell.count;
    withinSumOfSquares += cell.sumSquaredDeviations;
    withinDegreesOfFreedom += cell.count - 1;
  }
  const pooledSd = withinDegreesOfFreedom > 0 ? Math.sqrt(withinSumOfSquares / withinDegreesOfFreedom) : 0;
  const values: Record<string, number> = { cellCount: merged.length };
  const estimates: number[] = [];
  const standardErrors: number[] = [];
  merged.forEach((cell, index) => {
    const names = empiricalCellNames(index + 1);
    const sd = cell.count >= 2 ? Math.sqrt(cell.sumSquaredDeviations / (cell.count - 1)) : pooledSd;
    values[names.m] = cell.m;
    values[names.writerGb] = cell.writerGb;
    values[names.bw] = cell.mean;
    values[names.sd] = sd;
    values[names.runs] = cell.count;
    estimates.push(cell.mean);
    standardErrors.push(sd / Math.sqrt(cell.count));
  });
  const degreesOfFreedom = sampleCount - merged.length;
  let fitted: FormParameter[] | undefined;
  let covariance: number[][] | undefined;
  return {
    form: "empirical",
    // The fitted parameters as the form names them (their meanings say where each cell is), made when read like the
    // covariance: cross-validation's fits do not read them, and on 10,000 cells they are 50,000 parameters with their words.
    get fitted() {
      return (fitted ??= formOf("empirical").parametersFor!(values).filter((p) => !p.fixed));
    },
    estimates,
    values,
    // Built when read: cross-validation's and the extrapolation score's fits read only the values, and a dense
    // diagonal matrix of 10,000 cells is 10^8 numbers per fit.
    get covariance() {
      return (covariance ??= standardErrors.map((se, a) => standardErrors.map((_, b) => (a === b ? se * se : 0))));
    },
    standardErrors,
    sampleCount,
    distinctPointCount: merged.length,
    degreesOfFreedom,
    residualSumOfSquares: withinSumOfSquares,
    residualStandardError: degreesOfFreedom > 0 ? Math.sqrt(withinSumOfSquares / degreesOfFreedom) : 0,
    // The cells are independent: a diagonal covariance, every parameter determined by its own runs.
    conditionNumber: 1,
    atBound: [],
    converged: true,
    method: "the measured cells' means, interpolated linearly in m within a size series and in V/m between sizes (pipeline/fit/forms/empirical-form.ts); docs/science.md §3.5.2",
  };
}
