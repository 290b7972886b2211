/**
 * One physical line of a canonical trace CSV, as text: the reference reading of a line,
 * which every path shares — the fast path for the lines it does not scan itself, the
 * csv-parse path for lines csv-parse cannot read alone, and the ledger when it re-reads a
 * run's rows (`rescanCanonicalRows`).
 *
 * A line is blank (not a row), a comment (starts with `#`; not a row, counted and reported),
 * the header (the first other line), or a row: its fields are split at commas, with
 * `splitCsvLine` when it holds a double quote. A quoted field never spans lines: a line
 * whose quote does not close on it is rejected as `malformed-csv` and reading goes on
 * with the next line. A line longer than `MAX_LINE_BYTES` is rejected as `line-too-long`
 * without being held in memory.
 */
import { InputError, atLine } from "../shared/errors";
import type { ByteSource } from "./byte-source";
import { parseCanonicalHeader, type CanonicalLayout } from "./canonical-header";
import { classifyCanonicalFields, ingestCanonicalFields, type RowPosition } from "./canonical-row";
import { hasQuote, splitCsvLine } from "./csv-line";
import { rejectMessage } from "./reject-reasons";
import type { LedgerScope, RescannedRow, RowLedger } from "./row-ledger";
import { formatCount } from "../shared/format-table";

/** A line longer than this (1 MiB; trace rows are ~100 bytes) is rejected unread. */
export const MAX_LINE_BYTES = 1 << 20;
const HASH = 35;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

/** What the readers know about a file once its header is read. */
export interface CanonicalFileState {
  layout: CanonicalLayout | null;
  scope: LedgerScope | null;
  /** Comment lines met, and the first one's line number. */
  commentLines: number;
  firstCommentLine: number;
}

export function newCanonicalFileState(): CanonicalFileState {
  return { layout: null, scope: null, commentLines: 0, firstCommentLine: 0 };
}

export function noteComment(file: CanonicalFileState, line: number): void {
  if (file.commentLines++ === 0) file.firstCommentLine = line;
}

/** Splits a line (without its line ending) into fields; null when a quoted field does not close on it. */
export type LineSplitter = (bytes: Uint8Array, start: number, contentEnd: number) => string[] | null;

/** The project's splitter: commas, and `splitCsvLine` for a line with a double quote. */
export const splitLineFields: LineSplitter = (bytes, start, contentEnd) => {
  if (hasQuote(bytes, start, contentEnd)) return splitCsvLine(bytes, start, contentEnd);
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, contentEnd - start)
    .toString("utf8")
    .split(",");
};

/**
 * Read the line `bytes[start, contentEnd)` (its line ending excluded) at `at` into the
 * ledger: skip it, take it as the header, or ingest it as a row.
 */
export function ingestCanonicalLine(
  bytes: Uint8Array,
  start: number,
  contentEnd: number,
  at: RowPosition,
  file: CanonicalFileState,
  ledger: RowLedger,
  fileName: string,
  split: LineSplitter = splitLineFields,
): void {
  if (contentEnd === start) return; // a blank line is not a row
  if (bytes[start] === HASH) {
    noteComment(file, at.line);
    return;
  }
  if (contentEnd - start > MAX_LINE_BYTES) {
    if (file.layout === null) throw refuseLongHeader(fileName);
    ledger.reject(at.sourceIndex, at.line, at.byteStart, at.byteEnd, null, "line-too-long", rejectMessage.lineTooLong(MAX_LINE_BYTES, at.byteEnd - at.byteStart));
    return;
  }
  const fields = split(bytes, start, contentEnd);
  if (file.layout === null || file.scope === null) {
    if (fields === null) throw new InputError(atLine(fileName, at.line, `cannot read the header: ${rejectMessage.malformedCsv(QUOTE_NOT_CLOSED)}`));
    file.layout = parseCanonicalHeader(fields, fileName, at.line);
    file.scope = ledger.openScope(fileName, file.layout.extraNames);
    return;
  }
  if (fields === null) {
    ledger.reject(at.sourceIndex, at.line, at.byteStart, at.byteEnd, null, "malformed-csv", rejectMessage.malformedCsv(QUOTE_NOT_CLOSED));
    return;
  }
  ingestCanonicalFields(fields, file.layout, ledger, at);
}

const QUOTE_NOT_CLOSED = "a quoted field opened on this line does not close on it (a field cannot span lines)";

export function refuseLongHeader(file: string): InputError {
  return new InputError(atLine(file, 1, `the first line is longer than ${formatCount(MAX_LINE_BYTES)} bytes: this is not a trace CSV with a header line`));
}

/** A file that ends before its header line. */
export function missingHeaderError(file: string, empty: boolean): InputError {
  const what = empty ? `${file} is empty (0 bytes)` : `${file}:1: the file has no header line`;
  return new InputError(`${what}; a trace starts with a header line like run_id,node,m,size_mb,ckpt_mb,start_s,end_s, then one row per process checkpoint`);
}

/**
 * The lines of bytes `[fromByte, toByte)` of `source` (which start at line `fromLine`), read
 * synchronously in chunks: `visit(bytes, start, contentEnd, position, line)` with the line
 * ending excluded and `position` the file offset of `bytes[start]`. Lines longer than
 * `MAX_LINE_BYTES` are skipped.
 */
function forEachLineInRange(
  source: ByteSource,
  fromByte: number,
  toByte: number,
  fromLine: number,
  visit: (bytes: Uint8Array, start: number, contentEnd: number, lineEndPosition: number, position: number, line: number) => void,
): void {
  let position = fromByte;
  let line = fromLine;
  let carry: Uint8Array = new Uint8Array(0);
  let skipping = false;
  while (position < toByte) {
    const chunk = source.readRange(position, Math.min(toByte, position + (1 << 20)));
    if (chunk.length === 0) break;
    const bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    const bytesPosition = position - carry.length;
    position += chunk.length;
    let start = 0;
    for (let newline = bytes.indexOf(NEWLINE); newline >= 0; newline = bytes.indexOf(NEWLINE, start)) {
      if (!skipping) {
        const contentEnd = newline > start && bytes[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
        visit(bytes, start, contentEnd, bytesPosition + newline + 1, bytesPosition + start, line);
      }
      skipping = false;
      line++;
      start = newline + 1;
    }
    carry = bytes.subarray(start);
    if (carry.length > MAX_LINE_BYTES) {
      skipping = true;
      carry = new Uint8Array(0);
    }
  }
  if (carry.length > 0 && !skipping) visit(carry, 0, carry.length, position, position - carry.length, line);
}

/** The valid rows of `[fromByte, toByte)` of a canonical file (the ledger's `rescan`). */
export function rescanCanonicalRows(
  source: ByteSource,
  layout: CanonicalLayout,
  fromByte: number,
  toByte: number,
  fromLine: number,
  visit: (row: RescannedRow) => void,
): void {
  forEachLineInRange(source, fromByte, toByte, fromLine, (bytes, start, contentEnd, lineEndPosition, position, line) => {
    if (contentEnd === start || bytes[start] === HASH) return;
    const fields = splitLineFields(bytes, start, contentEnd);
    if (fields === null) return;
    const verdict = classifyCanonicalFields(fields, layout);
    if (verdict.valid) visit({ line, byteStart: position, byteEnd: lineEndPosition, runId: verdict.runId, node: verdict.node });
  });
}

