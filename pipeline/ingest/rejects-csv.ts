/**
 * The rejects file: every rejected row as CSV (RFC 4180 quoting), one line per row, so a
 * spreadsheet or csv-parse reads it back and `grep` still works on it.
 *
 *     file,line,code,reason,raw
 *     traces/a.csv,7,non-numeric,"end_s must be a finite decimal number, found ""x""","r4,n1,2,50,100,0,x"
 *
 * `raw` is the row as read (both event lines, separated by a line feed, for host logs).
 */
import type { RejectedRow } from "./ingest-files";

export const REJECTS_CSV_HEADER = "file,line,code,reason,raw";

/** A CSV field: quoted when it holds a comma, quote, CR or LF (or spaces at its ends). */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function rejectToCsvLine(reject: RejectedRow): string {
  return [reject.file, reject.line, reject.code ?? "", reject.reason, reject.raw].map(csvField).join(",");
}
