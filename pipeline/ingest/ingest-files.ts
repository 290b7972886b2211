/**
 * Read trace files (canonical CSV or host-logs directories), validate every row and
 * aggregate the accepted ones into `Observations` (docs/science.md §3.1).
 *
 * `ingestFiles` is the edge that touches the file system; `ingestTraces` does the same on
 * sources given by the caller (in-memory text in tests and notebooks). Both return
 * everything in memory. For inputs of any size, `ingestFilesTo` / `ingestTracesTo` stream:
 * rejected rows go to a callback as each file is finished (the CLI writes them to the
 * rejects file as it goes) and the accepted runs stay in columns (`RunTable`), so memory
 * grows with the number of runs, not rows (see `row-ledger.ts`). Files are read one after
 * the other, in chunks; each file's runs are checked as soon as it is read (runs never
 * span files). Every row read is either in an accepted run or rejected with its file,
 * line, reason and raw text: read = accepted + rejected.
 */
import { InputError } from "../shared/errors";
import { checkInputPath } from "../shared/path-checks";
import { memorySource, openFileSource, type ByteSource } from "./byte-source";
import { readCanonicalSource, type CanonicalParser } from "./canonical-reader";
import type { DialectOptions } from "./csv-dialect";
import { readHostLogRun, type HostLogRun } from "./host-logs-reader";
import type { Observations } from "./observations";
import { pendingSha256 } from "./observations-artifact";
import type { RejectCode } from "./reject-reasons";
import { createRowLedger } from "./row-ledger";
import { readBenchmarkSource } from "./read-benchmark-source";
import { detectTraceFormat, FORMAT_NAMES, type BenchmarkFormat, type DetectedFormat } from "./detect-trace-format";
import type { RunTable } from "./run-table";
import { summariseRunTable } from "./summarise-runs";
import { resolveTracePaths } from "./trace-paths";
import { cannotRead } from "../input/messages";

export type TraceFormat = "auto" | "canonical" | "host-logs" | "ior" | "fio" | "release-log";

