/**
 * The byte-level fast path for canonical trace CSV: the common case of a machine-written
 * file (no quotes) read at several million rows per second, where csv-parse manages about
 * 0.3 M rows/s (RECIPES, "CSV at scale"; `npm run bench -- ingest` measures both).
 *
 * It reads 1 MiB chunks into one buffer, finds commas and line ends with one comparison
 * per byte for the usual characters, parses numbers straight from the bytes
 * (`parseDecimalBytes`), and makes strings only for what it keeps: a run_id only when it
 * differs from the previous row's (rows of a run are usually together), the node (needed
 * for the duplicate check), and extra columns only when their bytes change.
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
import { parseCanonicalHeader, type CanonicalLayout } from "./canonical-header";
import { parseDecimalBytes } from "./decimal";
import { explainProcessValuesProblem, processValuesProblem, type NumericColumn } from "./process-values";
import { rejectMessage } from "./reject-reasons";
import type { LedgerScope, RowLedger, RunState } from "./row-ledger";

const COMMA = 44;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const QUOTE = 34;
const CHUNK_BYTES = 1 << 20;
/** Extra-column values up to this many bytes are compared with the previous row's bytes. */
const CACHED_VALUE_BYTES = 64;

/** What the canonical readers know about a file once its header is read. */
export interface CanonicalFileState {
  layout: CanonicalLayout | null;
  scope: LedgerScope | null;
}

/** Where the fast path stopped, for csv-parse to take over; null when it read everything. */
export type FastPathStop = { byte: number; line: number } | null;

