/**
 * An availability trace as the simulators use it: per node, the sorted, disjoint intervals
 * during which the node was available, in seconds; everything else — explicit
 * unavailability and gaps between recorded intervals alike (docs/science.md §6.2.3,
 * `gapPolicy = "unavailable"`) — is unavailable. Readers for the Failure Trace Archive's
 * tabular format (fta-reader.ts) and Godfrey's `.avt` files (avt-reader.ts) build it, with
 * every input line accounted for: accepted, a comment or header, or rejected with its line
 * and reason.
 *
 * Queries are binary searches over a node's interval starts: O(log k) for k intervals.
 */
import { InputError, atLine } from "../../shared/errors";

export type TraceFormat = "fta" | "avt";

export interface NodeAvailability {
  /** The node's key in the trace (FTA node_id, .avt node id). */
  key: string;
  /** Available intervals [starts[i], ends[i]), seconds, sorted, disjoint, ends[i] > starts[i]. */
  starts: Float64Array;
  ends: Float64Array;
  /** When the node was observed: from its first recorded interval's start to its last one's end (the whole measurement for .avt). */
  observedFromS: number;
  observedToS: number;
}

export interface TraceLineReject {
  line: number;
  reason: string;
  raw: string;
}

export interface AvailabilityTrace {
  format: TraceFormat;
  /** The file, as given. */
  source: string;
  /** sha256 of the file's bytes (compressed ones as stored): the trace's identity in provenance. */
  sha256: string;
  nodes: NodeAvailability[];
  /** The observed span: the earliest interval start and the latest interval end over all nodes (any event type). */
  startS: number;
  endS: number;
  counts: { lines: number; accepted: number; rejected: number; comments: number };
  rejects: TraceLineReject[];
  warnings: string[];
}

/** Index of the last interval starting at or before t, or −1. */
function lastStartAtOrBefore(node: NodeAvailability, t: number): number {
  let low = 0;
  let high = node.starts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (node.starts[mid]! <= t) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** Whether the node is available at time t. */
export function availableAt(node: NodeAvailability, t: number): boolean {
  const i = lastStartAtOrBefore(node, t);
  return i >= 0 && t < node.ends[i]!;
}

/**
 * When the node's current available interval began: the start of the interval holding t, or
 * NaN when the node is not available at t (a host's age in its availability, docs/science.md §6.1.4).
 */
export function availableSince(node: NodeAvailability, t: number): number {
  const i = lastStartAtOrBefore(node, t);
  return i >= 0 && t < node.ends[i]! ? node.starts[i]! : NaN;
}

/** The first time after t at which the node's state changes, or Infinity. */
export function nextChangeAfter(node: NodeAvailability, t: number): number {
  const i = lastStartAtOrBefore(node, t);
  if (i >= 0 && t < node.ends[i]!) return node.ends[i]!;
  return i + 1 < node.starts.length ? node.starts[i + 1]! : Infinity;
}

/** Seconds the node is available within [from, to). */
export function availableSeconds(node: NodeAvailability, from: number, to: number): number {
  let total = 0;
  for (let i = Math.max(0, lastStartAtOrBefore(node, from)); i < node.starts.length && node.starts[i]! < to; i++) {
    const start = Math.max(node.starts[i]!, from);
    const end = Math.min(node.ends[i]!, to);
    if (end > start) total += end - start;
  }
  return total;
}

export interface TraceStatistics {
  format: TraceFormat;
  source: string;
  sha256: string;
  nodes: number;
  startS: number;
  endS: number;
  spanDays: number;
  /** Mean over nodes of the fraction of its own observed time each was available. */
  meanAvailability: number;
  available: IntervalStatistics;
  /** Unavailable stretches between two available intervals of a node (censored ends left out). */
  unavailable: IntervalStatistics;
  counts: AvailabilityTrace["counts"];
  warnings: string[];
}

export interface IntervalStatistics {
  count: number;
  meanHours: number | null;
  medianHours: number | null;
}

function intervalStatistics(lengthsS: number[]): IntervalStatistics {
  if (lengthsS.length === 0) return { count: 0, meanHours: null, medianHours: null };
  const sorted = [...lengthsS].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { count: sorted.length, meanHours: sorted.reduce((a, b) => a + b, 0) / sorted.length / 3600, medianHours: median / 3600 };
}

export function traceStatistics(trace: AvailabilityTrace): TraceStatistics {
  const span = trace.endS - trace.startS;
  const up: number[] = [];
  const down: number[] = [];
  let availability = 0;
  for (const node of trace.nodes) {
    for (let i = 0; i < node.starts.length; i++) {
      up.push(node.ends[i]! - node.starts[i]!);
      if (i > 0) down.push(node.starts[i]! - node.ends[i - 1]!);
    }
    const observed = node.observedToS - node.observedFromS;
    if (observed > 0) availability += availableSeconds(node, node.observedFromS, node.observedToS) / observed;
  }
  return {
    format: trace.format,
    source: trace.source,
    sha256: trace.sha256,
    nodes: trace.nodes.length,
    startS: trace.startS,
    endS: trace.endS,
    spanDays: span / 86400,
    meanAvailability: trace.nodes.length > 0 ? availability / trace.nodes.length : 0,
    available: intervalStatistics(up),
    unavailable: intervalStatistics(down),
    counts: trace.counts,
    warnings: trace.warnings,
  };
}

/** The rejected lines as one warning for a simulation's output: how many, and the first few as `file:line: reason`. */
export function rejectedLinesWarnings(trace: AvailabilityTrace, shown = 3): string[] {
  if (trace.rejects.length === 0) return [];
  const first = trace.rejects.slice(0, shown).map((r) => atLine(trace.source, r.line, r.reason));
  return [
    `${trace.rejects.length} of the ${trace.counts.lines} lines of ${trace.source} were rejected and left out (\`ckpt simulate trace-stats ${trace.source} --rejects FILE\` lists them all): ${first.join("; ")}${trace.rejects.length > shown ? "; …" : ""}`,
  ];
}

/** Refuse a trace that yields fewer than `needed` nodes, with the first rejected lines when lines were rejected. */
export function requireNodes(trace: AvailabilityTrace, needed: number, forWhat: string): void {
  if (trace.nodes.length >= needed) return;
  const why =
    trace.rejects.length > 0
      ? `; ${trace.rejects.length} of its ${trace.counts.lines} lines were rejected, first ${trace.rejects.slice(0, 3).map((r) => atLine(trace.source, r.line, r.reason)).join("; ")}`
      : trace.counts.lines === trace.counts.comments
        ? "; it holds no interval (only comments, headers or blank lines)"
        : "";
  throw new InputError(`${trace.source}: the trace has ${trace.nodes.length} node(s); ${forWhat} needs ${needed}${why}`);
}
