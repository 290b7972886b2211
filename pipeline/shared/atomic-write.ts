/**
 * Atomic file output: write to a temporary file in the same directory, fsync it, then
 * rename over the target. A crash leaves either the old file or the new one, never a
 * half-written report or model (rename is atomic within one file system).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, rmdirSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

let counter = 0;

function temporaryPathFor(path: string): string {
  counter += 1;
  return join(dirname(path), `.${basename(path)}.${process.pid}.${counter}.tmp`);
}

/** Write `content` to `path` atomically, creating parent directories. */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = temporaryPathFor(path);
  const fd = openSync(temporary, "w");
  try {
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, path);
}

/** JSON with two-space indentation and a final newline: the one format of every JSON artifact. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A line-oriented writer for large outputs (rejects files, generated traces): appends to a
 * temporary file and renames on `commit()`; `abort()` removes the temporary file.
 */
export interface AtomicLineWriter {
  write(line: string): void;
  /** Append `text` as it is (no line end added). */
  writeText(text: string): void;
  commit(): void;
  abort(): void;
}

export function openAtomicLineWriter(path: string, flushBytes = 1 << 20): AtomicLineWriter {
  // The first folder this creates, if any: `abort()` removes the folders it created.
  const made = mkdirSync(dirname(path), { recursive: true });
  const created = made === undefined ? undefined : resolve(made);
  const temporary = temporaryPathFor(path);
  const fd = openSync(temporary, "w");
  let pending: string[] = [];
  let pendingLength = 0;
  let open = true;
  const flush = () => {
    if (pending.length === 0) return;
    const bytes = Buffer.from(pending.join(""), "utf8");
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    pending = [];
    pendingLength = 0;
  };
  return {
    write(line: string) {
      pending.push(line.endsWith("\n") ? line : `${line}\n`);
      pendingLength += line.length + 1;
      if (pendingLength >= flushBytes) flush();
    },
    writeText(text: string) {
      pending.push(text);
      pendingLength += text.length;
      if (pendingLength >= flushBytes) flush();
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
