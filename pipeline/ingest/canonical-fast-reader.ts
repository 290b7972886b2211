/**
 * The byte-level fast path for canonical trace CSV: the common case of a machine-written
 * file (no quotes) read at several million rows per second, where csv-parse manages about
 * 0.3 M rows/s (RECIPES, "CSV at scale"; `npm run bench -- ingest` measures both).
 *
 * It reads 1 MiB chunks into one buffer and scans each line once, field by field as the
 * header lays them out: a text field costs one comparison per byte (everything above ','
 * in ASCII), a numeric field is parsed while it is scanned (digits, an optional point; any
 * other shape goes to `parseDecimalBytes`), field boundaries go into two Int32Arrays. A
 * line that does not fit this shape (wrong field count, a space or quote, the end of the
 * buffer, …) is scanned again by the general loop, which knows every case. It makes
 * strings only for what it keeps: a run_id only when it differs from the previous row's
 * (rows of a run are usually together), the node through a small cache keyed by its bytes
 * (nodes take few distinct values), extra columns only when their bytes differ from the
 * previous row's of the same run. The scan works on locals in a synchronous function per
 * chunk; only refilling the buffer is asynchronous.
 *
 * It implements `ingestCanonicalFields` (the reference semantics of a row) byte for byte;
 * as soon as it meets something it does not handle — a double quote, or a carriage return
 * that is not part of a CRLF line ending — it stops at the start of that line and returns
 * the position, and the caller hands the rest of the file to csv-parse. Since everything
 * before that line contains no quote, csv-parse would have split it the same way, so the
 * result is the one csv-parse alone gives (the tests compare the two on random input).
 */
import { InputError, atLine } from "../shared/errors";
import type { ByteSource } from "./byte-source";
import { createByteStringCache, type ByteStringCache } from "./byte-string-cache";
import { parseCanonicalHeader, type CanonicalLayout } from "./canonical-header";
import { POWERS_OF_TEN, parseDecimalBytes } from "./decimal";
import { explainProcessValuesProblem, processValuesProblem, type NumericColumn } from "./process-values";
import { rejectMessage } from "./reject-reasons";
import type { LedgerScope, RowLedger, RunHandle } from "./row-ledger";

const COMMA = 44;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const QUOTE = 34;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const CHUNK_BYTES = 1 << 20;
const PROGRESS_EVERY_ROWS = 1 << 16;
/** Extra-column values up to this many bytes are compared with the previous row's. */
const CACHED_EXTRA_BYTES = 64;

/** What the canonical readers know about a file once its header is read. */
export interface CanonicalFileState {
  layout: CanonicalLayout | null;
  scope: LedgerScope | null;
}

/** Where the fast path stopped, for csv-parse to take over; null when it read everything. */
export type FastPathStop = { byte: number; line: number } | null;

/** The scanner's state between chunks. */
interface Scanner {
  readonly source: ByteSource;
  readonly sourceIndex: number;
  readonly ledger: RowLedger;
  readonly file: CanonicalFileState;
  readonly strings: ByteStringCache;
  readonly onProgress: ((rowsRead: number) => void) | undefined;
  nextProgress: number;
  line: number;
  fieldStarts: Int32Array;
  fieldEnds: Int32Array;
  /** Per field: 0 for text, 1..5 for m, size_mb, ckpt_mb, start_s, end_s (index into `values`). */
  kinds: Int8Array;
  /** The numbers of the current row, at 1..5. */
  values: Float64Array;
  lastRunIdBytes: Buffer;
  lastRunIdLength: number;
  lastRun: RunHandle;
  /** The extra columns' bytes of the last row whose attributes were noted, and its run. */
  extrasBytes: Buffer[];
  extrasLength: Int32Array;
  extrasRun: RunHandle;
}

