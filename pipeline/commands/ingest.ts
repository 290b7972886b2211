/**
 * `ckpt ingest`: read traces, validate every row, aggregate; write the observations
 * artifact and the rejects file; print the counts and the size series.
 */
import { dirname, join, basename } from "node:path";
import { openAtomicLineWriter, writeJsonAtomic } from "../shared/atomic-write";
import { booleanFlag, choiceFlag, optionalStringFlag, stringFlag, type LegacyCommand, type CommandIo } from "../shared/command";
import { InputError, UsageError } from "../shared/errors";
import { formatNumber, formatTable } from "../shared/format-table";
import { TOOL_VERSION } from "../shared/version";
import { ingestFiles, type IngestResult, type TraceFormat } from "../ingest/ingest-files";
import { buildObservationsArtifact } from "../ingest/observations-artifact";
import { REJECTS_CSV_HEADER, rejectToCsvLine } from "../ingest/rejects-csv";

const FORMATS: readonly TraceFormat[] = ["auto", "canonical", "host-logs"];
const DEFAULT_OUT = "observations.json";

/** `observations.json` → `observations.rejects.csv`, next to it. */
export function defaultRejectsPath(out: string): string {
  const name = basename(out).replace(/\.json$/i, "");
  return join(dirname(out), `${name}.rejects.csv`);
}

