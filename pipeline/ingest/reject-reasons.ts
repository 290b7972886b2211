/**
 * Why a trace row is rejected: the codes, and the one place their messages are written.
 *
 * A message says what was expected, what was found, and (where it is not obvious) how to
 * fix it; the position (`file:line`) is added by whoever reports the row. Codes are stable
 * identifiers for counting and filtering (the rejects file has a `code` column).
 */

import { formatCount } from "../shared/format-table";

export const REJECT_CODES = [
  /** The row has fewer or more fields than the header. */
  "field-count",
  /** run_id or node is empty. */
  "empty-field",
  /** A numeric field is not a finite decimal number. */
  "non-numeric",
  /** m is not an integer ≥ 1. */
  "invalid-m",
  /** size_mb ≤ 0. */
  "non-positive-size",
  /** ckpt_mb ≤ 0. */
  "non-positive-ckpt",
  /** end_s < start_s. */
  "end-before-start",
  /** end_s = start_s: the bandwidth would be infinite. */
  "zero-duration",
  /** A second row for the same (run_id, node). */
  "duplicate-process",
  /** The rows of one run declare different m. */
  "contradicting-m",
  /** A run has a number of valid rows different from its m. */
  "run-size-mismatch",
  /** A quoted field that does not close on its line. */
  "malformed-csv",
  /** A line longer than the reader holds (1 MiB): not a trace row. */
  "line-too-long",
  /** Host logs: a line that is not `<time_s> <event> key=value…`. */
  "malformed-event",
  /** Host logs: a ckpt_start without its ckpt_end, or a ckpt_end without its ckpt_start. */
  "unpaired-event",
  /** ckpt_mb / (end_s − start_s) is 0 or overflows (or m times it does): no finite aggregated bandwidth. */
  "bandwidth-out-of-range",
  /** IOR or fio: a phase or job that does not write (read, remove, a mixed read/write job): not a checkpoint. */
  "not-a-write",
  /** fio: a job that ended with an error (its "error" field is not 0). */
  "job-error",
  /** IOR or fio: a result line or job whose fields cannot be read as one (a column missing, a value not a number). */
  "malformed-result",
] as const;

export type RejectCode = (typeof REJECT_CODES)[number];

/** Quote a found value for a message, shortened when long. */
export function shown(text: string): string {
  const short = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return JSON.stringify(short);
}

