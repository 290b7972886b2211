/**
 * The byte-level reader of canonical trace CSV: a machine-written file read at several
 * million rows per second, where csv-parse manages about 0.15 M rows/s (RECIPES, "CSV at
 * scale"; `npm run bench -- ingest` measures both).
 *
 * A record is one physical line (LF or CR LF; a quoted field never spans lines, so one
 * stray quote costs one line). The reader fills one buffer with 1 MiB chunks and scans
 * each line once, field by field as the header lays them out: a text field costs about one
 * comparison per byte, a numeric field is parsed while it is scanned (digits and a point;
 * any other shape goes to `parseDecimalBytes`), the run_id is compared with the previous
 * row's bytes and interned only when it changes, the node and changed extra values are
 * interned from their bytes (`ByteInterner`), so no string is made per row. A line that
 * does not have this shape — the header, a wrong number of fields, a double quote — goes
 * through the reference semantics of `canonical-line.ts` (text fields, `splitCsvLine` for
 * quotes), which the tests hold equal to csv-parse's. The scan works on locals in a
 * synchronous function per chunk; only refilling the buffer is asynchronous.
 */
import type { ByteSource } from "./byte-source";
import { ingestCanonicalLine, MAX_LINE_BYTES, noteComment, refuseLongHeader, splitLineFields, type CanonicalFileState, type LineSplitter } from "./canonical-line";
import type { CanonicalLayout } from "./canonical-header";
import { POWERS_OF_TEN, parseDecimalBytes } from "./decimal";
import { explainProcessValuesProblem, processValuesProblemIn, type NumericColumn } from "./process-values";
import { rejectMessage } from "./reject-reasons";
import { ROW_BW_MB_PER_S, ROW_BYTE_END, ROW_BYTE_START, ROW_LINE, ROW_M, ROW_SIZE_MB, type RowLedger, type RunHandle } from "./row-ledger";

const COMMA = 44;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const QUOTE = 34;
const HASH = 35;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const CHUNK_BYTES = 1 << 20;
const PROGRESS_EVERY_ROWS = 1 << 16;
/** Extra-column values up to this many bytes are compared with the previous row's. */
const CACHED_EXTRA_BYTES = 64;
/** Field kinds. */
const TEXT = 0;

/** The scanner's state between chunks. */
interface Scanner {
  readonly source: ByteSource;
  readonly sourceIndex: number;
  readonly ledger: RowLedger;
  readonly file: CanonicalFileState;
  readonly onProgress: ((rowsRead: number) => void) | undefined;
  /** Whether lines of the usual shape are scanned as bytes (else every line goes to `split`). */
  readonly byteScan: boolean;
  readonly split: LineSplitter;
  nextProgress: number;
  line: number;
  layout: CanonicalLayout | null;
  fieldStarts: Int32Array;
  fieldEnds: Int32Array;
  /** Per field: TEXT, or 1..5 for m, size_mb, ckpt_mb, start_s, end_s (index into `values`). */
  kinds: Int8Array;
  /** The numbers of the current row, at 1..5. */
  values: Float64Array;
  lastRunIdBytes: Buffer;
  lastRunIdLength: number;
  lastRunKey: number;
  /** The extra columns' bytes of the last row whose attributes were noted, and its run. */
  extrasBytes: Buffer[];
  extrasLength: Int32Array;
  extrasRun: RunHandle;
}

export interface LineReaderOptions {
  onProgress?: (rowsRead: number) => void;
  /** false: no byte-level scan, every line is split by `split` (the csv-parse reference path). */
  byteScan?: boolean;
  split?: LineSplitter;
}