export async function readCanonicalFast(
  source: ByteSource,
  sourceIndex: number,
  ledger: RowLedger,
  file: CanonicalFileState,
  onProgress?: (rowsRead: number) => void,
): Promise<FastPathStop> {
  const scanner: Scanner = {
    source,
    sourceIndex,
    ledger,
    file,
    strings: createByteStringCache(),
    onProgress,
    nextProgress: ledger.read + PROGRESS_EVERY_ROWS,
    line: 1,
    fieldStarts: new Int32Array(1),
    fieldEnds: new Int32Array(1),
    kinds: new Int8Array(0),
    values: new Float64Array(6),
    lastRunIdBytes: Buffer.alloc(256),
    lastRunIdLength: -1,
    lastRun: -1,
    extrasBytes: [],
    extrasLength: new Int32Array(0),
    extrasRun: -1,
  };
  if (file.layout !== null) useLayout(scanner, file.layout);

  let buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
  let bufferPosition = 0; // file offset of buffer[0]
  let filled = 0;
  let start = 0; // first byte not yet consumed
  for (;;) {
    if (start > 0) {
      buffer.copy(buffer, 0, start, filled);
      bufferPosition += start;
      filled -= start;
      start = 0;
    }
    if (buffer.length - filled < CHUNK_BYTES) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const bytesRead = await source.read(buffer, filled, buffer.length - filled, bufferPosition + filled);
    filled += bytesRead;
    const endOfFile = bytesRead === 0;
    if (bufferPosition === 0 && start === 0 && filled >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) {
      start = 3;
    }
    const consumed = scanLines(scanner, buffer, start, filled, endOfFile, bufferPosition);
    if (consumed < 0) return { byte: bufferPosition + ~consumed, line: scanner.line };
    start = consumed;
    if (endOfFile) return null;
  }
}

function useLayout(scanner: Scanner, layout: CanonicalLayout): void {
  scanner.fieldStarts = new Int32Array(layout.fieldCount + 1);
  scanner.fieldEnds = new Int32Array(layout.fieldCount + 1);
  scanner.kinds = new Int8Array(layout.fieldCount);
  [layout.m, layout.sizeMb, layout.ckptMb, layout.startS, layout.endS].forEach((field, i) => (scanner.kinds[field] = i + 1));
  scanner.extrasBytes = layout.extraIndices.map(() => Buffer.alloc(CACHED_EXTRA_BYTES));
  scanner.extrasLength = new Int32Array(layout.extraIndices.length).fill(-1);
  scanner.extrasRun = -1;
}

/**
 * Consume the complete lines of `buffer[from, to)` (and the last one too at the end of the
 * file). Returns the index of the first byte not consumed, or `~index` of the start of a
 * line the fast path does not handle.
 */
function scanLines(scanner: Scanner, buffer: Buffer, from: number, to: number, endOfFile: boolean, bufferPosition: number): number {
  const { ledger, file } = scanner;
  let { fieldStarts, fieldEnds } = scanner;
  let layout = file.layout;
  let maxFields = layout === null ? 0 : layout.fieldCount;
  let line = scanner.line;
  let lineStart = from;

  while (lineStart < to) {
    if (layout !== null) {
      const end = scanLineByLayout(scanner, buffer, lineStart, to);
      if (end >= 0) {
        scanner.line = line;
        row(scanner, layout, buffer, maxFields, bufferPosition + lineStart, bufferPosition + end, true);
        line++;
        lineStart = end;
        continue;
      }
    }
    let p = lineStart;
    let field = 0;
    fieldStarts[0] = p;
    let contentEnd = -1;
    let lineEnd = -1;
    for (; p < to; p++) {
      const b = buffer[p]!;
      if (b > COMMA) continue;
      if (b === COMMA) {
        if (field < maxFields) {
          fieldEnds[field] = p;
          fieldStarts[field + 1] = p + 1;
        }
        field++;
      } else if (b === NEWLINE) {
        contentEnd = p;
        lineEnd = p + 1;
        break;
      } else if (b === QUOTE) {
        scanner.line = line;
        return ~lineStart;
      } else if (b === CARRIAGE_RETURN) {
        if (p + 1 < to) {
          if (buffer[p + 1] !== NEWLINE) {
            scanner.line = line;
            return ~lineStart;
          }
          contentEnd = p;
          lineEnd = p + 2;
          break;
        }
        if (endOfFile) {
          scanner.line = line;
          return ~lineStart;
        }
        break; // a CR at the end of the buffer: read on to see whether an LF follows
      }
    }
    if (lineEnd < 0) {
      if (!endOfFile) break;
      contentEnd = to;
      lineEnd = to;
    }
    if (field < maxFields) fieldEnds[field] = contentEnd;

    if (contentEnd === lineStart) {
      // a blank line is not a row
    } else if (layout === null) {
      layout = parseCanonicalHeader(buffer.toString("utf8", lineStart, contentEnd).split(","), scanner.source.name, line);
      file.layout = layout;
      file.scope = ledger.openScope(scanner.source.name, layout.extraNames);
      useLayout(scanner, layout);
      ({ fieldStarts, fieldEnds } = scanner);
      maxFields = layout.fieldCount;
    } else {
      scanner.line = line;
      row(scanner, layout, buffer, field + 1, bufferPosition + lineStart, bufferPosition + lineEnd, false);
    }
    line++;
    lineStart = lineEnd;
  }
  scanner.line = line;
  return lineStart;
}

