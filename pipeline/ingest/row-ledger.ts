/**
 * The ledger of an ingest: every row read is either accepted into a run or rejected with
 * a reason, so that read = accepted + rejected always holds (ARCHITECTURE: "every input
 * row is accounted for"). Readers (canonical fast path, csv-parse, host logs) feed it;
 * closing a scope applies the run-level checks to its runs.
 *
 * Run-level checks (docs/science.md §3.1 needs all m processes of a run to sum their bandwidths):
 * - duplicate (run_id, node): the later row is rejected at once, the first one is kept;
 * - contradicting m within a run: every row of the run is rejected (which m is right is
 *   unknowable);
 * - a run whose number of valid rows ≠ its m: every row of the run is rejected, each with
 *   that reason. A row rejected for its own reason (say a non-numeric end_s) therefore
 *   also takes down the rest of its run; the run's message says how many rows of the run
 *   were rejected on their own, so the cause is easy to find.
 * Runs are scoped: two files (or two host-log run directories) that both use run_id "1"
 * hold two different runs. Runs never span scopes, so a scope's run-level checks are done
 * when it is closed (its file read), while its file is still open.
 *
 * Memory and speed (this is the inner loop of a million-row ingest): runs and rows live
 * in typed arrays (structure of arrays) and a run is a number, so nothing is allocated per
 * row and the garbage collector does not copy per-run objects over and over. The duplicate
 * check scans the run's own rows while they are the last rows of the table (a run's rows
 * are usually together, and few) and moves the run to one integer hash table of
 * (run, node) pairs otherwise. The raw text of a row rejected with its run is read back
 * from its file by byte range instead of being kept for every row.
 */
import { InputError, atLine } from "../shared/errors";
import type { RejectedRow } from "./ingest-files";
import { NumberIndex } from "./number-index";
import type { RunObservation } from "./observations";
import { rejectMessage, type RejectCode } from "./reject-reasons";

/** A rejected row before its raw text is read back and its file named. */
interface PendingReject {
  sourceIndex: number;
  line: number;
  byteStart: number;
  byteEnd: number;
  /** The raw text when the reader has it (host logs); otherwise read back from the bytes. */
  raw: string | null;
  code: RejectCode;
  reason: string;
}

/** A source the ledger knows: a file's name for messages, and how to read a row's text back. */
export interface LedgerSource {
  name: string;
  readRaw(byteStart: number, byteEnd: number): string;
}

export interface LedgerScope {
  /** The file or run directory the runs of this scope come from. */
  readonly label: string;
  /** Names of the extra columns (canonical) or keys (host logs) met so far. */
  readonly attributeNames: string[];
}

/** A run of the open scope. */
export type RunHandle = number;

export interface LedgerResult {
  runs: RunObservation[];
  rejects: RejectedRow[];
  read: number;
  rejected: number;
}

export interface RowLedger {
  addSource(source: LedgerSource): number;
  /** Open the scope of the next file or run directory; one scope is open at a time. */
  openScope(label: string, attributeNames?: string[]): LedgerScope;
  /** The run `runId` of the open scope, created (with this row's m) if it is new. */
  runFor(runId: string, m: number, sourceIndex: number, line: number): RunHandle;
  /**
   * Add a row whose values passed the row checks. `attributes` is aligned with the scope's
   * `attributeNames` (undefined: the row does not have it), or null when the reader notes
   * the attributes itself (`noteAttribute`, after this returned true). Returns false if
   * the row was rejected (duplicate process).
   */
  addProcess(
    run: RunHandle,
    node: string,
    m: number,
    sizeMb: number,
    bwMbPerS: number,
    attributes: readonly (string | undefined)[] | null,
    sourceIndex: number,
    line: number,
    byteStart: number,
    byteEnd: number,
    raw: string | null,
  ): boolean;
  /**
   * The row just added to `run` has `value` for attribute `j` (undefined: it lacks it). A
   * run keeps an attribute when all its rows give it the same value. Noting the same
   * value again for the same run changes nothing, so readers may skip repeats.
   */
  noteAttribute(run: RunHandle, j: number, value: string | undefined): void;
  /** Reject a row for a reason of its own. `runId` (when known) is counted against that run. */
  reject(sourceIndex: number, line: number, byteStart: number, byteEnd: number, raw: string | null, code: RejectCode, reason: string, runId?: string): void;
  /** Rows read so far. */
  readonly read: number;
  /**
   * The open scope's input is read: apply the run-level checks to its runs and read back
   * the raw text of its rejected rows (its sources must still be readable). In strict
   * mode, throws for the first row of the first bad run.
   */
  closeScope(): void;
  /** Everything, once every scope is closed. */
  finish(): LedgerResult;
}

