/**
 * How far a point (m, V) lies outside a model's fitted box, in words: what `ckpt predict`
 * says when it refuses an extrapolation, and what `ckpt fit --check` says of the runs it
 * cannot judge.
 */
import { compact } from "./format-cells";
import type { ModelDomain } from "./model";

/** Null inside the box; otherwise each axis that leaves it, with by how much. */
export function domainDistance(domain: ModelDomain, m: number, vGb: number): string | null {
  const parts: string[] = [];
  const axis = (name: string, value: number, low: number, high: number, unit: string): void => {
    if (value > high) parts.push(`${name} = ${compact(value)}${unit} is ${compact(value - high)}${unit} above the largest fitted ${name} (${compact(high)}${unit}, ×${compact(value / high, 3)})`);
    else if (value < low) parts.push(`${name} = ${compact(value)}${unit} is ${compact(low - value)}${unit} below the smallest fitted ${name} (${compact(low)}${unit}${value > 0 ? `, ×${compact(value / low, 3)}` : ""})`);
  };
  axis("m", m, domain.mMin, domain.mMax, "");
  axis("V", vGb, domain.vGbMin, domain.vGbMax, " GB");
  if (parts.length === 0) return null;
  return `(m = ${m}, V = ${compact(vGb)} GB) is outside the fitted domain m ∈ [${domain.mMin}, ${domain.mMax}], V ∈ [${compact(domain.vGbMin)}, ${compact(domain.vGbMax)}] GB: ${parts.join("; ")}`;
}
