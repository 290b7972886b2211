/**
 * What a reader of a storage benchmark's results (IOR, fio) makes of one file, and how it
 * joins the ingest's ledger.
 *
 * A benchmark reports runs, not process checkpoints: an IOR result line is one iteration of
 * m tasks with IOR's aggregate bandwidth, a fio group report one group of m jobs; only fio
 * without group reporting gives each writer (job) on its own. So a reader assembles whole
 * runs itself and hands them to the ledger as a finished part (`RowLedger.appendTail`, as a
 * file's second half read by another thread is). Its *rows* are the file's records — a
 * result line, a job — each accepted into a run or rejected with its line and reason, so
 * that read = accepted + rejected holds as for the canonical format; a run accounts for
 * `rows` of them (1 for IOR's line, m for fio's m jobs).
 */
import { InputError, atLine } from "../shared/errors";
import type { RejectCode } from "./reject-reasons";
import type { PendingReject } from "./reject-spool";
import type { RowLedger } from "./row-ledger";
import { RunTable } from "./run-table";

/** One run read from a benchmark's output. */
export interface BenchmarkRun {
  runId: string;
  /** Writers (IOR tasks, fio jobs or clients' jobs). */
  m: number;
  /** Σ of the writers' sizes, MB (10^6 bytes). */
  sumSizeMb: number;
  /** The writers' common size, MB, or null when they differ (a validation run). */
  uniformSizeMb: number | null;
  /** MB/s, as the benchmark's definition gives it (attribute `bandwidth_definition`). */
  aggregatedBwMbPerS: number;
  attributes: Record<string, string>;
  /** Records of the file this run accounts for (1 for a result line, m for m fio jobs). */
  rows: number;
  /** Line of the run's first record. */
  line: number;
}

export interface BenchmarkReject {
  line: number;
  raw: string;
  code: RejectCode;
  reason: string;
}

export interface BenchmarkReading {
  /** "IOR 3.3.0 text output", "fio-3.33 JSON" …: named in the ingest's summary. */
  detected: string;
  runs: BenchmarkRun[];
  /** In line order. */
  rejects: BenchmarkReject[];
  /** What is worth knowing that is not a rejected record (a summary used as such, a time-based size). */
  warnings: string[];
}

/** MiB → MB: IOR prints MiB (2^20 bytes); the model's unit is MB (10^6 bytes), docs/science.md §2. */
export const MB_PER_MIB = 1.048576;

/**
 * Add a file's reading to the ledger (its runs after those already accepted, its rejects in
 * line order). Strict mode stops at its first rejected record. Returns Σ m − Σ rows over its
 * accepted runs: what the ingest's bookkeeping (rows in runs = accepted rows) must allow for.
 */
export function appendBenchmarkReading(reading: BenchmarkReading, ledger: RowLedger, file: string, strict: boolean): number {
  if (strict && reading.rejects.length > 0) {
    const first = reading.rejects[0]!;
    throw new InputError(atLine(file, first.line, first.reason));
  }
  const runs = new RunTable();
  runs.sources.push(file);
  const attributeSets = new Map<string, number>();
  let rowsInRuns = 0;
  let writersInRuns = 0;
  for (const run of reading.runs) {
    const key = JSON.stringify(run.attributes);
    let set = attributeSets.get(key);
    if (set === undefined) {
      set = runs.attributeSets.push(run.attributes) - 1;
      attributeSets.set(key, set);
    }
    runs.append(Buffer.from(run.runId, "utf8"), run.m, run.sumSizeMb, run.aggregatedBwMbPerS, run.uniformSizeMb, 0, set);
    rowsInRuns += run.rows;
    writersInRuns += run.m;
  }
  const sourceIndex = ledger.addSource({ name: file, readRaw: () => "" });
  const rejects: PendingReject[] = reading.rejects.map((r) => ({ sourceIndex, line: r.line, byteStart: 0, byteEnd: 0, raw: r.raw, code: r.code, reason: r.reason }));
  // `read` counts every record, the rejected ones too (as the ledger's own reads do).
  ledger.appendTail({ runs, read: rowsInRuns + rejects.length, rejects });
  return writersInRuns - rowsInRuns;
}
