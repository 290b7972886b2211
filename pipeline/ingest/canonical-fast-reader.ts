/**
 * The byte-level reader of canonical trace CSV: a machine-written file read at millions of
 * rows per second, where csv-parse manages about 0.15 M rows/s (RECIPES, "CSV at scale";
 * `npm run bench -- ingest` measures both).
 *
 * A record is one physical line (LF or CR LF; a quoted field never spans lines, so one
 * stray quote costs one line). The reader fills one buffer with 1 MiB chunks and reads
 * each line in one pass over its bytes, field by field as the header lays them out,
 * keeping everything in locals: a text field costs about one comparison per byte, a
 * numeric field is parsed while it is scanned (digits and a point; any other shape goes
 * to `parseDecimalBytes`), the node's hash is computed on the way (for `ByteInterner`),
 * and the run_id and extra values are compared with the previous row's bytes, so that a
 * string is made, or a value interned, only when one changes.
 *
 * This scan only *accepts*: a line it does not read to the end as a valid row — the
 * header, a comment, a wrong number of fields, a double quote, an empty run_id or node, a
 * value that fails the row checks — goes to the reference reading of `canonical-line.ts` (text
 * fields, `splitCsvLine` for quotes), which accepts or rejects it with its reason; the
 * tests hold the two paths to identical results (and to csv-parse). The scan works in a
 * synchronous function per chunk; only refilling the buffer is asynchronous.
 */
import { memorySource, type ByteSource } from "./byte-source";
import { FNV_OFFSET, FNV_PRIME } from "./byte-interner";
import { ingestCanonicalLine, MAX_LINE_BYTES, noteComment, refuseLongHeader, rescanCanonicalRows, splitLineFields, type CanonicalFileState, type LineSplitter } from "./canonical-line";
import type { CanonicalLayout } from "./canonical-header";
import { POWERS_OF_TEN, parseDecimalBytes } from "./decimal";
import { processValuesProblemIn } from "./process-values";
import { rejectMessage } from "./reject-reasons";
import { ROW_BW_MB_PER_S, ROW_BYTE_END, ROW_BYTE_START, ROW_LINE, ROW_M, ROW_SIZE_MB, createRowLedger, type RowLedger } from "./row-ledger";

const COMMA = 44;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const QUOTE = 34;
const HASH = 35;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const CHUNK_BYTES = 1 << 20;
/** Extra-column values up to this many bytes are compared with the previous row's. */
const CACHED_EXTRA_BYTES = 64;
/** Field kinds: 1..5 are the numbers (m, size_mb, ckpt_mb, start_s, end_s: their slot in `values`). */
const RUN_ID = 6;
const NODE = 7;
/** Extra column j has kind EXTRA + j. */
const EXTRA = 8;

/** The reader's state between chunks. */
interface Scanner {
  readonly source: ByteSource;
  readonly sourceIndex: number;
  readonly ledger: RowLedger;
  readonly file: CanonicalFileState;
  readonly onProgress: ((rowsRead: number) => void) | undefined;
  /** Whether lines of the usual shape are scanned as bytes (else every line goes to `split`). */
  readonly byteScan: boolean;
  readonly split: LineSplitter;
  line: number;
  /** The byte scan's state, once the header is known. */
  rows: RowScan | null;
}

/** What the byte scan keeps between rows. */
interface RowScan {
  /** Per field: its kind (RUN_ID, NODE, EXTRA + j, or 1..5 for the numbers). */
  readonly kinds: Int32Array;
  /** The numbers of the current row, at 1..5. */
  readonly values: Float64Array;
  /** Where each extra column's value is in the line being scanned. */
  readonly extraStarts: Int32Array;
  readonly extraEnds: Int32Array;
  /** The extra columns' bytes of the last row whose attributes were noted, and its run. */
  readonly extrasBytes: Buffer[];
  readonly extrasLength: Int32Array;
  extrasRun: number;
  /** The last run_id's bytes and key. */
  readonly lastRunIdBytes: Buffer;
  lastRunIdLength: number;
  lastRunKey: number;
}

/**
 * The scan's state for `layout`: one object literal, made whole at once, so that every
 * RowScan has the same shape and it never changes under the compiled scan (a changed
 * shape sends V8 back to the interpreter).
 */
