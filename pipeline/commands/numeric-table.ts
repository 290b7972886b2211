/**
 * A text table for the schedule commands: integers print without decimals (CTNYS in
 * seconds, counts), strings as given, and a column whose cells all look numeric ("74.2",
 * "74.2 [73.1, 75.3]", "—") is right-aligned. The shared `formatTable` prints every number
 * with three decimals, which reads badly for counts and whole seconds.
 */
import { formatTable, type Cell } from "../shared/format-table";

const NUMERIC = /^(—|[-+]?\d[\d.,]*( \[[-+]?[\d.]+, [-+]?[\d.]+\])?)$/;

export function numericTable(header: string[], rows: Cell[][]): string {
  const text = rows.map((row) =>
    row.map((cell) => (typeof cell === "number" ? (Number.isInteger(cell) ? String(cell) : cell.toFixed(2)) : (cell ?? "—"))),
  );
  const right = header.map((_, c) => text.every((row) => NUMERIC.test(row[c]!)));
  const widths = header.map((h, c) => Math.max(h.length, ...text.map((row) => row[c]!.length)));
  const aligned = text.map((row) => row.map((cell, c) => (right[c] ? cell.padStart(widths[c]!) : cell)));
  return formatTable(header, aligned);
}
