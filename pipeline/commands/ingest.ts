/**
 * `ckpt ingest`: read traces, validate every row, aggregate; write the observations
 * artifact and the rejects file; print the counts and the size series.
 */
import { existsSync } from "node:fs";
import { dirname, join, basename, resolve } from "node:path";
import { openAtomicLineWriter, type AtomicLineWriter } from "../shared/atomic-write";
import { defineCommand, type CommandIo } from "../command-line/command";
import { InputError, UsageError } from "../shared/errors";
import { formatCount, formatNumber, formatTable } from "../shared/format-table";
import { checkOutputFile, fileSystemError } from "../shared/path-checks";
import { TOOL_VERSION } from "../shared/version";
import { ingestTracesTo, locateTraces, type IngestSummary, type RejectedRow, type TraceFormat } from "../ingest/ingest-files";
import type { SizeSeries } from "../ingest/observations";
import { writeObservationsArtifact } from "../ingest/observations-artifact";
import { nothingAcceptedMessage } from "../ingest/reject-reasons";
import { REJECTS_CSV_HEADER, rejectToCsvLine } from "../ingest/rejects-csv";
import { DELIMITER_CHOICES } from "../ingest/csv-dialect";
import { summariseRunTable } from "../ingest/summarise-runs";
import { BANDWIDTH_DEFINITIONS, bandwidthDefinitionOf, countBandwidthDefinitions, type BandwidthDefinition } from "../ingest/bandwidth-definition";
import { FORMAT_NAMES } from "../ingest/detect-trace-format";

const FORMATS: readonly TraceFormat[] = ["auto", "canonical", "host-logs", "ior", "fio", "release-log"];
const DEFAULT_OUT = "observations.json";

/** `observations.json` → `observations.rejects.csv`, next to it. */
export function defaultRejectsPath(out: string): string {
  const name = basename(out).replace(/\.json$/i, "");
  return join(dirname(out), `${name}.rejects.csv`);
}

/** The folder of `path`, or its nearest existing parent (where large rejects may spill while reading). */
function existingFolderOf(path: string): string {
  let folder = dirname(resolve(path));
  while (!existsSync(folder)) folder = dirname(folder);
  return folder;
}

/** An output written as the ingest goes; errors of the file system become messages (exit 1). */
function openOutput(path: string): AtomicLineWriter {
  try {
    return openAtomicLineWriter(path);
  } catch (error) {
    throw fileSystemError(error, path);
  }
}

/** A file-system error on `path` (a full disk…) as a message; any other error as it is. */
function writeError(error: unknown, path: string): unknown {
  return (error as NodeJS.ErrnoException).code !== undefined && !(error instanceof InputError) ? fileSystemError(error, path) : error;
}

/** Run `write`, turning a file-system error on `path` into a message. */
function writing<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw writeError(error, path);
  }
}

/** `writing`, for an asynchronous write. */
async function writingAsync<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw writeError(error, path);
  }
}

/** Progress on stderr: nothing for inputs read within a second, then a line a second. */
function progressReporter(io: CommandIo): (rowsRead: number) => void {
  const started = Date.now();
  let last = started;
  return (rowsRead) => {
    const now = Date.now();
    if (now - last < 1000) return;
    last = now;
    const rate = rowsRead / ((now - started) / 1000);
    io.stderr(`ckpt ingest: ${formatCount(rowsRead)} rows read (${(rate / 1e6).toFixed(2)} M rows/s)…`);
  };
}

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;

interface Report {
  summary: IngestSummary;
  series: SizeSeries[];
  groupBy: string[];
  validationRuns: number;
  /** The first row of each reject code. */
  firstOfCode: Map<string, RejectedRow>;
}

