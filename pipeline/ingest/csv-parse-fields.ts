/**
 * csv-parse as the splitter of a trace line: the reference the project's own splitter
 * (`splitCsvLine`) is tested against, and the reader behind `canonicalParser: "csv-parse"`.
 * Each physical line is parsed alone (a field never spans lines), with the options that
 * make csv-parse lenient where a trace row may be wrong but readable: `relax_quotes` (a
 * quote inside an unquoted field is a character) and `relax_column_count` (a short or
 * long row is a rejected row, not a parse failure). About 6 µs a line.
 */
import { CsvError, parse } from "csv-parse/sync";
import type { LineSplitter } from "./canonical-line";

const OPTIONS = { relax_column_count: true, relax_quotes: true, record_delimiter: ["\r\n", "\n"] };

export const csvParseLineFields: LineSplitter = (bytes, start, contentEnd) => {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, contentEnd - start).toString("utf8");
  try {
    const records = parse(text, OPTIONS) as string[][];
    return records.length === 1 ? records[0]! : null;
  } catch (error) {
    if (error instanceof CsvError && error.code === "CSV_QUOTE_NOT_CLOSED") return null;
    throw error;
  }
};
