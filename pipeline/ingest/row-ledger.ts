/**
 * The ledger of an ingest: every row read is either accepted into a run or rejected with
 * a reason, so that read = accepted + rejected always holds (ARCHITECTURE: "every input
 * row is accounted for"). Readers (canonical fast path, csv-parse, host logs) feed it;
 * closing a scope applies the run-level checks to its runs and hands its rejected rows,
 * in line order, to `onReject` (the rejects file is written as the ingest goes).
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
 * Memory grows with the number of distinct runs of the open file, not with its rows (a
 * 100-million-row trace must go through in bounded memory). A run's rows are usually
 * consecutive; the ledger keeps the rows of the run being read (the *open* run: node,
 * line, bytes) and, when the next run starts, *seals* it: only its sums and the byte range
 * of its rows (its extent) stay. The file itself is the spill: should a later row belong
 * to a sealed run (its rows are scattered), or should a sealed run be rejected as a whole
 * at the end, the ledger re-reads that run's extent (`LedgerSource.rescan`) to get its
 * rows back. A run is unsealed at most once (it then stays in memory, *scattered*), and
 * sealed extents never overlap, so re-reading costs at most one more pass over the file.
 * Limits, each refused with a message that says how to get under it:
 * `MAX_RUN_IDS_PER_FILE` distinct run_ids per file (≈ 130 bytes each), and
 * `MAX_ROWS_IN_MEMORY` rows held in memory (those of scattered runs and of the open run).
 * Rows rejected on their own wait in a `RejectSpool`, which spills to disk.
 *
 * Speed (the inner loop of a million-row ingest): run_ids, nodes and attribute values are
 * interned from their bytes (`ByteInterner`), runs and rows live in typed arrays, so
 * nothing is allocated per row; the duplicate check scans the open run's few nodes.
 */
import { tmpdir } from "node:os";
import { InputError, atLine } from "../shared/errors";
import { ByteInterner } from "./byte-interner";
import type { RejectedRow } from "./ingest-files";
import { NumberIndex } from "./number-index";
import { rejectMessage, type RejectCode } from "./reject-reasons";
import { RejectSpool, comparePending, type PendingReject } from "./reject-spool";
import { RunTable } from "./run-table";
import { formatCount } from "../shared/format-table";

/** A valid row (it passed the row checks) found again by re-reading a byte range. */
export interface RescannedRow {
  line: number;
  byteStart: number;
  byteEnd: number;
  runId: string;
  node: string;
}

/** A source the ledger knows: a file's name for messages, and how to read its rows back. */
export interface LedgerSource {
  name: string;
  /** A row's text, read back from its bytes. */
  readRaw(byteStart: number, byteEnd: number): string;
  /**
   * Visit the valid rows of the bytes `[fromByte, toByte)`, which start at line `fromLine`.
   * Without it (host logs, whose rows come with their text), the ledger keeps every row
   * of a run in memory until its scope is closed.
   */
  rescan?(fromByte: number, toByte: number, fromLine: number, visit: (row: RescannedRow) => void): void;
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
  runs: RunTable;
  read: number;
  rejected: number;
  rejectedByCode: Partial<Record<RejectCode, number>>;
}

export interface RowLedgerOptions {
  /** Throw an `InputError` (`file:line: reason`) at the first rejected row. */
  strict?: boolean;
  /** Receives every rejected row, in (file, line) order per scope, when its scope closes. */
  onReject?: (row: RejectedRow) => void;
  /** Where rejects that do not fit in memory wait (default: the system's temporary folder). */
  spillDirectory?: string;
  /** The limits (defaults `MAX_RUN_IDS_PER_FILE`, `MAX_ROWS_IN_MEMORY`). */
  maxRunIdsPerFile?: number;
  maxRowsInMemory?: number;
}

