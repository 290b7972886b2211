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
 */

export type ModelForm = "paper" | "full";

/** One term of a form: its coefficient name and the powers of m and V it multiplies. */
export interface ModelTerm {
  name: string;
  mPower: number;
  vPower: number;
}

/** The papers' five terms, in the order and with the names of [Y11] eq. 4. */
export const PAPER_TERMS: readonly ModelTerm[] = [
  { name: "a", mPower: 2, vPower: 2 },
  { name: "b", mPower: 2, vPower: 0 },
  { name: "c", mPower: 0, vPower: 2 },
  { name: "d", mPower: 1, vPower: 0 },
  { name: "e", mPower: 0, vPower: 0 },
];

/** The nine terms `a_ij m^i V^j` of the general form, named `a00` … `a22`. */
export const FULL_TERMS: readonly ModelTerm[] = [0, 1, 2].flatMap((i) =>
  [0, 1, 2].map((j) => ({ name: `a${i}${j}`, mPower: i, vPower: j })),
);

export function termsOf(form: ModelForm): readonly ModelTerm[] {
  return form === "paper" ? PAPER_TERMS : FULL_TERMS;
}

/** The superscript spelling of a term, e.g. `m²·V²`. */
export function termLabel(term: ModelTerm): string {
  const power = (symbol: string, k: number) => (k === 0 ? "" : k === 1 ? symbol : `${symbol}${"⁰¹²³⁴"[k]}`);
  const parts = [power("m", term.mPower), power("V", term.vPower)].filter((s) => s !== "");
  return parts.length === 0 ? "1" : parts.join("·");
}

/** The box of (m, V) the model was fitted on; predictions outside it are extrapolations. */
export interface ModelDomain {
  mMin: number;
  mMax: number;
  vGbMin: number;
  vGbMax: number;
}

export const MODEL_UNITS = { m: "count", V: "GB (MB / 1000)", bw: "MB/s" } as const;

export interface BandwidthModel {
  schema: "ckpt-lab/bandwidth-model@1";
  name: string;
  form: ModelForm;
  /** Coefficient per term name (`a`..`e` for the paper form, `a00`..`a22` for the full one). */
  coefficients: Record<string, number>;
  units: typeof MODEL_UNITS;
  domain: ModelDomain;
  /** Physical ceiling b_max = min(network, server disk) in MB/s, when known (docs/science.md §3.2). */
  bandwidthCapMbPerS: number | null;
  /** Fit metrics (present for fitted models; see pipeline/fit). */
  metrics?: Record<string, unknown>;
  /** Where the coefficients come from: inputs with hashes, options, tool version. */
  provenance: Record<string, unknown>;
  /** What a user of the model must know (the peak rule not applied, a poor fit), in words. */
  notes?: string[];
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
export function inModelDomain(model: BandwidthModel, m: number, vGb: number): boolean {
  const d = model.domain;
  return m >= d.mMin && m <= d.mMax && vGb >= d.vGbMin && vGb <= d.vGbMax;
}

/**
 * A fast evaluator `(m, vGb) => MB/s` for hot loops. It returns the polynomial (capped at
 * b_max when known) and does not check the domain; callers must treat a result ≤ 0 (or
 * NaN) as infeasible.
 * @example bandwidthEvaluator(PAPER_MODEL)(9, 2.042) // ≈ 30.04 MB/s
 */
export function bandwidthEvaluator(
  model: Pick<BandwidthModel, "form" | "coefficients" | "bandwidthCapMbPerS">,
): (m: number, vGb: number) => number {
  const paper = model.form === "paper";
  const k = evaluationCoefficients(model);
  const cap = model.bandwidthCapMbPerS ?? Infinity;
  return (m, v) => bandwidthAt(paper, k, cap, m, v);
}

/** A model's coefficients in the order `bandwidthAt` reads them: a, b, c, d, e (paper form) or a00 … a22 (full form). */
export function evaluationCoefficients(model: Pick<BandwidthModel, "form" | "coefficients">): Float64Array {
  return Float64Array.from(termsOf(model.form), (t) => model.coefficients[t.name] ?? 0);
}

/**
 * bw(m, V) from `evaluationCoefficients`, capped at `cap`: every evaluator calls this one
 * module-level function, so that a hot loop sees one call target (which V8 inlines) however
 * many models or oracles a run creates, rather than a new closure each time.
 */
// Parenthesised: compiled with the module (see schedule/schedule-ckpt.ts, "Cold start").
export const bandwidthAt = (function bandwidthAt(paper: boolean, k: Float64Array, cap: number, m: number, v: number): number {
  const m2 = m * m;
  const v2 = v * v;
  const bw = paper
    ? k[0]! * m2 * v2 + k[1]! * m2 + k[2]! * v2 + k[3]! * m + k[4]!
    : k[0]! + k[1]! * v + k[2]! * v2 + m * (k[3]! + k[4]! * v + k[5]! * v2) + m2 * (k[6]! + k[7]! * v + k[8]! * v2);
  return bw < cap ? bw : cap;
});

/** Evaluate the model at (m, V in GB), flagging extrapolation and unusable values. */
export function predict(model: BandwidthModel, m: number, vGb: number): Prediction {
  const rawMbPerS = bandwidthEvaluator(model)(m, vGb);
  const inDomain = inModelDomain(model, m, vGb);
  const usable = Number.isFinite(rawMbPerS) && rawMbPerS > 0;
  const warnings: string[] = [];
  if (!inDomain) {
    const d = model.domain;
    warnings.push(
      `(m=${m}, V=${vGb} GB) is outside the fitted domain m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${d.vGbMin}, ${d.vGbMax}] GB: an extrapolation`,
    );
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