function newRowScan(layout: CanonicalLayout): RowScan {
  const kinds = new Int32Array(layout.fieldCount);
  [layout.m, layout.sizeMb, layout.ckptMb, layout.startS, layout.endS].forEach((field, i) => (kinds[field] = i + 1));
  kinds[layout.runId] = RUN_ID;
  kinds[layout.node] = NODE;
  layout.extraIndices.forEach((field, j) => (kinds[field] = EXTRA + j));
  const extras = layout.extraIndices.length;
  return {
    kinds,
    values: new Float64Array(6),
    extraStarts: new Int32Array(extras),
    extraEnds: new Int32Array(extras),
    extrasBytes: Array.from({ length: extras }, () => Buffer.alloc(CACHED_EXTRA_BYTES)),
    extrasLength: new Int32Array(extras).fill(-1),
    extrasRun: -1,
    lastRunIdBytes: Buffer.alloc(256),
    lastRunIdLength: -1,
    lastRunKey: -1,
  };
}

/**
 * Lines of `layout` that take every branch of the byte scan: runs that change, numbers of
 * 10+ and 16+ digits, exponents, signs, CR LF, spaces and lone CRs in text, quotes, empty
 * and missing fields, values that fail the checks.
 */
function primingLines(layout: CanonicalLayout): string[] {
  const variants: Record<(typeof COLUMN_KEYS)[number][0], string[]> = {
    run_id: ["p1", "p1", "p2", "p 3", "", "p4"],
    node: ["n1", "n2", "n1", "n\r1", "n2", ""],
    m: ["1", "2", "2", "1e0", "-1", "x"],
    size_mb: ["76", "114.5", "0.010", "1234567890123456", "+3", "7"],
    ckpt_mb: ["76.174", "15", "1e3", "12345678901.125", '"9"', "-0"],
    start_s: ["0", "0.010", "1302012345.120", "-5", "5.", ".5"],
    end_s: ["10", "13.5", "1302012399.5", "7", "99999999999999999999", "6"],
  };
  const lines: string[] = [];
  for (let k = 0; k < 6; k++) {
    const fields = Array.from({ length: layout.fieldCount }, (_, f) => {
      const column = COLUMN_KEYS.find(([, key]) => layout[key] === f);
      return column === undefined ? ["azur", "a b", "c\rd", "x", "", "y"][k]! : variants[column[0]][k]!;
    });
    const line = fields.join(",");
    lines.push(line, `${line}\r`, `${line},extra`);
  }
  return lines;
}
const COLUMN_KEYS = [
  ["run_id", "runId"],
  ["node", "node"],
  ["m", "m"],
  ["size_mb", "sizeMb"],
  ["ckpt_mb", "ckptMb"],
  ["start_s", "startS"],
  ["end_s", "endS"],
] as const;

let primed = false;

/**
 * Run the byte scan (and the ledger under it) over `primingLines` once per thread, into a
 * ledger that is then dropped. V8 compiles the scan after a few thousand rows from the
 * branches it has seen by then; a branch first met later (a number of 10+ digits
 * overflowing a 32-bit guess, a CR LF, a quote) sends it back to the interpreter until it
 * is compiled again, which made a cold million-row ingest ~1.5× slower than a warm one.
 */
function primeRowScan(layout: CanonicalLayout): void {
  if (primed) return;
  primed = true;
  const ledger = createRowLedger();
  const text = Buffer.from(`${primingLines(layout).join("\n")}\n\n`);
  const source = memorySource("(priming)", text);
  const sourceIndex = ledger.addSource({
    name: source.name,
    readRaw: () => "",
    rescan: (from, to, fromLine, visit) => rescanCanonicalRows(source, layout, from, to, fromLine, visit),
  });
  ledger.openScope(source.name, layout.extraNames);
  const scan = newRowScan(layout);
  for (let round = 0; round < 3; round++) {
    for (let start = 0, line = 1; start < text.length - 1; line++) {
      scanRow(scan, ledger, sourceIndex, line, text, start, text.length - 1, 0);
      start = text.indexOf(NEWLINE, start) + 1;
    }
  }
  ledger.abort();
}

export interface LineReaderOptions {
  /** Called about once per 1 MiB chunk with the number of rows read so far. */
  onProgress?: (rowsRead: number) => void;
  /** Stop at this byte (a line start; default: the end of the source). */
  toByte?: number;
  /** The line number of the line at `fromByte` (default 1). */
  firstLine?: number;
  /** false: no byte-level scan, every line is split by `split` (the csv-parse reference path). */
  byteScan?: boolean;
  split?: LineSplitter;
}

/**
 * Read `source` from byte `fromByte` (past a byte-order mark, or a line start) to its end
 * (or `options.toByte`) into the ledger. Returns the number of the line after the last one read.
 */