export interface RowLedger {
  addSource(source: LedgerSource): number;
  /** Open the scope of the next file or run directory; one scope is open at a time. */
  openScope(label: string, attributeNames?: string[]): LedgerScope;
  /** The key of a run_id of the open scope (an interned id; the run itself exists once it has a valid row). */
  runKeyOfBytes(bytes: Uint8Array, start: number, end: number): number;
  runKeyOfText(runId: string): number;
  nodeKeyOfBytes(bytes: Uint8Array, start: number, end: number): number;
  /** `nodeKeyOfBytes` with the bytes' FNV-1a hash computed by the caller (see `byte-interner.ts`). */
  nodeKeyOfHashedBytes(bytes: Uint8Array, start: number, end: number, hash: number): number;
  nodeKeyOfText(node: string): number;
  /** The key of a value of attribute `j`. */
  attributeKeyOfBytes(j: number, bytes: Uint8Array, start: number, end: number): number;
  attributeKeyOfText(j: number, value: string): number;
  /**
   * The numbers of the row `addRow` adds, written there by the reader (slots `ROW_M` …
   * `ROW_BYTE_END`): numbers passed as arguments to a function the compiler does not
   * inline are boxed, one allocation each, and this is the inner loop.
   */
  readonly row: Float64Array;
  /**
   * Add a row whose values (in `row`) passed the row checks to the run `runKey` (created
   * with this row's m if it is its first valid row). Returns the run, or -1 if the row was
   * rejected (a duplicate process). `raw`: the row's text when the reader has it (host logs).
   */
  addRow(runKey: number, nodeKey: number, sourceIndex: number, raw: string | null): RunHandle;
  /** `addRow` with the numbers as arguments. */
  addProcess(
    runKey: number,
    nodeKey: number,
    m: number,
    sizeMb: number,
    bwMbPerS: number,
    sourceIndex: number,
    line: number,
    byteStart: number,
    byteEnd: number,
    raw: string | null,
  ): RunHandle;
  /**
   * The row just added to `run` has value `valueKey` for attribute `j` (-1: it lacks it).
   * A run keeps an attribute when all its rows give it the same value. Noting the same
   * value again for the same run changes nothing, so readers may skip repeats.
   */
  noteAttribute(run: RunHandle, j: number, valueKey: number): void;
  /** Reject a row for a reason of its own. `runKey` (when known, else -1) counts it against that run. */
  reject(sourceIndex: number, line: number, byteStart: number, byteEnd: number, raw: string | null, code: RejectCode, reason: string, runKey?: number): void;
  /** Rows read so far. */
  readonly read: number;
  /**
   * The open scope's input is read: apply the run-level checks to its runs and hand its
   * rejected rows to `onReject` (its sources must still be readable). In strict mode,
   * throws for the first row of the first bad run.
   */
  closeScope(): void;
  /** Every run_id the open scope has met, as bytes (for `hasRunId` in another thread). */
  runIdSnapshot(): { arena: Uint8Array; starts: Float64Array; lengths: Int32Array };
  /** Whether the open scope has met this run_id (in a valid row or a rejected one). */
  hasRunId(bytes: Uint8Array, start: number, end: number): boolean;
  /**
   * After `closeScope`: add the end of the same file, read by another thread into a ledger
   * of its own — its accepted runs after this scope's, its rejected rows (in line order,
   * with their text) after this scope's. Valid only when no run_id occurs in both parts.
   */
  appendTail(tail: { runs: RunTable; read: number; rejects: Iterable<PendingReject> }): void;
  /**
   * Runs (and bytes of their run_ids) that will be appended after the open scope's: the
   * table makes room for them with the scope's when the scope is closed.
   */
  reserveRuns(runs: number, idBytes: number): void;
  /** Everything, once every scope is closed. */
  finish(): LedgerResult;
  /** Give up (an error stopped the ingest): drop the open scope and its temporary file. */
  abort(): void;
}

/** Slots of `RowLedger.row`. */
export const ROW_M = 0;
export const ROW_SIZE_MB = 1;
export const ROW_BW_MB_PER_S = 2;
export const ROW_LINE = 3;
export const ROW_BYTE_START = 4;
export const ROW_BYTE_END = 5;

/** Distinct run_id values per file (runs are kept until their file is read). */
export const MAX_RUN_IDS_PER_FILE = 2 ** 25;
/** Rows kept in memory at once: those of runs whose rows are not consecutive, and of the open run. */
export const MAX_ROWS_IN_MEMORY = 2 ** 22;
/** Node ids per scope stay below this, so that run · limit + node is an exact integer key. */
const NODE_ID_LIMIT = 2 ** 22;
/** Open runs with more processes than this use a hash table for the duplicate check. */
const LINEAR_NODE_SEARCH = 32;

