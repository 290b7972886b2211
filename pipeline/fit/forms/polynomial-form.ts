/**
 * What the papers' polynomial forms share (docs/science.md §3.2): for a fixed m each is a
 * quadratic in V, α + β·V + γ·V² with α, β, γ polynomials in m, so the supremum over V and
 * the monotonicity of the per-process rate are exact in closed form (the interval's ends or
 * the vertex). `paper-form.ts` and `full-form.ts` build on these.
 */
import type { BandwidthForm, FormParameter, MaximumOverV } from "./bandwidth-form";
import { termExpression, termLabel, type ModelTerm } from "./polynomial-terms";

/** bw(m, V) = α + β V + γ V² for a fixed m, from coefficients in term order. */
function coefficientsInV(terms: readonly ModelTerm[], k: Float64Array, m: number): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  terms.forEach((term, j) => {
    c[term.vPower]! += k[j]! * m ** term.mPower;
  });
  return c;
}

/** max of c0 + c1 V + c2 V² over [0, vMax]. */
function maxOfQuadratic(c0: number, c1: number, c2: number, vMax: number): number {
  let best = Math.max(c0, c0 + c1 * vMax + c2 * vMax * vMax);
  if (c2 < 0) {
    const vertex = -c1 / (2 * c2);
    if (vertex > 0 && vertex < vMax) best = Math.max(best, c0 + c1 * vertex + c2 * vertex * vertex);
  }
  return best;
}

function maximumOverV(terms: readonly ModelTerm[], k: Float64Array, m: number, vGbMax: number, capMbPerS: number): MaximumOverV {
  const [alpha, beta, gamma] = coefficientsInV(terms, k, m);
  const candidates = [0, vGbMax];
  if (gamma < 0) {
    const vertex = -beta / (2 * gamma);
    if (vertex > 0 && vertex < vGbMax) candidates.push(vertex);
  }
  let best = 0;
  let bestV = 0;
  for (const v of candidates) {
    const bw = Math.min(alpha + beta * v + gamma * v * v, capMbPerS);
    if (bw > best) {
      best = bw;
      bestV = v;
    }
  }
  return { bwMbPerS: best, vGb: bestV };
}

/**
 * ∂/∂V of the rate (β + 2γV ≤ 0 at both ends of [0, vMax]) and m → m + 1 (the difference of
 * two quadratics in V is ≤ 0 on the interval), to a relative tolerance of 1e-12.
 */
function perProcessRateNonIncreasing(terms: readonly ModelTerm[], k: Float64Array, mMax: number, vGbMax: number): boolean {
  for (let m = 1; m <= mMax; m++) {
    const [alpha, beta, gamma] = coefficientsInV(terms, k, m);
    const scale = Math.abs(alpha) + Math.abs(beta) + Math.abs(gamma);
    if (beta > 1e-12 * scale || beta + 2 * gamma * vGbMax > 1e-12 * scale) return false;
    if (m < mMax) {
      const [a1, b1, g1] = coefficientsInV(terms, k, m + 1);
      if (maxOfQuadratic(a1 / (m + 1) - alpha / m, b1 / (m + 1) - beta / m, g1 / (m + 1) - gamma / m, vGbMax) > 1e-12 * scale) return false;
    }
  }
  return true;
}

/** A polynomial form from its terms and its (hand-written, allocation-free) evaluation. */
export function polynomialForm(spec: Pick<BandwidthForm, "name" | "title" | "source" | "evaluate"> & { terms: readonly ModelTerm[] }): BandwidthForm {
  const { terms } = spec;
  const parameters: FormParameter[] = terms.map((term) => ({
    name: term.name,
    symbol: termLabel(term),
    unit: ["MB/s", "MB/s/GB", "MB/s/GB²"][term.vPower]!,
    meaning: `coefficient of ${termLabel(term)}`,
  }));
  return {
    ...spec,
    origin: "papers",
    formula: `bw(m, V) = ${terms.map(termExpression).join(" + ")}`,
    parameters,
    terms,
    maximumOverV: (k, m, vGbMax, capMbPerS) => maximumOverV(terms, k, m, vGbMax, capMbPerS),
    perProcessRateNonIncreasing: (k, mMax, vGbMax) => perProcessRateNonIncreasing(terms, k, mMax, vGbMax),
  };
}
