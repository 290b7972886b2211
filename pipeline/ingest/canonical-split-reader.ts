/**
 * A large canonical file read on two threads: the main thread reads its first part, a
 * worker (`canonical-worker.ts`) its second, each into a ledger of its own, and the two are
 * joined into exactly what one thread reading the whole file gives.
 *
 * The ledger's results depend on whole runs (their rows' count, m, duplicates, attribute
 * values, the rows of a run rejected on their own), so the join is exact when no run_id
 * occurs in both parts. The split is made where one run ends and the next begins (near
 * `SPLIT_FRACTION` of the file, the main thread having the header and the join to do); if
 * some run_id does occur in both parts all the same (a scattered run, a rejected row
 * naming a run of the other part), the worker's results are dropped and the main thread
 * reads the second part itself — the answer is the same either way, only slower.
 *
 * Join: the first part's accepted runs then the second's; its rejects then the second's
 * (both in line order: the worker numbers its lines after counting the first part's);
 * the counts added.
 *
 * The file's SHA-256 is computed by a third, small thread (`hashInWorker`), started when
 * the worker is done: the hash is a promise that settles while the main thread goes on (it
 * joins the parts, reads the next file, writes the observations, whose SHA-256 fields are
 * filled in last: `observations-artifact.ts`). Hashing the 0.9 GB of a 10-million-row file
 * takes ~0.75 s; done by the worker while it read, it made the worker's part the slower
 * one and the main thread waited; done by the worker after its part, it kept the worker's
 * heap (~50 MB) alive through the writing.
 *
 * Used when the file is at least `parallelMinBytes` (default 32 MiB: a worker costs
 * ~40 ms to start) and the reading is lenient with the byte-level reader; strict mode
 * stops at the first bad row and gains nothing from it.
 */
