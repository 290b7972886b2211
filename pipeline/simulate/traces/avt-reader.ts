/**
 * Godfrey's `.avt` availability files (Repository of Availability Traces, readme §2.1): one
 * node per line, `<node id> <n> <start_1> <end_1> … <start_n> <end_n>`, the n sessions during
 * which the node was available, in seconds; `#` lines are comments. Sessions censored by the
 * start or end of the measurement are kept as they are.
 *
 * A line is rejected — with its line number and reason — when its fields are not numbers,
 * when it does not hold exactly n pairs, when a session ends before it starts, or when
 * sessions overlap or are out of order. Every line is accepted, a comment/blank, or
 * rejected.
 */
import type { AvailabilityTrace, TraceLineReject } from "./availability-trace";
import { assembleTrace, buildNodes, MAX_TIME_S } from "./fta-reader";
import { readTraceLines } from "./trace-lines";

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export async function readAvtTrace(path: string): Promise<AvailabilityTrace> {
  const source = readTraceLines(path);
  const rejects: TraceLineReject[] = [];
  const byNode = new Map<string, { start: number; end: number; available: boolean; line: number; raw: string }[]>();
  let lines = 0;
  let comments = 0;
  let earliest = Infinity;
  let latest = -Infinity;
  for await (const { number, text } of source.lines) {
    lines++;
    const trimmed = text.trim();
    if (trimmed === "" || trimmed.startsWith("#")) {
      comments++;
      continue;
    }
    const reject = (reason: string) => rejects.push({ line: number, reason, raw: text });
    const fields = trimmed.split(/\s+/);
    if (fields.length < 2 || !fields.every((f) => NUMBER.test(f))) {
      reject("expected numbers: <node id> <n sessions> <start_1> <end_1> … <start_n> <end_n>");
      continue;
    }
    const node = fields[0]!;
    const n = Number(fields[1]);
    if (!Number.isInteger(n) || n < 0 || fields.length !== 2 + 2 * n) {
      reject(`the line says ${fields[1]} sessions but holds ${(fields.length - 2) / 2} pairs of times`);
      continue;
    }
    if (byNode.has(node)) {
      reject(`node ${node} already has a line (line ${byNode.get(node)![0]?.line ?? "?"}); one line per node`);
      continue;
    }
    const sessions: { start: number; end: number; available: boolean; line: number; raw: string }[] = [];
    let problem: string | null = null;
    for (let i = 0; i < n && problem === null; i++) {
      const start = Number(fields[2 + 2 * i]);
      const end = Number(fields[3 + 2 * i]);
      if (!(Math.abs(start) <= MAX_TIME_S && Math.abs(end) <= MAX_TIME_S)) problem = `session ${i + 1}: times must be seconds within ±${MAX_TIME_S}, found ${fields[2 + 2 * i]} and ${fields[3 + 2 * i]}`;
      else if (end < start) problem = `session ${i + 1} ends (${end}) before it starts (${start})`;
      else if (i > 0 && start < sessions[i - 1]!.end) problem = `session ${i + 1} starts (${start}) before session ${i} ends (${sessions[i - 1]!.end})`;
      else sessions.push({ start, end, available: true, line: number, raw: text });
    }
    if (problem !== null) {
      reject(problem);
      continue;
    }
    for (const s of sessions) {
      earliest = Math.min(earliest, s.start);
      latest = Math.max(latest, s.end);
    }
    byNode.set(node, sessions);
  }
  // Every node of an .avt file was measured over the whole trace (sessions are censored at its ends).
  const span = { fromS: Number.isFinite(earliest) ? earliest : 0, toS: Number.isFinite(latest) ? latest : 0 };
  const built = buildNodes(byNode, rejects, span);
  // Gaps between sessions are the unavailability an .avt file describes: not worth a warning.
  return assembleTrace("avt", path, source.sha256(), built.nodes, { startS: span.fromS, endS: span.toS }, { lines, comments }, rejects, []);
}
