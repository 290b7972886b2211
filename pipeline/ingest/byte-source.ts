/**
 * Where trace bytes come from: a file or a string in memory (tests, notebooks), read
 * sequentially in chunks by the readers and, for rows that must be found again (a rejected
 * row's text, the rows of a run re-read by the ledger), read back by byte range. The
 * SHA-256 of a source (provenance) is computed on the fly from the sequential reads, so a
 * file is read once.
 */
import { createHash, type Hash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { readSync } from "node:fs";
import { formatCount } from "../shared/format-table";

export interface ByteSource {
  /** The name used in messages and the rejects file (the path as given). */
  readonly name: string;
  /** The file's path, when the source is a file (another thread may open it too). */
  readonly path?: string;
  /** Stop hashing the reads (another thread computes the SHA-256); `sha256()` is then not available. */
  stopHashing?(): void;
  /** Read up to `length` bytes at `position` into `target[targetOffset…]`; 0 at the end. */
  read(target: Uint8Array, targetOffset: number, length: number, position: number): Promise<number>;
  /** The bytes `[start, end)`, synchronously (for rejected rows' raw text). */
  readRange(start: number, end: number): Uint8Array;
  /** The SHA-256 of the whole content, hex (reads whatever the readers have not read). */
  sha256(): Promise<string>;
  close(): Promise<void>;
}

/** Longest raw text kept for one rejected row; longer ones are cut with a note. */
export const MAX_RAW_CHARS = 10_000;
/** Bytes read back for a row's raw text at most (a UTF-8 character has at most 4). */
const MAX_RAW_BYTES = 4 * MAX_RAW_CHARS;

/**
 * A row's text as read: bytes `[start, end)` of `source` decoded as UTF-8 without the line
 * ending (and without a byte-order mark at the start of the file), cut at `MAX_RAW_CHARS`
 * (a line of a gigabyte is not read back whole).
 */
export function readRawText(source: ByteSource, start: number, end: number): string {
  const cut = end - start > MAX_RAW_BYTES;
  let text = Buffer.from(source.readRange(start, cut ? start + MAX_RAW_BYTES : end)).toString("utf8");
  if (start === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!cut) {
    if (text.endsWith("\n")) text = text.slice(0, -1);
    if (text.endsWith("\r")) text = text.slice(0, -1);
  }
  if (cut || text.length > MAX_RAW_CHARS) {
    const more = cut ? `${formatCount(end - start - MAX_RAW_BYTES)} more bytes` : `${text.length - MAX_RAW_CHARS} more characters`;
    text = `${text.slice(0, MAX_RAW_CHARS)}… (${more} cut)`;
  }
  return text;
}

/** Hashes the bytes of sequential reads once each, in order. */
class OnTheFlyHash {
  private readonly hash: Hash = createHash("sha256");
  private hashedUpTo = 0;
  private digest: string | null = null;
  stopped = false;

  see(bytes: Uint8Array, position: number): void {
    const end = position + bytes.length;
    if (this.stopped || this.digest !== null || position > this.hashedUpTo || end <= this.hashedUpTo) return;
    this.hash.update(bytes.subarray(this.hashedUpTo - position));
    this.hashedUpTo = end;
  }

  async finish(readMore: (position: number) => Promise<Uint8Array>): Promise<string> {
    if (this.stopped) throw new Error("sha256(): hashing was stopped (another thread computes it)");
    if (this.digest === null) {
      for (;;) {
        const bytes = await readMore(this.hashedUpTo);
        if (bytes.length === 0) break;
        this.see(bytes, this.hashedUpTo);
      }
      this.digest = this.hash.digest("hex");
    }
    return this.digest;
  }
}

export async function openFileSource(path: string, name = path): Promise<ByteSource> {
  const handle: FileHandle = await open(path, "r");
  const hash = new OnTheFlyHash();
  const source: ByteSource = {
    name,
    path,
    stopHashing: () => {
      hash.stopped = true;
    },
    async read(target, targetOffset, length, position) {
      const { bytesRead } = await handle.read(target, targetOffset, length, position);
      hash.see(target.subarray(targetOffset, targetOffset + bytesRead), position);
      return bytesRead;
    },
    readRange(start, end) {
      const bytes = Buffer.allocUnsafe(end - start);
      let offset = 0;
      while (offset < bytes.length) {
        const n = readSync(handle.fd, bytes, offset, bytes.length - offset, start + offset);
        if (n === 0) break;
        offset += n;
      }
      return bytes.subarray(0, offset);
    },
    sha256: () => {
      // One chunk for all the reads (each is hashed before the next): a gigabyte file read
      // in fresh chunks left as much garbage outside the heap, which the GC frees late.
      const chunk = Buffer.allocUnsafe(1 << 20);
      return hash.finish(async (position) => {
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
        return chunk.subarray(0, bytesRead);
      });
    },
    close: () => handle.close(),
  };
  return source;
}

/**
 * A source over text or bytes in memory. `maxReadBytes` makes every read return at most
 * that many bytes, so that tests can put chunk boundaries anywhere.
 */
export function memorySource(name: string, content: string | Uint8Array, options: { maxReadBytes?: number } = {}): ByteSource {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  const maxReadBytes = options.maxReadBytes ?? Infinity;
  const hash = new OnTheFlyHash();
  return {
    name,
    async read(target, targetOffset, length, position) {
      const chunk = bytes.subarray(position, Math.min(bytes.length, position + length, position + maxReadBytes));
      target.set(chunk, targetOffset);
      hash.see(chunk, position);
      return chunk.length;
    },
    readRange: (start, end) => bytes.subarray(start, end),
    sha256: () => hash.finish(async (position) => bytes.subarray(position)),
    close: async () => {},
  };
}

/**
 * `source` with its bytes mapped as they are read, one byte for one (`map` changes `bytes`,
 * which start at `position` in the file, in place): positions and lengths stay those of the
 * file, and the SHA-256 is that of its real bytes.
 */
export function mappedSource(source: ByteSource, map: (bytes: Uint8Array, position: number) => void): ByteSource {
  return {
    name: source.name,
    path: source.path,
    stopHashing: source.stopHashing,
    async read(target, targetOffset, length, position) {
      const n = await source.read(target, targetOffset, length, position);
      map(target.subarray(targetOffset, targetOffset + n), position);
      return n;
    },
    readRange(start, end) {
      const bytes = Uint8Array.from(source.readRange(start, end));
      map(bytes, start);
      return bytes;
    },
    sha256: () => source.sha256(),
    close: () => source.close(),
  };
}

/** `source` with every CR read as LF: how a file with CR-only line endings is read (see `trace-encoding.ts`). */
export function withCrLineEnds(source: ByteSource): ByteSource {
  return mappedSource(source, (bytes) => {
    for (let i = bytes.indexOf(13); i >= 0; i = bytes.indexOf(13, i + 1)) bytes[i] = 10;
  });
}