function writeRejects(path: string, result: IngestResult): void {
  const writer = openAtomicLineWriter(path);
  try {
    writer.write(REJECTS_CSV_HEADER);
    for (const reject of result.rejects) writer.write(rejectToCsvLine(reject));
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
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
    io.stderr(`ckpt ingest: ${rowsRead.toLocaleString("en-US")} rows read (${(rate / 1e6).toFixed(2)} M rows/s)…`);
  };
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

function humanReport(result: IngestResult, out: string, rejectsFile: string | null): string {
  const { counts, observations } = result;
  const lines: string[] = [];
  lines.push(
    `read ${plural(counts.read, "row")} from ${plural(result.inputs.length, "file")}: ${counts.accepted.toLocaleString("en-US")} accepted, ${counts.rejected.toLocaleString("en-US")} rejected`,
  );
  const uniformRuns = observations.runs.length - observations.validationRuns.length;
  lines.push(
    `runs: ${observations.runs.length.toLocaleString("en-US")} accepted — ${uniformRuns.toLocaleString("en-US")} of uniform size in ${observations.series.length.toLocaleString("en-US")} size series, ${observations.validationRuns.length.toLocaleString("en-US")} of mixed sizes kept for validation`,
  );
  for (const warning of result.warnings ?? []) lines.push(`warning: ${warning}`);
  lines.push(`wrote ${out}${rejectsFile === null ? "" : `; rejected rows in ${rejectsFile}`}`);
  const byCode = Object.entries(result.rejectedByCode ?? {});
  if (byCode.length > 0) {
    lines.push("", "rejected rows by reason");
    const firstOf = new Map<string, string>();
    for (const r of result.rejects) if (r.code && !firstOf.has(r.code)) firstOf.set(r.code, `${r.file}:${r.line}`);
    lines.push(formatTable(["reason", "rows", "first at"], byCode.map(([code, n]) => [code, String(n), firstOf.get(code) ?? ""])));
  }
  if (observations.series.length > 0) {
    const grouped = (observations.groupBy ?? []).length > 0;
    lines.push("", "size series (mean aggregated bandwidth per (m, v); peak = the m with the largest mean)");
    const header = [...(grouped ? ["group"] : []), "size_mb", "m", "runs", "peak ī", "bw_ī (MB/s)", "sd at ī", "V at ī (GB)"];
    const rows = observations.series.map((s) => {
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

export const command: LegacyCommand = {
  name: "ingest",
  allowPositionals: true,
  help: `Usage: ckpt ingest <file|directory>… [--format auto|canonical|host-logs] [--strict]
                   [--rejects FILE] [--out FILE] [--group-by COLUMN,…] [--json]

Reads checkpoint timing traces, checks every row, and aggregates the accepted runs ([Y-thesis] ch. 4):
per process bw = ckpt_mb / (end_s − start_s); a run's aggregated bandwidth is the sum over
its m processes; V = Σ size_mb / 1000 (GB). Runs whose processes share one size v form the
size series of v: per (m, v) the count, mean and standard deviation, and each series' peak
(ī, bw_ī). Runs of mixed sizes are kept as validation points.

Inputs:
  canonical CSV   a header with run_id,node,m,size_mb,ckpt_mb,start_s,end_s (any order;
                  other columns such as cluster or repetition are kept as run attributes)
  host logs       <run>/<host>/events.log, or a campaign directory of such runs; lines
                  "<time_s> ckpt_start pid=<pid> m=<m> size_mb=<MB>" and
                  "<time_s> ckpt_end pid=<pid> ckpt_bytes=<bytes>" (see data/README.md)
  A directory without host logs stands for the .csv files in it.

Options:
  --format F        auto (default: a file is canonical CSV, a directory host logs),
                    canonical, or host-logs
  --strict          stop at the first bad row with "file:line: reason" (exit 1)
  --rejects FILE    where to write the rejected rows (CSV: file,line,code,reason,raw);
                    default: next to --out, <name>.rejects.csv (not written with --strict
                    unless given)
  --out FILE        the observations artifact, JSON (default ${DEFAULT_OUT}); written atomically
  --group-by COLS   run attributes (extra columns) that separate series, e.g. cluster
  --json            print the counts, inputs and series as JSON instead of tables
  -h, --help        this help

A row is rejected when it has missing or extra fields, an empty run_id or node, a value
that is not a number, m not a whole number ≥ 1, size_mb or ckpt_mb ≤ 0, end_s < start_s
or end_s = start_s, or repeats a (run_id, node); a whole run is rejected when its rows
contradict each other on m or their number differs from m. Always: read = accepted + rejected.

Exit codes: 0 done (even with rejected rows), 1 bad input (unreadable file, bad header,
--strict and a bad row, nothing accepted), 2 usage error.

Example:
  ckpt ingest data/traces/synthetic-azur.csv --out observations.json`,
  options: {
    format: { type: "string" },
    strict: { type: "boolean" },
    rejects: { type: "string" },
    out: { type: "string" },
    "group-by": { type: "string" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    if (args.positionals.length === 0) {
      throw new UsageError("give at least one trace file or directory, e.g. ckpt ingest data/traces/synthetic-azur.csv");
    }
    const format = choiceFlag(args, "format", FORMATS, "auto");
    const strict = booleanFlag(args, "strict");
    const out = stringFlag(args, "out", DEFAULT_OUT);
    const explicitRejects = optionalStringFlag(args, "rejects");
    const rejectsFile = explicitRejects ?? (strict ? null : defaultRejectsPath(out));
    const groupBy = (optionalStringFlag(args, "group-by") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");

    const result = await ingestFiles(args.positionals, { format, strict, groupBy, onProgress: progressReporter(io) });
    if (rejectsFile !== null) writeRejects(rejectsFile, result);
    if (result.counts.accepted === 0) {
      const where = result.counts.read === 0 ? "the traces hold no data rows" : `all ${result.counts.read} rows were rejected; see ${rejectsFile}`;
      throw new InputError(`nothing to aggregate: ${where}`);
    }
    writeJsonAtomic(out, buildObservationsArtifact(result, { toolVersion: TOOL_VERSION, format, strict, groupBy, rejectsFile }));
    if (booleanFlag(args, "json")) {
      const { observations } = result;
      io.stdout(
        JSON.stringify(
          {
            counts: result.counts,
            rejectedByCode: result.rejectedByCode ?? {},
            inputs: result.inputs,
            warnings: result.warnings ?? [],
            out,
            rejectsFile,
            runs: observations.runs.length,
            validationRuns: observations.validationRuns.length,
            series: observations.series,
          },
          null,
          2,
        ),
      );
    } else {
      io.stdout(humanReport(result, out, rejectsFile));
    }
    return 0;
  },
};
