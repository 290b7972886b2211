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
}

/** The header text of a column: "label (unit)". */
export function columnHeader(column: TableColumn): string {
  return column.unit ? `${column.label} (${column.unit})` : column.label;
}

/** A cell as people read it: numbers rounded to the column's decimals, "—" when missing. */
export function formatCell(value: CellValue | undefined, column: TableColumn): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return Number.isNaN(value) ? "—" : value > 0 ? "∞" : "−∞";
    const text = column.decimals !== undefined ? value.toFixed(column.decimals) : String(value);
    return text.startsWith("-") ? `−${text.slice(1)}` : text;
  }
  return value;
}
