/**
 * The monomials of the papers' polynomial forms ([Y11] eq. 4, [Y-thesis] eq. 4.1–4.2;
 * docs/science.md §3.2): `bw(m, V) = Σ_{0≤i,j≤2} a_ij m^i V^j` (9 terms, the full form) and
 * the five the papers kept, `a·m²V² + b·m² + c·V² + d·m + e`.
 */

/** One term of a polynomial form: its coefficient name and the powers of m and V it multiplies. */
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

/** The superscript spelling of a term, e.g. `m²·V²`. */
export function termLabel(term: ModelTerm): string {
  const power = (symbol: string, k: number) => (k === 0 ? "" : k === 1 ? symbol : `${symbol}${"⁰¹²³⁴"[k]}`);
  const parts = [power("m", term.mPower), power("V", term.vPower)].filter((s) => s !== "");
  return parts.length === 0 ? "1" : parts.join("·");
}

/** "a·m²·V²", "e", "a12·m·V²"… */
export function termExpression(term: ModelTerm): string {
  const monomial = termLabel(term);
  return monomial === "1" ? term.name : `${term.name}·${monomial}`;
}
