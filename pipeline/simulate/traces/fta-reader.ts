/**
 * The Failure Trace Archive's tabular `event_trace` format (docs/science.md §6.2.3): one
 * interval per line, whitespace separated, an optional header line (with or without a
 * leading `#`) naming the columns `event_id component_id node_id platform_id node_name
 * event_type event_start_time event_stop_time event_end_reason` (`event_end_time` is
 * accepted for the stop column). `event_type` 1 is an available interval, 0 an unavailable
 * one; times are epoch seconds (decimals accepted), kept as they are (the LANL trace stores
 * local wall-clock time as if UTC; the simulators only use differences).
 *
 * Rules: per node (`node_id`), intervals are sorted by start; a line is rejected — with its
 * line number and reason — when it has too few fields, a non-numeric time, an unknown event
 * type, a stop before its start, or an interval that overlaps an earlier one of the same
 * node. Gaps between recorded intervals are unavailable (`gapPolicy = "unavailable"`) and
 * counted in a warning. Every line is accepted, a comment/header/blank, or rejected.
 */
import { InputError } from "../../shared/errors";
import type { AvailabilityTrace, NodeAvailability, TraceFormat, TraceLineReject } from "./availability-trace";
import { readTraceLines } from "./trace-lines";

const DEFAULT_COLUMNS = [
  "event_id",
  "component_id",
  "node_id",
  "platform_id",
  "node_name",
  "event_type",
  "event_start_time",
  "event_stop_time",
  "event_end_reason",
];

