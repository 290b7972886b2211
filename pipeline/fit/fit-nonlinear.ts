/**
 * Least squares of a nonlinear form of bw(m, V) (the project's forms, docs/science.md §3.5)
 * on the fit's cells: the same objective as the linear fit — Σ over runs of (y − bw(m, V))²,
 * which on cells of c runs with mean ȳ is Σ c·(ȳ − bw)² plus the within-cell sum of squares
 * (least-squares.ts, "row compression") — minimised by Levenberg–Marquardt
 * (levenberg-marquardt.ts) from each of the form's starting points: a few iterations from
 * each (`SCOUT_ITERATIONS`), then to convergence from the one with the lowest cost — the
 * same minimum as running every start to the end on every data set we tried, for a third of
 * the work (10,000 means: bench/fit.bench.ts).
 *
 * Statistics, as scipy.optimize.curve_fit gives them (asymptotic, from the Jacobian J at the
 * optimum): Cov = σ̂²·(JᵀWJ)⁻¹ with σ̂² = RSS / (N − q), q the fitted parameters; the
 * intervals downstream are estimate ± t_{0.975, N−q}·SE, as for the linear forms.
 *
 * Refusals, before and after the solve, with what the data lack: the form's structural
 * minimum (`structuralGap`), no starting point converging to a finite cost, and parameters
 * the data do not determine — the column-scaled √W·J at the optimum with condition number
 * above 10^6 (`MAX_CONDITION_NUMBER`, as for the linear design), named by the direction of
 * its smallest singular value (e.g. a capacity never reached by the measured m).
 *
 * Decision: a parameter that ends on a bound (σ = 0 in the USL form: no contention) keeps
 * the covariance's standard error, as curve_fit does; the fit reports which ones (`atBound`).
 */
import { InputError } from "../shared/errors";
import type { BandwidthForm, FormCells } from "./forms/bandwidth-form";
import { MAX_CONDITION_NUMBER } from "./design-identifiability";
import { levenbergMarquardt, normalEquations, type NonlinearLeastSquaresProblem } from "./levenberg-marquardt";
import type { DesignCell } from "./least-squares";
import { singularValues } from "./singular-values";

/** Iterations from each starting point before the best one is followed to convergence. */
export const SCOUT_ITERATIONS = 8;

export interface NonlinearFit {
  /** Every parameter of the form, fixed ones included, in the form's order. */
  parameters: Float64Array;
  /** Indices (in the form's order) of the fitted parameters. */
  fittedIndex: number[];
  /** Covariance of the fitted parameters, in `fittedIndex` order. */
  covariance: number[][];
  /** Fitted parameters that ended on one of their bounds. */
  atBound: string[];
  sampleCount: number;
  distinctPointCount: number;
  degreesOfFreedom: number;
  residualSumOfSquares: number;
  conditionNumber: number;
  iterations: number;
  /**
   * Whether Levenberg–Marquardt stopped at a minimum (gradient, step or cost small) rather
   * than by running out of iterations or stalling: a fit that did not converge is kept, so
   * that its numbers can be shown, but `--form auto` does not choose it and a single-form
   * fit says so in its notes.
   */
  converged: boolean;
  /** Why it stopped (levenberg-marquardt.ts): "gradient", "step", "cost", "iterations" or "stalled". */
  stopReason: string;
}

/** The cells as the forms' starting points read them. */
export function formCells(cells: readonly DesignCell[]): FormCells {
  // One loop, not Float64Array.from with a mapping function per column (its iteration costs more than the fit's setup should).
  const n = cells.length;
  const columns: FormCells = { m: new Float64Array(n), vGb: new Float64Array(n), meanBwMbPerS: new Float64Array(n), count: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const cell = cells[i]!;
    columns.m[i] = cell.m;
    columns.vGb[i] = cell.vGb;
    columns.meanBwMbPerS[i] = cell.meanBwMbPerS;
    columns.count[i] = cell.count;
  }
  return columns;
}

