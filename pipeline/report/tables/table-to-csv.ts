/**
 * A table as CSV (RFC 4180): header "label (unit)", numbers at full precision, empty cell
 * for a missing value, fields quoted when they contain a comma, quote or line break.
 */
import { columnHeader, type CellValue, type Table } from "./table";

export function tableToCsv(table: Table): string {
  const lines = [table.columns.map((c) => quote(columnHeader(c)))];
  for (const row of table.rows) lines.push(table.columns.map((c) => quote(csvValue(row[c.key]))));
  return `${lines.map((cells) => cells.join(",")).join("\n")}\n`;
}

function csvValue(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  return value;
}

function quote(field: string): string {
  return /[",\n\r]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}
