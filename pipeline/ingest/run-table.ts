/**
 * The accepted runs of an ingest as columns (typed arrays plus one byte arena for the
 * run_ids), in the order they were first met: what `Observations.runs` holds, without an
 * object per run. A 100-million-row trace has millions of runs; as objects they would
 * take ~250 bytes each and keep the garbage collector busy, as columns ~60 bytes.
 * `observation(i)` makes the `RunObservation` of run i when one is needed (the in-memory
 * API, the streamed artifact).
 */
import type { RunObservation } from "./observations";

function grown<T extends Float64Array | Int32Array>(column: T, capacity: number): T {
  const next = new (column.constructor as new (length: number) => T)(capacity);
  next.set(column);
  return next;
}

/** `RunTable.toData()`: what crosses between threads. */
export interface RunTableData {
  length: number;
  sources: string[];
  attributeSets: Record<string, string>[];
  arena: Uint8Array<ArrayBuffer>;
  idStart: Float64Array<ArrayBuffer>;
  idLength: Int32Array<ArrayBuffer>;
  m: Float64Array<ArrayBuffer>;
  sumSizeMb: Float64Array<ArrayBuffer>;
  bwMbPerS: Float64Array<ArrayBuffer>;
  uniformSizeMb: Float64Array<ArrayBuffer>;
  source: Int32Array<ArrayBuffer>;
  attributeSet: Int32Array<ArrayBuffer>;
}

export class RunTable {
  length = 0;
  /** Labels of the files / run directories the runs come from (`RunObservation.source`). */
  readonly sources: string[] = [];
  /** Distinct attribute records; a run points to one (or -1 for none). */
  readonly attributeSets: Record<string, string>[] = [];

  private arena = new Uint8Array(1 << 12);
  private arenaUsed = 0;
  private idStart = new Float64Array(1024);
  private idLength = new Int32Array(1024);
  /** m, Σ size_mb, Σ bandwidth (MB/s), the common size (NaN when sizes are mixed). */
  m = new Float64Array(1024);
  sumSizeMb = new Float64Array(1024);
  bwMbPerS = new Float64Array(1024);
  uniformSizeMb = new Float64Array(1024);
  private source = new Int32Array(1024);
  private attributeSet = new Int32Array(1024);

  append(runId: Uint8Array, m: number, sumSizeMb: number, bwMbPerS: number, uniformSizeMb: number | null, source: number, attributeSet: number): void {
    this.appendFrom(runId, 0, runId.length, m, sumSizeMb, bwMbPerS, uniformSizeMb, source, attributeSet);
  }

  /** `append`, with the run_id the bytes `[idStart, idEnd)` of `bytes` (no view to make per run). */
  appendFrom(bytes: Uint8Array, idStart: number, idEnd: number, m: number, sumSizeMb: number, bwMbPerS: number, uniformSizeMb: number | null, source: number, attributeSet: number): void {
    const i = this.length++;
    if (i >= this.m.length) this.reserve(this.m.length * 2);
    const idLength = idEnd - idStart;
    if (this.arenaUsed + idLength > this.arena.length) this.reserveArena(this.arenaUsed + idLength);
    const arena = this.arena;
    let at = this.arenaUsed;
    this.idStart[i] = at;
    this.idLength[i] = idLength;
    for (let k = idStart; k < idEnd; k++) arena[at++] = bytes[k]!;
    this.arenaUsed = at;
    this.m[i] = m;
    this.sumSizeMb[i] = sumSizeMb;
    this.bwMbPerS[i] = bwMbPerS;
    this.uniformSizeMb[i] = uniformSizeMb ?? NaN;
    this.source[i] = source;
    this.attributeSet[i] = attributeSet;
  }

  /**
   * Append every run of `other` (read in another thread), after these: column by column
   * (a 10-million-row file's worker hands over 300 k runs; appended one by one, through
   * repeated doubling, they took ~0.4 s).
   */
  appendTable(other: RunTable): void {
    const setOffset = this.attributeSets.length;
    this.attributeSets.push(...other.attributeSets);
    // other's source labels mapped to this table's (at their first use, as `append` would).
    const sourceIndex = new Int32Array(other.sources.length).fill(-1);
    const at = this.length;
    const n = other.length;
    this.reserve(at + n);
    const arenaAt = this.arenaUsed;
    const arenaBytes = other.arenaUsed;
    this.reserveArena(arenaAt + arenaBytes);
    this.arena.set(other.arena.subarray(0, arenaBytes), arenaAt);
    this.arenaUsed += arenaBytes;
    this.idLength.set(other.idLength.subarray(0, n), at);
    this.m.set(other.m.subarray(0, n), at);
    this.sumSizeMb.set(other.sumSizeMb.subarray(0, n), at);
    this.bwMbPerS.set(other.bwMbPerS.subarray(0, n), at);
    this.uniformSizeMb.set(other.uniformSizeMb.subarray(0, n), at);
    for (let k = 0; k < n; k++) {
      this.idStart[at + k] = other.idStart[k]! + arenaAt;
      const source = other.source[k]!;
      if (sourceIndex[source] === -1) {
        const label = other.sources[source]!;
        const mapped = this.sources.lastIndexOf(label);
        sourceIndex[source] = mapped >= 0 ? mapped : this.sources.push(label) - 1;
      }
      this.source[at + k] = sourceIndex[source]!;
      const set = other.attributeSet[k]!;
      this.attributeSet[at + k] = set < 0 ? -1 : set + setOffset;
    }
    this.length = at + n;
  }