export async function readCanonicalFast(
  source: ByteSource,
  sourceIndex: number,
  ledger: RowLedger,
  state: CanonicalFileState,
  onProgress?: (rowsRead: number) => void,
): Promise<FastPathStop> {
  let buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
  /** File offset of buffer[0]. */
  let bufferPosition = 0;
  let filled = 0;
  let endOfFile = false;
  let lineStart = 0;
  let line = 1;

  let layout = state.layout;
  let scope = state.scope;
  let fieldStarts = new Int32Array(1);
  let fieldEnds = new Int32Array(1);
  let maxFields = 0;
  let extraCount = 0;
  let extraCache: Buffer[] = [];
  let extraCacheLength: Int32Array = new Int32Array(0);
  let extraStrings: (string | undefined)[] = [];
  const useLayout = (l: CanonicalLayout) => {
    layout = l;
    maxFields = l.fieldCount;
    fieldStarts = new Int32Array(maxFields + 1);
    fieldEnds = new Int32Array(maxFields + 1);
    extraCount = l.extraIndices.length;
    extraCache = l.extraIndices.map(() => Buffer.alloc(CACHED_VALUE_BYTES));
    extraCacheLength = new Int32Array(extraCount).fill(-1);
    extraStrings = new Array(extraCount).fill(undefined);
  };
  if (layout !== null) useLayout(layout);

  const lastRunIdBytes = Buffer.alloc(256);
  let lastRunIdLength = -1;
  let lastRun: RunState | null = null;
  let nextProgress = 1 << 16;

  const fill = async (): Promise<void> => {
    // Keep the unfinished line, drop what is done.
    if (lineStart > 0) {
      buffer.copy(buffer, 0, lineStart, filled);
      bufferPosition += lineStart;
      filled -= lineStart;
      lineStart = 0;
    }
    if (buffer.length - filled < CHUNK_BYTES) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const bytesRead = await source.read(buffer, filled, buffer.length - filled, bufferPosition + filled);
    if (bytesRead === 0) endOfFile = true;
    filled += bytesRead;
  };

  await fill();
  if (filled >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) lineStart = 3;

  const text = (start: number, end: number) => buffer.toString("utf8", start, end);

  for (;;) {
    // Scan one line: field boundaries into fieldStarts/fieldEnds, up to maxFields + 1.
    let p = lineStart;
    let field = 0;
    fieldStarts[0] = p;
    let contentEnd = -1;
    let unusual = false;
    for (; p < filled; p++) {
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
        break;
      } else if (b === QUOTE) {
        unusual = true;
        break;
      } else if (b === CARRIAGE_RETURN) {
        if (p + 1 < filled) {
          if (buffer[p + 1] !== NEWLINE) {
            unusual = true;
            break;
          }
          contentEnd = p;
          p++;
          break;
        }
        if (endOfFile) {
          unusual = true;
          break;
        }
        // A CR at the end of the buffer: read on to see whether an LF follows.
        p = filled;
        break;
      }
    }
    if (unusual) return { byte: bufferPosition + lineStart, line };
    let lineEnd: number; // one past the line ending
    if (contentEnd < 0) {
      if (!endOfFile) {
        await fill();
        continue;
      }
      if (lineStart >= filled) return null;
      contentEnd = filled;
      lineEnd = filled;
    } else {
      lineEnd = p + 1;
    }
    if (field < maxFields) fieldEnds[field] = contentEnd;
    const fieldCount = field + 1;
    const byteStart = bufferPosition + lineStart;
    const byteEnd = bufferPosition + lineEnd;

    if (contentEnd === lineStart) {
      // blank line: not a row
    } else if (layout === null || scope === null) {
      const header = text(lineStart, contentEnd).split(",");
      useLayout(parseCanonicalHeader(header, source.name, line));
      scope = ledger.openScope(source.name, layout!.extraNames);
      state.layout = layout;
      state.scope = scope;
    } else {
      const L: CanonicalLayout = layout;
      if (fieldCount !== maxFields) {
        let runId: string | undefined;
        if (L.runId < fieldCount && L.runId < maxFields && fieldEnds[L.runId]! > fieldStarts[L.runId]!) {
          runId = text(fieldStarts[L.runId]!, fieldEnds[L.runId]!);
        }
        ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "field-count", rejectMessage.fieldCount(maxFields, fieldCount), scope, runId);
      } else {
        const runIdStart = fieldStarts[L.runId]!;
        const runIdEnd = fieldEnds[L.runId]!;
        const nodeStart = fieldStarts[L.node]!;
        const nodeEnd = fieldEnds[L.node]!;
        if (runIdEnd === runIdStart) {
          ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "empty-field", rejectMessage.emptyField("run_id"));
        } else if (nodeEnd === nodeStart) {
          ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "empty-field", rejectMessage.emptyField("node"), scope, text(runIdStart, runIdEnd));
        } else {
          const m = parseDecimalBytes(buffer, fieldStarts[L.m]!, fieldEnds[L.m]!);
          const sizeMb = parseDecimalBytes(buffer, fieldStarts[L.sizeMb]!, fieldEnds[L.sizeMb]!);
          const ckptMb = parseDecimalBytes(buffer, fieldStarts[L.ckptMb]!, fieldEnds[L.ckptMb]!);
          const startS = parseDecimalBytes(buffer, fieldStarts[L.startS]!, fieldEnds[L.startS]!);
          const endS = parseDecimalBytes(buffer, fieldStarts[L.endS]!, fieldEnds[L.endS]!);
          const problem = processValuesProblem(m, sizeMb, ckptMb, startS, endS);
          if (problem !== 0) {
            const columnIndex: Record<NumericColumn, number> = { m: L.m, size_mb: L.sizeMb, ckpt_mb: L.ckptMb, start_s: L.startS, end_s: L.endS };
            const { code, reason } = explainProcessValuesProblem(problem, { m, sizeMb, ckptMb, startS, endS }, (c) =>
              text(fieldStarts[columnIndex[c]]!, fieldEnds[columnIndex[c]]!),
            );
            ledger.reject(sourceIndex, line, byteStart, byteEnd, null, code, reason, scope, text(runIdStart, runIdEnd));
          } else {
            // The run: reuse the previous row's when the run_id bytes are the same.
            const runIdLength = runIdEnd - runIdStart;
            let run: RunState;
            if (lastRun !== null && runIdLength === lastRunIdLength && sameBytes(buffer, runIdStart, lastRunIdBytes, runIdLength)) {
              run = lastRun;
            } else {
              run = ledger.runFor(scope, text(runIdStart, runIdEnd), m, sourceIndex, line);
              if (runIdLength <= lastRunIdBytes.length) {
                buffer.copy(lastRunIdBytes, 0, runIdStart, runIdEnd);
                lastRunIdLength = runIdLength;
                lastRun = run;
              } else {
                lastRun = null;
              }
            }
            let attributes: (string | undefined)[] | null = null;
            if (extraCount > 0) {
              for (let j = 0; j < extraCount; j++) {
                const column = L.extraIndices[j]!;
                const start = fieldStarts[column]!;
                const length = fieldEnds[column]! - start;
                if (length !== extraCacheLength[j] || !sameBytes(buffer, start, extraCache[j]!, length)) {
                  extraStrings[j] = text(start, start + length);
                  if (length <= CACHED_VALUE_BYTES) {
                    buffer.copy(extraCache[j]!, 0, start, start + length);
                    extraCacheLength[j] = length;
                  } else {
                    extraCacheLength[j] = -1;
                  }
                }
              }
              attributes = extraStrings;
            }
            ledger.addProcess(run, text(nodeStart, nodeEnd), m, sizeMb, ckptMb / (endS - startS), attributes, sourceIndex, line, byteStart, byteEnd, null);
          }
        }
      }
      if (onProgress !== undefined && ledger.read >= nextProgress) {
        onProgress(ledger.read);
        nextProgress = ledger.read + (1 << 16);
      }
    }
    line++;
    lineStart = lineEnd;
    if (lineStart >= filled && endOfFile) return null;
  }
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
