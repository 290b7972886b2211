/**
 * Rows rejected for a reason of their own, held until their file is read: the rejects of
 * a file are written in line order, and the rows of runs rejected as a whole are only
 * known at its end, so the two kinds are merged then (`row-ledger.ts`). A file of garbage
 * can reject every one of its millions of rows, so the spool keeps at most
 * `SPOOL_MEMORY_BYTES` in memory and spills the rest to a temporary file (removed when
 * drained or disposed) — memory stays bounded whatever the input.
 *
 * Readers push in reading order, which is line order for a canonical file; the host-logs
 * reader decides some rejects late (a ckpt_start without its end). Spilling needs sorted
 * records, so an out-of-order push stops further spilling (a host directory's rejects are
 * few) and the in-memory part is sorted when drained, then merged with the spilled part.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REJECT_CODES, type RejectCode } from "./reject-reasons";

/** A rejected row before its raw text is read back and its file named. */
export interface PendingReject {
  sourceIndex: number;
  line: number;
  byteStart: number;
  byteEnd: number;
  /** The raw text when the reader has it (host logs); otherwise read back from the bytes. */
  raw: string | null;
  code: RejectCode;
  reason: string;
}

export const SPOOL_MEMORY_BYTES = 8 << 20;
const HEADER_BYTES = 4 * 8 + 3 * 4;
let spoolCounter = 0;

export function comparePending(a: PendingReject, b: PendingReject): number {
  return a.sourceIndex - b.sourceIndex || a.line - b.line;
}

export class RejectSpool {
  private memory: PendingReject[] = [];
  private memoryBytes = 0;
  private sorted = true;
  private fd: number | null = null;
  private path: string | null = null;
  private spilledBytes = 0;
  size = 0;

  constructor(private readonly directory: string = tmpdir()) {}

  push(reject: PendingReject): void {
    const last = this.memory[this.memory.length - 1];
    if (last !== undefined && comparePending(last, reject) > 0) this.sorted = false;
    this.memory.push(reject);
    this.memoryBytes += HEADER_BYTES + 2 * (reject.reason.length + (reject.raw?.length ?? 0));
    this.size++;
    if (this.memoryBytes > SPOOL_MEMORY_BYTES && this.sorted) this.spill();
  }

  /** Every record in (source, line) order; the spool is empty afterwards. */
  *drain(): Generator<PendingReject> {
    const memory = this.memory;
    if (!this.sorted) memory.sort(comparePending);
    const spilled = this.readSpilled();
    let next = spilled.next();
    let i = 0;
    while (!next.done || i < memory.length) {
      if (!next.done && (i >= memory.length || comparePending(next.value, memory[i]!) <= 0)) {
        yield next.value;
        next = spilled.next();
      } else {
        yield memory[i++]!;
      }
    }
    this.dispose();
  }

  /** Forget everything and remove the temporary file. */
  dispose(): void {
    if (this.fd !== null) closeSync(this.fd);
    if (this.path !== null) rmSync(this.path, { force: true });
    this.fd = null;
    this.path = null;
    this.spilledBytes = 0;
    this.memory = [];
    this.memoryBytes = 0;
    this.sorted = true;
    this.size = 0;
  }

  private spill(): void {
    if (this.fd === null) {
      this.path = join(this.directory, `.ckpt-ingest-rejects.${process.pid}.${++spoolCounter}.tmp`);
      this.fd = openSync(this.path, "w+", 0o600);
    }
    const parts: Buffer[] = [];
    for (const r of this.memory) {
      const reason = Buffer.from(r.reason, "utf8");
      const raw = r.raw === null ? null : Buffer.from(r.raw, "utf8");
      const header = Buffer.allocUnsafe(HEADER_BYTES);
      header.writeDoubleLE(r.sourceIndex, 0);
      header.writeDoubleLE(r.line, 8);
      header.writeDoubleLE(r.byteStart, 16);
      header.writeDoubleLE(r.byteEnd, 24);
      header.writeInt32LE(REJECT_CODES.indexOf(r.code), 32);
      header.writeInt32LE(reason.length, 36);
      header.writeInt32LE(raw === null ? -1 : raw.length, 40);
      parts.push(header, reason);
      if (raw !== null) parts.push(raw);
    }
    const bytes = Buffer.concat(parts);
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset, this.spilledBytes + offset);
    this.spilledBytes += bytes.length;
    this.memory = [];
    this.memoryBytes = 0;
  }

  private *readSpilled(): Generator<PendingReject> {
    if (this.fd === null) return;
    const fd = this.fd;
    let buffer = Buffer.allocUnsafe(1 << 20);
    let filled = 0;
    let start = 0;
    let position = 0;
    const need = (bytes: number): boolean => {
      if (filled - start >= bytes) return true;
      buffer.copy(buffer, 0, start, filled);
      filled -= start;
      start = 0;
      if (buffer.length < bytes) {
        const bigger = Buffer.allocUnsafe(bytes * 2);
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      while (filled < bytes && position < this.spilledBytes) {
        const n = readSync(fd, buffer, filled, Math.min(buffer.length - filled, this.spilledBytes - position), position);
        if (n === 0) break;
        filled += n;
        position += n;
      }
      return filled - start >= bytes;
    };
    while (need(HEADER_BYTES)) {
      const reasonLength = buffer.readInt32LE(start + 36);
      const rawLength = buffer.readInt32LE(start + 40);
      const record = {
        sourceIndex: buffer.readDoubleLE(start),
        line: buffer.readDoubleLE(start + 8),
        byteStart: buffer.readDoubleLE(start + 16),
        byteEnd: buffer.readDoubleLE(start + 24),
        code: REJECT_CODES[buffer.readInt32LE(start + 32)]!,
      };
      const bodyLength = reasonLength + Math.max(0, rawLength);
      if (!need(HEADER_BYTES + bodyLength)) throw new Error("reject spool: truncated temporary file");
      const body = start + HEADER_BYTES;
      const reason = buffer.toString("utf8", body, body + reasonLength);
      const raw = rawLength < 0 ? null : buffer.toString("utf8", body + reasonLength, body + reasonLength + rawLength);
      start += HEADER_BYTES + bodyLength;
      yield { ...record, reason, raw };
    }
  }
}
