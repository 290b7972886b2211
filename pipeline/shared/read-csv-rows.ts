/**
 * The small hand-written CSV inputs (applications, slices, observed durations): parsed
 * whole with csv-parse, `#` comment lines and blank lines skipped, cells trimmed, every
 * row with the line it starts on so that a bad value can be reported as `file:line`.
 */
import { parse } from "csv-parse/sync";
import { InputError } from "./errors";

export interface CsvRow {
  cells: string[];
  /** 1-based line of the file the row starts on. */
  line: number;
}

/** The rows of `text`; a CSV syntax error is an InputError naming `file`, followed by `hint`. */
export function readCsvRows(text: string, file: string, hint = ""): CsvRow[] {
  try {
    // bom: a byte-order mark (files saved by spreadsheet programs) is not part of the first column's name.
    const records = parse(text, { bom: true, comment: "#", skip_empty_lines: true, trim: true, info: true }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
    return records.map(({ record, info }) => ({ cells: record, line: info.lines }));
  } catch (error) {
    throw new InputError(`${file}: not readable as CSV (${(error as Error).message})${hint ? `; ${hint}` : ""}`, { cause: error });
  }
}
