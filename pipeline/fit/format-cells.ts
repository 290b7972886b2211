/**
 * Number formatting for the fit stage's human-readable tables: coefficients span many
 * orders of magnitude (a ≈ 10^-2, d ≈ 5, full-form terms ≈ 10^-6), so they are shown with
 * significant digits, and numeric columns are right-aligned under their header.
 */
import { formatTable } from "../shared/format-table";

/** `digits` significant digits; "—" for null/NaN. */
export function significant(value: number | null | undefined, digits = 6): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  return magnitude >= 1e-4 && magnitude < 10 ** digits ? value.toPrecision(digits) : value.toExponential(digits - 1);
}

/** At most `digits` significant digits, without trailing zeros (0.015, 3.42, 2408). */
export function compact(value: number, digits = 4): string {
  return String(Number(value.toPrecision(digits)));
}

/** `formatTable` with the listed columns right-aligned (cells already formatted as text). */
export function tableWithNumbers(header: string[], rows: string[][], numericColumns: readonly number[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const aligned = rows.map((row) => row.map((cell, c) => (numericColumns.includes(c) ? cell.padStart(widths[c]!) : cell)));
  const alignedHeader = header.map((h, c) => (numericColumns.includes(c) ? h.padStart(widths[c]!) : h));
  return formatTable(alignedHeader, aligned);
}