  /**
   * Make room for `capacity` runs in every column (and, with `idBytes`, for that many bytes
   * of run_ids). A caller that knows how many runs come reserves once: grown by doubling,
   * the columns of 700 k runs were allocated and copied ~10 times, each time into fresh
   * memory (a page fault per 4 KiB), ~0.2 s at 10 M rows.
   */
  reserve(atLeast: number, idBytes = 0): void {
    if (idBytes > 0) this.reserveArena(this.arenaUsed + idBytes);
    if (atLeast <= this.m.length) return;
    // At least doubled, so that many small reservations (a scope per host-logs run) stay linear.
    const capacity = Math.max(atLeast, this.m.length * 2);
    this.idStart = grown(this.idStart, capacity);
    this.idLength = grown(this.idLength, capacity);
    this.m = grown(this.m, capacity);
    this.sumSizeMb = grown(this.sumSizeMb, capacity);
    this.bwMbPerS = grown(this.bwMbPerS, capacity);
    this.uniformSizeMb = grown(this.uniformSizeMb, capacity);
    this.source = grown(this.source, capacity);
    this.attributeSet = grown(this.attributeSet, capacity);
  }

  private reserveArena(bytes: number): void {
    if (bytes <= this.arena.length) return;
    const arena = new Uint8Array(Math.max(bytes, this.arena.length * 2));
    arena.set(this.arena.subarray(0, this.arenaUsed));
    this.arena = arena;
  }

  /** The bytes the run_ids take. */
  get idBytes(): number {
    return this.arenaUsed;
  }

  /**
   * The table as plain data that a worker thread can post, its typed arrays transferred
   * rather than copied (they may be longer than `length`); the table is not usable after.
   */
  toData(): RunTableData {
    return {
      length: this.length,
      sources: this.sources,
      attributeSets: this.attributeSets,
      arena: this.arena,
      idStart: this.idStart,
      idLength: this.idLength,
      m: this.m,
      sumSizeMb: this.sumSizeMb,
      bwMbPerS: this.bwMbPerS,
      uniformSizeMb: this.uniformSizeMb,
      source: this.source,
      attributeSet: this.attributeSet,
    };
  }

  static fromData(data: RunTableData): RunTable {
    const table = new RunTable();
    table.length = data.length;
    table.sources.push(...data.sources);
    table.attributeSets.push(...data.attributeSets);
    table.arena = data.arena;
    table.arenaUsed = data.length === 0 ? 0 : data.idStart[data.length - 1]! + data.idLength[data.length - 1]!;
    table.idStart = data.idStart;
    table.idLength = data.idLength;
    table.m = data.m;
    table.sumSizeMb = data.sumSizeMb;
    table.bwMbPerS = data.bwMbPerS;
    table.uniformSizeMb = data.uniformSizeMb;
    table.source = data.source;
    table.attributeSet = data.attributeSet;
    return table;
  }

  runId(i: number): string {
    const start = this.idStart[i]!;
    return Buffer.from(this.arena.buffer, this.arena.byteOffset + start, this.idLength[i]!).toString("utf8");
  }

  /**
   * Copy run i's run_id bytes into `target` at `at` if they are printable ASCII that JSON
   * writes as they are (no `"`, `\\`, control or non-ASCII byte); returns the end, or -1
   * when the run_id needs `JSON.stringify` (or `target` has no room).
   */
  copyPlainRunId(i: number, target: Uint8Array, at: number): number {
    const start = this.idStart[i]!;
    const end = start + this.idLength[i]!;
    if (at + end - start > target.length) return -1;
    const arena = this.arena;
    for (let k = start; k < end; k++) {
      const byte = arena[k]!;
      if (byte < 0x20 || byte > 0x7e || byte === 0x22 || byte === 0x5c) return -1;
      target[at++] = byte;
    }
    return at;
  }

  /** Run i's common process size, or null when it mixes sizes (a validation run). */
  uniformSize(i: number): number | null {
    const size = this.uniformSizeMb[i]!;
    return Number.isNaN(size) ? null : size;
  }

  attributes(i: number): Record<string, string> | undefined {
    const set = this.attributeSet[i]!;
    return set < 0 ? undefined : this.attributeSets[set];
  }

  /** The index of run i's record in `attributeSets`, or -1. */
  attributeSetIndex(i: number): number {
    return this.attributeSet[i]!;
  }

  /** The length in bytes of run i's run_id. */
  runIdLength(i: number): number {
    return this.idLength[i]!;
  }

  /** The index of run i's label in `sources`. */
  sourceOfIndex(i: number): number {
    return this.source[i]!;
  }

  sourceOf(i: number): string {
    return this.sources[this.source[i]!]!;
  }

  /** Run i as the object `Observations.runs` holds (fields in this order). */
  observation(i: number): RunObservation {
    const observation: RunObservation = {
      runId: this.runId(i),
      m: this.m[i]!,
      vGb: this.sumSizeMb[i]! / 1000,
      aggregatedBwMbPerS: this.bwMbPerS[i]!,
      uniformSizeMb: this.uniformSize(i),
      source: this.sourceOf(i),
    };
    const attributes = this.attributes(i);
    if (attributes !== undefined) observation.attributes = { ...attributes };
    return observation;
  }
}