export async function readCanonicalLines(
  source: ByteSource,
  sourceIndex: number,
  ledger: RowLedger,
  file: CanonicalFileState,
  fromByte: number,
  options: LineReaderOptions = {},
): Promise<number> {
  const toByte = options.toByte ?? Infinity;
  const scanner: Scanner = {
    source,
    sourceIndex,
    ledger,
    file,
    onProgress: options.onProgress,
    byteScan: options.byteScan ?? true,
    split: options.split ?? splitLineFields,
    line: options.firstLine ?? 1,
    rows: file.layout === null ? null : newRowScan(file.layout),
  };
  if (file.layout !== null && scanner.byteScan) primeRowScan(file.layout);

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
      if (skipped === null) return scanner.line;
      bufferPosition = skipped;
      filled = 0;
      continue;
    }
    if (buffer.length - filled < CHUNK_BYTES) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const want = Math.min(buffer.length - filled - 1, toByte - (bufferPosition + filled));
    const bytesRead = want <= 0 ? 0 : await source.read(buffer, filled, want, bufferPosition + filled);
    filled += bytesRead;
    buffer[filled] = NEWLINE; // a sentinel: the scan loops stop at it without checking the end
    const endOfFile = bytesRead === 0;
    start = scanLines(scanner, buffer, start, filled, endOfFile, bufferPosition);
    reportProgress(scanner);
    if (endOfFile) return scanner.line;
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

/**
 * Consume the complete lines of `buffer[from, to)` (and the last one too at the end of the
 * file). Returns the index of the first byte not consumed.
 */