function describeForm(form: BandwidthForm): string {
  const fitted = form.parameters.filter((p) => !p.fixed);
  return `the ${form.name} form (${fitted.length} parameters: ${fitted.map((p) => p.symbol).join(", ")})`;
}

/**
 * @example fitNonlinearCells(groupByDesignRow(points), USL_FORM).parameters // λ, σ, κ, γ, V₀
 */
export function fitNonlinearCells(cells: readonly DesignCell[], form: BandwidthForm): NonlinearFit {
  const refuse = (what: string, fix: string): never => {
    throw new InputError(`cannot fit ${describeForm(form)}: ${what}. ${fix}`);
  };
  if (!form.gradient || !form.starts || !form.fixedFromData) throw new Error(`form "${form.name}" has no gradient, starts or fixedFromData: it is not a nonlinear form`);
  if (cells.length === 0) refuse("there are no fit points", "The fit needs size series of several sizes, each measured at several m.");
  const data = formCells(cells);
  const gap = form.structuralGap?.(data) ?? null;
  if (gap !== null) refuse(gap, "Add runs at other m and of other application sizes.");

  const gradient = form.gradient;
  const problem: NonlinearLeastSquaresProblem = {
    rowCount: cells.length,
    targets: data.meanBwMbPerS,
    weights: Float64Array.from(cells, (c) => c.count * (c.weight ?? 1)),
    valueAndGradient: (k, row, out) => gradient(k, data.m[row]!, data.vGb[row]!, out),
    value: (k, row) => form.evaluate(k, data.m[row]!, data.vGb[row]!),
    free: form.parameters.map((p) => !p.fixed),
    lower: form.parameters.map((p) => p.lower ?? -Infinity),
    upper: form.parameters.map((p) => p.upper ?? Infinity),
  };
  const fixed = form.fixedFromData(data);
  let scout: ReturnType<typeof levenbergMarquardt> | null = null;
  for (const start of form.starts(data, fixed)) {
    const result = levenbergMarquardt(problem, start, { maxIterations: SCOUT_ITERATIONS });
    if (Number.isFinite(result.cost) && (scout === null || result.cost < scout.cost)) scout = result;
  }
  if (scout === null) {
    return refuse("no starting point led to a model defined on every point", "Check the traces for bandwidths that are zero or wildly off.");
  }
  const best = scout.converged ? scout : levenbergMarquardt(problem, scout.parameters);

  const fittedIndex = form.parameters.flatMap((p, j) => (p.fixed ? [] : [j]));
  const q = fittedIndex.length;
  let sampleCount = 0;
  let withinSumOfSquares = 0;
  for (const cell of cells) {
    sampleCount += cell.count;
    withinSumOfSquares += cell.sumSquaredDeviations * (cell.weight ?? 1);
  }
  const degreesOfFreedom = sampleCount - q;
  if (degreesOfFreedom < 1) refuse(`there are ${sampleCount} samples for ${q} parameters`, "Add runs: estimating the error needs at least one more sample than parameters.");

  // √W·J with unit-norm columns: its condition number says whether the data determine every parameter.
  const scratch = new Float64Array(form.parameters.length);
  const jacobian = new Float64Array(cells.length * q);
  const norms = new Float64Array(q);
  for (let i = 0; i < cells.length; i++) {
    gradient(best.parameters, data.m[i]!, data.vGb[i]!, scratch);
    const w = Math.sqrt(problem.weights[i]!);
    for (let a = 0; a < q; a++) {
      const value = w * scratch[fittedIndex[a]!]!;
      jacobian[i * q + a] = value;
      norms[a] = Math.hypot(norms[a]!, value);
    }
  }
  const names = fittedIndex.map((j) => form.parameters[j]!.symbol);
  const dead = names.filter((_, a) => !(norms[a]! > 0));
  if (dead.length > 0) {
    refuse(`on these points the model does not depend on ${dead.join(", ")} at its best fit`, "The data do not reach the regime that parameter describes: add runs there, or use another form.");
  }
  for (let i = 0; i < cells.length; i++) for (let a = 0; a < q; a++) jacobian[i * q + a] = jacobian[i * q + a]! / norms[a]!;
  const { values, rightVectors } = singularValues(jacobian, cells.length, q);
  const conditionNumber = values[0]! / values[q - 1]!;
  if (!(conditionNumber <= MAX_CONDITION_NUMBER)) {
    const direction = rightVectors.map((row) => row[q - 1]!);
    const largest = Math.max(...direction.map(Math.abs));
    const involved = direction
      .map((weight, a) => ({ name: names[a]!, weight: weight / largest }))
      .filter(({ weight }) => Math.abs(weight) >= 0.05)
      .map(({ name, weight }) => `${weight >= 0 ? "+" : "−"}${Math.abs(weight).toFixed(2)}·∂bw/∂${name}`)
      .join(" ");
    refuse(
      `on these points its parameters are not all determined: the column-scaled Jacobian at the best fit has condition number ${conditionNumber.toPrecision(3)} (limit ${MAX_CONDITION_NUMBER.toExponential(0)}), and ${involved} ≈ 0`,
      "The data do not separate those parameters (e.g. a capacity that the measured m never reach): add runs where they differ, or use another form.",
    );
  }

  // Cov = σ̂²·(JᵀWJ)⁻¹, inverted column by column through the scaled matrix (the unit-norm columns keep it well conditioned).
  const normal = new Float64Array(q * q);
  const g = new Float64Array(q);
  normalEquations(problem, best.parameters, fittedIndex, normal, g, scratch);
  const residualSumOfSquares = best.cost + withinSumOfSquares;
  const variance = residualSumOfSquares / degreesOfFreedom;
  const covariance = invertScaled(normal, norms, q).map((row) => row.map((value) => value * variance));

  const atBound = fittedIndex
    .filter((j) => {
      const p = form.parameters[j]!;
      return best!.parameters[j] === p.lower || best!.parameters[j] === p.upper;
    })
    .map((j) => form.parameters[j]!.name);
  return {
    parameters: best.parameters,
    fittedIndex,
    covariance,
    atBound,
    sampleCount,
    distinctPointCount: cells.length,
    degreesOfFreedom,
    residualSumOfSquares,
    conditionNumber,
    iterations: best === scout ? scout.iterations : SCOUT_ITERATIONS + best.iterations,
    converged: best.converged,
    stopReason: best.reason,
  };
}

