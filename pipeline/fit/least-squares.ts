/**
 * Ordinary least squares of bw(m, V) in the paper's 5-term form or the full 9-term form
 * ([Y11] eq. 4, [Y-thesis] eq. 4.1–4.2; docs/science.md §3.2): minimise Σ (y − bw(m, V))² over the
 * samples, with V in GB and bw in MB/s.
 *
 * Solver: ml-regression-multivariate-linear (`intercept: false`; the constant term is a
 * column of the design like the others). It forms and inverts the normal equations XᵀX,
 * whose condition number is κ(X)², and the raw columns of this design live on very
 * different scales (the constant 1 next to m²V², up to 2·10^8 at m = 30, V = 480 GB), so
 * we hand it a conditioned design:
 *
 * 1. **Row compression.** Samples with the same (m, V) have the same design row (replicate
 *    runs of one (m, v) cell). OLS on N samples equals OLS on the n distinct rows, each
 *    multiplied by √count, with the cell's mean as response: XᵀX and Xᵀy are unchanged. The
 *    within-cell sum of squares S_w, which that compressed problem no longer sees, is added
 *    back as one extra all-zero design row with response √S_w (it changes neither XᵀX nor
 *    Xᵀy). The library's residual sum of squares is then the full one; its degrees of
 *    freedom (rows − p) are replaced by N − p when scaling the covariance. This is what makes
 *    100 k runs cost as much as a few hundred cells.
 * 2. **Column scaling.** Column j is divided by its Euclidean norm d_j (over the N
 *    samples), so every column has norm 1 (van der Sluis: near-optimal diagonal scaling for
 *    the normal equations). The library returns β̃ and Cov(β̃) for the scaled columns;
 *    unscaling gives β_j = β̃_j / d_j and Cov(β)_jk = Cov(β̃)_jk / (d_j · d_k).
 * 3. **Refusal before solving.** The scaled design must identify the form
 *    (`requireIdentifiableDesign`): never a coefficient from a rank-deficient fit.
 *
 * Complexity O(N) to group the samples plus O(n·p²) for the design; p ≤ 9.
 */
import MultivariateLinearRegression from "ml-regression-multivariate-linear";
import { InputError } from "../shared/errors";
import { requireIdentifiableDesign } from "./design-identifiability";
import { termsOf, type LinearModelForm, type ModelTerm } from "./model";

/** One measured value of the aggregated bandwidth at (m, V). */
export interface FitSample {
  m: number;
  vGb: number;
  bwMbPerS: number;
}

/** The samples sharing one design row (m, V). */
export interface DesignCell {
  m: number;
  vGb: number;
  count: number;
  meanBwMbPerS: number;
  /** Σ (y − mean)² within the cell. */
  sumSquaredDeviations: number;
  /**
   * Weight of each of the cell's samples in the least squares (absent: 1, the papers' fit on
   * MB/s). The relative fit (fit-weighting.ts) gives 1 / (cell mean)²: every sample then
   * counts by its relative error, as run-to-run noise that is multiplicative asks.
   */
  weight?: number;
}

/** What every least-squares fit of bw(m, V) reports about its estimates (linear here, nonlinear in fit-nonlinear.ts). */
export interface FitStatistics {
  /** σ̂²·(XᵀX)⁻¹ (or (JᵀWJ)⁻¹ for a nonlinear form), in parameter order and model units. */
  covariance: number[][];
  standardErrors: number[];
  /** N: the samples fitted. */
  sampleCount: number;
  /** n: distinct (m, V) rows among them. */
  distinctPointCount: number;
  /** N − p, p the fitted parameters. */
  degreesOfFreedom: number;
  residualSumOfSquares: number;
  /** σ̂ = √(RSS / (N − p)). */
  residualStandardError: number;
  /** κ = σ_max / σ_min of the design (or of the Jacobian at the optimum) with unit-norm columns. */
  conditionNumber: number;
}

export interface LeastSquaresFit extends FitStatistics {
  form: LinearModelForm;
  terms: readonly ModelTerm[];
  /** Coefficients in term order, in model units (V in GB, bw in MB/s). */
  coefficients: number[];
}

/** Samples as columns: entry i of each column is sample i. */
export interface FitColumns {
  m: ArrayLike<number>;
  vGb: ArrayLike<number>;
  bwMbPerS: ArrayLike<number>;
}

/** Samples as columns (objects are accepted for convenience; columns are not copied). */
export function toFitColumns(samples: readonly FitSample[] | FitColumns): FitColumns {
  if (!Array.isArray(samples)) return samples as FitColumns;
  const rows = samples as readonly FitSample[];
  return {
    m: Float64Array.from(rows, (s) => s.m),
    vGb: Float64Array.from(rows, (s) => s.vGb),
    bwMbPerS: Float64Array.from(rows, (s) => s.bwMbPerS),
  };
}

/**
 * Group samples by their exact (m, V), with Welford's update for each cell's mean and
 * spread. When `cellOf` is given, it receives each sample's cell index.
 */
