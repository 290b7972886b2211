/**
 * The aggregated checkpoint bandwidth model bw(m, V) as data, and its evaluation.
 *
 * Source: [Y11] eq. 4, [Y-thesis] eq. 4.1–4.2 (docs/science.md §3.2). General form
 * `bw(m, V) = Σ_{0≤i,j≤2} a_ij m^i V^j`; the papers keep five terms,
 * `bw = a·m²V² + b·m² + c·V² + d·m + e`. Units: `m` a count, `V` in GB = MB / 1000 (the
 * published coefficients are only right with this unit), bw in MB/s.
 *
 * A model is plain data (`BandwidthModel`); `predict` evaluates it for callers that want
 * to be told about extrapolation, `bandwidthEvaluator` is the allocation-free version for
 * hot loops. Neither ever hands out a usable bandwidth ≤ 0: outside the measured domain the
 * quadratic can fall to zero or below, and consumers must then treat the point as
 * infeasible rather than divide by it (docs/science.md §3.2, extrapolation warning).
 *
 * Every form — the papers' and the project's (docs/science.md §3.5) — is evaluated through
 * its entry in `forms/registry.ts`; nothing here, nor downstream, reads a form's
 * coefficients by name.
 */
import type { FormEvaluate, FormParameter } from "./forms/bandwidth-form";
import type { ModelTerm } from "./forms/polynomial-terms";
import { formOf, type ModelForm } from "./forms/registry";
import type { PredictiveDistribution } from "./predictive-distribution";
import type { FormSelection } from "./select-form";
import { compact } from "./format-cells";

export { FULL_TERMS, PAPER_TERMS, termLabel, type ModelTerm } from "./forms/polynomial-terms";
export { BANDWIDTH_FORMS, MODEL_FORMS, formOf, isModelForm, type ModelForm } from "./forms/registry";

/** The forms fitted by ordinary least squares on their terms. */
export type LinearModelForm = "paper" | "full";

/** The terms of a linear form. */
export function termsOf(form: LinearModelForm): readonly ModelTerm[] {
  return formOf(form).terms!;
}

/** The box of (m, V) the model was fitted on; predictions outside it are extrapolations. */
export interface ModelDomain {
  mMin: number;
  mMax: number;
  vGbMin: number;
  vGbMax: number;
  /**
   * The size per writer V/m the fit points span, GB, when the model holds only there: a
   * fit on one size per writer (min = max, docs/science.md §3.5.1) or the empirical form
   * (the measured sizes). Absent: every V/m within the box.
   */
  writerGbMin?: number;
  writerGbMax?: number;
}

export type BandwidthCapSource = "declared" | "measured";
export const BANDWIDTH_CAP_SOURCES: readonly BandwidthCapSource[] = ["declared", "measured"];

/** Relative slack on the size per writer when telling whether V/m is a measured size (V is a sum of sizes in MB / 1000). */
export const WRITER_SIZE_TOLERANCE = 1e-9;

export const MODEL_UNITS = { m: "count", V: "GB (MB / 1000)", bw: "MB/s" } as const;

export interface BandwidthModel {
  schema: "ckpt-lab/bandwidth-model@1";
  name: string;
  form: ModelForm;
  /**
   * The form's parameters by name (`a`..`e` for the paper form, `a00`..`a22` for the full
   * one, `lambda`, `sigma`… for the project's forms; forms/registry.ts lists them).
   */
  coefficients: Record<string, number>;
  units: typeof MODEL_UNITS;
  domain: ModelDomain;
  /** Physical ceiling b_max = min(network, server disk) in MB/s, when known (docs/science.md §3.2). */
  bandwidthCapMbPerS: number | null;
  /**
   * Where the cap comes from, when there is one: "declared" by the user (`ckpt fit
   * --cap-mb-per-s B`), or "measured", the largest per-(m, V) cell mean of the traces
   * (`--cap-mb-per-s measured`). Absent from older files, whose caps were all declared.
   */
  bandwidthCapSource?: BandwidthCapSource;
  /** Fit metrics (present for fitted models; see pipeline/fit). */
  metrics?: Record<string, unknown>;
  /** Where the coefficients come from: inputs with hashes, options, tool version. */
  provenance: Record<string, unknown>;
  /** What a user of the model must know (the peak rule not applied, a poor fit), in words. */
  notes?: string[];
  /** How the form was chosen, when it was (`ckpt fit --form auto`): every candidate with its scores. */
  selection?: FormSelection;
  /**
   * What the distribution of one new burst needs (predictive-distribution.ts): the replicates'
   * run-to-run variance and the parameters' covariance. Absent from the published model and
   * older files; null when the traces had no (m, v) cell measured twice.
   */
  predictive?: PredictiveDistribution | null;
}