interface Interval {
  start: number;
  end: number;
  available: boolean;
  line: number;
  raw: string;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** Times beyond this (s) are no date: 1e400 would be read as Infinity, 6e101 as a span of 10^96 days. */
export const MAX_TIME_S = 1e12;

export async function readFtaTrace(path: string): Promise<AvailabilityTrace> {
  const source = readTraceLines(path);
  const rejects: TraceLineReject[] = [];
  const byNode = new Map<string, Interval[]>();
  let columns: Map<string, number> | null = null;
  let lines = 0;
  let comments = 0;
  for await (const { number, text } of source.lines) {
    lines++;
    const trimmed = text.trim();
    if (trimmed === "") {
      comments++;
      continue;
    }
    const fields = trimmed.replace(/^#\s*/, "").split(/\s+/);
    if (columns === null && (trimmed.startsWith("#") || fields.includes("event_type"))) {
      if (fields.includes("event_type")) columns = columnIndex(fields, path, number);
      comments++;
      continue;
    }
    if (trimmed.startsWith("#")) {
      comments++;
      continue;
    }
    columns ??= columnIndex(DEFAULT_COLUMNS, path, number);
    const reject = (reason: string) => rejects.push({ line: number, reason, raw: text });
    const field = (name: string) => fields[columns!.get(name)!];
    const needed = Math.max(...columns.values()) + 1;
    if (fields.length < needed) {
      reject(`expected at least ${needed} whitespace-separated fields (${[...columns.keys()].filter((name) => name !== "stop").join(" ")}), found ${fields.length}`);
      continue;
    }
    const node = field("node_id")!;
    const type = field("event_type")!;
    const startText = field("event_start_time")!;
    const stopText = field("stop")!;
    if (type !== "0" && type !== "1") {
      reject(`event_type must be 1 (available) or 0 (unavailable), found "${type}"`);
      continue;
    }
    if (!NUMBER.test(startText) || !NUMBER.test(stopText)) {
      reject(`event_start_time and event_stop_time must be numbers of seconds, found "${startText}" and "${stopText}"`);
      continue;
    }
    const start = Number(startText);
    const end = Number(stopText);
    if (!(Math.abs(start) <= MAX_TIME_S && Math.abs(end) <= MAX_TIME_S)) {
      reject(`event times must be seconds within ±${MAX_TIME_S} (about 31 700 years), found "${startText}" and "${stopText}"`);
      continue;
    }
    if (end < start) {
      reject(`event_stop_time ${stopText} is before event_start_time ${startText}`);
      continue;
    }
    let intervals = byNode.get(node);
    if (intervals === undefined) byNode.set(node, (intervals = []));
    intervals.push({ start, end, available: type === "1", line: number, raw: text });
  }
  const built = buildNodes(byNode, rejects);
  return assembleTrace("fta", path, source.sha256(), built.nodes, built, { lines, comments }, rejects, built.warnings);
}

/** A reader's trace: its nodes and span, and every line accounted for (accepted, a comment, or rejected: in line order). */
export function assembleTrace(
  format: TraceFormat,
  path: string,
  sha256: string,
  nodes: NodeAvailability[],
  span: { startS: number; endS: number },
  read: { lines: number; comments: number },
  rejects: TraceLineReject[],
  warnings: string[],
): AvailabilityTrace {
  rejects.sort((a, b) => a.line - b.line);
  const { lines, comments } = read;
  return {
    format,
    source: path,
    sha256,
    nodes,
    startS: span.startS,
    endS: span.endS,
    counts: { lines, accepted: lines - comments - rejects.length, rejected: rejects.length, comments },
    rejects,
    warnings,
  };
}

function columnIndex(names: string[], path: string, line: number): Map<string, number> {
  const index = new Map(names.map((name, i) => [name, i]));
  const stop = index.get("event_stop_time") ?? index.get("event_end_time");
  const missing = ["node_id", "event_type", "event_start_time"].filter((name) => !index.has(name));
  if (stop === undefined) missing.push("event_stop_time (or event_end_time)");
  if (missing.length > 0) {
    throw new InputError(`${path}:${line}: the FTA header names no ${missing.join(", ")}; an event_trace table needs node_id, event_type, event_start_time and event_stop_time`);
  }
  index.set("stop", stop!);
  return index;
}

/** Sort each node's intervals, reject overlaps, keep the available ones (merged where they touch), count gaps. */
export function buildNodes(
  byNode: Map<string, Interval[]>,
  rejects: TraceLineReject[],
  observed?: { fromS: number; toS: number },
): { nodes: NodeAvailability[]; startS: number; endS: number; warnings: string[] } {
  const nodes: NodeAvailability[] = [];
  let startS = Infinity;
  let endS = -Infinity;
  let gaps = 0;
  let gapSeconds = 0;
  const keys = [...byNode.keys()].sort((a, b) => (NUMBER.test(a) && NUMBER.test(b) ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const intervals = byNode.get(key)!.sort((a, b) => a.start - b.start || a.line - b.line);
    const starts: number[] = [];
    const ends: number[] = [];
    let nodeFrom = Infinity;
    let nodeTo = -Infinity;
    let previous: Interval | null = null;
    for (const interval of intervals) {
      if (previous !== null && interval.start < previous.end) {
        rejects.push({ line: interval.line, reason: `overlaps the interval of line ${previous.line} of node ${key} (which ends at ${previous.end})`, raw: interval.raw });
        continue;
      }
      if (previous !== null && interval.start > previous.end) {
        gaps++;
        gapSeconds += interval.start - previous.end;
      }
      previous = interval;
      nodeFrom = Math.min(nodeFrom, interval.start);
      nodeTo = Math.max(nodeTo, interval.end);
      if (!interval.available || interval.end === interval.start) continue;
      if (ends.length > 0 && ends[ends.length - 1] === interval.start) ends[ends.length - 1] = interval.end;
      else {
        starts.push(interval.start);
        ends.push(interval.end);
      }
    }
    const from = observed?.fromS ?? (Number.isFinite(nodeFrom) ? nodeFrom : 0);
    const to = observed?.toS ?? (Number.isFinite(nodeTo) ? nodeTo : 0);
    startS = Math.min(startS, from);
    endS = Math.max(endS, to);
    nodes.push({ key, starts: Float64Array.from(starts), ends: Float64Array.from(ends), observedFromS: from, observedToS: to });
  }
  const warnings =
    gaps > 0
      ? [`${gaps} gap(s) between recorded intervals (${(gapSeconds / 3600).toFixed(1)} h in total) are treated as unavailable (gapPolicy "unavailable", docs/science.md §6.2.3)`]
      : [];
  return { nodes, startS: Number.isFinite(startS) ? startS : 0, endS: Number.isFinite(endS) ? endS : 0, warnings };
}
