/** Plain-text tables for the CLI's human-readable output. */

export type Cell = string | number | null | undefined;

/** Format a number for a table: fixed decimals, "—" for missing values. */
export function formatNumber(value: number | null | undefined, decimals = 3): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  return value.toFixed(decimals);
}

/**
 * A whole number with thousands separators, "1,234,567" — what `toLocaleString("en-US")`
 * prints, without the ~13 ms its first call costs to load the locale data.
 */
export function formatCount(value: number): string {
  const digits = String(Math.abs(Math.trunc(value)));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return value < 0 ? `-${grouped}` : grouped;
}

// A cell that reads as a number ("74.2", "1,234", "74.2 [73.1, 75.3]", "—") is aligned right.
const NUMERIC_TEXT = /^(—|[-+]?\d[\d.,]*( \[[-+]?[\d.]+, [-+]?[\d.]+\])?)$/;

export interface TableOptions {
  /** Decimals for non-integer numbers (integers, such as counts, print without). Default 3. */
  decimals?: number;
}

/**
 * A table with a header rule. Numbers print with `decimals` decimals, integers without;
 * columns whose every cell reads as a number are right-aligned.
 */
export function formatTable(header: string[], rows: Cell[][], options: TableOptions = {}): string {
  const decimals = options.decimals ?? 3;
  const text = rows.map((row) =>
    row.map((cell) =>
      typeof cell === "number" ? (Number.isInteger(cell) ? String(cell) : formatNumber(cell, decimals)) : (cell ?? "—"),
    ),
  );
  const numeric = header.map((_, c) => text.every((row) => NUMERIC_TEXT.test(row[c]!)));
  const widths = header.map((h, c) => Math.max(h.length, ...text.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (numeric[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...text.map(line)].join("\n");
}
