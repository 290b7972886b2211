/**
 * What a form of the bandwidth model bw(m, V) is, for everything that evaluates, fits or
 * reasons about a model: one object per form, registered in `registry.ts` ("one evaluator,
 * many forms": a model is data — its form's name, its parameters, its fitted domain — and
 * every consumer asks its form, never the parameters themselves).
 *
 * Units as everywhere in the model: `m` a count, `V` in GB (= MB / 1000), bw in MB/s.
 *
 * Adding a form: one file that exports a `BandwidthForm`, and one line in `registry.ts`.
 * Linear forms give their `terms` and are fitted by ordinary least squares
 * (least-squares.ts); nonlinear ones give `gradient`, `starts` and `fixedFromData` and are
 * fitted by Levenberg–Marquardt (fit-nonlinear.ts). Every form answers the reachability
 * questions of ScheduleCkpt's upper bound and exact solver (schedule/reachable-bandwidth.ts)
 * exactly, in closed form over its own structure.
 */
import type { ModelTerm } from "./polynomial-terms";

/** bw(m, V in GB) in MB/s from a form's parameters, in the order of its `parameters`. */
export type FormEvaluate = (k: Float64Array, m: number, vGb: number) => number;

/** One parameter of a form, in the order `evaluate` reads them. */
export interface FormParameter {
  /** The key in a model's `coefficients`, e.g. "a", "lambda". */
  name: string;
  /** How tables and formulas print it, e.g. "m²·V²" (a polynomial's term) or "λ". */
  symbol: string;
  unit: string;
  /** What it means, in a few words (model cards, the fit's tables). */
  meaning: string;
  /** Bounds the nonlinear fit keeps it within (inclusive); none for linear forms. */
  lower?: number;
  upper?: number;
  /** Set from the fit points before the fit, never fitted (e.g. the size factor's reference volume). */
  fixed?: boolean;
  /**
   * A fixed parameter added to its form after models were saved without it: the value such a
   * model is evaluated with, the behaviour it was fitted with (+∞ for a size factor's upper
   * reference: the unbounded power law). Absent: every model must carry the parameter.
   */
  whenAbsent?: number;
  /** A fixed parameter that cannot lie below another one (an upper reference below its lower one): that one's name. */
  atLeast?: string;
  /**
   * A coordinate of a measured cell (the empirical form's m, V/m, spread, runs): said in the
   * meaning of the cell's fitted parameter, so tables and model cards do not list it again.
   */
  internal?: boolean;
  /**
   * An exponent of a size (V, or V/m) that one size per writer cannot tell from the m-shape
   * (V = m·v): held at 0 by the fit on one size (one-size-fit.ts).
   */
  sizeExponent?: boolean;
}

/** A fit's cells as the nonlinear solver and `starts` see them: one per distinct (m, V), with its runs' mean. */
export interface FormCells {
  m: Float64Array;
  vGb: Float64Array;
  /** Mean aggregated bandwidth of the cell, MB/s. */
  meanBwMbPerS: Float64Array;
  /** Runs (or means) behind the cell: its weight in the least squares. */
  count: Float64Array;
}

/** Where the supremum of bw(m, ·) over V ∈ [0, vGbMax] lies, for one m (values ≤ 0 count as 0). */
export interface MaximumOverV {
  bwMbPerS: number;
  vGb: number;
}

export interface BandwidthForm {
  name: string;
  /** One line: where the form comes from and what it models. */
  title: string;
  /** "[Y11] eq. 4" for the papers' forms; "project addition" for ours (docs/science.md §3.5). */
  source: string;
  /** The papers' form, or one the project adds. */
  origin: "papers" | "project";
  /** The equation with its parameters' symbols, e.g. "bw(m, V) = a·m²·V² + b·m² + c·V² + d·m + e". */
  formula: string;
  parameters: readonly FormParameter[];
  /**
   * A form whose parameters are its measured cells (the empirical form): the parameters its
   * coefficients name, in evaluation order. Absent: `parameters` is the list.
   */
  parametersFor?(coefficients: Readonly<Record<string, number>>): readonly FormParameter[];
  /**
   * Such a form's `evaluate` array straight from its coefficients, without `parametersFor`'s
   * descriptions (on 10,000 cells, 50,000 parameters with their words at every evaluator
   * made). Absent: the parameters' values in `parametersOf` order.
   */
  evaluationCoefficients?(coefficients: Readonly<Record<string, number>>): Float64Array;
  /** Linear forms: the monomial each parameter multiplies (fitted by OLS). */
  terms?: readonly ModelTerm[];
  /**
   * bw(m, V) from the parameters in `parameters` order. A module-level function (never a
   * closure per model): hot loops then see one call target per form, which V8 inlines.
   */
  evaluate: FormEvaluate;
  /** Nonlinear forms: ∂bw/∂k_j into `out` (0 for fixed parameters); returns bw. */
  gradient?(k: Float64Array, m: number, vGb: number, out: Float64Array): number;
  /** Nonlinear forms: the fixed parameters' values, from the cells to be fitted. */
  fixedFromData?(cells: FormCells): Record<string, number>;
  /** Nonlinear forms: starting points of the fit (full parameter vectors, fixed ones set), tried in order. */
  starts?(cells: FormCells, fixed: Record<string, number>): Float64Array[];
  /** Nonlinear forms: the structural minimum of the data, as a reason when it is not met (else null). */
  structuralGap?(cells: FormCells): string | null;
  /** Exact sup of min(bw(m, V), cap) over V ∈ [0, vGbMax], for one integer m ≥ 1. */
  maximumOverV(k: Float64Array, m: number, vGbMax: number, capMbPerS: number): MaximumOverV;
  /**
   * True only when it is proven that the per-process rate bw(m, V)/m never increases with m
   * or V over m ∈ [1, mMax], V ∈ [0, vGbMax] (the exact solver then cuts supersets of a
   * statically infeasible set); false when unproven.
   */
  perProcessRateNonIncreasing(k: Float64Array, mMax: number, vGbMax: number): boolean;
}

/**
 * The project forms' size factor (docs/science.md §3.5): a power law of a volume between the
 * smallest and the largest one measured, held constant outside them — at 1 below the
 * smallest, so that nothing diverges as V → 0 (the fluid estimate evaluates the model on the
 * volume still to write, down to 0), and at its value at the largest above it, so that no
 * form extrapolates a power law of size past what was measured (a capacity that grew or
 * collapsed without bound with m, V = m·v). Inside the measured sizes it is the power law.
 * `largestGb` = +∞ is the unbounded law of models saved before the upper reference existed.
 */
export function sizeFactor(vGb: number, referenceGb: number, largestGb: number, exponent: number): number {
  const held = vGb > largestGb ? largestGb : vGb;
  return held > referenceGb ? Math.pow(held / referenceGb, exponent) : 1;
}

/** ln(V / V_ref) between the references, 0 below, ln(V_max / V_ref) above: ∂ ln(sizeFactor) / ∂ exponent. */
export function logSizeRatio(vGb: number, referenceGb: number, largestGb: number): number {
  const held = vGb > largestGb ? largestGb : vGb;
  return held > referenceGb ? Math.log(held / referenceGb) : 0;
}