export function groupByDesignRow(samples: FitColumns, cellOf?: Int32Array): DesignCell[] {
  const byM = new Map<number, Map<number, number>>();
  const cells: DesignCell[] = [];
  const { m, vGb, bwMbPerS } = samples;
  for (let i = 0; i < m.length; i++) {
    const mi = m[i]!;
    const vi = vGb[i]!;
    const y = bwMbPerS[i]!;
    if (!(Number.isFinite(mi) && Number.isFinite(vi) && Number.isFinite(y))) {
      throw new InputError(`fit sample ${i + 1}: m, V and bw must be finite numbers, found m=${mi}, V=${vi} GB, bw=${y} MB/s`);
    }
    let byV = byM.get(mi);
    if (byV === undefined) byM.set(mi, (byV = new Map()));
    let index = byV.get(vi);
    if (index === undefined) {
      index = cells.length;
      byV.set(vi, index);
      cells.push({ m: mi, vGb: vi, count: 0, meanBwMbPerS: 0, sumSquaredDeviations: 0 });
    }
    if (cellOf !== undefined) cellOf[i] = index;
    const cell = cells[index]!;
    cell.count += 1;
    const delta = y - cell.meanBwMbPerS;
    cell.meanBwMbPerS += delta / cell.count;
    cell.sumSquaredDeviations += delta * (y - cell.meanBwMbPerS);
  }
  return cells;
}

/** The value of a term at (m, V). */
export function termValue(term: ModelTerm, m: number, vGb: number): number {
  return m ** term.mPower * vGb ** term.vPower;
}

/** The compressed design with unit-norm columns: row c is √count_c · x_c / d. */
export interface ScaledDesign {
  /** Row-major, cells × terms. */
  matrix: Float64Array;
  rows: number;
  columns: number;
  /** d_j, the norm of column j over all samples. */
  columnNorms: number[];
}

export function scaledDesign(cells: readonly DesignCell[], terms: readonly ModelTerm[]): ScaledDesign {
  const p = terms.length;
  const matrix = new Float64Array(cells.length * p);
  const squaredNorms = new Array<number>(p).fill(0);
  cells.forEach((cell, c) => {
    const weight = Math.sqrt(cell.count * (cell.weight ?? 1));
    terms.forEach((term, j) => {
      const value = weight * termValue(term, cell.m, cell.vGb);
      matrix[c * p + j] = value;
      squaredNorms[j]! += value * value;
    });
  });
  const columnNorms = squaredNorms.map(Math.sqrt);
  for (let c = 0; c < cells.length; c++) {
    for (let j = 0; j < p; j++) if (columnNorms[j]! > 0) matrix[c * p + j] = matrix[c * p + j]! / columnNorms[j]!;
  }
  return { matrix, rows: cells.length, columns: p, columnNorms };
}

/**
 * Fit the form by OLS; throws an `InputError` naming the missing data when the samples
 * cannot identify it.
 * @example fitLeastSquares(samples, "paper").coefficients // [a, b, c, d, e]
 */
export function fitLeastSquares(samples: readonly FitSample[] | FitColumns, form: LinearModelForm): LeastSquaresFit {
  return fitDesignCells(groupByDesignRow(toFitColumns(samples)), form);
}

/** `fitLeastSquares` on samples already grouped by design row (cross-validation reuses it). */
export function fitDesignCells(cells: readonly DesignCell[], form: LinearModelForm): LeastSquaresFit {
  const terms = termsOf(form);
  const p = terms.length;
  const design = scaledDesign(cells, terms);
  const { conditionNumber } = requireIdentifiableDesign(cells, design, form);

  const x: number[][] = [];
  const y: number[][] = [];
  let sampleCount = 0;
  let withinSumOfSquares = 0;
  cells.forEach((cell, c) => {
    x.push(Array.from(design.matrix.subarray(c * p, (c + 1) * p)));
    y.push([Math.sqrt(cell.count * (cell.weight ?? 1)) * cell.meanBwMbPerS]);
    sampleCount += cell.count;
    withinSumOfSquares += cell.sumSquaredDeviations * (cell.weight ?? 1);
  });
  if (withinSumOfSquares > 0) {
    x.push(new Array<number>(p).fill(0));
    y.push([Math.sqrt(withinSumOfSquares)]);
  }
  const regression = new MultivariateLinearRegression(x, y, { intercept: false });

  const degreesOfFreedom = sampleCount - p;
  const libraryDegreesOfFreedom = x.length - p;
  const residualSumOfSquares = regression.stdError ** 2 * libraryDegreesOfFreedom;
  const dofRatio = libraryDegreesOfFreedom / degreesOfFreedom;
  const d = design.columnNorms;
  const coefficients = regression.weights.map((row, j) => row[0]! / d[j]!);
  const covariance = regression.stdErrorMatrix
    .to2DArray()
    .map((row, j) => row.map((value, k) => (value * dofRatio) / (d[j]! * d[k]!)));
  return {
    form,
    terms,
    coefficients,
    covariance,
    standardErrors: covariance.map((row, j) => Math.sqrt(Math.max(0, row[j]!))),
    sampleCount,
    distinctPointCount: cells.length,
    degreesOfFreedom,
    residualSumOfSquares,
    residualStandardError: Math.sqrt(residualSumOfSquares / degreesOfFreedom),
    conditionNumber,
  };
}
