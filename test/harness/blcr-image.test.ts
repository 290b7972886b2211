import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allocateTouchedMemory, blcrImageLayout, PAGE_BYTES, PREAMBLE_BYTES, writeBlcrImage } from "../../pipeline/harness/blcr-image";
import { temporaryFolder } from "./temp-dir";

const dir = temporaryFolder("blcr");

describe("BLCR-pattern image", () => {
  it("has one 4-byte header before each 4 KiB page (docs/science.md §3.1), after a 64-byte preamble", () => {
    // 0.1 MB = 100 000 bytes → ⌈100000 / 4096⌉ = 25 pages → 64 + 25 × 4100 = 102 564 bytes.
    expect(blcrImageLayout(0.1)).toEqual({ pages: 25, bytes: 102_564 });
    expect(blcrImageLayout(8).bytes / 8e6).toBeCloseTo(1.00143, 5);
  });

  it("writes exactly the layout, page i preceded by its index, with every page's content", () => {
    const memory = allocateTouchedMemory(0.1);
    const path = join(dir, "a.img");
    const write = writeBlcrImage(path, memory, "fsync", 1);
    const bytes = readFileSync(path);
    expect(write.bytes).toBe(102_564);
    expect(bytes.length).toBe(102_564);
    expect(write.endNs).toBeGreaterThan(write.startNs);
    expect(bytes.subarray(0, 16).toString("latin1")).toBe("CKPTLAB-BLCR-EMU");
    expect(bytes.readDoubleLE(24)).toBe(25);
    for (const page of [0, 1, 24]) {
      const at = PREAMBLE_BYTES + page * (PAGE_BYTES + 4);
      expect(bytes.readUInt32LE(at)).toBe(page);
      expect(bytes.subarray(at + 4, at + 4 + PAGE_BYTES).equals(memory.chunks[0]!.subarray(page * PAGE_BYTES, (page + 1) * PAGE_BYTES))).toBe(true);
    }
  });

  it("writes the same bytes whatever the pages per write and sync mode", () => {
    const memory = allocateTouchedMemory(0.3);
    const reference = join(dir, "one.img");
    writeBlcrImage(reference, memory, "fsync", 1);
    for (const [sync, pages] of [["dsync", 7], ["none", 512], ["fsync", 256]] as const) {
      const path = join(dir, `${sync}-${pages}.img`);
      writeBlcrImage(path, memory, sync, pages);
      expect(readFileSync(path).equals(readFileSync(reference))).toBe(true);
    }
  });

  it("touches every page with content that is not constant (not a sparse or compressible image)", () => {
    const memory = allocateTouchedMemory(0.05);
    const chunk = memory.chunks[0]!;
    for (let page = 0; page < memory.pages; page++) {
      const words = new Uint32Array(chunk.buffer, chunk.byteOffset + page * PAGE_BYTES, PAGE_BYTES / 4);
      expect(new Set(words).size).toBeGreaterThan(1000);
    }
  });

  it("reports a full device as an error (ENOSPC)", () => {
    expect(() => writeBlcrImage("/dev/full", allocateTouchedMemory(0.05), "none", 4)).toThrow(/ENOSPC/);
  });
});
