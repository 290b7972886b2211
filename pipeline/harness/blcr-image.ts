/**
 * The checkpoint image the emulator writes: BLCR's on-disk pattern (docs/science.md §3.1, [Y-thesis]
 * ch. 4) — a little metadata, then every modified page of the process as a 4-byte header
 * followed by the 4 KiB page. [Y-thesis] reports that an emulator writing this pattern
 * reproduced BLCR's checkpoint times to within hundredths of a second.
 *
 * Layout (all integers little-endian):
 *
 *     preamble, 64 bytes: "CKPTLAB-BLCR-EMU" (16 bytes), u32 version = 1, u32 page size = 4096,
 *                         f64 page count, zero padding
 *     page i:             u32 header = i (BLCR stores the page's address; the index is as long),
 *                         then the 4096 bytes of page i of the process's memory
 *
 * A size of `sizeMb` MB (10^6 bytes) occupies ⌈sizeMb·10^6 / 4096⌉ pages (memory is page
 * granular), so the image is 64 + 4100·pages bytes, ≈ 1.001 × the size.
 *
 * Decisions: with `pagesPerWrite` = 1 the header and the page are two write() calls, as
 * BLCR issues them; with k > 1, one writev() of 2k buffers (same bytes on the device, fewer
 * system calls, so a node's CPU is not what is measured). No data is copied to a staging
 * buffer either way.
 */
import { closeSync, constants, fsyncSync, openSync, writeSync, writevSync } from "node:fs";
import type { SyncMode } from "./sweep-spec";

export const PAGE_BYTES = 4096;
export const PAGE_HEADER_BYTES = 4;
export const PREAMBLE_BYTES = 64;
const MAGIC = "CKPTLAB-BLCR-EMU";

/** Pages and bytes of the image of a process of `sizeMb` MB. */
export function blcrImageLayout(sizeMb: number): { pages: number; bytes: number } {
  const pages = Math.ceil((sizeMb * 1e6) / PAGE_BYTES);
  return { pages, bytes: PREAMBLE_BYTES + pages * (PAGE_HEADER_BYTES + PAGE_BYTES) };
}

/** The process memory being checkpointed: page-aligned chunks, every page touched. */
export interface EmulatedMemory {
  chunks: Buffer[];
  pages: number;
}

const CHUNK_PAGES = 16_384; // 64 MiB per Buffer, so any size fits under Buffer's limit

/**
 * Allocate `sizeMb` MB and write every page (a xorshift stream seeded by the page index, so
 * the content is incompressible and the same on every run), as an application that has
 * modified all its memory.
 */
export function allocateTouchedMemory(sizeMb: number): EmulatedMemory {
  const { pages } = blcrImageLayout(sizeMb);
  const chunks: Buffer[] = [];
  for (let first = 0; first < pages; first += CHUNK_PAGES) {
    const count = Math.min(CHUNK_PAGES, pages - first);
    const chunk = Buffer.allocUnsafeSlow(count * PAGE_BYTES);
    const words = new Uint32Array(chunk.buffer, chunk.byteOffset, chunk.length / 4);
    let state = (first + 1) * 2654435761;
    for (let w = 0; w < words.length; w++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      words[w] = state;
    }
    chunks.push(chunk);
  }
  return { chunks, pages };
}

/** What writing one image took: bytes, and the monotonic clock around open … close. */
export interface ImageWrite {
  bytes: number;
  startNs: bigint;
  endNs: bigint;
}

/**
 * Write `memory` as a BLCR image to `path` (created or truncated) and make the device absorb
 * it: `fsync` before close, `dsync` opens with O_DSYNC, `none` leaves it in the page cache.
 * The clock runs from just before open to just after close.
 */
export function writeBlcrImage(path: string, memory: EmulatedMemory, sync: SyncMode, pagesPerWrite: number): ImageWrite {
  const preamble = Buffer.alloc(PREAMBLE_BYTES);
  preamble.write(MAGIC, 0, "latin1");
  preamble.writeUInt32LE(1, 16);
  preamble.writeUInt32LE(PAGE_BYTES, 20);
  preamble.writeDoubleLE(memory.pages, 24);
  const headers = Buffer.alloc(PAGE_HEADER_BYTES * memory.pages);
  for (let i = 0; i < memory.pages; i++) headers.writeUInt32LE(i >>> 0, i * PAGE_HEADER_BYTES);

  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (sync === "dsync" ? constants.O_DSYNC : 0);
  const startNs = process.hrtime.bigint();
  const fd = openSync(path, flags, 0o644);
  let bytes = 0;
  try {
    bytes += writeAll(fd, [preamble]);
    const pageOf = (i: number) => {
      const chunk = memory.chunks[Math.floor(i / CHUNK_PAGES)]!;
      const offset = (i % CHUNK_PAGES) * PAGE_BYTES;
      return chunk.subarray(offset, offset + PAGE_BYTES);
    };
    const headerOf = (i: number) => headers.subarray(i * PAGE_HEADER_BYTES, (i + 1) * PAGE_HEADER_BYTES);
    if (pagesPerWrite <= 1) {
      for (let i = 0; i < memory.pages; i++) {
        bytes += writeAll(fd, [headerOf(i)]);
        bytes += writeAll(fd, [pageOf(i)]);
      }
    } else {
      for (let first = 0; first < memory.pages; first += pagesPerWrite) {
        const last = Math.min(memory.pages, first + pagesPerWrite);
        const buffers: Buffer[] = [];
        for (let i = first; i < last; i++) buffers.push(headerOf(i), pageOf(i));
        bytes += writeAll(fd, buffers);
      }
    }
    if (sync === "fsync") fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const endNs = process.hrtime.bigint();
  return { bytes, startNs, endNs };
}

/** writev, then finish a short write buffer by buffer (a short write only happens near ENOSPC). */
function writeAll(fd: number, buffers: Buffer[]): number {
  const total = buffers.reduce((sum, b) => sum + b.length, 0);
  let written = buffers.length === 1 ? writeSync(fd, buffers[0]!) : writevSync(fd, buffers);
  if (written === total) return total;
  let skip = written;
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    let offset = skip;
    skip = 0;
    while (offset < buffer.length) {
      const n = writeSync(fd, buffer, offset, buffer.length - offset);
      offset += n;
      written += n;
    }
  }
  return written;
}
