/**
 * fio's JSON output (`--output-format=json` or `json+`, fio 3.x) → runs of bw(m, V).
 *
 * fio lists one entry per job under `jobs` (or, with `--client`, per job and server under
 * `client_stats`, plus an "All clients" entry that sums them). Jobs of one group
 * (`groupid`: every job until a `stonewall`/`new_group`) run at the same time: a group is a
 * run, its writers the jobs. Without `group_reporting` each job is a writer of `write.io_bytes`
 * in `write.runtime` ms (which includes `end_fsync`), and the run's bandwidth is the sum of
 * the jobs' own — the papers' definition, `sum-of-writers`. With `group_reporting` fio prints
 * one entry for the group's `numjobs` jobs, whose bytes are the jobs' sum and whose runtime is
 * the longest job's: bytes over wall time, `bytes-over-wall-time` (bandwidth-definition.ts).
 * In `--client` mode the clients' jobs of one group form one run (fio starts them together);
 * their group reports combine as all bytes over the longest runtime.
 *
 * Every job entry is a record: used in its group's run, or rejected — a job that does not
 * write (read, or reads and writes at once), one that ended with an error, one of zero
 * runtime; the other jobs of a run that lost a writer are rejected with it. fio writes no
 * `group_reporting` flag in its JSON, so a group report is recognised as an entry standing
 * for `numjobs` > 1 jobs with no sibling of its name in the group; one that holds more bytes
 * than `numjobs` × `size` merged several job sections, whose number fio does not print, and
 * is rejected. A job with a `runtime` limit whose bytes differ from its `size` (`time_based`,
 * or stopped by the limit) wrote what it could: its size is an outcome (`size_is=outcome`),
 * and its run is put at the mean size of its writers, with a warning.
 */
import { InputError } from "../shared/errors";
import { type BenchmarkReading, type BenchmarkReject, type BenchmarkRun } from "./benchmark-reading";
import { BANDWIDTH_DEFINITION_ATTRIBUTE } from "./bandwidth-definition";
import { lineFinder, parseJsonObject } from "./benchmark-json";
import { rejectMessage } from "./reject-reasons";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** fio's size options ("8M", "1g", "4096", "2GiB") → bytes; fio reads k/m/g as powers of 2 by default. */
export function fioSizeBytes(text: string | undefined): number {
  if (text === undefined) return NaN;
  const match = /^(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b)?$/i.exec(text.trim());
  if (match === null) return NaN;
  const power = match[2] === "" ? 0 : "kmgtp".indexOf(match[2]!.toLowerCase()) + 1;
  return Number(match[1]) * 1024 ** power;
}

/** fio's `rw` values that only write (its default, `read`, does not). */
const WRITE_ONLY = new Set(["write", "randwrite"]);

interface Writer {
  line: number;
  raw: string;
  entry: Json;
  /** Jobs this entry stands for (numjobs for a group report, else 1). */
  jobs: number;
  groupReport: boolean;
  bytes: number;
  runtimeMs: number;
  options: Json;
  sizeIsOutcome: boolean;
}