import { statSync } from "node:fs";
import { extname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { InputError } from "../shared/errors";
import type { ByteSource } from "./byte-source";
import { parseCanonicalHeader, type CanonicalLayout } from "./canonical-header";
import { MAX_LINE_BYTES, splitLineFields, type CanonicalFileState } from "./canonical-line";
import { readCanonicalLines } from "./canonical-fast-reader";
import type { SplitWorkerInput, SplitWorkerMessage } from "./canonical-worker";
import { RejectSpool } from "./reject-spool";
import type { RowLedger } from "./row-ledger";
import { RunTable } from "./run-table";
import type { TraceEncoding } from "./trace-encoding";
import type { CsvDialect } from "./csv-dialect";

/** Files at least this large are read on two threads (by default). */
export const PARALLEL_MIN_BYTES = 32 << 20;
/** Where the split is aimed: the main thread reads this share (it also joins, the worker counts lines)… */
const SPLIT_FRACTION = 0.55;
/**
 * …and this many bytes more, for the worker's cold start (it loads its modules, and reads its
 * first megabytes with code V8 has not optimised yet). Measured on 2 cores, medians of 9
 * interleaved runs: 1 M rows (85 MB) 1.10 s at 0.55 of the file, 1.02 s at 0.65 (= 0.55 +
 * 8 MiB); 10 M rows (0.89 GB) 4.06 s at 0.55, 4.31 s at 0.65 — a fixed offset, not a share.
 */
const WORKER_START_BYTES = 8 << 20;
/** The main thread's share never exceeds this (files just above the parallel threshold). */
const SPLIT_FRACTION_MAX = 0.75;
/** How far past the aim to look for the start of a new run. */
const SPLIT_SEARCH_BYTES = 1 << 20;
const HASH = 35;

/** The header's layout, found in `sample` (past blank and comment lines), or null. */
function headerIn(sample: Uint8Array, from: number, name: string): CanonicalLayout | null {
  let line = 1;
  for (let start = from; start < sample.length; line++) {
    const newline = sample.indexOf(10, start);
    if (newline < 0) return null;
    const end = newline > start && sample[newline - 1] === 13 ? newline - 1 : newline;
    if (end > start && sample[start] !== HASH) {
      const fields = splitLineFields(sample, start, end);
      return fields === null ? null : parseCanonicalHeader(fields, name, line);
    }
    start = newline + 1;
  }
  return null;
}

/** A line start near `aim` where the row's run_id differs from the previous row's, or null. */
function splitPoint(source: ByteSource, layout: CanonicalLayout, aim: number): number | null {
  const window = source.readRange(aim, aim + SPLIT_SEARCH_BYTES);
  let previous: string | undefined;
  let start = window.indexOf(10) + 1;
  if (start === 0) return null;
  while (start < window.length) {
    const newline = window.indexOf(10, start);
    if (newline < 0) return null;
    const end = newline > start && window[newline - 1] === 13 ? newline - 1 : newline;
    if (end > start && window[start] !== HASH) {
      const runId = splitLineFields(window, start, end)?.[layout.runId];
      if (previous !== undefined && runId !== undefined && runId !== previous) return aim + start;
      previous = runId;
    }
    start = newline + 1;
  }
  return null;
}

function workerFile(): { file: string; execArgv: string[] } {
  const extension = extname(__filename);
  // Under tsx or vitest the sources are TypeScript: the worker needs the same loader.
  return { file: join(__dirname, `canonical-worker${extension}`), execArgv: extension === ".ts" ? ["--require", "tsx/cjs"] : [] };
}

/** Plain JavaScript (no TypeScript loader needed), so the thread starts in a few milliseconds. */
const HASH_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { closeSync, openSync, readSync } = require("node:fs");
const hash = createHash("sha256");
const chunk = Buffer.allocUnsafe(1 << 20);
const fd = openSync(workerData, "r");
try {
  for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
} finally {
  closeSync(fd);
}
parentPort.postMessage(hash.digest("hex"));
`;

/**
 * The SHA-256 of the file at `path`, computed on a thread of its own. The thread does not
 * keep the process alive (an ingest that fails meanwhile need not wait for it); a
 * rejection nobody awaits is not reported as unhandled.
 */
function hashInWorker(path: string): Promise<string> {
  const worker = new Worker(HASH_WORKER, { eval: true, workerData: path });
  worker.unref();
  const sha256 = new Promise<string>((resolve, reject) => {
    worker.on("message", resolve);
    // A new error, without the file system's code: the CLI would blame its --out path for it.
    worker.on("error", (error) => reject(new InputError(`cannot read ${path} to hash it: ${error.message}`)));
    worker.on("exit", (code) => reject(new Error(`the hashing thread stopped (exit code ${code}) before it was done`)));
  });
  sha256.catch(() => {});
  return sha256;
}

export interface SplitReadOptions {
  /** The file's first bytes, as `source` reads them (line endings and dialect mapped). */
  sample: Uint8Array;
  encoding: TraceEncoding;
  dialect: CsvDialect;
  minBytes: number;
  spillDirectory?: string;
  onProgress?: (rowsRead: number) => void;
}

/**
 * Read `source` on two threads if it is large enough and a split point exists; returns the
 * file's SHA-256 (to come: `hashInWorker` computes it) and whether the parts
 * were joined (false: the main thread read the second part too), or null when the file was
 * not split (nothing was read then).
 */
export async function readCanonicalInTwo(
  source: ByteSource,
  sourceIndex: number,
  ledger: RowLedger,
  file: CanonicalFileState,
  options: SplitReadOptions,
): Promise<{ sha256: Promise<string>; joined: boolean } | null> {
  if (source.path === undefined) return null;
  const size = statSync(source.path).size;
  if (size < options.minBytes || size < 2 * SPLIT_SEARCH_BYTES) return null;
  const layout = headerIn(options.sample, options.encoding.bomBytes, source.name);
  if (layout === null || layout.fieldCount * 2 > MAX_LINE_BYTES) return null;
  const mid = splitPoint(source, layout, Math.floor(Math.min(size * SPLIT_FRACTION + WORKER_START_BYTES, size * SPLIT_FRACTION_MAX)));
  if (mid === null) return null;

  source.stopHashing?.();
  const input: SplitWorkerInput = { path: source.path, name: source.name, fromByte: mid, layout, crLineEnds: options.encoding.lineEnding === "cr", dialect: options.dialect, spillDirectory: options.spillDirectory };
  const { file: script, execArgv } = workerFile();
  const worker = new Worker(script, { workerData: { splitReader: input }, execArgv });
  const tailRejects = new RejectSpool(options.spillDirectory);
  let tailRows = 0;
  const done = new Promise<Extract<SplitWorkerMessage, { type: "done" }>>((resolve, reject) => {
    worker.on("message", (message: SplitWorkerMessage) => {
      switch (message.type) {
        case "rejects":
          for (const row of message.rows) {
            tailRejects.push({ sourceIndex, line: row.line, byteStart: 0, byteEnd: 0, raw: row.raw, code: row.code!, reason: row.reason });
          }
          break;
        case "progress":
          tailRows = message.rows;
          options.onProgress?.(ledger.read + tailRows);
          break;
        case "done":
          resolve(message);
          break;
        case "error": {
          const error = message.inputError ? new InputError(message.message) : new Error(message.message);
          if (!message.inputError && message.stack !== undefined) error.stack = message.stack;
          reject(error);
        }
      }
    });
    worker.on("error", reject);
    worker.on("exit", (code) => reject(new Error(`the ingest worker stopped (exit code ${code}) before it was done`)));
  });
  done.catch(() => {}); // handled below, after the main thread's part

  try {
    const nextLine = await readCanonicalLines(source, sourceIndex, ledger, file, options.encoding.bomBytes, {
      toByte: mid,
      onProgress: options.onProgress === undefined ? undefined : (rows) => options.onProgress!(rows + tailRows),
    });
    const tail = await done;
    const sha256 = hashInWorker(source.path);
    if (tail.firstLine !== nextLine) throw new Error(`ingest: the worker counted ${tail.firstLine - 1} lines before byte ${mid}, the main thread ${nextLine - 1}`);
    const { arena, starts, lengths } = tail.runIds;
    let shared = false;
    for (let i = 0; i < lengths.length && !shared; i++) shared = ledger.hasRunId(arena, starts[i]!, starts[i]! + lengths[i]!);
    if (shared) {
      // A run_id in both parts: read the second part here, as one thread would have.
      tailRejects.dispose();
      await readCanonicalLines(source, sourceIndex, ledger, file, mid, { firstLine: nextLine, onProgress: options.onProgress });
      ledger.closeScope();
    } else {
      const tailRuns = RunTable.fromData(tail.runs);
      ledger.reserveRuns(tailRuns.length, tailRuns.idBytes);
      ledger.closeScope();
      ledger.appendTail({ runs: tailRuns, read: tail.read, rejects: tailRejects.drain() });
      if (file.commentLines === 0) file.firstCommentLine = tail.firstCommentLine;
      file.commentLines += tail.commentLines;
    }
    return { sha256, joined: !shared };
  } finally {
    tailRejects.dispose();
    await worker.terminate();
  }
}