/** Read the whole of `source` (from byte `fromByte`, past a byte-order mark) into the ledger. */
export async function readCanonicalLines(
  source: ByteSource,
  sourceIndex: number,
  ledger: RowLedger,
  file: CanonicalFileState,
  fromByte: number,
  options: LineReaderOptions = {},
): Promise<void> {
  const scanner: Scanner = {
    source,
    sourceIndex,
    ledger,
    file,
    onProgress: options.onProgress,
    byteScan: options.byteScan ?? true,
    split: options.split ?? splitLineFields,
    nextProgress: ledger.read + PROGRESS_EVERY_ROWS,
    line: 1,
    layout: null,
    fieldStarts: new Int32Array(1),
    fieldEnds: new Int32Array(1),
    kinds: new Int8Array(0),
    values: new Float64Array(6),
    lastRunIdBytes: Buffer.alloc(256),
    lastRunIdLength: -1,
    lastRunKey: -1,
    extrasBytes: [],
    extrasLength: new Int32Array(0),
    extrasRun: -1,
  };

  let buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
  let bufferPosition = fromByte; // file offset of buffer[0]
  let filled = 0;
  let start = 0; // first byte not yet consumed
  for (;;) {
    if (start > 0) {
      buffer.copy(buffer, 0, start, filled);
      bufferPosition += start;
      filled -= start;
      start = 0;
    }
    if (filled > MAX_LINE_BYTES + 1) {
      // No line end in MAX_LINE_BYTES: reject the line and skip to its end.
      const skipped = await skipLongLine(scanner, buffer, bufferPosition, filled);
      if (skipped === null) return;
      bufferPosition = skipped;
      filled = 0;
      continue;
    }
    if (buffer.length - filled < CHUNK_BYTES) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const bytesRead = await source.read(buffer, filled, buffer.length - filled - 1, bufferPosition + filled);
    filled += bytesRead;
    buffer[filled] = NEWLINE; // a sentinel: the scan loops stop at it without checking the end
    const endOfFile = bytesRead === 0;
    start = scanLines(scanner, buffer, start, filled, endOfFile, bufferPosition);
    if (endOfFile) return;
  }
}

/**
 * A line longer than `MAX_LINE_BYTES` starts at `bufferPosition` (the buffer holds its
 * first `filled` bytes): reject it (skip it if it is a comment, refuse the file if it is
 * the header) and return the position after it, or null at the end of the file.
 */
async function skipLongLine(scanner: Scanner, buffer: Buffer, bufferPosition: number, filled: number): Promise<number | null> {
  const comment = buffer[0] === HASH;
  const lineStart = bufferPosition;
  let position = bufferPosition + filled;
  let lineEnd = -1;
  while (lineEnd < 0) {
    const n = await scanner.source.read(buffer, 0, CHUNK_BYTES, position);
    if (n === 0) break;
    const newline = buffer.subarray(0, n).indexOf(NEWLINE);
    if (newline >= 0) lineEnd = position + newline + 1;
    position += n;
  }
  const end = lineEnd < 0 ? position : lineEnd;
  if (comment) {
    noteComment(scanner.file, scanner.line);
  } else {
    if (scanner.file.layout === null) throw refuseLongHeader(scanner.source.name);
    scanner.ledger.reject(scanner.sourceIndex, scanner.line, lineStart, end, null, "line-too-long", rejectMessage.lineTooLong(MAX_LINE_BYTES, end - lineStart));
  }
  scanner.line++;
  return lineEnd < 0 ? null : lineEnd;
}

function useLayout(scanner: Scanner, layout: CanonicalLayout): void {
  scanner.layout = layout;
  scanner.fieldStarts = new Int32Array(layout.fieldCount + 1);
  scanner.fieldEnds = new Int32Array(layout.fieldCount + 1);
  scanner.kinds = new Int8Array(layout.fieldCount).fill(TEXT);
  [layout.m, layout.sizeMb, layout.ckptMb, layout.startS, layout.endS].forEach((field, i) => (scanner.kinds[field] = i + 1));
  scanner.extrasBytes = layout.extraIndices.map(() => Buffer.alloc(CACHED_EXTRA_BYTES));
  scanner.extrasLength = new Int32Array(layout.extraIndices.length).fill(-1);
  scanner.extrasRun = -1;
}

/**
 * Consume the complete lines of `buffer[from, to)` (and the last one too at the end of the
 * file). Returns the index of the first byte not consumed.
 */
