/**
 * The "host logs" trace layout: what a checkpoint campaign on a cluster leaves behind when
 * every host logs its own checkpoint events (the [Y-thesis] ch. 4 set-up: a script on each
 * node records, per process, when the checkpoint started and ended and the file's size).
 *
 *     <campaign>/                 any directory
 *       <run_id>/                 one directory per parallel checkpoint run
 *         <host>/                 one directory per host taking part
 *           events.log            that host's events (format: host-log-event.ts)
 *
 * One process checkpoint = a `ckpt_start` line and the next `ckpt_end` line with the same
 * pid in the same log. The record is located at its `ckpt_start` line and its raw text is
 * both lines. From the pair: run_id = the run directory's name, node = the host
 * directory's name, m and size_mb from the start, start_s / end_s the two times,
 * ckpt_mb = ckpt_bytes / 10^6. Then the checks of a canonical row apply, and the run-level
 * ones (the run is the directory: all its hosts' logs together).
 *
 * Decisions where the issue is silent: one checkpointed process per host and run (as in
 * the thesis campaign), so a second pair in a host's log is a duplicate (run_id, node); a
 * ckpt_start followed by another ckpt_start of the same pid rejects the first one; an
 * unpaired line or a malformed line counts as one rejected record, so that read =
 * accepted + rejected counts records (pairs) and lone lines.
 */
import { withCrLineEnds, type ByteSource } from "./byte-source";
import { MAX_LINE_BYTES } from "./canonical-line";
import { parseDecimal } from "./decimal";
import { parseHostLogLine } from "./host-log-event";
import { explainProcessValuesProblem, processValuesProblem } from "./process-values";
import { rejectMessage } from "./reject-reasons";
import type { LedgerScope, RowLedger } from "./row-ledger";
import { sniffTraceEncoding } from "./trace-encoding";
import { formatCount } from "../shared/format-table";

/** The file name of a host's event log inside its host directory. */
export const HOST_EVENT_LOG = "events.log";

export interface HostLogRun {
  /** The run directory (for messages and `RunObservation.source`). */
  label: string;
  runId: string;
  /** The run's hosts, each with a way to open its event log. */
  hosts: { host: string; open: () => Promise<ByteSource> }[];
}

interface LineAt {
  text: string;
  line: number;
}

/**
 * The lines of a source, streamed in chunks: LF or CR LF endings (CR alone when the file's
 * first line ends so, see `trace-encoding.ts`), a UTF-8 byte-order mark skipped, UTF-16
 * and other non-text files refused. A line longer than `MAX_LINE_BYTES` is passed on as
 * null (not held in memory).
 */
async function forEachLine(original: ByteSource, visit: (text: string | null, line: number) => void): Promise<void> {
  const chunk = Buffer.allocUnsafe(1 << 16);
  const first = await original.read(chunk, 0, chunk.length, 0);
  const encoding = sniffTraceEncoding(chunk.subarray(0, first), original.name, first < chunk.length);
  const source = encoding.lineEnding === "cr" ? withCrLineEnds(original) : original;
  let position = encoding.bomBytes;
  let carry = Buffer.alloc(0);
  let tooLong = false;
  let line = 1;
  const emit = (bytes: Buffer | null) => {
    let text = bytes === null ? null : bytes.toString("utf8");
    if (text?.endsWith("\r")) text = text.slice(0, -1);
    visit(text, line++);
  };
  for (;;) {
    const bytesRead = await source.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let bytes = carry.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
    for (let newline = bytes.indexOf(10); newline >= 0; newline = bytes.indexOf(10)) {
      emit(tooLong ? null : bytes.subarray(0, newline));
      tooLong = false;
      bytes = bytes.subarray(newline + 1);
    }
    carry = Buffer.from(bytes);
    if (carry.length > MAX_LINE_BYTES) {
      tooLong = true;
      carry = Buffer.alloc(0);
    }
  }
  if (carry.length > 0 || tooLong) emit(tooLong ? null : carry);
}

const HOST_LOG_LABELS = { ckpt_mb: "ckpt_bytes", start_s: "time of ckpt_start", end_s: "time of ckpt_end" } as const;
const CORE_KEYS = new Set(["pid", "m", "size_mb", "ckpt_bytes"]);

