/**
 * The ledger of an ingest: every row read is either accepted into a run or rejected with
 * a reason, so that read = accepted + rejected always holds (ARCHITECTURE: "every input
 * row is accounted for"). Readers (canonical fast path, csv-parse, host logs, in-memory
 * checkpoints) feed it; `finish` applies the run-level checks and hands back the runs.
 *
 * Run-level checks (SPEC §3.1 needs all m processes of a run to sum their bandwidths):
 * - duplicate (run_id, node): the later row is rejected at once, the first one is kept;
 * - contradicting m within a run: every row of the run is rejected (which m is right is
 *   unknowable);
 * - a run whose number of valid rows ≠ its m: every row of the run is rejected, each with
 *   that reason. A row rejected for its own reason (say a non-numeric end_s) therefore
 *   also takes down the rest of its run; the run's message says how many rows of the run
 *   were rejected on their own, so the cause is easy to find.
 * Runs are scoped: two files (or two host-log run directories) that both use run_id "1"
 * hold two different runs.
 *
 * Runs never span scopes, so a scope's run-level checks are done when it is closed (its
 * file read), while its file is still open. Memory: per accepted row of the open scope a
 * few numbers in typed arrays (its run, file, line and byte range), so that the raw text
 * of a row rejected with its run can be read back from the file instead of being kept for
 * every row.
 */
import { InputError, atLine } from "../shared/errors";
import type { RejectedRow } from "./ingest-files";
import type { RunObservation } from "./observations";
import { rejectMessage, type RejectCode } from "./reject-reasons";

/** A rejected row before its raw text is read back and its file named. */
export interface PendingReject {
  sourceIndex: number;
  line: number;
  byteStart: number;
  byteEnd: number;
  /** The raw text when the reader has it (host logs, memory); otherwise read back from the bytes. */
  raw: string | null;
  code: RejectCode;
  reason: string;
}

/** A source the ledger knows: a file's name for messages, and how to read a row's text back. */
export interface LedgerSource {
  name: string;
  readRaw(byteStart: number, byteEnd: number): string;
}

/** The accumulating state of one run; readers hold on to it between rows of the same run. */
export interface RunState {
  readonly index: number;
  readonly scope: number;
  readonly runId: string;
  readonly m: number;
  /** Other m values met in this run, with where (for the message). */
  mConflicts: { m: number; at: string }[] | null;
  processes: number;
  sumBwMbPerS: number;
  sumSizeMb: number;
  firstSizeMb: number;
  uniformSize: boolean;
  /** node → index of its row in the row table. */
  readonly nodes: Map<string, number>;
  /** Per extra column of the scope: the value all rows agree on, null once they differ. */
  attributeValues: (string | null)[];
  /** Per extra column: how many rows gave the agreed value. */
  attributeCounts: number[];
  readonly firstAt: string;
}

export interface LedgerScope {
  readonly index: number;
  /** The file or run directory the runs of this scope come from. */
  readonly label: string;
  /** Names of the extra columns (canonical) or keys (host logs) met so far. */
  readonly attributeNames: string[];
  readonly runs: Map<string, RunState>;
  /** Rows of a run_id that were rejected on their own (for run-level messages). */
  readonly rejectedRowsByRun: Map<string, number>;
}

export interface LedgerResult {
  runs: RunObservation[];
  rejects: RejectedRow[];
  read: number;
  rejected: number;
}

export interface RowLedger {
  readonly strict: boolean;
  addSource(source: LedgerSource): number;
  source(sourceIndex: number): LedgerSource;
  openScope(label: string, attributeNames?: string[]): LedgerScope;
  /** The run `runId` of `scope`, created (with this row's m) if it is new. */
  runFor(scope: LedgerScope, runId: string, m: number, sourceIndex: number, line: number): RunState;
  /**
   * Add a row whose values passed the row checks. `attributes` is aligned with the scope's
   * `attributeNames` (or null when the scope has none). Returns false if the row was
   * rejected (duplicate process).
   */
  addProcess(
    run: RunState,
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
  /** Reject a row for a reason of its own. `runId` (when known) is counted against that run. */
  reject(
    sourceIndex: number,
    line: number,
    byteStart: number,
    byteEnd: number,
    raw: string | null,
    code: RejectCode,
    reason: string,
    scope?: LedgerScope,
    runId?: string,
  ): void;
  /** Rows read so far. */
  readonly read: number;
  /**
   * The scope's input is read: apply the run-level checks to its runs and read back the
   * raw text of its rejected rows (its sources must still be readable). In strict mode,
   * throws for the first row of the first bad run.
   */
  closeScope(scope: LedgerScope): void;
  /** Everything, once every scope is closed. */
  finish(): LedgerResult;
}

class GrowableColumns {
  run = new Int32Array(1024);
  source = new Int32Array(1024);
  line = new Float64Array(1024);
  byteStart = new Float64Array(1024);
  byteEnd = new Float64Array(1024);
  length = 0;