/**
 * Scan one data line of the usual shape (the header's number of fields, LF or CRLF ending,
 * no byte ≤ ',' inside a field other than the separators) field by field, parsing the
 * numeric fields into `scanner.values`. Returns the index just past the line ending, or
 * -1 when the line (or its end) is not there or not of that shape: then the general loop
 * scans it.
 */
function scanLineByLayout(scanner: Scanner, buffer: Buffer, lineStart: number, to: number): number {
  const { kinds, fieldStarts, fieldEnds, values } = scanner;
  const last = kinds.length - 1;
  let p = lineStart;
  for (let f = 0; ; f++) {
    fieldStarts[f] = p;
    const kind = kinds[f]!;
    let b = -1;
    if (kind === 0) {
      while (p < to && (b = buffer[p]!) > COMMA) p++;
    } else {
      // -?digits[.digits]: the shape of machine-written numbers, parsed as parseDecimalBytes does.
      let negative = false;
      if (p < to && buffer[p] === MINUS) {
        negative = true;
        p++;
      }
      let mantissa = 0;
      let digits = 0;
      let fractionDigits = 0;
      while (p < to) {
        b = buffer[p]!;
        const digit = b - ZERO;
        if (digit < 0 || digit > 9) break;
        mantissa = mantissa * 10 + digit;
        digits++;
        p++;
      }
      if (b === DOT && p < to) {
        p++;
        b = -1;
        while (p < to) {
          b = buffer[p]!;
          const digit = b - ZERO;
          if (digit < 0 || digit > 9) break;
          mantissa = mantissa * 10 + digit;
          digits++;
          fractionDigits++;
          p++;
        }
      }
      if (p >= to) return -1;
      if (digits === 0 || digits > 15 || (b !== COMMA && b !== NEWLINE && b !== CARRIAGE_RETURN)) {
        // Another shape (exponent, '+', too many digits, garbage): find the end, parse in general.
        while (p < to && (b = buffer[p]!) > COMMA) p++;
        if (p >= to) return -1;
        values[kind] = parseDecimalBytes(buffer, fieldStarts[f]!, p);
      } else {
        const magnitude = fractionDigits === 0 ? mantissa : mantissa / POWERS_OF_TEN[fractionDigits]!;
        values[kind] = negative ? -magnitude : magnitude;
      }
    }
    if (p >= to) return -1;
    fieldEnds[f] = p;
    if (b === COMMA) {
      if (f === last) return -1; // extra fields
      p++;
      continue;
    }
    if (f !== last) return -1; // missing fields, or a byte ≤ ',' inside a field
    if (b === NEWLINE) return p + 1;
    if (b === CARRIAGE_RETURN && p + 1 < to && buffer[p + 1] === NEWLINE) return p + 2;
    return -1;
  }
}

/**
 * One data row whose fields are in `scanner.fieldStarts/fieldEnds` (and numbers in
 * `scanner.values` when `parsed`): `ingestCanonicalFields` on bytes.
 */
