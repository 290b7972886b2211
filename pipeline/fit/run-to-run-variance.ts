/**
 * How much one checkpoint burst varies from run to run at the same (m, V): what a
 * prediction interval for a *new* burst needs on top of the fit's parameter uncertainty
 * (docs/science.md §3.6).
 *
 * Measured on the replicates, on the log scale: a burst's run-to-run variation is
 * multiplicative (a slower server slows every writer of a run, so the spread of a cell
 * grows with its bandwidth), and on ln bw it is one number for the whole design. Pooled
 * within-cell variance s² = Σ_c Σ_i (ln y_ci − mean_c ln y)² / Σ_c (n_c − 1), with
 * Σ_c (n_c − 1) degrees of freedom ("pure error"): it owes nothing to the form, so a form
 * that misses the curve cannot hide its misfit in it.
 *
 * Lack of fit, measured too: the cells' mean ln y around the model's ln bw, less what the
 * replicates alone explain (s²/n_c per cell). What is left, τ² (≥ 0), is variation the form
 * does not follow; the predictive distribution adds it rather than pretend the form exact.
 */
import type { FitColumns } from "./least-squares";
import { groupByDesignRow, toFitColumns } from "./least-squares";

export interface RunToRunVariance {
  /** √(pooled within-cell variance of ln bw): the run-to-run spread, as a log (≈ relative) standard deviation. */
  logSd: number;
  /** Σ_c (n_c − 1): the replicates' degrees of freedom (0 when no cell has two runs). */
  degreesOfFreedom: number;
  /** Cells with at least two runs. */
  replicatedCellCount: number;
  /** Runs in those cells. */
  replicateRunCount: number;
  /** Slope of ln(sd) against ln(mean) over the replicated cells: ≈ 1 when the noise is multiplicative, ≈ 0 when additive. */
  spreadSlope: number | null;
}

/**
 * Pooled within-cell variance of ln bw over runs (one sample per run).
 * @example runToRunVariance(selectFitPoints(observations, { points: "runs", upToPeak: false })).logSd // ≈ 0.07
 */
export function runToRunVariance(runs: FitColumns): RunToRunVariance {
  const columns = toFitColumns(runs);
  const n = columns.m.length;
  const cellOf = new Int32Array(n);
  const cells = groupByDesignRow(columns, cellOf);
  const count = new Float64Array(cells.length);
  const mean = new Float64Array(cells.length);
  const spread = new Float64Array(cells.length);
  for (let i = 0; i < n; i++) {
    const y = columns.bwMbPerS[i]!;
    if (!(y > 0)) continue;
    const c = cellOf[i]!;
    const value = Math.log(y);
    count[c] = count[c]! + 1;
    const delta = value - mean[c]!;
    mean[c] = mean[c]! + delta / count[c]!;
    spread[c] = spread[c]! + delta * (value - mean[c]!);
  }
  let sum = 0;
  let degreesOfFreedom = 0;
  let replicatedCellCount = 0;
  let replicateRunCount = 0;
  // ln sd against ln mean (on the MB/s scale) per replicated cell, for the slope.
  const logMean: number[] = [];
  const logSd: number[] = [];
  cells.forEach((cell, c) => {
    if (count[c]! < 2) return;
    sum += spread[c]!;
    degreesOfFreedom += count[c]! - 1;
    replicatedCellCount += 1;
    replicateRunCount += count[c]!;
    const sdMbPerS = Math.sqrt(cell.sumSquaredDeviations / (cell.count - 1));
    if (sdMbPerS > 0 && cell.meanBwMbPerS > 0) {
      logMean.push(Math.log(cell.meanBwMbPerS));
      logSd.push(Math.log(sdMbPerS));
    }
  });
  return {
    logSd: degreesOfFreedom > 0 ? Math.sqrt(sum / degreesOfFreedom) : 0,
    degreesOfFreedom,
    replicatedCellCount,
    replicateRunCount,
    spreadSlope: slope(logMean, logSd),
  };
}

/** Least-squares slope of y on x, null when x does not vary. */
function slope(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 3) return null;
  const mx = x.reduce((a, b) => a + b, 0) / x.length;
  const my = y.reduce((a, b) => a + b, 0) / y.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
  }
  return sxx > 1e-12 ? sxy / sxx : null;
}