function scanLines(scanner: Scanner, buffer: Buffer, from: number, to: number, endOfFile: boolean, bufferPosition: number): number {
  let lineStart = from;
  while (lineStart < to) {
    const layout = scanner.layout;
    if (layout !== null && scanner.byteScan) {
      const end = scanLineByLayout(scanner, buffer, lineStart, to);
      if (end >= 0) {
        row(scanner, layout, buffer, bufferPosition + lineStart, bufferPosition + end);
        scanner.line++;
        lineStart = end;
        continue;
      }
    }
    let newline = buffer.indexOf(NEWLINE, lineStart);
    if (newline >= to) newline = -1;
    let contentEnd: number;
    let lineEnd: number;
    if (newline < 0) {
      if (!endOfFile) break;
      contentEnd = to;
      lineEnd = to;
    } else {
      lineEnd = newline + 1;
      contentEnd = newline > lineStart && buffer[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
    }
    const wasHeader = scanner.file.layout === null;
    ingestCanonicalLine(buffer, lineStart, contentEnd, {
      sourceIndex: scanner.sourceIndex,
      line: scanner.line,
      byteStart: bufferPosition + lineStart,
      byteEnd: bufferPosition + lineEnd,
    }, scanner.file, scanner.ledger, scanner.source.name, scanner.split);
    if (wasHeader && scanner.file.layout !== null) useLayout(scanner, scanner.file.layout);
    reportProgress(scanner);
    scanner.line++;
    lineStart = lineEnd;
  }
  return lineStart;
}

/**
 * Scan one data line of the usual shape (the header's number of fields, no double quote,
 * ending in LF or CR LF within the buffer) field by field, parsing the numeric fields into
 * `scanner.values`. Returns the index just past the line ending, or -1 when the line (or
 * its end) is not there or not of that shape: then the general path reads it. The byte
 * at `to` is a LF sentinel, so the loops over a field's bytes need no end check.
 */
function scanLineByLayout(scanner: Scanner, buffer: Buffer, lineStart: number, to: number): number {
  const { kinds, fieldStarts, fieldEnds, values } = scanner;
  const last = kinds.length - 1;
  let p = lineStart;
  let b = 0;
  for (let f = 0; ; f++) {
    fieldStarts[f] = p;
    const kind = kinds[f]!;
    if (kind === TEXT) {
      // Everything up to a comma, a line end or a quote (most bytes are above ',').
      for (;;) {
        while ((b = buffer[p]!) > COMMA) p++;
        if (b === COMMA || b === NEWLINE || b === QUOTE) break;
        if (b === CARRIAGE_RETURN && p + 1 < to && buffer[p + 1] === NEWLINE) break;
        p++; // a space, a tab, a lone CR…: part of the field
      }
    } else {
      // -?digits[.digits]: the shape of machine-written numbers, parsed as parseDecimalBytes does.
      let negative = false;
      if (buffer[p] === MINUS) {
        negative = true;
        p++;
      }
      let mantissa = 0;
      let digits = 0;
      let fractionDigits = 0;
      let digit = (b = buffer[p]!) - ZERO;
      while (digit >= 0 && digit <= 9) {
        mantissa = mantissa * 10 + digit;
        digits++;
        digit = (b = buffer[++p]!) - ZERO;
      }
      if (b === DOT) {
        digit = (b = buffer[++p]!) - ZERO;
        while (digit >= 0 && digit <= 9) {
          mantissa = mantissa * 10 + digit;
          fractionDigits++;
          digit = (b = buffer[++p]!) - ZERO;
        }
        digits += fractionDigits;
      }
      if (digits === 0 || digits > 15 || (b !== COMMA && b !== NEWLINE && !(b === CARRIAGE_RETURN && p + 1 < to && buffer[p + 1] === NEWLINE))) {
        // Another shape (exponent, '+', too many digits, garbage): find the end, parse in general.
        for (;;) {
          while ((b = buffer[p]!) > COMMA) p++;
          if (b === COMMA || b === NEWLINE || b === QUOTE) break;
          if (b === CARRIAGE_RETURN && p + 1 < to && buffer[p + 1] === NEWLINE) break;
          p++;
        }
        values[kind] = parseDecimalBytes(buffer, fieldStarts[f]!, p);
      } else {
        const magnitude = fractionDigits === 0 ? mantissa : mantissa / POWERS_OF_TEN[fractionDigits]!;
        values[kind] = negative ? -magnitude : magnitude;
      }
    }
    if (p >= to) return -1; // the sentinel: the line goes on past the buffer
    fieldEnds[f] = p;
    if (b === COMMA) {
      if (f === last) return -1; // extra fields
      p++;
      continue;
    }
    if (b === QUOTE || f !== last) return -1; // a quote, or missing fields
    return b === NEWLINE ? p + 1 : p + 2; // LF or CR LF
  }
}

/** One data row whose fields are in `scanner.fieldStarts/fieldEnds` and numbers in `scanner.values`: `ingestCanonicalFields` on bytes. */
function row(scanner: Scanner, L: CanonicalLayout, buffer: Buffer, byteStart: number, byteEnd: number): void {
  const { ledger, sourceIndex, fieldStarts, fieldEnds, line, values } = scanner;
  const runIdStart = fieldStarts[L.runId]!;
  const runIdEnd = fieldEnds[L.runId]!;
  const nodeStart = fieldStarts[L.node]!;
  const nodeEnd = fieldEnds[L.node]!;
  if (runIdEnd === runIdStart) {
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "empty-field", rejectMessage.emptyField("run_id"));
    return;
  }
  // The run_id's key: the previous row's when its bytes are the same.
  const runIdLength = runIdEnd - runIdStart;
  let runKey = scanner.lastRunKey;
  if (runKey < 0 || runIdLength !== scanner.lastRunIdLength || !sameBytes(buffer, runIdStart, scanner.lastRunIdBytes, runIdLength)) {
    runKey = ledger.runKeyOfBytes(buffer, runIdStart, runIdEnd);
    if (runIdLength <= scanner.lastRunIdBytes.length) {
      copyBytes(buffer, runIdStart, scanner.lastRunIdBytes, runIdLength);
      scanner.lastRunIdLength = runIdLength;
      scanner.lastRunKey = runKey;
    } else {
      scanner.lastRunKey = -1;
    }
  }
  if (nodeEnd === nodeStart) {
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "empty-field", rejectMessage.emptyField("node"), runKey);
    return;
  }
  const problem = processValuesProblemIn(values);
  if (problem !== 0) {
    const columnIndex: Record<NumericColumn, number> = { m: L.m, size_mb: L.sizeMb, ckpt_mb: L.ckptMb, start_s: L.startS, end_s: L.endS };
    const [, m, sizeMb, ckptMb, startS, endS] = values as unknown as number[];
    const { code, reason } = explainProcessValuesProblem(problem, { m: m!, sizeMb: sizeMb!, ckptMb: ckptMb!, startS: startS!, endS: endS! }, (c) =>
      buffer.toString("utf8", fieldStarts[columnIndex[c]]!, fieldEnds[columnIndex[c]]!),
    );
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, code, reason, runKey);
    return;
  }
  const nodeKey = ledger.nodeKeyOfBytes(buffer, nodeStart, nodeEnd);
  const r = ledger.row;
  r[ROW_M] = values[1]!;
  r[ROW_SIZE_MB] = values[2]!;
  r[ROW_BW_MB_PER_S] = values[3]! / (values[5]! - values[4]!);
  r[ROW_LINE] = line;
  r[ROW_BYTE_START] = byteStart;
  r[ROW_BYTE_END] = byteEnd;
  const run = ledger.addRow(runKey, nodeKey, sourceIndex, null);
  if (run >= 0) {
    // Extra columns: noting the same values again for the same run changes nothing.
    const extraIndices = L.extraIndices;
    if (extraIndices.length > 0 && !(run === scanner.extrasRun && sameExtras(scanner, L, buffer))) {
      for (let j = 0; j < extraIndices.length; j++) {
        const start = fieldStarts[extraIndices[j]!]!;
        const end = fieldEnds[extraIndices[j]!]!;
        ledger.noteAttribute(run, j, ledger.attributeKeyOfBytes(j, buffer, start, end));
        const length = end - start;
        if (length <= CACHED_EXTRA_BYTES) copyBytes(buffer, start, scanner.extrasBytes[j]!, length);
        scanner.extrasLength[j] = length <= CACHED_EXTRA_BYTES ? length : -1;
      }
      scanner.extrasRun = run;
    }
  }
  reportProgress(scanner);
}

