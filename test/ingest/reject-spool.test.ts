import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RejectSpool, SPOOL_MEMORY_BYTES, type PendingReject } from "../../pipeline/ingest/reject-spool";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-spool-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const reject = (line: number, sourceIndex = 0): PendingReject => ({
  sourceIndex,
  line,
  byteStart: line * 100,
  byteEnd: line * 100 + 99,
  raw: line % 3 === 0 ? null : `row ${line}, "é"\n`,
  code: "non-numeric",
  reason: `end_s must be a finite decimal number, found "x${line}"`,
});

describe("the reject spool", () => {
  it("spills past its memory budget to a temporary file and gives everything back in order, then removes the file", () => {
    const spool = new RejectSpool(scratch);
    const count = Math.ceil(SPOOL_MEMORY_BYTES / 150) * 2;
    for (let line = 1; line <= count; line++) spool.push(reject(line));
    expect(readdirSync(scratch)).toHaveLength(1);
    const back = [...spool.drain()];
    expect(back).toHaveLength(count);
    expect(back[0]).toEqual(reject(1));
    expect(back[count - 1]).toEqual(reject(count));
    expect(back.every((r, i) => r.line === i + 1)).toBe(true);
    expect(readdirSync(scratch)).toHaveLength(0);
  });

  it("sorts rejects pushed out of order (host logs decide some late) by file and line", () => {
    const spool = new RejectSpool(scratch);
    for (const [line, source] of [
      [5, 0],
      [2, 1],
      [3, 0],
      [1, 1],
    ] as const) {
      spool.push(reject(line, source));
    }
    expect([...spool.drain()].map((r) => [r.sourceIndex, r.line])).toEqual([
      [0, 3],
      [0, 5],
      [1, 1],
      [1, 2],
    ]);
  });

  it("removes its file when disposed unread", () => {
    const spool = new RejectSpool(scratch);
    for (let line = 1; line <= Math.ceil(SPOOL_MEMORY_BYTES / 100); line++) spool.push(reject(line));
    const [file] = readdirSync(scratch);
    spool.dispose();
    expect(existsSync(join(scratch, file!))).toBe(false);
  });
});
