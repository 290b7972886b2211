/**
 * Atomic file output: write to a temporary file in the same directory, fsync it, then
 * rename over the target. A crash leaves either the old file or the new one, never a
 * half-written report or model (rename is atomic within one file system).
 *
 * `{ sync: false }` leaves out the fsync, for a caller that makes many files durable at
 * once before they count (the pipeline's build folder, synced before it is swapped in:
 * runner/output-folder.ts). An fsync costs a disk flush, ~5 ms on a virtual disk.
 */
import { closeSync, fdatasync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, rmdirSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

let counter = 0;

function temporaryPathFor(path: string): string {
  counter += 1;
  return join(dirname(path), `.${basename(path)}.${process.pid}.${counter}.tmp`);
}

export interface AtomicWriteOptions {
  /** fsync the file before renaming it (default true). */
  sync?: boolean;
}

/**
 * All of `bytes` (a write may take fewer than asked), at `position` — which leaves the
 * file's offset where it was — or, when null, where the file's offset is.
 */
function writeAll(fd: number, bytes: Uint8Array, position: number | null = null): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset, position === null ? null : position + offset);
}

/** Write `content` to `path` atomically, creating parent directories. */
export function writeFileAtomic(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = temporaryPathFor(path);
  const fd = openSync(temporary, "w");
  try {
    writeAll(fd, typeof content === "string" ? Buffer.from(content, "utf8") : content);
    if (options.sync ?? true) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, path);
}

/** JSON with two-space indentation and a final newline: the one format of every JSON artifact. */
export function writeJsonAtomic(path: string, value: unknown, options: AtomicWriteOptions = {}): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, options);
}

/**
 * A line-oriented writer for large outputs (rejects files, generated traces): appends to a
 * temporary file and renames on `commit()`; `abort()` removes the temporary file.
 */
export interface AtomicLineWriter {
  write(line: string): void;
  /** Append `text` as it is (no line end added). */
  writeText(text: string): void;
  /** Append `bytes` as they are (a caller that encodes its own output into a buffer). */
  writeBytes(bytes: Uint8Array): void;
  /** Overwrite the bytes at `position` (written before) with `bytes`: a value known only later. */
  writeAt(position: number, bytes: Uint8Array): void;
  /**
   * Start writing what was written so far to disk (`fdatasync` on libuv's thread pool)
   * while the caller goes on writing; settles when done. `commit()` still fsyncs, so this
   * only moves the disk's work earlier: a caller that writes hundreds of MB awaits these
   * before `commit()`, which then has little left to flush.
   */
  syncInBackground(): Promise<void>;
  commit(): void;
  abort(): void;
}

export function openAtomicLineWriter(path: string, flushBytes = 1 << 20): AtomicLineWriter {
  // The first folder this creates, if any: `abort()` removes the folders it created.
  const made = mkdirSync(dirname(path), { recursive: true });
  const created = made === undefined ? undefined : resolve(made);
  const temporary = temporaryPathFor(path);
  const fd = openSync(temporary, "w");
  // Text is encoded straight into one buffer, written out when full: no joined string, no copy.
  const buffer = Buffer.allocUnsafe(flushBytes);
  let used = 0;
  let open = true;
  const flush = () => {
    writeAll(fd, buffer.subarray(0, used));
    used = 0;
  };
  const writeText = (text: string) => {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (used + 3 * text.length > buffer.length) {
      flush();
      if (3 * text.length > buffer.length) {
        writeAll(fd, Buffer.from(text, "utf8"));
        return;
      }
    }
    used += buffer.write(text, used, "utf8");
  };
  const writeBytes = (bytes: Uint8Array) => {
    if (used + bytes.length <= buffer.length) {
      buffer.set(bytes, used);
      used += bytes.length;
      return;
    }
    flush();
    writeAll(fd, bytes);
  };
  return {
    write(line: string) {
      writeText(line);
      if (!line.endsWith("\n")) writeText("\n");
    },
    writeText,
    writeBytes,
    syncInBackground() {
      flush();
      return new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error === null ? resolve() : reject(error))));
    },
    writeAt(position: number, bytes: Uint8Array) {
      flush();
      writeAll(fd, bytes, position);
    },
    commit() {
      if (!open) return;
      flush();
      fsyncSync(fd);
      closeSync(fd);
      open = false;
      renameSync(temporary, path);
    },
    abort() {
      if (!open) return;
      closeSync(fd);
      open = false;
      rmSync(temporary, { force: true });
      if (created !== undefined) {
        for (let folder = resolve(dirname(path)); folder.length >= created.length; folder = dirname(folder)) {
          try {
            rmdirSync(folder); // only if empty
          } catch {
            break;
          }
        }
      }
    },
  };
}