function reportProgress(scanner: Scanner): void {
  if (scanner.onProgress !== undefined && scanner.ledger.read >= scanner.nextProgress) {
    scanner.onProgress(scanner.ledger.read);
    scanner.nextProgress = scanner.ledger.read + PROGRESS_EVERY_ROWS;
  }
}

/** Whether this row's extra columns have the same bytes as those last noted. */
function sameExtras(scanner: Scanner, L: CanonicalLayout, buffer: Buffer): boolean {
  const { fieldStarts, fieldEnds, extrasLength, extrasBytes } = scanner;
  for (let j = 0; j < L.extraIndices.length; j++) {
    const column = L.extraIndices[j]!;
    const start = fieldStarts[column]!;
    const length = fieldEnds[column]! - start;
    if (length !== extrasLength[j] || !sameBytes(buffer, start, extrasBytes[j]!, length)) return false;
  }
  return true;
}

/** A few bytes into a cache buffer (cheaper than Buffer#copy's checks for short runs). */
function copyBytes(buffer: Buffer, start: number, cache: Buffer, length: number): void {
  for (let i = 0; i < length; i++) cache[i] = buffer[start + i]!;
}

function sameBytes(buffer: Buffer, start: number, cache: Buffer, length: number): boolean {
  for (let i = 0; i < length; i++) {
    if (buffer[start + i] !== cache[i]) return false;
  }
  return true;
}
