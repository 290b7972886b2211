/**
 * Byte strings → dense integer ids (0, 1, 2, … in order of first sight), the way the ingest
 * keeps run_ids, node names and attribute values: the bytes live once in one arena, the ids
 * in typed arrays, so a million-row file costs no JS string per row and a few bytes per
 * distinct value (not the ~50 bytes of a string plus a Map entry), and the garbage
 * collector has almost nothing to trace.
 *
 * Open addressing with linear probing over FNV-1a hashes; the table is at most half full.
 * Text and bytes intern to the same id: bytes are taken as UTF-8, and bytes that are not
 * valid UTF-8 are first normalised the way decoding them would (U+FFFD), so that a value
 * read by the byte-level fast path and the same value read as text (csv-parse, host logs)
 * are one value — as they were when values were strings.
 *
 * Cost: O(length) per lookup; memory ≈ length + 20 bytes per distinct value.
 */
const EMPTY = -1;
/** FNV-1a, 32 bits: the hash the table uses (readers may compute it while scanning). */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

export class ByteInterner {
  private arena = new Uint8Array(1 << 12);
  private arenaUsed = 0;
  private starts = new Float64Array(256);
  private lengths = new Int32Array(256);
  private hashes = new Int32Array(256);
  private slots = new Int32Array(512).fill(EMPTY);
  private mask = 511;
  /** Number of distinct values. */
  size = 0;

  /** FNV-1a of `bytes[start, end)`, as the table uses it. */
  static hash(bytes: Uint8Array, start: number, end: number): number {
    let hash = FNV_OFFSET;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
    return hash;
  }

  /** The id of `bytes[start, end)`, added if new. */
  idOfBytes(bytes: Uint8Array, start: number, end: number): number {
    let hash = FNV_OFFSET;
    let high = 0;
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      high |= b;
      hash = Math.imul(hash ^ b, FNV_PRIME);
    }
    if (high >= 0x80) return this.idOfUtf8(bytes, start, end);
    return this.idOfHashed(bytes, start, end, hash);
  }

  /** `idOfBytes` when the caller has computed `hash` (= `ByteInterner.hash` of the bytes). */
  idOfHashedBytes(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const found = this.findHashed(bytes, start, end, hash);
    return found >= 0 ? found : this.idOfBytes(bytes, start, end);
  }

  /** The id of `text` (its UTF-8 bytes), added if new. */
  idOfText(text: string): number {
    const bytes = Buffer.from(text, "utf8");
    return this.idOfHashed(bytes, 0, bytes.length, ByteInterner.hash(bytes, 0, bytes.length));
  }

  /** Whether `bytes[start, end)` has an id (nothing is added). */
  has(bytes: Uint8Array, start: number, end: number): boolean {
    let high = 0;
    for (let i = start; i < end; i++) high |= bytes[i]!;
    if (high >= 0x80) {
      const normalised = Buffer.from(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("utf8"), "utf8");
      return this.find(normalised, 0, normalised.length) >= 0;
    }
    return this.find(bytes, start, end) >= 0;
  }

  /** Every value, as bytes and positions in one arena (to send to another thread). */
  snapshot(): { arena: Uint8Array; starts: Float64Array; lengths: Int32Array } {
    return { arena: this.arena.slice(0, this.arenaUsed), starts: this.starts.slice(0, this.size), lengths: this.lengths.slice(0, this.size) };
  }

  /** The value of `id` as text. */
  text(id: number): string {
    const start = this.starts[id]!;
    return Buffer.from(this.arena.buffer, this.arena.byteOffset + start, this.lengths[id]!).toString("utf8");
  }

  /**
   * Where the bytes of `id` are: in `arenaBytes()` (valid until the next addition) from
   * `startOf(id)`, `lengthOf(id)` long. For a loop over many ids, where a view per id
   * (`bytes`) is an allocation each.
   */
  arenaBytes(): Uint8Array {
    return this.arena;
  }

  /** The bytes all values take. */
  get bytesUsed(): number {
    return this.arenaUsed;
  }

  startOf(id: number): number {
    return this.starts[id]!;
  }

  lengthOf(id: number): number {
    return this.lengths[id]!;
  }

  /** The value of `id` as bytes (a view into the arena, valid until the next addition). */
  bytes(id: number): Uint8Array {
    const start = this.starts[id]!;
    return this.arena.subarray(start, start + this.lengths[id]!);
  }

  /** Forget every value (ids start again at 0). */
  clear(): void {
    if (this.size === 0) return;
    this.arena = new Uint8Array(1 << 12);
    this.arenaUsed = 0;
    this.starts = new Float64Array(256);
    this.lengths = new Int32Array(256);
    this.hashes = new Int32Array(256);
    this.slots = new Int32Array(512).fill(EMPTY);
    this.mask = 511;
    this.size = 0;
  }

  /** Bytes that are not all ASCII: intern what UTF-8 decoding makes of them. */
  private idOfUtf8(bytes: Uint8Array, start: number, end: number): number {
    return this.idOfText(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("utf8"));
  }

  private find(bytes: Uint8Array, start: number, end: number): number {
    return this.findHashed(bytes, start, end, ByteInterner.hash(bytes, start, end));
  }

  private findHashed(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    for (let slot = (hash ^ (hash >>> 15)) & this.mask; ; slot = (slot + 1) & this.mask) {
      const id = this.slots[slot]!;
      if (id === EMPTY) return -1;
      if (this.hashes[id] === hash && this.lengths[id] === length && this.sameBytes(id, bytes, start, length)) return id;
    }
  }

  private idOfHashed(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    let slot = (hash ^ (hash >>> 15)) & this.mask;
    for (;;) {
      const id = this.slots[slot]!;
      if (id === EMPTY) break;
      if (this.hashes[id] === hash && this.lengths[id] === length && this.sameBytes(id, bytes, start, length)) return id;
      slot = (slot + 1) & this.mask;
    }
    const id = this.size++;
    if (id >= this.lengths.length) this.growIds();
    if (this.arenaUsed + length > this.arena.length) this.growArena(length);
    this.arena.set(bytes.subarray(start, end), this.arenaUsed);
    this.starts[id] = this.arenaUsed;
    this.lengths[id] = length;
    this.hashes[id] = hash;
    this.arenaUsed += length;
    this.slots[slot] = id;
    if (this.size * 2 > this.slots.length) this.growSlots();
    return id;
  }

  private sameBytes(id: number, bytes: Uint8Array, start: number, length: number): boolean {
    const arena = this.arena;
    const at = this.starts[id]!;
    for (let i = 0; i < length; i++) if (arena[at + i] !== bytes[start + i]) return false;
    return true;
  }

  private growIds(): void {
    const capacity = this.lengths.length * 2;
    const starts = new Float64Array(capacity);
    starts.set(this.starts);
    this.starts = starts;
    const lengths = new Int32Array(capacity);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const hashes = new Int32Array(capacity);
    hashes.set(this.hashes);
    this.hashes = hashes;
  }

  private growArena(atLeast: number): void {
    const arena = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + atLeast));
    arena.set(this.arena.subarray(0, this.arenaUsed));
    this.arena = arena;
  }

  private growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    this.mask = this.slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      const hash = this.hashes[id]!;
      let slot = (hash ^ (hash >>> 15)) & this.mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slots[slot] = id;
    }
  }
}