/** Node ids per scope stay below this, so that run · limit + node is an exact integer key. */
const NODE_ID_LIMIT = 2 ** 22;
/** Runs with more processes than this use the hash table for the duplicate check. */
const LINEAR_NODE_SEARCH = 32;

/** Columns grow by 4× so that a million rows cost few copies. */
class Float64Column {
  values = new Float64Array(4096);
  ensure(size: number): void {
    if (size <= this.values.length) return;
    const next = new Float64Array(Math.max(size, this.values.length * 4));
    next.set(this.values);
    this.values = next;
  }
}

class Int32Column {
  values = new Int32Array(4096);
  ensure(size: number): void {
    if (size <= this.values.length) return;
    const next = new Int32Array(Math.max(size, this.values.length * 4));
    next.set(this.values);
    this.values = next;
  }
}

export function createRowLedger(options: { strict?: boolean } = {}): RowLedger {
  const strict = options.strict ?? false;
  const sources: LedgerSource[] = [];
  let scope: LedgerScope | null = null;
  /** runId → run, for the open scope. */
  let runByName = new Map<string, RunHandle>();
  /** Rows of a run_id that were rejected on their own (for run-level messages). */
  let rejectedRowsByRun = new Map<string, number>();

  // Runs of the open scope, structure of arrays.
  let runCount = 0;
  let runIds: string[] = [];
  const runM = new Float64Column();
  const runProcesses = new Int32Column();
  const runSumBw = new Float64Column();
  const runSumSize = new Float64Column();
  const runFirstSize = new Float64Column();
  const runMixedSizes = new Int32Column();
  const runFirstSource = new Int32Column();
  const runFirstLine = new Float64Column();
  /** The run's first row in the row table. */
  const runFirstRow = new Int32Column();
  /** 1 once the run's (run, node) pairs are in `processIndex`. */
  const runHashed = new Int32Column();
  /** Other m values met in a run (rare), with where. */
  let runConflicts = new Map<RunHandle, { m: number; at: string }[]>();
  /** Per attribute j: per run, the value its rows agree on (null once they differ or one lacks it). */
  let attributeValues: (string | null | undefined)[][] = [];

  // Accepted rows of the open scope.
  let rowCount = 0;
  const rowRun = new Int32Column();
  const rowNode = new Int32Column();
  const rowSource = new Int32Column();
  const rowLine = new Float64Column();
  const rowByteStart = new Float64Column();
  const rowByteEnd = new Float64Column();
  /** Raw text of accepted rows whose reader already had it (host logs). */
  let rowRaw = new Map<number, string>();
  /** (run, node id) → row, for runs that are scattered or large. */
  const processIndex = new NumberIndex();
  let nodeIds = new Map<string, number>();

  let pending: PendingReject[] = [];
  const runs: RunObservation[] = [];
  const rejects: RejectedRow[] = [];
  let read = 0;

  const where = (sourceIndex: number, line: number) => `${sources[sourceIndex]!.name}:${line}`;

  const reject: RowLedger["reject"] = (sourceIndex, line, byteStart, byteEnd, raw, code, reason, runId) => {
    read++;
    if (strict) throw new InputError(atLine(sources[sourceIndex]!.name, line, reason));
    pending.push({ sourceIndex, line, byteStart, byteEnd, raw, code, reason });
    if (runId !== undefined) rejectedRowsByRun.set(runId, (rejectedRowsByRun.get(runId) ?? 0) + 1);
  };

  const noteAttribute = (run: RunHandle, j: number, value: string | undefined): void => {
    while (attributeValues.length <= j) attributeValues.push([]);
    const values = attributeValues[j]!;
    const agreed = values[run];
    if (agreed === undefined) {
      // The first note of j for this run: earlier rows of the run, if any, lacked it.
      values[run] = value === undefined || runProcesses.values[run]! > 1 ? null : value;
    } else if (agreed !== value) {
      values[run] = null;
    }
  };

  /** Put the run's (run, node) pairs in the hash table; its rows are still together. */
  const hashRun = (run: RunHandle): void => {
    const first = runFirstRow.values[run]!;
    const last = first + runProcesses.values[run]!;
    for (let row = first; row < last; row++) processIndex.add(run * NODE_ID_LIMIT + rowNode.values[row]!, row);
    runHashed.values[run] = 1;
  };

  const toObservation = (run: RunHandle, label: string, names: string[]): RunObservation => {
    const observation: RunObservation = {
      runId: runIds[run]!,
      m: runM.values[run]!,
      vGb: runSumSize.values[run]! / 1000,
      aggregatedBwMbPerS: runSumBw.values[run]!,
      uniformSizeMb: runMixedSizes.values[run] === 0 ? runFirstSize.values[run]! : null,
      source: label,
    };
    let attributes: Record<string, string> | null = null;
    for (let j = 0; j < attributeValues.length; j++) {
      const value = attributeValues[j]![run];
      if (typeof value === "string") (attributes ??= {})[names[j]!] = value;
    }
    if (attributes !== null) observation.attributes = attributes;
    return observation;
  };

  return {
    addSource(source) {
      sources.push(source);
      return sources.length - 1;
    },
    openScope(label, attributeNames = []) {
      if (scope !== null) throw new Error(`openScope(${label}): scope ${scope.label} is still open`);
      scope = { label, attributeNames };
      return scope;
    },
    runFor(runId, m, sourceIndex, line) {
      const existing = runByName.get(runId);
      if (existing !== undefined) return existing;
      const run = runCount++;
      runByName.set(runId, run);
      runIds.push(runId);
      if (run >= runM.values.length) {
        runM.ensure(runCount);
        runSumBw.ensure(runCount);
        runSumSize.ensure(runCount);
        runFirstSize.ensure(runCount);
        runFirstLine.ensure(runCount);
        runProcesses.ensure(runCount);
        runMixedSizes.ensure(runCount);
        runFirstSource.ensure(runCount);
        runFirstRow.ensure(runCount);
        runHashed.ensure(runCount);
      }
      runM.values[run] = m;
      runProcesses.values[run] = 0;
      runSumBw.values[run] = 0;
      runSumSize.values[run] = 0;
      runMixedSizes.values[run] = 0;
      runFirstSource.values[run] = sourceIndex;
      runFirstLine.values[run] = line;
      runFirstRow.values[run] = -1;
      runHashed.values[run] = 0;
      return run;
    },
    addProcess(run, node, m, sizeMb, bwMbPerS, attributes, sourceIndex, line, byteStart, byteEnd, raw) {
      let nodeId = nodeIds.get(node);
      if (nodeId === undefined) {
        nodeId = nodeIds.size;
        if (nodeId >= NODE_ID_LIMIT) {
          throw new InputError(atLine(sources[sourceIndex]!.name, line, `more than ${NODE_ID_LIMIT} distinct node names in one file; split the file`));
        }
        nodeIds.set(node, nodeId);
      }
      const key = run * NODE_ID_LIMIT + nodeId;
      const processes = runProcesses.values[run]!;
      let firstRow = -1;
      if (processes > 0) {
        const first = runFirstRow.values[run]!;
        if (runHashed.values[run] === 0 && (first + processes !== rowCount || processes >= LINEAR_NODE_SEARCH)) hashRun(run);
        if (runHashed.values[run] === 1) {
          firstRow = processIndex.get(key);
        } else {
          for (let row = first; row < rowCount; row++) {
            if (rowNode.values[row] === nodeId) {
              firstRow = row;
              break;
            }
          }
        }
      }
      if (firstRow >= 0) {
        const reason = rejectMessage.duplicateProcess(runIds[run]!, node, where(rowSource.values[firstRow]!, rowLine.values[firstRow]!));
        reject(sourceIndex, line, byteStart, byteEnd, raw, "duplicate-process", reason, runIds[run]!);
        return false;
      }
      if (m !== runM.values[run]) {
        let conflicts = runConflicts.get(run);
        if (conflicts === undefined) {
          conflicts = [{ m: runM.values[run]!, at: where(runFirstSource.values[run]!, runFirstLine.values[run]!) }];
          runConflicts.set(run, conflicts);
        }
        const at = where(sourceIndex, line);
        if (strict) throw new InputError(atLine(sources[sourceIndex]!.name, line, rejectMessage.contradictingM(runIds[run]!, [...conflicts, { m, at }])));
        if (conflicts.length < 4 && !conflicts.some((c) => c.m === m)) conflicts.push({ m, at });
      }
      read++;
      const row = rowCount++;
      if (row >= rowRun.values.length) {
        rowRun.ensure(rowCount);
        rowNode.ensure(rowCount);
        rowSource.ensure(rowCount);
        rowLine.ensure(rowCount);
        rowByteStart.ensure(rowCount);
        rowByteEnd.ensure(rowCount);
      }
      rowRun.values[row] = run;
      rowNode.values[row] = nodeId;
      rowSource.values[row] = sourceIndex;
      rowLine.values[row] = line;
      rowByteStart.values[row] = byteStart;
      rowByteEnd.values[row] = byteEnd;
      if (raw !== null) rowRaw.set(row, raw);
      if (runHashed.values[run] === 1) processIndex.add(key, row);
      if (processes === 0) {
        runFirstRow.values[run] = row;
        runFirstSize.values[run] = sizeMb;
      } else if (sizeMb !== runFirstSize.values[run]) runMixedSizes.values[run] = 1;
      runProcesses.values[run] = processes + 1;
      runSumBw.values[run] += bwMbPerS;
      runSumSize.values[run] += sizeMb;
      if (attributes !== null) {
        for (let j = 0; j < attributes.length; j++) noteAttribute(run, j, attributes[j]);
      }
      return true;
    },
    noteAttribute,
    reject,
    get read() {
      return read;
    },
    closeScope() {
      if (scope === null) throw new Error("closeScope: no scope is open");
      const runReason: (string | null)[] = new Array(runCount).fill(null);
      const runCode: RejectCode[] = new Array(runCount);
      for (let run = 0; run < runCount; run++) {
        const conflicts = runConflicts.get(run);
        if (conflicts !== undefined) {
          runReason[run] = rejectMessage.contradictingM(runIds[run]!, conflicts);
          runCode[run] = "contradicting-m";
        } else if (runProcesses.values[run] !== runM.values[run]) {
          const otherRejected = rejectedRowsByRun.get(runIds[run]!) ?? 0;
          runReason[run] = rejectMessage.runSizeMismatch(runIds[run]!, runM.values[run]!, runProcesses.values[run]!, otherRejected);
          runCode[run] = "run-size-mismatch";
        } else {
          runs.push(toObservation(run, scope.label, scope.attributeNames));
        }
      }
      for (let row = 0; row < rowCount; row++) {
        const run = rowRun.values[row]!;
        const reason = runReason[run];
        if (reason === null || reason === undefined) continue;
        const sourceIndex = rowSource.values[row]!;
        if (strict) throw new InputError(atLine(sources[sourceIndex]!.name, rowLine.values[row]!, reason));
        pending.push({
          sourceIndex,
          line: rowLine.values[row]!,
          byteStart: rowByteStart.values[row]!,
          byteEnd: rowByteEnd.values[row]!,
          raw: rowRaw.get(row) ?? null,
          code: runCode[run]!,
          reason,
        });
      }
      pending.sort((a, b) => a.sourceIndex - b.sourceIndex || a.line - b.line);
      for (const p of pending) {
        const source = sources[p.sourceIndex]!;
        rejects.push({ file: source.name, line: p.line, code: p.code, reason: p.reason, raw: p.raw ?? source.readRaw(p.byteStart, p.byteEnd) });
      }
      scope = null;
      pending = [];
      runByName = new Map();
      rejectedRowsByRun = new Map();
      runCount = 0;
      runIds = [];
      runConflicts = new Map();
      attributeValues = [];
      rowCount = 0;
      rowRaw = new Map();
      processIndex.clear();
      nodeIds = new Map();
    },
    finish() {
      if (scope !== null) throw new Error(`RowLedger.finish: scope ${scope.label} is still open`);
      return { runs, rejects, read, rejected: rejects.length };
    },
  };
}
