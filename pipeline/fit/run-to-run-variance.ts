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
 * Runs measured together share a factor (a release, a repetition of the campaign: a slow
 * server slows every burst of it). The k-th run of every cell, in the trace's order, is
 * taken as one repetition, as the replay does (schedule/replay/split-runs.ts), and the
 * within-cell deviations are split by two-way analysis of variance: the repetitions' mean
 * deviations d_r (over the cells) have E[Σ_r d_r² / (R − 1)] ≈ σ²_release + σ²_own / C,
 * the rest is σ²_own. Two things follow that the pooled variance alone hides: the fit's
 * level carries the mean of its R repetitions' factors (variance σ²_release / R, shared by
 * every cell, which the parameters' covariance — built for independent errors — does not
 * see), and the variance is known with about R − 1 degrees of freedom for its release
 * part, not Σ(n_c − 1): the predictive distribution takes both (Satterthwaite's effective
 * degrees of freedom for the Student t).
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
  /** σ_release: the part of `logSd` shared by the runs of one repetition (0 when none is measured). */
  releaseLogSd: number;
  /** R: repetitions (within-cell ranks) seen in at least two replicated cells. */
  releaseCount: number;
  /** σ_own: the part of `logSd` each run has alone. */
  ownLogSd: number;
  /** Satterthwaite's degrees of freedom of σ²_release(1 + 1/R) + σ²_own, the predictive variance's measured part. */
  effectiveDegreesOfFreedom: number;
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
  // Each run's rank within its cell, in the trace's order: its repetition.
  const rankOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const y = columns.bwMbPerS[i]!;
    if (!(y > 0)) continue;
    const c = cellOf[i]!;
    const value = Math.log(y);
    rankOf[i] = count[c]!;
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
  const pooled = degreesOfFreedom > 0 ? sum / degreesOfFreedom : 0;
  const release = releaseComponent(columns.bwMbPerS, cellOf, rankOf, count, mean, pooled, degreesOfFreedom, replicatedCellCount);
  return {
    logSd: Math.sqrt(pooled),
    degreesOfFreedom,
    replicatedCellCount,
    replicateRunCount,
    spreadSlope: slope(logMean, logSd),
    ...release,
  };
}

/**
 * The two-way split of the pooled within-cell variance of ln bw (see the file's comment):
 * repetition r's mean deviation d_r over the C_r replicated cells that have a run r, its
 * moments against the residual variance, and Satterthwaite's degrees of freedom.
 */
function releaseComponent(
  bw: ArrayLike<number>,
  cellOf: Int32Array,
  rankOf: Int32Array,
  count: Float64Array,
  cellMean: Float64Array,
  pooled: number,
  pooledDegreesOfFreedom: number,
  replicatedCellCount: number,
): Pick<RunToRunVariance, "releaseLogSd" | "releaseCount" | "ownLogSd" | "effectiveDegreesOfFreedom"> {
  const none = { releaseLogSd: 0, releaseCount: 0, ownLogSd: Math.sqrt(pooled), effectiveDegreesOfFreedom: pooledDegreesOfFreedom };
  if (pooledDegreesOfFreedom < 1 || replicatedCellCount < 2) return none;
  const deviationSum: number[] = [];
  const deviationCount: number[] = [];
  for (let i = 0; i < bw.length; i++) {
    const y = bw[i]!;
    const c = cellOf[i]!;
    if (!(y > 0) || count[c]! < 2) continue;
    const r = rankOf[i]!;
    deviationSum[r] = (deviationSum[r] ?? 0) + (Math.log(y) - cellMean[c]!);
    deviationCount[r] = (deviationCount[r] ?? 0) + 1;
  }
  const ranks = deviationCount.flatMap((k, r) => (k !== undefined && k >= 2 ? [r] : []));
  const releaseCount = ranks.length;
  if (releaseCount < 2) return none;
  // Residual after cells and repetitions: what is left of each deviation once its repetition's mean is removed.
  let residualSum = 0;
  let residualCount = 0;
  for (let i = 0; i < bw.length; i++) {
    const y = bw[i]!;
    const c = cellOf[i]!;
    if (!(y > 0) || count[c]! < 2) continue;
    const r = rankOf[i]!;
    if (!(deviationCount[r]! >= 2)) continue;
    residualSum += (Math.log(y) - cellMean[c]! - deviationSum[r]! / deviationCount[r]!) ** 2;
    residualCount += 1;
  }
  const ownDegreesOfFreedom = Math.max(1, residualCount - replicatedCellCount - releaseCount + 1);
  const own = residualSum / ownDegreesOfFreedom;
  // E[d_r²] ≈ (1 − 1/n̄)(σ²_release + σ²_own / C_r), n̄ the mean runs per replicated cell.
  const meanRuns = residualCount / replicatedCellCount;
  const shrink = 1 - 1 / meanRuns;
  let moment = 0;
  for (const r of ranks) moment += (deviationSum[r]! / deviationCount[r]!) ** 2 / shrink - own / deviationCount[r]!;
  const releaseVariance = Math.max(0, moment / releaseCount);
  const releaseDegreesOfFreedom = releaseCount - 1;
  // The predictive variance's measured part: σ²_release (a new release's factor, and the fit's mean of R of them) + σ²_own.
  const releasePart = releaseVariance * (1 + 1 / releaseCount);
  const total = releasePart + own;
  const effectiveDegreesOfFreedom = total > 0 ? (total * total) / (releasePart ** 2 / releaseDegreesOfFreedom + own ** 2 / ownDegreesOfFreedom) : pooledDegreesOfFreedom;
  return { releaseLogSd: Math.sqrt(releaseVariance), releaseCount, ownLogSd: Math.sqrt(own), effectiveDegreesOfFreedom };
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
