/**
 * A hash table from non-negative integer keys (< 2^53) to non-negative integers, in typed
 * arrays (open addressing, linear probing): what the ledger needs to find a (run, node)
 * pair among millions without allocating an object per entry.
 */
export class NumberIndex {
  private keys = new Float64Array(1024).fill(-1);
  private values = new Int32Array(1024);
  private size = 0;
  private mask = 1023;

  /** The value stored for `key`, or -1. */
  get(key: number): number {
    let slot = this.slotOf(key);
    for (;;) {
      const k = this.keys[slot]!;
      if (k === key) return this.values[slot]!;
      if (k === -1) return -1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Store `value` for a key that is not in the table yet. */
  add(key: number, value: number): void {
    if (this.size * 2 >= this.keys.length) this.grow();
    let slot = this.slotOf(key);
    while (this.keys[slot] !== -1) slot = (slot + 1) & this.mask;
    this.keys[slot] = key;
    this.values[slot] = value;
    this.size++;
  }

  clear(): void {
    if (this.size === 0) return;
    this.keys = new Float64Array(1024).fill(-1);
    this.values = new Int32Array(1024);
    this.size = 0;
    this.mask = 1023;
  }

  private slotOf(key: number): number {
    const low = key | 0;
    const high = (key / 4294967296) | 0;
    let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 15;
    return h & this.mask;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Float64Array(oldKeys.length * 2).fill(-1);
    this.values = new Int32Array(oldKeys.length * 2);
    this.mask = this.keys.length - 1;
    this.size = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] !== -1) this.add(oldKeys[i]!, oldValues[i]!);
  }
}