/**
 * The published model (docs/science.md §3.2). Its domain is the box spanned by the points the papers
 * fitted: every size of [Y-thesis] Table 4.1 from m = 1 up to its peak ī, so m ∈ [1, 18]
 * and V = m·v ∈ [0.015, 3.42] GB (5 × 684 MB).
 */
export const PAPER_MODEL: BandwidthModel = Object.freeze({
  schema: "ckpt-lab/bandwidth-model@1",
  name: "paper",
  form: "paper",
  coefficients: Object.freeze({ a: -0.0155, b: -0.169435, c: 0.0004, d: 5.027318, e: 3.753154 }),
  units: MODEL_UNITS,
  domain: Object.freeze({ mMin: 1, mMax: 18, vGbMin: 0.015, vGbMax: 3.42 }),
  bandwidthCapMbPerS: null,
  provenance: Object.freeze({
    source: "[Y11] eq. 4 and [Y-thesis] eq. 4.2, published coefficients (Grid5000 Azur cluster, BLCR, NFS)",
    domain: "points up to each series' peak in [Y-thesis] Table 4.1",
  }),
}) as BandwidthModel;

export interface Prediction {
  /** The polynomial's value, capped at b_max; may be ≤ 0 outside the domain. */
  rawMbPerS: number;
  /** The bandwidth to use, or null when the model gives no usable (finite, > 0) value. */
  bandwidthMbPerS: number | null;
  inDomain: boolean;
  /** Why the point is suspect (outside the domain, ≤ 0), or undefined. */
  warning?: string;
}

/** True when (m, V) lies in the model's fitted box. */
export function inModelDomain(model: Pick<BandwidthModel, "domain">, m: number, vGb: number): boolean {
  const d = model.domain;
  return m >= d.mMin && m <= d.mMax && vGb >= d.vGbMin && vGb <= d.vGbMax && writerSizeInDomain(d, m, vGb);
}

/**
 * The sizes per writer V/m (GB) a model answers at, with the tolerance of a sum of sizes in
 * MB: [0, ∞) for a model that holds at every V/m within its box; for one that holds at
 * measured sizes only (one size per writer, the empirical form), more data per writer than
 * measured is above its domain and less below. ScheduleCkpt's oracle and the applicability
 * check read the same bounds from here.
 */
export function writerSizeBoundsGb(d: ModelDomain): { low: number; high: number } {
  if (d.writerGbMin === undefined || d.writerGbMax === undefined) return { low: 0, high: Infinity };
  return { low: d.writerGbMin * (1 - WRITER_SIZE_TOLERANCE), high: d.writerGbMax * (1 + WRITER_SIZE_TOLERANCE) };
}

/** True when V/m lies within the domain's sizes per writer (always, when it has none). */
export function writerSizeInDomain(d: ModelDomain, m: number, vGb: number): boolean {
  if (d.writerGbMin === undefined || d.writerGbMax === undefined) return true;
  const writerGb = vGb / m;
  const bounds = writerSizeBoundsGb(d);
  return writerGb >= bounds.low && writerGb <= bounds.high;
}