/** (JᵀWJ)⁻¹ from JᵀWJ and its columns' norms d: inv(D⁻¹AD⁻¹) scaled back, by Gauss–Jordan with partial pivoting. */
function invertScaled(normal: Float64Array, norms: Float64Array, q: number): number[][] {
  const a = Array.from({ length: q }, (_, i) => [
    ...Array.from({ length: q }, (_, j) => normal[i * q + j]! / (norms[i]! * norms[j]!)),
    ...Array.from({ length: q }, (_, j) => (i === j ? 1 : 0)),
  ]);
  for (let column = 0; column < q; column++) {
    let pivot = column;
    for (let row = column + 1; row < q; row++) if (Math.abs(a[row]![column]!) > Math.abs(a[pivot]![column]!)) pivot = row;
    [a[column], a[pivot]] = [a[pivot]!, a[column]!];
    const scale = a[column]![column]!;
    for (let j = 0; j < 2 * q; j++) a[column]![j] = a[column]![j]! / scale;
    for (let row = 0; row < q; row++) {
      if (row === column) continue;
      const factor = a[row]![column]!;
      if (factor === 0) continue;
      for (let j = 0; j < 2 * q; j++) a[row]![j] = a[row]![j]! - factor * a[column]![j]!;
    }
  }
  return Array.from({ length: q }, (_, i) => Array.from({ length: q }, (_, j) => a[i]![q + j]! / (norms[i]! * norms[j]!)));
}
