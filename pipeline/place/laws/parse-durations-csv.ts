/**
 * Read observed durations (for `empirical:<file>`) from CSV text: either one column of
 * numbers, with or without a header line, or several columns of which one is named
 * `duration` (the other columns, e.g. a host id, are ignored). Blank lines and lines
 * starting with `#` are skipped. Every other row must hold a number; a bad row is refused
 * with `file:line`, because silently dropping observations would bias the law.
 */
import { parse } from "csv-parse/sync";
import { InputError, atLine } from "../../shared/errors";

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

export function parseDurationsCsv(text: string, file: string): number[] {
  let rows: CsvRecord[];
  try {
    rows = parse(text, { comment: "#", skip_empty_lines: true, trim: true, info: true, relax_column_count: false }) as unknown as CsvRecord[];
  } catch (error) {
    throw new InputError(`${file}: not readable as CSV (${(error as Error).message})`, { cause: error });
  }
  if (rows.length === 0) throw new InputError(`${file}: no durations found; expected one number per line (seconds, or the law's unit=)`);
  const first = rows[0]!.record;
  const hasHeader = first.some((cell) => cell === "" || !Number.isFinite(Number(cell)));
  let column = 0;
  if (hasHeader) {
    if (first.length > 1) {
      column = first.findIndex((name) => name.toLowerCase() === "duration");
      if (column < 0) {
        throw new InputError(atLine(file, rows[0]!.info.lines, `several columns (${first.join(", ")}) and none is named "duration"; name the column of durations "duration"`));
      }
    }
  } else if (first.length > 1) {
    throw new InputError(atLine(file, rows[0]!.info.lines, `${first.length} columns and no header; give one column of durations, or a header with a "duration" column`));
  }
  const durations: number[] = [];
  for (const { record, info } of hasHeader ? rows.slice(1) : rows) {
    const cell = record[column] ?? "";
    const value = cell === "" ? NaN : Number(cell);
    if (!Number.isFinite(value) || value <= 0) {
      throw new InputError(atLine(file, info.lines, `duration "${cell}" is not a number > 0; every observed duration must be positive`));
    }
    durations.push(value);
  }
  if (durations.length === 0) throw new InputError(`${file}: a header but no durations`);
  return durations;
}
