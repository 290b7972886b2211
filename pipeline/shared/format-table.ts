/** Plain-text tables for the CLI's human-readable output (numbers right-aligned). */

export type Cell = string | number | null | undefined;

/** Format a number for a table: fixed decimals, "—" for missing values. */
export function formatNumber(value: number | null | undefined, decimals = 3): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  return value.toFixed(decimals);
}

export function formatTable(header: string[], rows: Cell[][]): string {
  const text = rows.map((row) => row.map((cell) => (typeof cell === "number" ? formatNumber(cell) : (cell ?? "—"))));
  const numeric = header.map((_, c) => rows.every((row) => typeof row[c] === "number" || row[c] == null));
  const widths = header.map((h, c) => Math.max(h.length, ...text.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (numeric[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...text.map(line)].join("\n");
}