export interface IngestOptions extends DialectOptions {
  /**
   * "auto" (default): a directory is host logs (or stands for its files), a file is told by
   * its content: canonical CSV, IOR's text output or JSON summary, fio's JSON
   * (detect-trace-format.ts). Or one of them forced.
   */
  format?: TraceFormat;
  /** Stop at the first bad row with `file:line: reason` (an InputError). */
  strict?: boolean;
  /** Called now and then with the number of rows read so far. */
  onProgress?: (rowsRead: number) => void;
  /** Run attributes (extra columns) that separate size series, e.g. ["cluster"]. */
  groupBy?: string[];
  /**
   * How canonical CSV is parsed: "fast" (default: the byte-level reader) or "csv-parse"
   * (csv-parse on every line, the reference). Same result.
   */
  canonicalParser?: CanonicalParser;
  /** Where rejects that do not fit in memory wait while a file is read (default: the system's temporary folder). */
  spillDirectory?: string;
  /**
   * Canonical files of at least this many bytes are read on two threads (default 32 MiB;
   * Infinity: never). Not in strict mode, nor with the csv-parse parser. Same result.
   */
  parallelMinBytes?: number;
  /**
   * `ingestTracesTo` may return before the SHA-256 of a file read on two threads is known
   * (a thread of its own computes it after the reading): that input's `sha256` is then a placeholder
   * until `IngestSummary.sha256Ready` settles. For a caller with work to do meanwhile
   * (the CLI writes the observations, then the hashes: `writeObservationsArtifact`).
   */
  deferHashes?: boolean;
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

/** What every ingest returns besides its rejects and runs. */
interface IngestOutcome {
  counts: IngestCounts;
  /** Every input file with its content hash (provenance). */
  inputs: { path: string; sha256: string }[];
  /** Rejected rows per reason code. */
  rejectedByCode?: Partial<Record<RejectCode, number>>;
  /** Things worth knowing that are not rejected rows (e.g. a host directory without a log). */
  warnings?: string[];
  /** Each input's format as read (detected or forced): "canonical CSV", "IOR 3.3.0 text output", "fio 3.33 JSON", "host logs". */
  formats?: { path: string; format: string }[];
}

export interface IngestResult extends IngestOutcome {
  observations: Observations;
  rejects: RejectedRow[];
}

/** A streamed ingest: the rejects went to the caller's callback; the accepted runs as columns. */
export interface IngestSummary extends IngestOutcome {
  runs: RunTable;
  /**
   * With `deferHashes`, when some inputs' SHA-256 is still being computed: settles once
   * each of them is in `inputs` (until then it holds `pendingSha256(k)`, k its index).
   */
  sha256Ready?: Promise<void>;
}

/**
 * A trace input the caller has already located: a canonical CSV, a file whose format its
 * content tells ("auto"; `inDirectory`: found in a directory, skipped with a warning when it
 * is none of the formats), IOR or fio results, or one host-logs run.
 */
export type TraceInput =
  | { format: "canonical"; open: () => Promise<ByteSource> }
  | { format: "auto" | "ior" | "fio" | "release-log"; open: () => Promise<ByteSource>; inDirectory?: boolean }
  | ({ format: "host-logs" } & HostLogRun);

/**
 * The trace inputs that command-line paths denote (see `trace-paths.ts`), each path checked
 * (an InputError that says what is wrong otherwise); nothing is read yet.
 */
export function locateTraces(paths: string[], options: Pick<IngestOptions, "format"> = {}): { traces: TraceInput[]; warnings: string[] } {
  if (paths.length === 0) throw new InputError("no trace given: name at least one canonical CSV file or host-logs directory");
  const { inputs, warnings } = resolveTracePaths(paths, options.format ?? "auto");
  const format = options.format ?? "auto";
  const traces: TraceInput[] = inputs.map((input) =>
    input.format === "file"
      ? format === "canonical"
        ? { format: "canonical", open: () => openReadable(input.path) }
        : { format: format === "ior" || format === "fio" || format === "release-log" ? format : "auto", open: () => openReadable(input.path), inDirectory: input.inDirectory }
      : {
          format: "host-logs",
          label: input.runDirectory,
          runId: input.runId,
          hosts: input.hosts.map(({ host, path }) => ({ host, open: () => openReadable(path) })),
        },
  );
  return { traces, warnings };
}

export async function ingestFiles(paths: string[], options: IngestOptions = {}): Promise<IngestResult> {
  const { traces, warnings } = locateTraces(paths, options);
  return ingestTraces(traces, options, warnings);
}

/** `ingestFiles`, streamed: each rejected row goes to `onReject` (in file and line order). */
export async function ingestFilesTo(paths: string[], options: IngestOptions, onReject: (row: RejectedRow) => void): Promise<IngestSummary> {
  const { traces, warnings } = locateTraces(paths, options);
  return ingestTracesTo(traces, options, onReject, warnings);
}

async function openReadable(path: string): Promise<ByteSource> {
  checkInputPath(path, { kind: "file", what: "trace file" });
  try {
    return await openFileSource(path);
  } catch (error) {
    throw new InputError(cannotRead("the trace file", path, (error as Error).message), { cause: error });
  }
}

/** `ingestFiles` on canonical CSV texts held in memory (tests, notebooks). */
export function ingestCanonicalTexts(files: { name: string; text: string }[], options: IngestOptions = {}): Promise<IngestResult> {
  return ingestTraces(
    files.map(({ name, text }) => ({ format: "canonical", open: async () => memorySource(name, text) })),
    options,
  );
}

/**
 * The format of a file: told by its first 64 KiB (`auto`), or forced (`ior`: its text output
 * or JSON summary, by the content; `fio`: its JSON). In `auto`, a file that is none of the
 * formats gives what it looks like.
 */
async function benchmarkFormatOf(source: ByteSource, format: "auto" | "ior" | "fio" | "release-log"): Promise<DetectedFormat | { looksLike: string }> {
  if (format === "fio") return "fio-json";
  if (format === "release-log") return "release-log";
  const sample = Buffer.allocUnsafe(1 << 16);
  const n = await source.read(sample, 0, sample.length, 0);
  const detection = detectTraceFormat(sample.subarray(0, n).toString("utf8"));
  if (format === "ior") return (detection.format === "ior-json" ? "ior-json" : "ior-text") satisfies BenchmarkFormat;
  return detection.format ?? { looksLike: detection.looksLike };
}

export async function ingestTraces(traces: TraceInput[], options: IngestOptions = {}, warnings: string[] = []): Promise<IngestResult> {
  const rejects: RejectedRow[] = [];
  const { runs, ...outcome } = await ingestTracesTo(traces, { ...options, deferHashes: false }, (row) => rejects.push(row), warnings);
  return { observations: observationsOf(runs, options), ...outcome, rejects };
}

/** The `Observations` of a run table: its runs as objects, its size series and validation runs. */
export function observationsOf(runs: RunTable, options: { groupBy?: string[] } = {}): Observations {
  const { series, validationRuns } = summariseRunTable(runs, options);
  const all = Array.from({ length: runs.length }, (_, i) => runs.observation(i));
  const observations: Observations = { runs: all, series, validationRuns: validationRuns.map((i) => all[i]!) };
  if ((options.groupBy ?? []).length > 0) observations.groupBy = [...options.groupBy!];
  return observations;
}

export async function ingestTracesTo(
  traces: TraceInput[],
  options: IngestOptions,
  onReject: (row: RejectedRow) => void,
  warnings: string[] = [],
): Promise<IngestSummary> {
  const ledger = createRowLedger({ strict: options.strict ?? false, onReject, spillDirectory: options.spillDirectory });
  const inputs: { path: string; sha256: string }[] = [];
  const hashes: Promise<void>[] = [];
  const allWarnings = [...warnings];
  const formats: { path: string; format: string }[] = [];
  /** Σ m − Σ rows over the benchmarks' runs: an IOR line is one row for m writers. */
  let writersBeyondRows = 0;
  try {
    for (const trace of traces) {
      if (trace.format === "host-logs") {
        inputs.push(...(await readHostLogRun(trace, ledger)));
        formats.push({ path: trace.label, format: FORMAT_NAMES["host-logs"] });
        continue;
      }
      const source = await trace.open();
      try {
        const inDirectory = "inDirectory" in trace && trace.inDirectory === true;
        let format = trace.format === "canonical" ? "canonical" : await benchmarkFormatOf(source, trace.format);
        // In a folder only .csv files are canonical traces; another text file is a note, a log…
        if (format === "canonical" && inDirectory && !/\.csv$/i.test(source.name)) format = { looksLike: "neither an IOR nor a fio result (in a folder, only .csv files are read as canonical CSV)" };
        if (typeof format === "object") {
          if (!inDirectory) throw new InputError(`${source.name} is ${format.looksLike}; ckpt ingest reads canonical CSV, host logs, IOR's text output or JSON summary, fio's JSON and the log of ckpt release --log (--format auto|canonical|host-logs|ior|fio|release-log)`);
          allWarnings.push(`${source.name} skipped: it is ${format.looksLike}`);
          continue;
        }
        if (format !== "canonical") {
          const read = await readBenchmarkSource(source, format, ledger, options.strict ?? false);
          writersBeyondRows += read.writersBeyondRows;
          allWarnings.push(...read.warnings);
          formats.push({ path: source.name, format: read.detected });
          inputs.push({ path: source.name, sha256: await source.sha256() });
          continue;
        }
        formats.push({ path: source.name, format: FORMAT_NAMES.canonical });
        const report = await readCanonicalSource(source, ledger, {
          ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
          ...(options.decimalComma !== undefined ? { decimalComma: options.decimalComma } : {}),
          parser: options.canonicalParser,
          onProgress: options.onProgress,
          parallelMinBytes: options.strict ? Infinity : options.parallelMinBytes,
          spillDirectory: options.spillDirectory,
        });
        allWarnings.push(...report.warnings);
        if (report.sha256 === undefined) {
          inputs.push({ path: source.name, sha256: await source.sha256() });
        } else {
          const input = { path: source.name, sha256: pendingSha256(inputs.length) };
          inputs.push(input);
          const hashed = report.sha256.then((sha256) => void (input.sha256 = sha256));
          hashed.catch(() => {}); // awaited below (or by the caller); not unhandled if the ingest fails first
          hashes.push(hashed);
        }
      } finally {
        await source.close();
      }
    }
  } catch (error) {
    ledger.abort();
    throw error;
  }
  let sha256Ready: Promise<void> | undefined;
  if (hashes.length > 0) {
    sha256Ready = Promise.all(hashes).then(() => {});
    sha256Ready.catch(() => {});
    if (!options.deferHashes) {
      await sha256Ready;
      sha256Ready = undefined;
    }
  }
  const { runs, read, rejected, rejectedByCode } = ledger.finish();
  const accepted = read - rejected;
  let inRuns = -writersBeyondRows;
  for (let i = 0; i < runs.length; i++) inRuns += runs.m[i]!;
  if (inRuns !== accepted) {
    throw new Error(`ingest bookkeeping: ${read} rows read, ${rejected} rejected, but the accepted runs hold ${inRuns} rows`);
  }
  const summary: IngestSummary = { counts: { read, accepted, rejected }, inputs, rejectedByCode, runs };
  if (sha256Ready !== undefined) summary.sha256Ready = sha256Ready;
  if (allWarnings.length > 0) summary.warnings = allWarnings;
  if (formats.length > 0) summary.formats = formats;
  return summary;
}