function row(scanner: Scanner, L: CanonicalLayout, buffer: Buffer, fieldCount: number, byteStart: number, byteEnd: number, parsed: boolean): void {
  const { ledger, sourceIndex, fieldStarts, fieldEnds, line, values } = scanner;
  if (fieldCount !== L.fieldCount) {
    let runId: string | undefined;
    if (L.runId < fieldCount && fieldEnds[L.runId]! > fieldStarts[L.runId]!) runId = text(buffer, fieldStarts[L.runId]!, fieldEnds[L.runId]!);
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "field-count", rejectMessage.fieldCount(L.fieldCount, fieldCount), runId);
    return;
  }
  const runIdStart = fieldStarts[L.runId]!;
  const runIdEnd = fieldEnds[L.runId]!;
  const nodeStart = fieldStarts[L.node]!;
  const nodeEnd = fieldEnds[L.node]!;
  if (runIdEnd === runIdStart) {
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "empty-field", rejectMessage.emptyField("run_id"));
    return;
  }
  if (nodeEnd === nodeStart) {
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "empty-field", rejectMessage.emptyField("node"), text(buffer, runIdStart, runIdEnd));
    return;
  }
  if (!parsed) {
    values[1] = parseDecimalBytes(buffer, fieldStarts[L.m]!, fieldEnds[L.m]!);
    values[2] = parseDecimalBytes(buffer, fieldStarts[L.sizeMb]!, fieldEnds[L.sizeMb]!);
    values[3] = parseDecimalBytes(buffer, fieldStarts[L.ckptMb]!, fieldEnds[L.ckptMb]!);
    values[4] = parseDecimalBytes(buffer, fieldStarts[L.startS]!, fieldEnds[L.startS]!);
    values[5] = parseDecimalBytes(buffer, fieldStarts[L.endS]!, fieldEnds[L.endS]!);
  }
  const m = values[1]!;
  const sizeMb = values[2]!;
  const ckptMb = values[3]!;
  const startS = values[4]!;
  const endS = values[5]!;
  const problem = processValuesProblem(m, sizeMb, ckptMb, startS, endS);
  if (problem !== 0) {
    const columnIndex: Record<NumericColumn, number> = { m: L.m, size_mb: L.sizeMb, ckpt_mb: L.ckptMb, start_s: L.startS, end_s: L.endS };
    const { code, reason } = explainProcessValuesProblem(problem, { m, sizeMb, ckptMb, startS, endS }, (c) =>
      text(buffer, fieldStarts[columnIndex[c]]!, fieldEnds[columnIndex[c]]!),
    );
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, code, reason, text(buffer, runIdStart, runIdEnd));
    return;
  }
  // The run: the previous row's when the run_id bytes are the same.
  const runIdLength = runIdEnd - runIdStart;
  let run = scanner.lastRun;
  if (run < 0 || runIdLength !== scanner.lastRunIdLength || !sameBytes(buffer, runIdStart, scanner.lastRunIdBytes, runIdLength)) {
    run = ledger.runFor(text(buffer, runIdStart, runIdEnd), m, sourceIndex, line);
    if (runIdLength <= scanner.lastRunIdBytes.length) {
      copyBytes(buffer, runIdStart, scanner.lastRunIdBytes, runIdLength);
      scanner.lastRunIdLength = runIdLength;
      scanner.lastRun = run;
    } else {
      scanner.lastRun = -1;
    }
  }
  const node = scanner.strings.get(buffer, nodeStart, nodeEnd);
  if (!ledger.addProcess(run, node, m, sizeMb, ckptMb / (endS - startS), null, sourceIndex, line, byteStart, byteEnd, null)) return;
  // Extra columns: noting the same values again for the same run changes nothing.
  const extraIndices = L.extraIndices;
  if (extraIndices.length > 0 && !(run === scanner.extrasRun && sameExtras(scanner, L, buffer))) {
    for (let j = 0; j < extraIndices.length; j++) {
      const start = fieldStarts[extraIndices[j]!]!;
      const end = fieldEnds[extraIndices[j]!]!;
      ledger.noteAttribute(run, j, scanner.strings.get(buffer, start, end));
      const length = end - start;
      if (length <= CACHED_EXTRA_BYTES) copyBytes(buffer, start, scanner.extrasBytes[j]!, length);
      scanner.extrasLength[j] = length <= CACHED_EXTRA_BYTES ? length : -1;
    }
    scanner.extrasRun = run;
  }
  if (scanner.onProgress !== undefined && ledger.read >= scanner.nextProgress) {
    scanner.onProgress(ledger.read);
    scanner.nextProgress = ledger.read + PROGRESS_EVERY_ROWS;
  }
}

function text(buffer: Buffer, start: number, end: number): string {
  return buffer.toString("utf8", start, end);
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

/** A file that ends before its header line. */
export function missingHeaderError(file: string): InputError {
  return new InputError(
    atLine(file, 1, "the file has no header line; expected a first line like run_id,node,m,size_mb,ckpt_mb,start_s,end_s"),
  );
}