export const rejectMessage = {
  fieldCount(expected: number, found: number): string {
    const what = found < expected ? "missing fields" : "extra fields";
    return `${what}: expected ${expected} fields (as in the header), found ${found}; check for a lost or extra comma, or quote a value that contains a comma`;
  },
  emptyField(column: string): string {
    return `${column} is empty; every row needs a ${column}`;
  },
  nonNumeric(column: string, text: string): string {
    const hint = text.trim() !== text ? " (spaces around values are not allowed)" : "";
    return `${column} must be a finite decimal number, found ${shown(text)}${hint}`;
  },
  invalidM(m: number): string {
    return `m must be a whole number ≥ 1 (processes checkpointed together), found ${m}`;
  },
  nonPositiveSize(sizeMb: number): string {
    return `size_mb must be > 0 (the application's memory in MB), found ${sizeMb}`;
  },
  nonPositiveCkpt(ckptMb: number): string {
    return `ckpt_mb must be > 0 (MB written by the checkpoint), found ${ckptMb}`;
  },
  endBeforeStart(startS: number, endS: number): string {
    return `end_s (${endS}) is before start_s (${startS}); are the two columns swapped?`;
  },
  zeroDuration(startS: number): string {
    return `end_s equals start_s (${startS}): a checkpoint takes a positive time, the bandwidth would be infinite`;
  },
  bandwidthOutOfRange(m: number, ckptMb: number, startS: number, endS: number): string {
    const bw = ckptMb / (endS - startS);
    const what = !(bw > 0) ? "is 0 MB/s" : bw === Infinity ? "overflows" : `is ${bw} MB/s, and m = ${m} processes at that rate overflow`;
    return `the bandwidth ckpt_mb / (end_s − start_s) = ${ckptMb} / (${endS} − ${startS}) ${what}: not a measurable bandwidth; check the units of ckpt_mb (MB) and of the times (s)`;
  },
  duplicateProcess(runId: string, node: string, firstAt: string): string {
    return `duplicate process: run ${shown(runId)} already has node ${shown(node)} (first at ${firstAt}); only the first row counts in the run`;
  },
  contradictingM(runId: string, values: { m: number; at: string }[]): string {
    const list = values.map((v) => `m = ${v.m} at ${v.at}`).join(", ");
    return `run ${shown(runId)} mixes contradicting m (${list}); all rows of a run must give the same m, so the whole run is rejected`;
  },
  runSizeMismatch(runId: string, m: number, validRows: number, otherRejected: number): string {
    const others = otherRejected > 0 ? ` (${otherRejected} other row${otherRejected === 1 ? " was" : "s were"} rejected)` : "";
    return `run ${shown(runId)} declares m = ${m} but has ${validRows} valid row${validRows === 1 ? "" : "s"}${others}; a run's aggregated bandwidth needs all of its m processes, so the whole run is rejected`;
  },
  malformedCsv(detail: string): string {
    return `malformed CSV: ${detail}; quote the whole field ("…") and double every quote inside it ("")`;
  },
  lineTooLong(limit: number, bytes?: number): string {
    const size = bytes === undefined ? "" : ` (${formatCount(bytes)} bytes)`;
    return `the line is longer than the ${formatCount(limit)} bytes a trace row may have${size}; is a line break missing?`;
  },
  malformedEvent(detail: string): string {
    return `malformed event line: ${detail}; expected "<time_s> ckpt_start pid=<pid> m=<m> size_mb=<MB>" or "<time_s> ckpt_end pid=<pid> ckpt_bytes=<bytes>"`;
  },
  startWithoutEnd(pid: string, nextStartAt: string | null): string {
    const until = nextStartAt === null ? "before the end of the log" : `before the next ckpt_start of that pid (${nextStartAt})`;
    return `ckpt_start of pid ${shown(pid)} has no ckpt_end ${until}`;
  },
  endWithoutStart(pid: string): string {
    return `ckpt_end of pid ${shown(pid)} has no ckpt_start before it`;
  },
  notAWrite(what: string): string {
    return `${what}: bw(m, V) is the bandwidth of writing checkpoints, so only write phases are read`;
  },
  jobError(job: string, error: number): string {
    return `fio job ${shown(job)} ended with error ${error}: what it wrote is not a finished checkpoint, so its run is not used either`;
  },
  malformedResult(detail: string): string {
    return `malformed result: ${detail}`;
  },
  /** `ckpt release --log`: a line that does not say when a saved checkpoint started and ended. */
  releaseLogLine(what: string): string {
    return `release log: ${what}`;
  },
  incompleteBenchmarkRun(runId: string, m: number, rejectedWriters: number): string {
    return `run ${shown(runId)} has ${m} writers of which ${rejectedWriters} ${rejectedWriters === 1 ? "was" : "were"} rejected; a run's aggregated bandwidth needs all of its writers, so the whole run is rejected`;
  },
};

/** A rejected row as the summary below shows it (a `RejectedRow` of ingest-files.ts). */
interface RejectExample {
  file: string;
  line: number;
  reason: string;
  raw: string;
}

/** Longest raw row shown in a summary (the rejects file has it whole). */
const EXAMPLE_CHARS = 160;

/**
 * Why no row was accepted, for the message that refuses to go on: the most frequent reasons
 * (at most `limit`, most frequent first), each with its count and its first row — where,
 * why, and the row as read — so that the usual causes (a wrong separator, a unit, a column
 * swapped) show without opening the rejects file.
 */
export function nothingAcceptedMessage(
  read: number,
  rejectedByCode: Partial<Record<RejectCode, number>>,
  firstOfCode: ReadonlyMap<string, RejectExample>,
  rejectsFile: string | null,
  limit = 5,
): string {
  const reasons = (Object.entries(rejectedByCode) as [string, number][]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const lines = [
    `${read === 1 ? "its only row was rejected" : `all ${formatCount(read)} rows were rejected`}${rejectsFile === null ? "" : ` (every one, with its reason, is in ${rejectsFile})`}. ` +
      `${reasons.length === 1 ? "The reason" : "The most frequent reasons"}, with the first row of each:`,
  ];
  for (const [code, count] of reasons.slice(0, limit)) {
    const first = firstOfCode.get(code);
    lines.push(`  ${formatCount(count)} × ${code}${first ? `: ${first.file}:${first.line}: ${first.reason}` : ""}`);
    if (first) lines.push(`      ${first.raw.length > EXAMPLE_CHARS ? `${first.raw.slice(0, EXAMPLE_CHARS)}…` : first.raw}`);
  }
  if (reasons.length > limit) lines.push(`  … and ${reasons.length - limit} other reason${reasons.length - limit === 1 ? "" : "s"}`);
  return lines.join("\n");
}
