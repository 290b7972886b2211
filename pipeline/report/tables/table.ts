/**
 * A table is data: typed columns (label, unit, how many decimals to print) and rows of
 * plain values. The same table becomes CSV (full precision, for programs), a LaTeX
 * `tabular` (rounded as declared, for papers) and HTML (rounded, in the report page).
 */

export type CellValue = string | number | null;

export interface TableColumn {
  key: string;
  label: string;
  /** Unit shown in the header, e.g. "MB/s"; omitted for counts and text. */
  unit?: string;
  /** Decimals printed in LaTeX and HTML for numbers (CSV keeps full precision). */
  decimals?: number;
}

export interface Table {
  /** kebab-case, unique in a report: `tables/<id>.csv`, `tables/<id>.tex`. */
  id: string;
  title: string;
  caption: string;
  columns: TableColumn[];
  rows: Record<string, CellValue>[];
  /**
   * Shown on a page of its own, this file next to index.html (e.g. "reproduction.html"),
   * with wrapped cells, and linked from its section: for a table too long and too wide to
   * read inside the report. Its CSV and LaTeX are written as every table's.
   */
  page?: string;
}

/** The header text of a column: "label (unit)". */
export function columnHeader(column: TableColumn): string {
  return column.unit ? `${column.label} (${column.unit})` : column.label;
}

/**
 * A number without declared decimals, as a reader wants it: integers whole, others to 4
 * significant digits without trailing zeros (0.9524, 31.65, 0.064, 12346), tiny ones in
 * exponent form (3.880e-5).
 */
export function readableNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude < 1e-3) return value.toPrecision(4);
  const text = value.toFixed(Math.max(0, 4 - Math.ceil(Math.log10(magnitude + Number.EPSILON))));
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** A cell as people read it: numbers rounded to the column's decimals (else `readableNumber`), "—" when missing. */
export function formatCell(value: CellValue | undefined, column: TableColumn): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return Number.isNaN(value) ? "—" : value > 0 ? "∞" : "−∞";
    const text = column.decimals !== undefined ? value.toFixed(column.decimals) : readableNumber(value);
    return text.startsWith("-") ? `−${text.slice(1)}` : text;
  }
  return value;
}
