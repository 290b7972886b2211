/**
 * Strings for short byte ranges without allocating one per row: a direct-mapped cache
 * keyed by an FNV-1a hash of the bytes. Trace columns such as node, cluster or repetition
 * take few distinct values over millions of rows, so almost every lookup returns an
 * existing string. Only ASCII is cached (a cached string is compared with the bytes char
 * by char); anything else is decoded as UTF-8 every time.
 */
const SLOTS = 4096;

export interface ByteStringCache {
  /** The UTF-8 text of `bytes[start, end)`. */
  get(bytes: Buffer, start: number, end: number): string;
}

export function createByteStringCache(): ByteStringCache {
  const strings: (string | undefined)[] = new Array(SLOTS).fill(undefined);
  const hashes = new Int32Array(SLOTS);
  return {
    get(bytes, start, end) {
      let hash = 0x811c9dc5 | 0;
      let ascii = true;
      for (let i = start; i < end; i++) {
        const b = bytes[i]!;
        if (b >= 0x80) ascii = false;
        hash = Math.imul(hash ^ b, 0x01000193);
      }
      if (!ascii) return bytes.toString("utf8", start, end);
      const slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
      const cached = strings[slot];
      if (cached !== undefined && hashes[slot] === hash && cached.length === end - start) {
        let same = true;
        for (let i = 0; i < cached.length; i++) {
          if (cached.charCodeAt(i) !== bytes[start + i]) {
            same = false;
            break;
          }
        }
        if (same) return cached;
      }
      const text = bytes.toString("latin1", start, end);
      strings[slot] = text;
      hashes[slot] = hash;
      return text;
    },
  };
}