const OPEN = 0;
const SEALED = 1;
const SCATTERED = 2;
/** Attribute agreement of a run: not noted yet, rows disagree (or one lacks it); else the value key. */
const UNNOTED = -1;
const DISAGREE = -2;

function grow<T extends Float64Array | Int32Array | Int8Array>(column: T, size: number): T {
  if (size <= column.length) return column;
  const next = new (column.constructor as new (length: number) => T)(Math.max(size, column.length * 2));
  next.set(column);
  return next;
}

/** Rows held in memory: columns, plus an index of (run, node) for the scattered ones. */
class RowColumns {
  count = 0;
  // Set by allocate() in the constructor (declared, so that no field is first defined as undefined).
  declare run: Int32Array;
  declare node: Int32Array;
  declare source: Int32Array;
  declare line: Float64Array;
  declare byteStart: Float64Array;
  declare byteEnd: Float64Array;
  raw: Map<number, string> | null = null;

  constructor() {
    this.allocate();
  }

  /** Fresh columns for 256 rows (at the start, and when a clear drops columns grown large). */
  private allocate(): void {
    this.run = new Int32Array(256);
    this.node = new Int32Array(256);
    this.source = new Int32Array(256);
    this.line = new Float64Array(256);
    this.byteStart = new Float64Array(256);
    this.byteEnd = new Float64Array(256);
  }

  /** Add a row; its line and bytes are read from `positions` (`ROW_LINE`…), so that no number is boxed. */
  push(run: number, node: number, source: number, positions: Float64Array, raw: string | null): number {
    const row = this.count++;
    if (row >= this.run.length) {
      const size = this.count;
      this.run = grow(this.run, size);
      this.node = grow(this.node, size);
      this.source = grow(this.source, size);
      this.line = grow(this.line, size);
      this.byteStart = grow(this.byteStart, size);
      this.byteEnd = grow(this.byteEnd, size);
    }
    this.run[row] = run;
    this.node[row] = node;
    this.source[row] = source;
    this.line[row] = positions[ROW_LINE]!;
    this.byteStart[row] = positions[ROW_BYTE_START]!;
    this.byteEnd[row] = positions[ROW_BYTE_END]!;
    if (raw !== null) (this.raw ??= new Map()).set(row, raw);
    return row;
  }

  /** Copy row `r` of `from` (its run becomes `run`). */
  pushRowOf(from: RowColumns, r: number, run: number): number {
    const positions = this.scratch;
    positions[ROW_LINE] = from.line[r]!;
    positions[ROW_BYTE_START] = from.byteStart[r]!;
    positions[ROW_BYTE_END] = from.byteEnd[r]!;
    return this.push(run, from.node[r]!, from.source[r]!, positions, from.rawOf(r));
  }

  readonly scratch = new Float64Array(6);

  rawOf(row: number): string | null {
    return this.raw?.get(row) ?? null;
  }

  clear(): void {
    this.count = 0;
    this.raw = null;
    if (this.run.length > 4096) this.allocate();
  }
}

