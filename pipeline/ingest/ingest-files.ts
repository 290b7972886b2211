/**
 * Read trace files (canonical CSV or host-logs directories), validate every row and
 * aggregate the accepted ones into `Observations` (docs/science.md §3.1).
 *
 * `ingestFiles` is the edge that touches the file system; `ingestTraces` does the same on
 * sources given by the caller (in-memory text in tests and notebooks). Files are read one
 * after the other, streamed in chunks; each file's runs are checked as soon as it is read
 * (runs never span files, see `row-ledger.ts`). Every row read is either in an accepted
 * run or in `rejects` with its file, line, reason and raw text: read = accepted + rejected.
 */
import { InputError } from "../shared/errors";
import { memorySource, openFileSource, type ByteSource } from "./byte-source";
import { readCanonicalSource, type CanonicalParser } from "./canonical-reader";
import { readHostLogRun, type HostLogRun } from "./host-logs-reader";
import type { Observations } from "./observations";
import type { RejectCode } from "./reject-reasons";
import { createRowLedger } from "./row-ledger";
import { summariseRuns } from "./summarise-runs";
import { resolveTracePaths } from "./trace-paths";

export type TraceFormat = "auto" | "canonical" | "host-logs";

export interface IngestOptions {
  /** "auto" (default): a directory is host logs, a file is canonical CSV. */
  format?: TraceFormat;
  /** Stop at the first bad row with `file:line: reason` (an InputError). */
  strict?: boolean;
  /** Called now and then with the number of rows read so far. */
  onProgress?: (rowsRead: number) => void;
  /** Run attributes (extra columns) that separate size series, e.g. ["cluster"]. */
  groupBy?: string[];
  /**
   * How canonical CSV is parsed: "fast" (default: the byte-level fast path, csv-parse from
   * the first line it does not handle) or "csv-parse" (csv-parse only). Same result.
   */
  canonicalParser?: CanonicalParser;
}

/** A row that was not used, with where it was and why. */
export interface RejectedRow {
  file: string;
  line: number;
  reason: string;
  /** The row's text as read. */
  raw: string;
  /** The reason's stable identifier (always set by the ingest readers). */
  code?: RejectCode;
}

/** Always `read = accepted + rejected`. */
export interface IngestCounts {
  read: number;
  accepted: number;
  rejected: number;
}

export interface IngestResult {
  observations: Observations;
  counts: IngestCounts;
  rejects: RejectedRow[];
  /** Every input file with its content hash (provenance). */
  inputs: { path: string; sha256: string }[];
  /** Rejected rows per reason code. */
  rejectedByCode?: Partial<Record<RejectCode, number>>;
  /** Things worth knowing that are not rejected rows (e.g. a host directory without a log). */
  warnings?: string[];
}

/** A trace input the caller has already located: a canonical CSV or one host-logs run. */
export type TraceInput = { format: "canonical"; open: () => Promise<ByteSource> } | ({ format: "host-logs" } & HostLogRun);

export async function ingestFiles(paths: string[], options: IngestOptions = {}): Promise<IngestResult> {
  if (paths.length === 0) throw new InputError("no trace given: name at least one canonical CSV file or host-logs directory");
  const { inputs, warnings } = resolveTracePaths(paths, options.format ?? "auto");
  const traces: TraceInput[] = inputs.map((input) =>
    input.format === "canonical"
      ? { format: "canonical", open: () => openReadable(input.path) }
      : {
          format: "host-logs",
          label: input.runDirectory,
          runId: input.runId,
          hosts: input.hosts.map(({ host, path }) => ({ host, open: () => openReadable(path) })),
        },
  );
  return ingestTraces(traces, options, warnings);
}

async function openReadable(path: string): Promise<ByteSource> {
  try {
    return await openFileSource(path);
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** `ingestFiles` on canonical CSV texts held in memory (tests, notebooks). */
export function ingestCanonicalTexts(files: { name: string; text: string }[], options: IngestOptions = {}): Promise<IngestResult> {
  return ingestTraces(
    files.map(({ name, text }) => ({ format: "canonical", open: async () => memorySource(name, text) })),
    options,
  );
}

export async function ingestTraces(traces: TraceInput[], options: IngestOptions = {}, warnings: string[] = []): Promise<IngestResult> {
  const ledger = createRowLedger({ strict: options.strict ?? false });
  const inputs: { path: string; sha256: string }[] = [];
  for (const trace of traces) {
    if (trace.format === "host-logs") {
      inputs.push(...(await readHostLogRun(trace, ledger)));
      continue;
    }
    const source = await trace.open();
    try {
      await readCanonicalSource(source, ledger, { parser: options.canonicalParser, onProgress: options.onProgress });
      inputs.push({ path: source.name, sha256: await source.sha256() });
    } finally {
      await source.close();
    }
  }
  const { runs, rejects, read, rejected } = ledger.finish();
  const accepted = read - rejected;
  const inRuns = runs.reduce((sum, run) => sum + run.m, 0);
  if (inRuns !== accepted) {
    throw new Error(`ingest bookkeeping: ${read} rows read, ${rejected} rejected, but the accepted runs hold ${inRuns} rows`);
  }
  const rejectedByCode: Partial<Record<RejectCode, number>> = {};
  for (const r of rejects) if (r.code !== undefined) rejectedByCode[r.code] = (rejectedByCode[r.code] ?? 0) + 1;
  const result: IngestResult = {
    observations: summariseRuns(runs, { groupBy: options.groupBy }),
    counts: { read, accepted, rejected },
    rejects,
    inputs,
    rejectedByCode,
  };
  if (warnings.length > 0) result.warnings = warnings;
  return result;
}