function scanLines(scanner: Scanner, buffer: Buffer, from: number, to: number, endOfFile: boolean, bufferPosition: number): number {
  let lineStart = from;
  while (lineStart < to) {
    if (scanner.rows !== null && scanner.byteScan) {
      const end = scanRow(scanner.rows, scanner.ledger, scanner.sourceIndex, scanner.line, buffer, lineStart, to, bufferPosition);
      if (end >= 0) {
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
    if (wasHeader && scanner.file.layout !== null) {
      if (scanner.byteScan) primeRowScan(scanner.file.layout);
      scanner.rows = newRowScan(scanner.file.layout);
    }
    scanner.line++;
    lineStart = lineEnd;
  }
  return lineStart;
}

/**
 * Read the line at `lineStart` as a valid row of the usual shape — the header's number of
 * fields, no double quote, a non-empty run_id and node, numbers that pass the row checks,
 * its end (LF or CR LF) within the buffer — and add it to the ledger. Returns the index
 * just past the line, or -1 (and has done nothing) when the line is not of that shape:
 * then the general path reads it. The byte at `to` is a LF sentinel, so the loops over a
 * field's bytes need no end check.
 */
function scanRow(scan: RowScan, ledger: RowLedger, sourceIndex: number, line: number, buffer: Buffer, lineStart: number, to: number, bufferPosition: number): number {
  const { kinds, values, extraStarts, extraEnds, extrasBytes, extrasLength } = scan;
  const last = kinds.length - 1;
  if (buffer[lineStart] === HASH) return -1; // a comment line
  let p = lineStart;
  let c = 0;
  let runIdStart = 0;
  let runIdEnd = 0;
  let nodeStart = 0;
  let nodeEnd = 0;
  let nodeHash = 0;
  let extrasSame = true;
  for (let f = 0; ; f++) {
    const kind = kinds[f]!;
    const fieldStart = p;
    if (kind < RUN_ID) {
      // -?digits[.digits]: the shape of machine-written numbers, parsed as parseDecimalBytes does.
      let negative = false;
      if (buffer[p] === MINUS) {
        negative = true;
        p++;
      }
      let mantissa = 0;
      let digits = 0;
      let fractionDigits = 0;
      let digit = (c = buffer[p]!) - ZERO;
      while (digit >= 0 && digit <= 9) {
        mantissa = mantissa * 10 + digit;
        digits++;
        digit = (c = buffer[++p]!) - ZERO;
      }
      if (c === DOT) {
        digit = (c = buffer[++p]!) - ZERO;
        while (digit >= 0 && digit <= 9) {
          mantissa = mantissa * 10 + digit;
          fractionDigits++;
          digit = (c = buffer[++p]!) - ZERO;
        }
        digits += fractionDigits;
      }
      if (digits === 0 || digits > 15 || (c !== COMMA && c !== NEWLINE && !(c === CARRIAGE_RETURN && p + 1 < to && buffer[p + 1] === NEWLINE))) {
        // Another shape (exponent, '+', too many digits, garbage): find the field's end, parse in general.
        for (;;) {
          while ((c = buffer[p]!) > COMMA) p++;
          if (c === COMMA || c === NEWLINE || c === QUOTE) break;
          if (c === CARRIAGE_RETURN && p + 1 < to && buffer[p + 1] === NEWLINE) break;
          p++;
        }
        values[kind] = parseDecimalBytes(buffer, fieldStart, p);
      } else {
        const magnitude = fractionDigits === 0 ? mantissa : mantissa / POWERS_OF_TEN[fractionDigits]!;
        values[kind] = negative ? -magnitude : magnitude;
      }
    } else if (kind === NODE) {
      // Text, hashed on the way for the interner.
      let hash = FNV_OFFSET;
      for (;;) {
        while ((c = buffer[p]!) > COMMA) {
          hash = Math.imul(hash ^ c, FNV_PRIME);
          p++;
        }
        if (c === COMMA || c === NEWLINE || c === QUOTE) break;
        if (c === CARRIAGE_RETURN && p + 1 < to && buffer[p + 1] === NEWLINE) break;
        hash = Math.imul(hash ^ c, FNV_PRIME); // a space, a tab, a lone CR…: part of the field
        p++;
      }
      nodeStart = fieldStart;
      nodeEnd = p;
      nodeHash = hash;
    } else {
      // Text: everything up to a comma, a line end or a quote (most bytes are above ',').
      for (;;) {
        while ((c = buffer[p]!) > COMMA) p++;
        if (c === COMMA || c === NEWLINE || c === QUOTE) break;
        if (c === CARRIAGE_RETURN && p + 1 < to && buffer[p + 1] === NEWLINE) break;
        p++;
      }
      if (kind === RUN_ID) {
        runIdStart = fieldStart;
        runIdEnd = p;
      } else {
        const j = kind - EXTRA;
        extraStarts[j] = fieldStart;
        extraEnds[j] = p;
        if (extrasSame) extrasSame = p - fieldStart === extrasLength[j] && sameBytes(buffer, fieldStart, extrasBytes[j]!, p - fieldStart);
      }
    }
    if (p >= to) return -1; // the sentinel: the line goes on past the buffer
    if (c === COMMA) {
      if (f === last) return -1; // extra fields
      p++;
      continue;
    }
    if (c === QUOTE || f !== last) return -1; // a quote, or missing fields
    break;
  }
  if (runIdEnd === runIdStart || nodeEnd === nodeStart || processValuesProblemIn(values) !== 0) return -1;
  const lineEnd = c === NEWLINE ? p + 1 : p + 2;

  // The run_id's key: the previous row's when its bytes are the same.
  const runIdLength = runIdEnd - runIdStart;
  let runKey = scan.lastRunKey;
  if (runKey < 0 || runIdLength !== scan.lastRunIdLength || !sameBytes(buffer, runIdStart, scan.lastRunIdBytes, runIdLength)) {
    runKey = ledger.runKeyOfBytes(buffer, runIdStart, runIdEnd);
    if (runIdLength <= scan.lastRunIdBytes.length) {
      copyBytes(buffer, runIdStart, scan.lastRunIdBytes, runIdLength);
      scan.lastRunIdLength = runIdLength;
      scan.lastRunKey = runKey;
    } else {
      scan.lastRunKey = -1;
    }
  }
  const nodeKey = ledger.nodeKeyOfHashedBytes(buffer, nodeStart, nodeEnd, nodeHash);
  const r = ledger.row;
  r[ROW_M] = values[1]!;
  r[ROW_SIZE_MB] = values[2]!;
  r[ROW_BW_MB_PER_S] = values[3]! / (values[5]! - values[4]!);
  r[ROW_LINE] = line;
  r[ROW_BYTE_START] = bufferPosition + lineStart;
  r[ROW_BYTE_END] = bufferPosition + lineEnd;
  const run = ledger.addRow(runKey, nodeKey, sourceIndex, null);
  // Extra columns: noting the same values again for the same run changes nothing.
  if (run >= 0 && extraStarts.length > 0 && !(run === scan.extrasRun && extrasSame)) {
    for (let j = 0; j < extraStarts.length; j++) {
      const start = extraStarts[j]!;
      const end = extraEnds[j]!;
      ledger.noteAttribute(run, j, ledger.attributeKeyOfBytes(j, buffer, start, end));
      const length = end - start;
      if (length <= CACHED_EXTRA_BYTES) copyBytes(buffer, start, extrasBytes[j]!, length);
      extrasLength[j] = length <= CACHED_EXTRA_BYTES ? length : -1;
    }
    scan.extrasRun = run;
  }
  return lineEnd;
}

function reportProgress(scanner: Scanner): void {
  scanner.onProgress?.(scanner.ledger.read);
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