export function createRowLedger(options: RowLedgerOptions = {}): RowLedger {
  const strict = options.strict ?? false;
  const onReject = options.onReject;
  const maxRunIds = options.maxRunIdsPerFile ?? MAX_RUN_IDS_PER_FILE;
  const maxRowsInMemory = options.maxRowsInMemory ?? MAX_ROWS_IN_MEMORY;
  const sources: LedgerSource[] = [];
  const table = new RunTable();
  const rejectedByCode: Partial<Record<RejectCode, number>> = {};
  const spool = new RejectSpool(options.spillDirectory ?? tmpdir());
  let read = 0;
  let rejected = 0;
  let scope: LedgerScope | null = null;

  // Keys of the open scope: interned values, and per run key its run and its own rejects.
  const runIds = new ByteInterner();
  const nodes = new ByteInterner();
  let attributeValues: ByteInterner[] = [];
  let runOfKey = new Int32Array(1024).fill(-1);
  let ownRejectsOfKey = new Int32Array(1024);

  // Runs of the open scope, structure of arrays (made anew for each scope, so that a large
  // file's columns do not outlive it).
  let runCount = 0;
  /** Runs to come after the open scope's (`reserveRuns`). */
  let reservedRuns = 0;
  let reservedIdBytes = 0;
  let runKey: Int32Array;
  let runState: Int8Array;
  let runM: Float64Array;
  let runProcesses: Int32Array;
  let runSumBw: Float64Array;
  let runSumSize: Float64Array;
  let runFirstSize: Float64Array;
  let runMixedSizes: Int8Array;
  let runFirstSource: Int32Array;
  let runFirstLine: Float64Array;
  let runExtentStart: Float64Array;
  let runExtentEnd: Float64Array;
  const newRunColumns = (): void => {
    runKey = new Int32Array(1024);
    runState = new Int8Array(1024);
    runM = new Float64Array(1024);
    runProcesses = new Int32Array(1024);
    runSumBw = new Float64Array(1024);
    runSumSize = new Float64Array(1024);
    runFirstSize = new Float64Array(1024);
    runMixedSizes = new Int8Array(1024);
    runFirstSource = new Int32Array(1024);
    runFirstLine = new Float64Array(1024);
    runExtentStart = new Float64Array(1024);
    runExtentEnd = new Float64Array(1024);
  };
  newRunColumns();
  /** Other m values met in a run (rare), with where. */
  let runConflicts = new Map<RunHandle, { m: number; at: string }[]>();
  /** Per attribute j: per run, the value key its rows agree on, UNNOTED or DISAGREE. */
  let attributeAgreed: Int32Array[] = [];

  // The open run's rows, and the rows of scattered runs with their (run, node) index.
  let openRun = -1;
  const openRows = new RowColumns();
  const openIndex = new NumberIndex();
  let openIndexed = false;
  const scatteredRows = new RowColumns();
  const scatteredIndex = new NumberIndex();

  const where = (sourceIndex: number, line: number) => `${sources[sourceIndex]!.name}:${line}`;
  const rowValues = new Float64Array(6);

  const keyForRun = (key: number): number => {
    if (key >= maxRunIds) {
      throw new InputError(
        `${scope?.label ?? "input"}: more than ${formatCount(maxRunIds)} distinct run_id values in one file; ingest keeps every run of a file until the file is read (≈ 130 bytes each): split the file into several (runs never span files)`,
      );
    }
    if (key >= runOfKey.length) {
      const size = Math.max(key + 1, runOfKey.length * 2);
      const next = new Int32Array(size).fill(-1);
      next.set(runOfKey);
      runOfKey = next;
      ownRejectsOfKey = grow(ownRejectsOfKey, size);
    }
    return key;
  };

  const checkRowsInMemory = (sourceIndex: number, line: number): void => {
    if (openRows.count + scatteredRows.count < maxRowsInMemory) return;
    throw new InputError(
      atLine(
        sources[sourceIndex]!.name,
        line,
        `more than ${formatCount(maxRowsInMemory)} rows belong to runs whose rows are not consecutive (or to one run), and ingest keeps those rows in memory; keep each run's rows together (e.g. sort the file by run_id) or split the file`,
      ),
    );
  };

  const emit = (p: PendingReject): void => {
    rejected++;
    rejectedByCode[p.code] = (rejectedByCode[p.code] ?? 0) + 1;
    if (onReject === undefined) return;
    const source = sources[p.sourceIndex]!;
    onReject({ file: source.name, line: p.line, code: p.code, reason: p.reason, raw: p.raw ?? source.readRaw(p.byteStart, p.byteEnd) });
  };

  const reject: RowLedger["reject"] = (sourceIndex, line, byteStart, byteEnd, raw, code, reason, key = -1) => {
    read++;
    if (strict) throw new InputError(atLine(sources[sourceIndex]!.name, line, reason));
    spool.push({ sourceIndex, line, byteStart, byteEnd, raw, code, reason });
    if (key >= 0) ownRejectsOfKey[key]!++;
  };

  const noteAttribute = (run: RunHandle, j: number, valueKey: number): void => {
    while (attributeAgreed.length <= j) attributeAgreed.push(new Int32Array(runKey.length).fill(UNNOTED));
    const agreed = attributeAgreed[j]!;
    const current = agreed[run]!;
    if (current === UNNOTED) {
      // The first note of j for this run: earlier rows of the run, if any, lacked it.
      agreed[run] = valueKey < 0 || runProcesses[run]! > 1 ? DISAGREE : valueKey;
    } else if (current !== valueKey) {
      agreed[run] = DISAGREE;
    }
  };

  const createRun = (key: number, m: number, sourceIndex: number, line: number): RunHandle => {
    const run = runCount++;
    if (run >= runKey.length) {
      const size = runCount;
      runKey = grow(runKey, size);
      runState = grow(runState, size);
      runM = grow(runM, size);
      runProcesses = grow(runProcesses, size);
      runSumBw = grow(runSumBw, size);
      runSumSize = grow(runSumSize, size);
      runFirstSize = grow(runFirstSize, size);
      runMixedSizes = grow(runMixedSizes, size);
      runFirstSource = grow(runFirstSource, size);
      runFirstLine = grow(runFirstLine, size);
      runExtentStart = grow(runExtentStart, size);
      runExtentEnd = grow(runExtentEnd, size);
      attributeAgreed = attributeAgreed.map((agreed) => {
        const next = new Int32Array(runKey.length).fill(UNNOTED);
        next.set(agreed);
        return next;
      });
    }
    runOfKey[key] = run;
    runKey[run] = key;
    runState[run] = OPEN;
    runM[run] = m;
    runProcesses[run] = 0;
    runSumBw[run] = 0;
    runSumSize[run] = 0;
    runMixedSizes[run] = 0;
    runFirstSource[run] = sourceIndex;
    runFirstLine[run] = line;
    return run;
  };

  /** The open run's rows leave memory: only its extent stays (or, if it cannot be re-read, they move to the scattered rows). */
  const sealOpenRun = (): void => {
    const run = openRun;
    openRun = -1;
    if (run < 0) return;
    const rows = openRows;
    const first = rows.source[0]!;
    let oneSource = sources[first]!.rescan !== undefined;
    for (let r = 1; r < rows.count && oneSource; r++) oneSource = rows.source[r] === first;
    if (oneSource) {
      runState[run] = SEALED;
      runExtentStart[run] = rows.byteStart[0]!;
      runExtentEnd[run] = rows.byteEnd[rows.count - 1]!;
    } else {
      runState[run] = SCATTERED;
      for (let r = 0; r < rows.count; r++) {
        const row = scatteredRows.pushRowOf(rows, r, run);
        scatteredIndex.add(run * NODE_ID_LIMIT + rows.node[r]!, row);
      }
    }
    rows.clear();
    if (openIndexed) openIndex.clear();
    openIndexed = false;
  };

  /** The rows of sealed run `run`, read back from its extent: the valid rows of its run_id, first of each node. */
  const rowsOfSealedRun = (run: RunHandle): { line: number; byteStart: number; byteEnd: number; node: number }[] => {
    const sourceIndex = runFirstSource[run]!;
    const runIdText = runIds.text(runKey[run]!);
    const seen = new Set<number>();
    const rows: { line: number; byteStart: number; byteEnd: number; node: number }[] = [];
    sources[sourceIndex]!.rescan!(runExtentStart[run]!, runExtentEnd[run]!, runFirstLine[run]!, (row) => {
      if (row.runId !== runIdText) return;
      const node = nodes.idOfText(row.node);
      if (seen.has(node)) return; // a duplicate, rejected when it was read
      seen.add(node);
      rows.push({ line: row.line, byteStart: row.byteStart, byteEnd: row.byteEnd, node });
    });
    if (rows.length !== runProcesses[run]) {
      throw new Error(`ingest: re-reading run ${JSON.stringify(runIdText)} of ${sources[sourceIndex]!.name} found ${rows.length} rows, not ${runProcesses[run]}; did the file change while it was read?`);
    }
    return rows;
  };

  /** A later row belongs to sealed run `run`: bring its rows back into memory for good. */
  const unseal = (run: RunHandle, sourceIndex: number, line: number): void => {
    const sourceOfRun = runFirstSource[run]!;
    for (const row of rowsOfSealedRun(run)) {
      checkRowsInMemory(sourceIndex, line);
      const positions = scatteredRows.scratch;
      positions[ROW_LINE] = row.line;
      positions[ROW_BYTE_START] = row.byteStart;
      positions[ROW_BYTE_END] = row.byteEnd;
      const r = scatteredRows.push(run, row.node, sourceOfRun, positions, null);
      scatteredIndex.add(run * NODE_ID_LIMIT + row.node, r);
    }
    runState[run] = SCATTERED;
  };

  const resetScope = (): void => {
    scope = null;
    runIds.clear();
    nodes.clear();
    attributeValues = [];
    runOfKey = new Int32Array(1024).fill(-1);
    ownRejectsOfKey = new Int32Array(1024);
    runCount = 0;
    newRunColumns();
    runConflicts = new Map();
    attributeAgreed = [];
    openRun = -1;
    openRows.clear();
    openIndex.clear();
    openIndexed = false;
    scatteredRows.clear();
    scatteredIndex.clear();
    spool.dispose();
  };

  /**
   * The attribute record of an accepted run, shared by every run of the scope with the same
   * values: a trie over the attributes' value keys (no string is built per run).
   */
  type AttributeTrie = Map<number, AttributeTrie | number>;
  const attributeSetOf = (run: RunHandle, names: string[], trie: AttributeTrie): number => {
    let node: AttributeTrie = trie;
    let any = false;
    for (let j = 0; j < attributeAgreed.length; j++) {
      const value = attributeAgreed[j]![run]!;
      any ||= value >= 0;
      const key = value >= 0 ? value : -1;
      if (j === attributeAgreed.length - 1) {
        if (!any) return -1;
        const set = node.get(key);
        if (set !== undefined) return set as number;
        const attributes: Record<string, string> = {};
        for (let k = 0; k < attributeAgreed.length; k++) {
          const v = attributeAgreed[k]![run]!;
          if (v >= 0) attributes[names[k]!] = attributeValues[k]!.text(v);
        }
        table.attributeSets.push(attributes);
        node.set(key, table.attributeSets.length - 1);
        return table.attributeSets.length - 1;
      }
      let next = node.get(key) as AttributeTrie | undefined;
      if (next === undefined) node.set(key, (next = new Map()));
      node = next;
    }
    return -1;
  };

  const addRow: RowLedger["addRow"] = (key, nodeKey, sourceIndex, raw) => {
    const m = rowValues[ROW_M]!;
    const line = rowValues[ROW_LINE]!;
    const byteStart = rowValues[ROW_BYTE_START]!;
    const byteEnd = rowValues[ROW_BYTE_END]!;
    let run = runOfKey[key]!;
    if (run !== openRun || run < 0) {
      sealOpenRun();
      if (run < 0) {
        run = createRun(key, m, sourceIndex, line);
        openRun = run;
      } else if (runState[run] === SEALED) {
        unseal(run, sourceIndex, line);
      }
    }
    // The duplicate check: among the open run's rows, or in the index of scattered rows.
    let firstRow = -1;
    let firstRows = openRows;
    if (run === openRun) {
      const count = openRows.count;
      if (openIndexed) {
        firstRow = openIndex.get(nodeKey);
      } else {
        const rowNodes = openRows.node;
        for (let r = 0; r < count; r++) {
          if (rowNodes[r] === nodeKey) {
            firstRow = r;
            break;
          }
        }
      }
    } else {
      firstRows = scatteredRows;
      firstRow = scatteredIndex.get(run * NODE_ID_LIMIT + nodeKey);
    }
    if (firstRow >= 0) {
      const reason = rejectMessage.duplicateProcess(runIds.text(key), nodes.text(nodeKey), where(firstRows.source[firstRow]!, firstRows.line[firstRow]!));
      reject(sourceIndex, line, byteStart, byteEnd, raw, "duplicate-process", reason, key);
      return -1;
    }
    if (m !== runM[run]) {
      let conflicts = runConflicts.get(run);
      if (conflicts === undefined) {
        conflicts = [{ m: runM[run]!, at: where(runFirstSource[run]!, runFirstLine[run]!) }];
        runConflicts.set(run, conflicts);
      }
      const at = where(sourceIndex, line);
      if (strict) throw new InputError(atLine(sources[sourceIndex]!.name, line, rejectMessage.contradictingM(runIds.text(key), [...conflicts, { m, at }])));
      if (conflicts.length < 4 && !conflicts.some((c) => c.m === m)) conflicts.push({ m, at });
    }
    if (openRows.count + scatteredRows.count >= maxRowsInMemory) checkRowsInMemory(sourceIndex, line);
    read++;
    if (run === openRun) {
      const row = openRows.push(run, nodeKey, sourceIndex, rowValues, raw);
      if (openIndexed) openIndex.add(nodeKey, row);
      else if (openRows.count > LINEAR_NODE_SEARCH) {
        for (let r = 0; r < openRows.count; r++) openIndex.add(openRows.node[r]!, r);
        openIndexed = true;
      }
    } else {
      const row = scatteredRows.push(run, nodeKey, sourceIndex, rowValues, raw);
      scatteredIndex.add(run * NODE_ID_LIMIT + nodeKey, row);
    }
    const sizeMb = rowValues[ROW_SIZE_MB]!;
    const processes = runProcesses[run]!;
    if (processes === 0) runFirstSize[run] = sizeMb;
    else if (sizeMb !== runFirstSize[run]) runMixedSizes[run] = 1;
    runProcesses[run] = processes + 1;
    runSumBw[run] += rowValues[ROW_BW_MB_PER_S]!;
    runSumSize[run] += sizeMb;
    return run;
  };

  return {
    addSource(source) {
      sources.push(source);
      return sources.length - 1;
    },
    openScope(label, attributeNames = []) {
      if (scope !== null) throw new Error(`openScope(${label}): scope ${scope.label} is still open`);
      scope = { label, attributeNames };
      // Made here, at their final number when it is known (canonical files), so that the
      // array does not change its kind under the compiled inner loop.
      attributeAgreed = attributeNames.map(() => new Int32Array(runKey.length).fill(UNNOTED));
      return scope;
    },
    runKeyOfBytes: (bytes, start, end) => keyForRun(runIds.idOfBytes(bytes, start, end)),
    runKeyOfText: (runId) => keyForRun(runIds.idOfText(runId)),
    nodeKeyOfBytes(bytes, start, end) {
      const key = nodes.idOfBytes(bytes, start, end);
      if (key >= NODE_ID_LIMIT) throw new InputError(`${scope?.label ?? "input"}: more than ${NODE_ID_LIMIT} distinct node names in one file; split the file`);
      return key;
    },
    nodeKeyOfHashedBytes(bytes, start, end, hash) {
      const key = nodes.idOfHashedBytes(bytes, start, end, hash);
      if (key >= NODE_ID_LIMIT) throw new InputError(`${scope?.label ?? "input"}: more than ${NODE_ID_LIMIT} distinct node names in one file; split the file`);
      return key;
    },
    nodeKeyOfText(node) {
      const key = nodes.idOfText(node);
      if (key >= NODE_ID_LIMIT) throw new InputError(`${scope?.label ?? "input"}: more than ${NODE_ID_LIMIT} distinct node names in one file; split the file`);
      return key;
    },
    attributeKeyOfBytes(j, bytes, start, end) {
      while (attributeValues.length <= j) attributeValues.push(new ByteInterner());
      return attributeValues[j]!.idOfBytes(bytes, start, end);
    },
    attributeKeyOfText(j, value) {
      while (attributeValues.length <= j) attributeValues.push(new ByteInterner());
      return attributeValues[j]!.idOfText(value);
    },
    row: rowValues,
    addProcess(key, nodeKey, m, sizeMb, bwMbPerS, sourceIndex, line, byteStart, byteEnd, raw) {
      rowValues[ROW_M] = m;
      rowValues[ROW_SIZE_MB] = sizeMb;
      rowValues[ROW_BW_MB_PER_S] = bwMbPerS;
      rowValues[ROW_LINE] = line;
      rowValues[ROW_BYTE_START] = byteStart;
      rowValues[ROW_BYTE_END] = byteEnd;
      return addRow(key, nodeKey, sourceIndex, raw);
    },
    addRow,
    noteAttribute,
    reject,
    get read() {
      return read;
    },
    closeScope() {
      if (scope === null) throw new Error("closeScope: no scope is open");
      const label = scope.label;
      const names = scope.attributeNames;
      try {
        // Verdicts: accepted runs go to the table, in the order they were first met.
        const runReason: (string | null)[] = new Array(runCount).fill(null);
        const runCode: RejectCode[] = new Array(runCount);
        let firstBad = -1;
        const sourceOfScope = table.sources.length;
        const sets: AttributeTrie = new Map();
        let addedSource = false;
        // Room for every run of the scope (and those announced by `reserveRuns`) at once.
        const idArena = runIds.arenaBytes();
        table.reserve(table.length + runCount + reservedRuns, runIds.bytesUsed + reservedIdBytes);
        reservedRuns = 0;
        reservedIdBytes = 0;
        for (let run = 0; run < runCount; run++) {
          const conflicts = runConflicts.get(run);
          const runId = () => runIds.text(runKey[run]!);
          if (conflicts !== undefined) {
            runReason[run] = rejectMessage.contradictingM(runId(), conflicts);
            runCode[run] = "contradicting-m";
          } else if (runProcesses[run] !== runM[run]) {
            const otherRejected = ownRejectsOfKey[runKey[run]!]!;
            runReason[run] = rejectMessage.runSizeMismatch(runId(), runM[run]!, runProcesses[run]!, otherRejected);
            runCode[run] = "run-size-mismatch";
          } else {
            if (!addedSource) {
              table.sources.push(label);
              addedSource = true;
            }
            const id = runKey[run]!;
            const start = runIds.startOf(id);
            table.appendFrom(idArena, start, start + runIds.lengthOf(id), runM[run]!, runSumSize[run]!, runSumBw[run]!, runMixedSizes[run] === 0 ? runFirstSize[run]! : null, sourceOfScope, attributeSetOf(run, names, sets));
            continue;
          }
          if (
            firstBad < 0 ||
            runFirstSource[run]! < runFirstSource[firstBad]! ||
            (runFirstSource[run] === runFirstSource[firstBad] && runFirstLine[run]! < runFirstLine[firstBad]!)
          ) {
            firstBad = run;
          }
        }
        if (strict && firstBad >= 0) throw new InputError(atLine(sources[runFirstSource[firstBad]!]!.name, runFirstLine[firstBad]!, runReason[firstBad]!));

        // Rejected rows in line order: the spooled ones, the in-memory rows of bad runs, and
        // the rows of bad sealed runs read back (their extents are disjoint and in run order).
        const inMemory: PendingReject[] = [];
        for (const rows of [openRows, scatteredRows]) {
          for (let r = 0; r < rows.count; r++) {
            const run = rows.run[r]!;
            const reason = runReason[run];
            if (reason === null || reason === undefined) continue;
            inMemory.push({
              sourceIndex: rows.source[r]!,
              line: rows.line[r]!,
              byteStart: rows.byteStart[r]!,
              byteEnd: rows.byteEnd[r]!,
              raw: rows.rawOf(r),
              code: runCode[run]!,
              reason,
            });
          }
        }
        inMemory.sort(comparePending);
        function* sealedRejects(): Generator<PendingReject> {
          for (let run = 0; run < runCount; run++) {
            const reason = runReason[run];
            if (reason === null || reason === undefined || runState[run] !== SEALED) continue;
            const sourceIndex = runFirstSource[run]!;
            for (const row of rowsOfSealedRun(run)) {
              yield { sourceIndex, line: row.line, byteStart: row.byteStart, byteEnd: row.byteEnd, raw: null, code: runCode[run]!, reason };
            }
          }
        }
        const streams = [spool.drain(), inMemory[Symbol.iterator](), sealedRejects()];
        const heads = streams.map((s) => s.next());
        for (;;) {
          let best = -1;
          for (let s = 0; s < heads.length; s++) {
            const head = heads[s]!;
            if (!head.done && (best < 0 || comparePending(head.value, heads[best]!.value as PendingReject) < 0)) best = s;
          }
          if (best < 0) break;
          emit(heads[best]!.value as PendingReject);
          heads[best] = streams[best]!.next();
        }
      } finally {
        resetScope();
      }
    },
    runIdSnapshot: () => runIds.snapshot(),
    hasRunId: (bytes, start, end) => runIds.has(bytes, start, end),
    reserveRuns(runs, idBytes) {
      reservedRuns += runs;
      reservedIdBytes += idBytes;
    },
    appendTail(tail) {
      if (scope !== null) throw new Error("appendTail: close the scope first");
      table.appendTable(tail.runs);
      read += tail.read;
      for (const p of tail.rejects) emit(p);
    },
    abort() {
      resetScope();
    },
    finish() {
      if (scope !== null) throw new Error(`RowLedger.finish: scope ${scope.label} is still open`);
      return { runs: table, read, rejected, rejectedByCode };
    },
  };
}
