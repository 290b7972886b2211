/**
 * The worker thread of a canonical file read in two parts (`canonical-split-reader.ts`):
 * it counts the lines of the first part, then reads the second part into a ledger of its
 * own, exactly as the main thread would, and posts back its rejected rows (in batches, in
 * line order), the run_ids it met and its accepted runs. It does not hash the file (a
 * thread of its own does, see `canonical-split-reader.ts`).
 */
import { parentPort, workerData } from "node:worker_threads";
import { InputError } from "../shared/errors";
import { openFileSource, readRawText, withCrLineEnds } from "./byte-source";
import type { CanonicalLayout } from "./canonical-header";
import { withDialect, type CsvDialect } from "./csv-dialect";
import { newCanonicalFileState, rescanCanonicalRows } from "./canonical-line";
import { readCanonicalLines } from "./canonical-fast-reader";
import type { RejectedRow } from "./ingest-files";
import { createRowLedger } from "./row-ledger";

export interface SplitWorkerInput {
  path: string;
  name: string;
  /** Where the worker's part starts (a line start). */
  fromByte: number;
  layout: CanonicalLayout;
  crLineEnds: boolean;
  dialect: CsvDialect;
  spillDirectory?: string;
}

export type SplitWorkerMessage =
  | { type: "rejects"; rows: RejectedRow[] }
  | { type: "progress"; rows: number }
  | {
      type: "done";
      firstLine: number;
      runIds: { arena: Uint8Array; starts: Float64Array; lengths: Int32Array };
      runs: import("./run-table").RunTableData;
      read: number;
      commentLines: number;
      firstCommentLine: number;
    }
  | { type: "error"; inputError: boolean; message: string; stack?: string };

const REJECT_BATCH = 4096;

async function run(input: SplitWorkerInput, post: (message: SplitWorkerMessage, transfer?: ArrayBuffer[]) => void): Promise<void> {
  let lines = await openFileSource(input.path, input.name);
  lines.stopHashing?.(); // hashed by another thread
  if (input.crLineEnds) lines = withCrLineEnds(lines);
  const source = input.dialect.delimiter === "," ? lines : withDialect(lines, input.dialect);
  try {
    // The first part's lines, counted.
    const chunk = Buffer.allocUnsafe(1 << 20);
    let line = 1;
    for (let position = 0; position < input.fromByte; ) {
      const n = await lines.read(chunk, 0, Math.min(chunk.length, input.fromByte - position), position);
      if (n === 0) break;
      for (let i = chunk.indexOf(10); i >= 0 && i < n; i = chunk.indexOf(10, i + 1)) line++;
      position += n;
    }
    let batch: RejectedRow[] = [];
    const ledger = createRowLedger({
      onReject: (row) => {
        batch.push(row);
        if (batch.length >= REJECT_BATCH) {
          post({ type: "rejects", rows: batch });
          batch = [];
        }
      },
      spillDirectory: input.spillDirectory,
    });
    const file = newCanonicalFileState();
    const sourceIndex = ledger.addSource({
      name: input.name,
      readRaw: (start, end) => readRawText(lines, start, end),
      rescan: (from, to, fromLine, visit) => rescanCanonicalRows(source, input.layout, from, to, fromLine, visit),
    });
    file.layout = input.layout;
    file.scope = ledger.openScope(input.name, input.layout.extraNames);
    await readCanonicalLines(source, sourceIndex, ledger, file, input.fromByte, {
      firstLine: line,
      onProgress: (rows) => post({ type: "progress", rows }),
    });
    const runIds = ledger.runIdSnapshot();
    ledger.closeScope();
    if (batch.length > 0) post({ type: "rejects", rows: batch });
    const { runs, read } = ledger.finish();
    const data = runs.toData();
    post(
      { type: "done", firstLine: line, runIds, runs: data, read, commentLines: file.commentLines, firstCommentLine: file.firstCommentLine },
      [runIds.arena, runIds.starts, runIds.lengths, data.arena, data.idStart, data.idLength, data.m, data.sumSizeMb, data.bwMbPerS, data.uniformSizeMb, data.source, data.attributeSet].map((a) => a.buffer as ArrayBuffer),
    );
  } finally {
    await source.close();
  }
}

if (parentPort !== null && (workerData as { splitReader?: SplitWorkerInput } | null)?.splitReader !== undefined) {
  const port = parentPort;
  run((workerData as { splitReader: SplitWorkerInput }).splitReader, (message, transfer) => port.postMessage(message, transfer)).catch((error: unknown) => {
    const failure = error as Error;
    port.postMessage({ type: "error", inputError: error instanceof InputError, message: failure.message, stack: failure.stack } satisfies SplitWorkerMessage);
  });
}