  push(run: number, source: number, line: number, byteStart: number, byteEnd: number): number {
    if (this.length === this.run.length) this.grow();
    const i = this.length++;
    this.run[i] = run;
    this.source[i] = source;
    this.line[i] = line;
    this.byteStart[i] = byteStart;
    this.byteEnd[i] = byteEnd;
    return i;
  }

  private grow(): void {
    const size = this.run.length * 2;
    const grow = <T extends Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.run = grow(this.run, (n) => new Int32Array(n));
    this.source = grow(this.source, (n) => new Int32Array(n));
    this.line = grow(this.line, (n) => new Float64Array(n));
    this.byteStart = grow(this.byteStart, (n) => new Float64Array(n));
    this.byteEnd = grow(this.byteEnd, (n) => new Float64Array(n));
  }
}

export function createRowLedger(options: { strict?: boolean } = {}): RowLedger {
  const strict = options.strict ?? false;
  const sources: LedgerSource[] = [];
  const scopes: LedgerScope[] = [];
  /** Runs of the open scopes, by creation. */
  let runList: RunState[] = [];
  /** Accepted rows of the open scopes (their index in `rowRaw` and in `runState.nodes`). */
  const rows = new GrowableColumns();
  /** Raw text of accepted rows whose reader already had it (host logs, memory). */
  const rowRaw = new Map<number, string>();
  /** Rejected rows of the open scopes, raw text not yet read back. */
  let pending: PendingReject[] = [];
  const runs: RunObservation[] = [];
  const rejects: RejectedRow[] = [];
  let read = 0;

  const where = (sourceIndex: number, line: number) => `${sources[sourceIndex]!.name}:${line}`;

  const reject: RowLedger["reject"] = (sourceIndex, line, byteStart, byteEnd, raw, code, reason, scope, runId) => {
    read++;
    if (strict) throw new InputError(atLine(sources[sourceIndex]!.name, line, reason));
    pending.push({ sourceIndex, line, byteStart, byteEnd, raw, code, reason });
    if (scope !== undefined && runId !== undefined) {
      scope.rejectedRowsByRun.set(runId, (scope.rejectedRowsByRun.get(runId) ?? 0) + 1);
    }
  };

  return {
    strict,
    addSource(source) {
      sources.push(source);
      return sources.length - 1;
    },
    source: (sourceIndex) => sources[sourceIndex]!,
    openScope(label, attributeNames = []) {
      const scope: LedgerScope = {
        index: scopes.length,
        label,
        attributeNames,
        runs: new Map(),
        rejectedRowsByRun: new Map(),
      };
      scopes.push(scope);
      return scope;
    },
    runFor(scope, runId, m, sourceIndex, line) {
      let run = scope.runs.get(runId);
      if (run === undefined) {
        run = {
          index: runList.length,
          scope: scope.index,
          runId,
          m,
          mConflicts: null,
          processes: 0,
          sumBwMbPerS: 0,
          sumSizeMb: 0,
          firstSizeMb: NaN,
          uniformSize: true,
          nodes: new Map(),
          attributeValues: [],
          attributeCounts: [],
          firstAt: where(sourceIndex, line),
        };
        scope.runs.set(runId, run);
        runList.push(run);
      }
      return run;
    },
    addProcess(run, node, m, sizeMb, bwMbPerS, attributes, sourceIndex, line, byteStart, byteEnd, raw) {
      const firstRow = run.nodes.get(node);
      if (firstRow !== undefined) {
        const firstAt = where(rows.source[firstRow]!, rows.line[firstRow]!);
        const reason = rejectMessage.duplicateProcess(run.runId, node, firstAt);
        reject(sourceIndex, line, byteStart, byteEnd, raw, "duplicate-process", reason, scopes[run.scope], run.runId);
        return false;
      }
      if (m !== run.m) {
        const at = where(sourceIndex, line);
        if (run.mConflicts === null) run.mConflicts = [{ m: run.m, at: run.firstAt }];
        const reason = rejectMessage.contradictingM(run.runId, [...run.mConflicts, { m, at }]);
        if (strict) throw new InputError(atLine(sources[sourceIndex]!.name, line, reason));
        if (run.mConflicts.length < 4 && !run.mConflicts.some((c) => c.m === m)) run.mConflicts.push({ m, at });
      }
      read++;
      const rowIndex = rows.push(run.index, sourceIndex, line, byteStart, byteEnd);
      if (raw !== null) rowRaw.set(rowIndex, raw);
      run.nodes.set(node, rowIndex);
      if (run.processes === 0) run.firstSizeMb = sizeMb;
      else if (sizeMb !== run.firstSizeMb) run.uniformSize = false;
      run.processes++;
      run.sumBwMbPerS += bwMbPerS;
      run.sumSizeMb += sizeMb;
      if (attributes !== null) {
        const values = run.attributeValues;
        for (let i = 0; i < attributes.length; i++) {
          const value = attributes[i];
          if (value === undefined) continue;
          const agreed = values[i];
          if (agreed === undefined) {
            values[i] = value;
            run.attributeCounts[i] = 1;
          } else if (agreed === value) {
            run.attributeCounts[i]!++;
          } else {
            values[i] = null;
          }
        }
      }
      return true;
    },
    reject,
    get read() {
      return read;
    },
    closeScope(scope) {
      const runReason: (string | null)[] = new Array(runList.length).fill(null);
      const runCode: RejectCode[] = new Array(runList.length);
      for (const run of runList) {
        if (run.scope !== scope.index) throw new Error(`closeScope: run ${run.runId} belongs to another open scope`);
        if (run.mConflicts !== null) {
          runReason[run.index] = rejectMessage.contradictingM(run.runId, run.mConflicts);
          runCode[run.index] = "contradicting-m";
        } else if (run.processes !== run.m) {
          const otherRejected = scope.rejectedRowsByRun.get(run.runId) ?? 0;
          runReason[run.index] = rejectMessage.runSizeMismatch(run.runId, run.m, run.processes, otherRejected);
          runCode[run.index] = "run-size-mismatch";
        } else {
          runs.push(toObservation(run, scope));
        }
      }
      for (let i = 0; i < rows.length; i++) {
        const runIndex = rows.run[i]!;
        const reason = runReason[runIndex];
        if (reason === null || reason === undefined) continue;
        const sourceIndex = rows.source[i]!;
        if (strict) throw new InputError(atLine(sources[sourceIndex]!.name, rows.line[i]!, reason));
        pending.push({
          sourceIndex,
          line: rows.line[i]!,
          byteStart: rows.byteStart[i]!,
          byteEnd: rows.byteEnd[i]!,
          raw: rowRaw.get(i) ?? null,
          code: runCode[runIndex]!,
          reason,
        });
      }
      pending.sort((a, b) => a.sourceIndex - b.sourceIndex || a.line - b.line);
      for (const p of pending) {
        const source = sources[p.sourceIndex]!;
        rejects.push({ file: source.name, line: p.line, code: p.code, reason: p.reason, raw: p.raw ?? source.readRaw(p.byteStart, p.byteEnd) });
      }
      pending = [];
      runList = [];
      rows.length = 0;
      rowRaw.clear();
      scope.runs.clear();
    },
    finish() {
      if (runList.length > 0 || pending.length > 0) throw new Error("RowLedger.finish: a scope is still open");
      return { runs, rejects, read, rejected: rejects.length };
    },
  };
}

function toObservation(run: RunState, scope: LedgerScope): RunObservation {
  const observation: RunObservation = {
    runId: run.runId,
    m: run.m,
    vGb: run.sumSizeMb / 1000,
    aggregatedBwMbPerS: run.sumBwMbPerS,
    uniformSizeMb: run.uniformSize ? run.firstSizeMb : null,
    source: scope.label,
  };
  const attributes: Record<string, string> = {};
  let any = false;
  for (let i = 0; i < run.attributeValues.length; i++) {
    const value = run.attributeValues[i];
    if (value !== null && value !== undefined && run.attributeCounts[i] === run.processes) {
      attributes[scope.attributeNames[i]!] = value;
      any = true;
    }
  }
  if (any) observation.attributes = attributes;
  return observation;
}