function humanReport({ summary, series, groupBy, validationRuns, firstOfCode }: Report, out: string, rejectsFile: string | null): string {
  const { counts } = summary;
  const lines: string[] = [];
  lines.push(
    `read ${plural(counts.read, "row")} from ${plural(summary.inputs.length, "file")}: ${formatCount(counts.accepted)} accepted, ${formatCount(counts.rejected)} rejected`,
  );
  const runs = summary.runs.length;
  lines.push(
    `runs: ${formatCount(runs)} accepted — ${formatCount((runs - validationRuns))} of uniform size in ${formatCount(series.length)} size series, ${formatCount(validationRuns)} of mixed sizes kept for validation`,
  );
  lines.push(...formatLines(summary));
  for (const warning of summary.warnings ?? []) lines.push(`warning: ${warning}`);
  lines.push(`wrote ${out}${rejectsFile === null ? "" : `; rejected rows in ${rejectsFile}`}`);
  const byCode = Object.entries(summary.rejectedByCode ?? {});
  if (byCode.length > 0) {
    lines.push("", "rejected rows by reason");
    lines.push(formatTable(["reason", "rows", "first at"], byCode.map(([code, n]) => [code, String(n), firstOfCode.has(code) ? `${firstOfCode.get(code)!.file}:${firstOfCode.get(code)!.line}` : ""])));
  }
  if (series.length > 0) {
    const grouped = groupBy.length > 0;
    lines.push("", "size series (mean aggregated bandwidth per (m, v); peak = the m with the largest mean)");
    const header = [...(grouped ? ["group"] : []), "size_mb", "m", "runs", "peak ī", "bw_ī (MB/s)", "sd at ī", "V at ī (GB)"];
    const rows = series.map((s) => {
      const peak = s.points.find((p) => p.m === s.peak.m)!;
      const ms = s.points.map((p) => p.m);
      const group = grouped ? [Object.values(s.group ?? {}).map((v) => v ?? "—").join("/")] : [];
      return [
        ...group,
        formatNumber(s.sizeMb, Number.isInteger(s.sizeMb) ? 0 : 3),
        ms.length === 1 ? String(ms[0]) : `${Math.min(...ms)}–${Math.max(...ms)}`,
        String(s.points.reduce((n, p) => n + p.count, 0)),
        String(s.peak.m),
        formatNumber(s.peak.bwMbPerS, 2),
        formatNumber(peak.sdBwMbPerS, 2),
        formatNumber(peak.vGb, 3),
      ];
    });
    lines.push(formatTable(header, rows));
  }
  return lines.join("\n");
}

/** Each input's format (detected or forced), and which aggregated bandwidth the runs carry. */
function formatLines(summary: IngestSummary): string[] {
  const lines: string[] = [];
  const byFormat = new Map<string, string[]>();
  for (const { path, format } of summary.formats ?? []) byFormat.set(format, [...(byFormat.get(format) ?? []), path]);
  for (const [format, paths] of byFormat) lines.push(`format: ${format}: ${paths.length === 1 ? paths[0] : plural(paths.length, "input")}`);
  // Said for benchmark results; canonical traces and host logs carry the papers' sum, as always.
  const benchmarks = (summary.formats ?? []).some(({ format }) => format !== FORMAT_NAMES.canonical && format !== FORMAT_NAMES["host-logs"]);
  const definitions = Object.entries(bandwidthDefinitionCounts(summary.runs)) as [BandwidthDefinition, number][];
  if (benchmarks) for (const [definition, runs] of definitions) lines.push(`bandwidth: ${plural(runs, "run")} with ${BANDWIDTH_DEFINITIONS[definition]}`);
  // A run of one writer has both (Σ v_i/t_i = v/W): a mix is one among runs of several writers.
  const severalWriters = Array.from({ length: summary.runs.length }, (_, i) => i).filter((i) => summary.runs.m[i]! > 1);
  if (new Set(severalWriters.map((i) => bandwidthDefinitionOf({ attributes: summary.runs.attributes(i) }))).size > 1) {
    lines.push("warning: the runs carry both aggregated bandwidths; they agree only when the writers are balanced (docs/science.md §3.1.1): --group-by bandwidth_definition keeps them apart");
  }
  return lines;
}

/** `countBandwidthDefinitions` over a run table's columns. */
function bandwidthDefinitionCounts(runs: IngestSummary["runs"]): Partial<Record<BandwidthDefinition, number>> {
  return countBandwidthDefinitions(Array.from({ length: runs.length }, (_, i) => ({ attributes: runs.attributes(i) })));
}

