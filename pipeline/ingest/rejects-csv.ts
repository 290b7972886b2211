/**
 * The rejects file: every rejected row as CSV (RFC 4180 quoting), one line per row, so a
 * spreadsheet or csv-parse reads it back and `grep` still works on it.
 *
 *     file,line,code,reason,raw
 *     traces/a.csv,7,non-numeric,"end_s must be a finite decimal number, found ""x""","r4,n1,2,50,100,0,x"
 *
 * `raw` is the row as read (both event lines, separated by a line feed, for host logs).
 * A field that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) is
 * written with a leading `'` (pipeline/shared/csv-field.ts): strip it when reading `raw` back.
 */
import { csvField } from "../shared/csv-field";
import type { RejectedRow } from "./ingest-files";

export { csvField };

export const REJECTS_CSV_HEADER = "file,line,code,reason,raw";

export function rejectToCsvLine(reject: RejectedRow): string {
  return [reject.file, reject.line, reject.code ?? "", reject.reason, reject.raw].map(csvField).join(",");
}
