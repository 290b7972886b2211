/**
 * Can these points identify the form? Refuse, with what data is missing, before any
 * coefficient is computed (a rank-deficient least-squares problem has infinitely many
 * solutions, and a solver that returns one of them prints numbers that mean nothing).
 *
 * Structural checks first, because they name the missing data precisely. Each is a proof
 * of rank deficiency, not a heuristic:
 * - both forms contain 1, m and m²: with fewer than 3 distinct m, the polynomial
 *   (m − m₁)(m − m₂) vanishes on the data, a null combination of those columns;
 * - with a single ratio V/m (one application size, V = m·v) the paper form's V² equals
 *   v²·m², a multiple of its m² column; the full form reduces to powers of m whose m²
 *   coefficient a₀₂v² + a₁₁v + a₂₀ needs 3 sizes to be split;
 * - the paper form needs 2 distinct V (else V² ∝ 1 and m²V² ∝ m²), the full form 3
 *   (1, V, V²);
 * - p coefficients need p distinct (m, V) rows, plus one for the error estimate (N − p
 *   degrees of freedom and the standard errors): at least p + 1.
 *
 * Then the numerical check, on the design whose columns are scaled to unit norm (so that
 * κ measures the data's geometry, not the units): κ = σ_max / σ_min from
 * `singularValues`. The threshold is κ ≤ 10^6 (`MAX_CONDITION_NUMBER`): the library
 * solves the normal equations, whose condition number is κ², so at κ = 10^6 a coefficient
 * may already carry a relative error of about κ²·ε ≈ 2·10^-4 in the badly determined
 * direction; beyond it the printed digits could not be vouched for. (On the Table 4.1
 * sizes up to their peaks the scaled κ is ≈ 15 for the paper form and ≈ 220 for the full
 * form, whatever the unit of V; exactly collinear columns give κ ≳ 10^14.) The refusal
 * names the terms of the nearly null direction (the right singular vector of σ_min).
 */
import { InputError } from "../shared/errors";
import { termLabel, termsOf, type LinearModelForm } from "./model";
import { singularValues } from "./singular-values";

export const MAX_CONDITION_NUMBER = 1e6;

/** Where a cell sits in (m, V); enough for the structural checks. */
export interface DesignPoint {
  m: number;
  vGb: number;
}

/** The scaled design's shape and values (see `scaledDesign`). */
export interface DesignMatrix {
  matrix: Float64Array;
  rows: number;
  columns: number;
}

function distinctSorted(values: number[], relativeTolerance = 0): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const result: number[] = [];
  for (const value of sorted) {
    const last = result[result.length - 1];
    if (last === undefined || Math.abs(value - last) > relativeTolerance * Math.max(Math.abs(value), Math.abs(last))) result.push(value);
  }
  return result;
}

function listOf(values: number[], unit = ""): string {
  const shown = values.slice(0, 8).map((v) => `${Number(v.toPrecision(6))}${unit}`);
  return `{${shown.join(", ")}${values.length > 8 ? ", …" : ""}}`;
}

export interface DesignConditioning {
  conditionNumber: number;
  /** Singular values of the unit-column design, largest first. */
  singularValues: number[];
}

/** Throw an `InputError` saying what data is missing unless the design identifies `form`. */
export function requireIdentifiableDesign(points: readonly DesignPoint[], design: DesignMatrix, form: LinearModelForm): DesignConditioning {
  const terms = termsOf(form);
  const p = terms.length;
  const formName = `the ${form} form (${p} coefficients: ${terms.map(termLabel).join(", ")})`;
  const refuse = (what: string, fix: string): never => {
    throw new InputError(`cannot fit ${formName}: ${what}. ${fix}`);
  };
  if (points.length === 0) {
    refuse(
      "there are no fit points",
      "The fit needs size series (runs in which every process has the same size) of several sizes, each measured at several m.",
    );
  }
  const distinctM = distinctSorted(points.map((point) => point.m));
  if (distinctM.length < 3) {
    refuse(
      `the points have only ${distinctM.length} distinct number${distinctM.length === 1 ? "" : "s"} of processes, m ∈ ${listOf(distinctM)}, and the terms in m², m and 1 need at least 3`,
      "Add runs at other m (each size series from m = 1 up to past its peak).",
    );
  }
  const sizesNeeded = form === "paper" ? 2 : 3;
  const distinctSizesMb = distinctSorted(points.map((point) => (1000 * point.vGb) / point.m), 1e-9);
  if (distinctSizesMb.length < sizesNeeded) {
    refuse(
      `every point has an application size V/m in ${listOf(distinctSizesMb, " MB")}; with V = m·v the terms collapse onto powers of m (V² becomes v²·m²), so the form needs at least ${sizesNeeded} sizes`,
      `Add size series of ${sizesNeeded - distinctSizesMb.length} more application size${sizesNeeded - distinctSizesMb.length === 1 ? "" : "s"}.`,
    );
  }
  const distinctV = distinctSorted(points.map((point) => point.vGb));
  if (distinctV.length < sizesNeeded) {
    refuse(
      `the points have only ${distinctV.length} distinct aggregated size${distinctV.length === 1 ? "" : "s"} V ∈ ${listOf(distinctV, " GB")}, and the form's terms in V need at least ${sizesNeeded}`,
      "Add runs of other total sizes V (other m or other application sizes).",
    );
  }
  if (points.length < p + 1) {
    refuse(
      `there are ${points.length} distinct (m, V) points for ${p} coefficients; identifying them takes ${p} and estimating the error one more`,
      `Add at least ${p + 1 - points.length} point${p + 1 - points.length === 1 ? "" : "s"} at new (m, V) combinations.`,
    );
  }
  const { values, rightVectors } = singularValues(design.matrix, design.rows, design.columns);
  const conditionNumber = values[0]! / values[p - 1]!;
  if (!(conditionNumber <= MAX_CONDITION_NUMBER)) {
    const nullDirection = rightVectors.map((row) => row[p - 1]!);
    const largest = Math.max(...nullDirection.map(Math.abs));
    const involved = terms
      .map((term, j) => ({ term, weight: nullDirection[j]! / largest }))
      .filter(({ weight }) => Math.abs(weight) >= 0.05)
      .map(({ term, weight }) => `${weight >= 0 ? "+" : "−"}${Math.abs(weight).toFixed(2)}·${termLabel(term)}`)
      .join(" ");
    refuse(
      `on these points the terms are (nearly) linearly dependent: the column-scaled design has condition number ${conditionNumber.toPrecision(3)} (limit ${MAX_CONDITION_NUMBER.toExponential(0)}), and ${involved} ≈ 0 (scaled columns) over all ${points.length} points (m ∈ ${listOf(distinctM)}, application sizes ${listOf(distinctSizesMb, " MB")})`,
      "The data do not separate those terms: add runs at (m, V) combinations that do (more sizes, or each size at more m).",
    );
  }
  return { conditionNumber, singularValues: values };
}