export function readFioJson(text: string, file: string): BenchmarkReading {
  const { value: document, start, end } = parseJsonObject(text, file);
  const entries = isObject(document) ? (document.jobs ?? document.client_stats) : undefined;
  if (!isObject(document) || !Array.isArray(entries)) {
    throw new InputError(`${file}: expected fio's JSON output (an object with "jobs" or "client_stats"), found ${isObject(document) ? `keys ${Object.keys(document).join(", ")}` : typeof document}`);
  }
  const clientMode = document.jobs === undefined;
  const version = String(document["fio version"] ?? "fio-unknown").replace(/^fio-/, "");
  const globalOptions = isObject(document["global options"]) ? document["global options"] : {};
  const lineAt = lineFinder(text);
  const jobLines = [...text.slice(start, end).matchAll(/"jobname"\s*:/g)].map((match) => lineAt(start + match.index!));
  const warnings: string[] = [];
  // In --client mode fio always prints the servers' lines there: said only otherwise, where they are fio's errors.
  if (start > 0 && !clientMode) warnings.push(`${lineAt(start) - 1} line(s) before fio's JSON object skipped (fio's own messages)`);
  const after = text.slice(end).trim();
  if (after !== "") warnings.push(`the ${after.split("\n").length} line(s) after fio's JSON object skipped (its normal output, as --output-format=json,normal prints it)`);

  const rejects: BenchmarkReject[] = [];
  const byGroup = new Map<string, { writers: Writer[]; lost: { line: number; raw: string }[]; firstLine: number }>();
  const groupOf = (id: string, line: number) => {
    let group = byGroup.get(id);
    if (group === undefined) byGroup.set(id, (group = { writers: [], lost: [], firstLine: line }));
    return group;
  };
  // Entries per (group, host, job name): a job of numjobs > 1 alone under its name is a group report.
  const siblings = new Map<string, number>();
  const siblingKey = (entry: Json) => `${String(entry.groupid)}\u0000${String(entry.hostname ?? "")}\u0000${String(entry.jobname)}`;
  for (const entry of entries) if (isObject(entry)) siblings.set(siblingKey(entry), (siblings.get(siblingKey(entry)) ?? 0) + 1);

  entries.forEach((entry, k) => {
    const line = jobLines[k] ?? 0;
    if (!isObject(entry)) {
      rejects.push({ line, raw: JSON.stringify(entry), code: "malformed-result", reason: rejectMessage.malformedResult("a job entry must be an object") });
      return;
    }
    // The sum of the clients' jobs, which are read one by one: not a record.
    if (clientMode && entry.jobname === "All clients") return;
    const write = isObject(entry.write) ? entry.write : {};
    const read = isObject(entry.read) ? entry.read : {};
    const bytes = Number(write.io_bytes ?? 0);
    const runtimeMs = Number(write.runtime ?? 0);
    const host = entry.hostname === undefined ? "" : ` on ${String(entry.hostname)}:${String(entry.port ?? "")}`;
    const jobName = String(entry.jobname ?? "?");
    const raw = `fio job "${jobName}" (group ${String(entry.groupid)}${host}): write io_bytes=${String(write.io_bytes)} runtime=${String(write.runtime)} ms, read io_bytes=${String(read.io_bytes ?? 0)}, error=${String(entry.error ?? 0)}`;
    const group = groupOf(String(entry.groupid ?? 0), line);
    const options: Json = { ...globalOptions, ...(isObject(entry["job options"]) ? entry["job options"] : {}) };
    const lose = (code: BenchmarkReject["code"], reason: string) => {
      rejects.push({ line, raw, code, reason });
      group.lost.push({ line, raw });
    };
    if (Number(entry.error ?? 0) !== 0) return lose("job-error", rejectMessage.jobError(jobName, Number(entry.error)));
    const rw = String(options.rw ?? options.readwrite ?? "read");
    if (!WRITE_ONLY.has(rw) || (Number(read.io_bytes ?? 0) > 0 && bytes > 0)) {
      rejects.push({ line, raw, code: "not-a-write", reason: rejectMessage.notAWrite(`a fio job with rw=${rw}${WRITE_ONLY.has(rw) ? " that also read" : ""}`) });
      return;
    }
    if (!(bytes > 0)) {
      rejects.push({ line, raw, code: "not-a-write", reason: rejectMessage.notAWrite("a fio job that wrote nothing") });
      return;
    }
    if (!(runtimeMs > 0) || !Number.isFinite(runtimeMs)) return lose("zero-duration", rejectMessage.malformedResult(`write.runtime must be > 0 ms, found ${JSON.stringify(write.runtime ?? null)}: the bandwidth would be infinite`));
    const numjobs = Number(options.numjobs ?? 1);
    const groupReport = numjobs > 1 && siblings.get(siblingKey(entry)) === 1;
    const jobs = groupReport ? numjobs : 1;
    const sizeSet = fioSizeBytes(options.size as string | undefined);
    if (groupReport && Number.isFinite(sizeSet) && options.runtime === undefined && bytes > jobs * sizeSet * 1.001) {
      return lose("malformed-result", rejectMessage.malformedResult(`this group report holds ${bytes} bytes, more than its numjobs × size = ${jobs} × ${sizeSet}: group_reporting merged several job sections, and fio does not say how many jobs; rerun without group_reporting`));
    }
    const sizeIsOutcome = options.time_based !== undefined || (options.runtime !== undefined && !(Number.isFinite(sizeSet) && Math.abs(bytes - jobs * sizeSet) <= 0.001 * bytes));
    group.writers.push({ line, raw, entry, jobs, groupReport, bytes, runtimeMs, options, sizeIsOutcome });
  });

  const runs: BenchmarkRun[] = [];
  for (const [groupId, group] of byGroup) {
    const runId = `group${groupId}`;
    const { writers } = group;
    if (writers.length === 0) continue;
    const m = writers.reduce((n, w) => n + w.jobs, 0);
    if (group.lost.length > 0) {
      const lost = group.lost.length;
      for (const w of writers) rejects.push({ line: w.line, raw: w.raw, code: "run-size-mismatch", reason: rejectMessage.incompleteBenchmarkRun(runId, m + lost, lost) });
      continue;
    }
    const groupReported = writers.some((w) => w.groupReport);
    const totalBytes = writers.reduce((s, w) => s + w.bytes, 0);
    const aggregatedBwMbPerS = groupReported
      ? totalBytes / 1e6 / (Math.max(...writers.map((w) => w.runtimeMs)) / 1000)
      : writers.reduce((s, w) => s + w.bytes / 1e6 / (w.runtimeMs / 1000), 0);
    const writerSizes = writers.map((w) => w.bytes / w.jobs / 1e6);
    const sizeIsOutcome = writers.some((w) => w.sizeIsOutcome);
    const sumSizeMb = totalBytes / 1e6;
    const uniform = writerSizes.every((s) => s === writerSizes[0]) ? writerSizes[0]! : null;
    const option = (name: string) => {
      const values = new Set(writers.map((w) => (w.options[name] === undefined ? "default" : String(w.options[name]))));
      return values.size === 1 ? [...values][0]! : "mixed";
    };
    const names = new Set(writers.map((w) => String(w.entry.jobname)));
    runs.push({
      runId,
      m,
      sumSizeMb,
      uniformSizeMb: sizeIsOutcome ? sumSizeMb / m : uniform,
      aggregatedBwMbPerS,
      attributes: {
        [BANDWIDTH_DEFINITION_ATTRIBUTE]: groupReported ? "bytes-over-wall-time" : "sum-of-writers",
        benchmark: "fio",
        benchmark_version: version,
        jobname: names.size === 1 ? [...names][0]! : "mixed",
        rw: option("rw"),
        bs: option("bs"),
        ioengine: option("ioengine"),
        direct: option("direct"),
        end_fsync: option("end_fsync"),
        fsync_on_close: option("fsync_on_close"),
        client_mode: clientMode ? "yes" : "no",
        size_is: sizeIsOutcome ? "outcome" : "setting",
      },
      rows: writers.length,
      line: group.firstLine,
    });
    if (groupReported) warnings.push(`${runId}: fio's group report (group_reporting) of ${m} jobs: its bandwidth is all their bytes over the longest job's runtime, not the sum of the jobs' own`);
    if (sizeIsOutcome) {
      warnings.push(`${runId}: a run limited by time (runtime=${option("runtime")}): its size is an outcome, not a setting; the run is put at the mean size its ${m} writers reached, ${(sumSizeMb / m).toFixed(3)} MB`);
    }
  }
  rejects.sort((a, b) => a.line - b.line);
  runs.sort((a, b) => a.line - b.line);
  return { detected: `fio ${version} JSON${clientMode ? " (--client mode)" : ""}`, runs, rejects, warnings };
}
