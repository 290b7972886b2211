/**
 * Read observed durations (for `empirical:<file>`) from CSV text: either one column of
 * numbers, with or without a header line, or several columns of which one is named
 * `duration` (the other columns, e.g. a host id, are ignored). Blank lines and lines
 * starting with `#` are skipped. Every other row must hold a number; a bad row is refused
 * with `file:line`, because silently dropping observations would bias the law.
 */
import { InputError, atLine } from "../../shared/errors";
import { readCsvRows } from "../../shared/read-csv-rows";

export function parseDurationsCsv(text: string, file: string): number[] {
  const rows = readCsvRows(text, file);
  if (rows.length === 0) throw new InputError(`${file}: no durations found; expected one number per line (seconds, or the law's unit=)`);
  const first = rows[0]!.cells;
  const hasHeader = first.some((cell) => cell === "" || !Number.isFinite(Number(cell)));
  let column = 0;
  if (hasHeader) {
    if (first.length > 1) {
      column = first.findIndex((name) => name.toLowerCase() === "duration");
      if (column < 0) {
        throw new InputError(atLine(file, rows[0]!.line, `several columns (${first.join(", ")}) and none is named "duration"; name the column of durations "duration"`));
      }
    }
  } else if (first.length > 1) {
    throw new InputError(atLine(file, rows[0]!.line, `${first.length} columns and no header; give one column of durations, or a header with a "duration" column`));
  }
  const durations: number[] = [];
  for (const { cells, line } of hasHeader ? rows.slice(1) : rows) {
    const cell = cells[column] ?? "";
    const value = cell === "" ? NaN : Number(cell);
    if (!Number.isFinite(value) || value <= 0) {
      throw new InputError(atLine(file, line, `duration "${cell}" is not a number > 0; every observed duration must be positive`));
    }
    durations.push(value);
  }
  if (durations.length === 0) throw new InputError(`${file}: a header but no durations`);
  return durations;
}