export const command = defineCommand({
  name: "ingest",
  title: "read checkpoint timing traces, check every row, aggregate the accepted runs ([Y-thesis] ch. 4)",
  usage: ["ckpt ingest <file|directory>… [--format auto|canonical|host-logs|ior|fio|release-log] [--strict] [--rejects FILE] [--out FILE] [--group-by COLUMN,…] [--delimiter ';' [--decimal-comma]] [--json]"],
  description: `Per process bw = ckpt_mb / (end_s − start_s); a run's aggregated bandwidth is the sum over
its m processes; V = Σ size_mb / 1000 (GB). Runs whose processes share one size v form the
size series of v: per (m, v) the count, mean and standard deviation, and each series' peak
(ī, bw_ī). Runs of mixed sizes are kept as validation points.

Inputs:
  canonical CSV   a header with run_id,node,m,size_mb,ckpt_mb,start_s,end_s (any order;
                  other columns such as cluster or repetition are kept as run attributes)
  host logs       <run>/<host>/events.log, or a campaign directory of such runs; lines
                  "<time_s> ckpt_start pid=<pid> m=<m> size_mb=<MB>" and
                  "<time_s> ckpt_end pid=<pid> ckpt_bytes=<bytes>" (see data/README.md)
  IOR results    its text output (the Results table, one line per iteration, or only its
                  "Summary of all tests") or its JSON summary (-O summaryFormat=JSON), 3.x/4.x:
                  each write line a run of m = tasks writers of blockSize × segments bytes at
                  IOR's bandwidth (MiB/s read as MB/s × 1.048576)
  fio results    --output-format=json or json+, with or without group_reporting, --client
                  mode: each group a run of its jobs, each writing write.io_bytes
  release log     the log \`ckpt release --log FILE\` appends (one JSON object a line): each
                  wave of a release a run of m = its jobs that saved, V = Σ their sizes
                  (the plan's), at V over the time from the wave's first signal to its
                  last end; every other line is rejected with why (a requeue, a job not
                  saved, a line cut when the hook stopped …)
  IOR's, fio's group-reported and a release's bandwidth is all bytes over the wall time; the papers' (and
  fio's per-job) the sum of the writers' own: each run says which (bandwidth_definition).
  A directory without host logs stands for the .csv files in it (and, unless --format
  canonical, its .json, .txt, .out and .log result files; one that is none of the formats is
  skipped with a warning). The format of each input is printed; --format forces one.
  A row is one physical line (a quote that does not close on its line rejects that line
  only); lines starting with # are comments; UTF-8 with or without a byte-order mark, LF,
  CR LF or CR line endings; UTF-16 and compressed files are refused with how to convert.
  A spreadsheet's CSV in a decimal-comma locale (fields separated by ';', numbers written
  6,5) is read as such, detected from its header and first rows and said in a warning, or
  as --delimiter ';' --decimal-comma say.`,
  allowPositionals: true,
  options: {
    format: {
      kind: "choice",
      choices: FORMATS,
      default: "auto",
      help: "auto: a directory is host logs, a file is told by its content (canonical CSV, IOR text or JSON, fio JSON, the log of `ckpt release --log`); or one of canonical, host-logs, ior, fio, release-log",
    },
    strict: { kind: "flag", help: 'stop at the first bad row with "file:line: reason" (exit 1)' },
    rejects: {
      kind: "string",
      value: "FILE",
      defaultText: "next to --out, <name>.rejects.csv (not written with --strict unless given)",
      help: "where to write the rejected rows (CSV: file,line,code,reason,raw)",
    },
    delimiter: {
      kind: "choice",
      choices: DELIMITER_CHOICES,
      default: "auto",
      help: "the separator between fields of canonical CSV: auto reads ';' when the header has no ',' but has ';' (a spreadsheet's CSV in a decimal-comma locale) and says so",
    },
    "decimal-comma": {
      kind: "flag",
      help: "with --delimiter ';': numbers use ',' as the decimal mark (6,5); detected from the first rows when not given",
    },
    out: { kind: "string", value: "FILE", default: DEFAULT_OUT, help: "the observations artifact, JSON; written atomically" },
    "group-by": { kind: "strings", value: "COLS", help: "run attributes (extra columns) that separate series, e.g. cluster" },
    json: { kind: "flag", help: "print the counts, inputs and series as JSON instead of tables" },
  },
  notes: `A row is rejected when it has missing or extra fields, an empty run_id or node, a value
that is not a number, m not a whole number ≥ 1, size_mb or ckpt_mb ≤ 0, end_s < start_s
or end_s = start_s, or repeats a (run_id, node); a whole run is rejected when its rows
contradict each other on m or their number differs from m. Always: read = accepted + rejected.

Memory grows with the number of runs, not rows (about 230 bytes a run); files of 32 MiB
or more are read on two threads. --out's folder is created if missing; an --out that is
a folder, a device, an input or inside an input folder is refused.

Exit codes: 0 done (even with rejected rows), 1 bad input (unreadable file, bad header,
--strict and a bad row, nothing accepted), 2 usage error.

Example:
  ckpt ingest data/traces/synthetic-azur.csv --out observations.json`,
  async run({ values, positionals }, io) {
    if (positionals.length === 0) {
      throw new UsageError("give at least one trace file or directory, e.g. ckpt ingest data/traces/synthetic-azur.csv");
    }
    const { format, strict, out, delimiter } = values;
    if (values["decimal-comma"] && delimiter === ",") throw new UsageError("--decimal-comma needs fields separated by something else than ',': give --delimiter ';' (or leave it to auto)");
    const dialect = { delimiter, ...(values["decimal-comma"] ? { decimalComma: true } : {}) };
    const rejectsFile = values.rejects ?? (strict ? null : defaultRejectsPath(out));
    const groupBy = values["group-by"] ?? [];

    // Refuse wrong inputs and impossible outputs before reading anything (a 100-million-row
    // trace takes a minute) and before creating any file or folder.
    const { traces, warnings } = locateTraces(positionals, { format });
    checkOutputFile(out, { flag: "--out", inputs: positionals });
    if (rejectsFile !== null) {
      checkOutputFile(rejectsFile, { flag: "--rejects", inputs: positionals });
      if (resolve(rejectsFile) === resolve(out)) throw new InputError(`--rejects and --out both name ${out}; give two different files`);
    }

    const rejects = rejectsFile === null ? null : openOutput(rejectsFile);
    const firstOfCode = new Map<string, RejectedRow>();
    let summary: IngestSummary;
    try {
      rejects?.write(REJECTS_CSV_HEADER);
      // deferHashes: a large file's SHA-256 is computed while the observations are written.
      const options = { format, strict, groupBy, ...dialect, onProgress: progressReporter(io), spillDirectory: existingFolderOf(out), deferHashes: true };
      summary = await ingestTracesTo(
        traces,
        options,
        (row) => {
          if (row.code !== undefined && !firstOfCode.has(row.code)) firstOfCode.set(row.code, row);
          if (rejects !== null) writing(rejectsFile!, () => rejects.write(rejectToCsvLine(row)));
        },
        warnings,
      );
      if (summary.counts.accepted === 0) {
        if (rejects !== null) writing(rejectsFile!, () => rejects.commit());
        const why = summary.counts.read === 0 ? "the traces hold no data rows" : nothingAcceptedMessage(summary.counts.read, summary.rejectedByCode ?? {}, firstOfCode, rejectsFile);
        throw new InputError(`nothing to aggregate: ${why}`);
      }
      const { series, validationRuns } = summariseRunTable(summary.runs, { groupBy });
      const context = { toolVersion: TOOL_VERSION, format, strict, groupBy, rejectsFile };
      await writingAsync(out, () => writeObservationsArtifact(out, summary, { series, validationRuns }, context));
      if (rejects !== null) writing(rejectsFile!, () => rejects.commit());
      const report: Report = { summary, series, groupBy, validationRuns: validationRuns.length, firstOfCode };
      if (values.json) {
        io.stdout(
          JSON.stringify(
            {
              counts: summary.counts,
              rejectedByCode: summary.rejectedByCode ?? {},
              inputs: summary.inputs,
              warnings: summary.warnings ?? [],
              formats: summary.formats ?? [],
              bandwidthDefinitions: bandwidthDefinitionCounts(summary.runs),
              out,
              rejectsFile,
              runs: summary.runs.length,
              validationRuns: validationRuns.length,
              series,
            },
            null,
            2,
          ),
        );
      } else {
        io.stdout(humanReport(report, out, rejectsFile));
      }
    } finally {
      rejects?.abort();
    }
    return 0;
  },
});
