/**
 * A table as CSV (RFC 4180): header "label (unit)", numbers at full precision, empty cell
 * for a missing value; text through `csvField` (quoted when needed, formula-like text
 * neutralised: table cells can hold names from traces).
 */
import { csvField } from "../../shared/csv-field";
import { columnHeader, type CellValue, type Table } from "./table";

export function tableToCsv(table: Table): string {
  const lines = [table.columns.map((c) => csvField(columnHeader(c)))];
  for (const row of table.rows) lines.push(table.columns.map((c) => csvValue(row[c.key])));
  return `${lines.map((cells) => cells.join(",")).join("\n")}\n`;
}

function csvValue(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  return csvField(value);
}