/** The fitted domain in words, e.g. "m ∈ [1, 16], V ∈ [0.004, 0.064] GB, V/m = 0.004 GB only". */
export function domainText(d: ModelDomain): string {
  const box = `m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${compact(d.vGbMin, 5)}, ${compact(d.vGbMax, 5)}] GB`;
  if (d.writerGbMin === undefined || d.writerGbMax === undefined) return box;
  return d.writerGbMin === d.writerGbMax
    ? `${box}, at V/m = ${compact(d.writerGbMin, 5)} GB only (one size per writer measured)`
    : `${box}, V/m ∈ [${compact(d.writerGbMin, 5)}, ${compact(d.writerGbMax, 5)}] GB`;
}

/**
 * A fast evaluator `(m, vGb) => MB/s` for hot loops. It returns the form's value (capped at
 * b_max when known) and does not check the domain; callers must treat a result ≤ 0 (or
 * NaN) as infeasible.
 * @example bandwidthEvaluator(PAPER_MODEL)(9, 2.042) // ≈ 30.04 MB/s
 */
export function bandwidthEvaluator(
  model: Pick<BandwidthModel, "form" | "coefficients" | "bandwidthCapMbPerS">,
): (m: number, vGb: number) => number {
  const evaluate = formOf(model.form).evaluate;
  const k = evaluationCoefficients(model);
  const cap = model.bandwidthCapMbPerS ?? Infinity;
  return (m, v) => bandwidthAt(evaluate, k, cap, m, v);
}

/**
 * A model's parameters in the order its form's `evaluate` reads them; a fixed parameter its
 * form added after the model was saved reads as its `whenAbsent` value (the behaviour the
 * model was fitted with, load-model.ts).
 */
export function evaluationCoefficients(model: Pick<BandwidthModel, "form" | "coefficients">): Float64Array {
  const form = formOf(model.form);
  if (form.evaluationCoefficients) return form.evaluationCoefficients(model.coefficients);
  return Float64Array.from(parametersOf(model), (p) => model.coefficients[p.name] ?? p.whenAbsent ?? 0);
}

/**
 * A model's parameters, in the order its form's `evaluate` reads them: the form's own list,
 * or, for a form whose parameters are its measured cells (the empirical form), the list its
 * coefficients name.
 */
export function parametersOf(model: Pick<BandwidthModel, "form" | "coefficients">): readonly FormParameter[] {
  const form = formOf(model.form);
  return form.parametersFor ? form.parametersFor(model.coefficients) : form.parameters;
}

/**
 * bw(m, V) from `evaluationCoefficients`, capped at `cap`: every evaluator calls this one
 * module-level function with its form's module-level `evaluate`, so that a hot loop sees one
 * call target per form (which V8 inlines) however many models or oracles a run creates,
 * rather than a new closure each time.
 */
// Parenthesised: compiled with the module (see schedule/schedule-ckpt.ts, "Cold start").
export const bandwidthAt = (function bandwidthAt(evaluate: FormEvaluate, k: Float64Array, cap: number, m: number, v: number): number {
  const bw = evaluate(k, m, v);
  return bw < cap ? bw : cap;
});

/** Evaluate the model at (m, V in GB), flagging extrapolation and unusable values. */
export function predict(model: BandwidthModel, m: number, vGb: number): Prediction {
  const rawMbPerS = bandwidthEvaluator(model)(m, vGb);
  const inDomain = inModelDomain(model, m, vGb);
  const usable = Number.isFinite(rawMbPerS) && rawMbPerS > 0;
  const warnings: string[] = [];
  if (!inDomain) {
    warnings.push(`(m=${m}, V=${vGb} GB) is outside the fitted domain ${domainText(model.domain)}: an extrapolation`);
  }
  if (!usable) {
    warnings.push(`the model gives bw(${m}, ${vGb}) = ${rawMbPerS} MB/s, which is not a usable bandwidth (must be > 0)`);
  }
  return {
    rawMbPerS,
    bandwidthMbPerS: usable ? rawMbPerS : null,
    inDomain,
    ...(warnings.length > 0 ? { warning: warnings.join("; ") } : {}),
  };
}