/** Read one run directory into the ledger; returns each event log read, with its SHA-256. */
export async function readHostLogRun(run: HostLogRun, ledger: RowLedger): Promise<{ path: string; sha256: string }[]> {
  const scope: LedgerScope = ledger.openScope(run.label);
  const attributeIndex = new Map<string, number>();
  const inputs: { path: string; sha256: string }[] = [];
  for (const { host, open: openLog } of run.hosts) {
    const source = await openLog();
    try {
      await readHostLog(source, host, run, scope, attributeIndex, ledger);
      inputs.push({ path: source.name, sha256: await source.sha256() });
    } finally {
      await source.close();
    }
  }
  ledger.closeScope();
  return inputs;
}

async function readHostLog(
  source: ByteSource,
  host: string,
  run: HostLogRun,
  scope: LedgerScope,
  attributeIndex: Map<string, number>,
  ledger: RowLedger,
): Promise<void> {
  const sourceIndex = ledger.addSource({ name: source.name, readRaw: () => "" });
  const runKey = ledger.runKeyOfText(run.runId);
  const open = new Map<string, LineAt & { timeText: string; values: Map<string, string> }>();
  const rejectLine = (at: LineAt, code: "malformed-event" | "unpaired-event" | "line-too-long", reason: string) =>
    ledger.reject(sourceIndex, at.line, 0, 0, at.text, code, reason, runKey);

  await forEachLine(source, (text, line) => {
    if (text === null) {
      rejectLine({ text: `(a line of more than ${formatCount(MAX_LINE_BYTES)} bytes, not kept)`, line }, "line-too-long", rejectMessage.lineTooLong(MAX_LINE_BYTES));
      return;
    }
    const event = parseHostLogLine(text);
    if (event.kind === "none") return;
    if (event.kind === "malformed") {
      rejectLine({ text, line }, "malformed-event", rejectMessage.malformedEvent(event.detail));
      return;
    }
    if (event.kind === "ckpt_start") {
      const earlier = open.get(event.pid);
      if (earlier !== undefined) {
        rejectLine(earlier, "unpaired-event", rejectMessage.startWithoutEnd(event.pid, `${source.name}:${line}`));
      }
      open.set(event.pid, { text, line, timeText: event.timeText, values: event.values });
      return;
    }
    const start = open.get(event.pid);
    if (start === undefined) {
      rejectLine({ text, line }, "unpaired-event", rejectMessage.endWithoutStart(event.pid));
      return;
    }
    open.delete(event.pid);
    const raw = `${start.text}\n${text}`;
    const texts = {
      m: start.values.get("m")!,
      size_mb: start.values.get("size_mb")!,
      ckpt_mb: event.values.get("ckpt_bytes")!,
      start_s: start.timeText,
      end_s: event.timeText,
    };
    const m = parseDecimal(texts.m);
    const sizeMb = parseDecimal(texts.size_mb);
    const ckptMb = parseDecimal(texts.ckpt_mb) / 1e6;
    const startS = parseDecimal(texts.start_s);
    const endS = parseDecimal(texts.end_s);
    const problem = processValuesProblem(m, sizeMb, ckptMb, startS, endS);
    if (problem !== 0) {
      const { code, reason } = explainProcessValuesProblem(problem, { m, sizeMb, ckptMb, startS, endS }, (c) => texts[c], HOST_LOG_LABELS);
      ledger.reject(sourceIndex, start.line, 0, 0, raw, code, reason, runKey);
      return;
    }
    const attributes: (string | undefined)[] = [];
    for (const values of [start.values, event.values]) {
      for (const [key, value] of values) {
        if (CORE_KEYS.has(key)) continue;
        let index = attributeIndex.get(key);
        if (index === undefined) {
          index = scope.attributeNames.length;
          attributeIndex.set(key, index);
          scope.attributeNames.push(key);
        }
        if (attributes[index] === undefined) attributes[index] = value;
      }
    }
    attributes.length = scope.attributeNames.length;
    const added = ledger.addProcess(runKey, ledger.nodeKeyOfText(host), m, sizeMb, ckptMb / (endS - startS), sourceIndex, start.line, 0, 0, raw);
    if (added < 0) return;
    for (let j = 0; j < attributes.length; j++) {
      const value = attributes[j];
      ledger.noteAttribute(added, j, value === undefined ? -1 : ledger.attributeKeyOfText(j, value));
    }
  });
  for (const [pid, start] of open) rejectLine(start, "unpaired-event", rejectMessage.startWithoutEnd(pid, null));
}
