/**
 * How a trace's bytes are read (#12.13): CR-only line endings and a UTF-8 byte-order mark
 * read correctly, `#` comment lines skipped and reported, UTF-16 / UTF-32 / compressed
 * files refused with a message that names what they are; a line longer than any row
 * rejected without being held; the same for host logs where it applies.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { memorySource } from "../../pipeline/ingest/byte-source";
import { ingestFiles, ingestTraces, type IngestResult } from "../../pipeline/ingest/ingest-files";
import { MAX_LINE_BYTES } from "../../pipeline/ingest/canonical-line";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-encodings-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HEADER = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s";
const ROWS = ["a,n1,2,76,76,0,10", "a,n2,2,76,76,0,20", "b,n1,1,76,76,0,5"];
const PARSERS = ["fast", "csv-parse"] as const;

function ingestBytes(bytes: Uint8Array, parser: (typeof PARSERS)[number] = "fast", maxReadBytes?: number): Promise<IngestResult> {
  return ingestTraces([{ format: "canonical", open: async () => memorySource("t.csv", bytes, { maxReadBytes }) }], { canonicalParser: parser });
}

const lf = Buffer.from(`${HEADER}\n${ROWS.join("\n")}\n`);

function utf16(text: string, endian: "le" | "be", bom: boolean): Buffer {
  const le = Buffer.from(text, "utf16le");
  const bytes = endian === "le" ? le : Buffer.from(le).swap16();
  return bom ? Buffer.concat([Buffer.from(endian === "le" ? [0xff, 0xfe] : [0xfe, 0xff]), bytes]) : bytes;
}

describe.each(PARSERS)("canonical trace encodings (%s parser)", (parser) => {
  it("reads CR-only line endings as line ends, with a warning", async () => {
    const reference = await ingestBytes(lf, parser);
    for (const maxReadBytes of [undefined, 5]) {
      const cr = await ingestBytes(Buffer.from(`${HEADER}\r${ROWS.join("\r")}\r`), parser, maxReadBytes);
      expect(cr.observations).toEqual(reference.observations);
      expect(cr.counts).toEqual({ read: 3, accepted: 3, rejected: 0 });
      expect(cr.warnings).toEqual(["t.csv has CR line endings (classic Mac OS); each CR was read as a line end"]);
    }
  });

  it("skips a UTF-8 byte-order mark", async () => {
    const result = await ingestBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), lf]), parser);
    expect(result.observations).toEqual((await ingestBytes(lf, parser)).observations);
  });

  it("skips # comment lines before the header and between rows, counts them and says where the first is", async () => {
    const text = `# written by the harness\n${HEADER}\n${ROWS[0]}\n# the node rebooted here\n${ROWS.slice(1).join("\n")}\n`;
    const result = await ingestBytes(Buffer.from(text), parser);
    expect(result.counts).toEqual({ read: 3, accepted: 3, rejected: 0 });
    expect(result.warnings).toEqual(["t.csv: 2 comment lines (starting with #) skipped, the first at line 1"]);
    expect(result.rejects).toEqual([]);
  });

  it.each([
    ["UTF-16 LE with a byte-order mark", utf16(lf.toString(), "le", true), /t\.csv is UTF-16 LE text \(byte-order mark FF FE\); traces are read as UTF-8 text: convert it first, e\.g\. iconv -f UTF-16 -t UTF-8 't\.csv' > trace\.csv/],
    ["UTF-16 BE with a byte-order mark", utf16(lf.toString(), "be", true), /UTF-16 BE text \(byte-order mark FE FF\)/],
    ["UTF-16 LE without a byte-order mark", utf16(lf.toString(), "le", false), /UTF-16 LE text without a byte-order mark/],
    ["UTF-16 BE without a byte-order mark", utf16(lf.toString(), "be", false), /UTF-16 BE text without a byte-order mark/],
    ["UTF-32 LE", Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from("r\0\0\0")]), /UTF-32 LE text/],
    ["gzip-compressed", gzipSync(lf), /t\.csv is gzip-compressed; .*gunzip -c 't\.csv'/],
    ["binary", Buffer.from([0x72, 0x75, 0x00, 0x00, 0x0a]), /its first line holds a NUL byte .*not a text file/],
  ])("refuses %s, naming it", async (_, bytes, message) => {
    await expect(ingestBytes(bytes, parser)).rejects.toThrow(message);
  });

  it("rejects a line longer than any row without holding it, and reads on", async () => {
    const long = `a,${"x".repeat(MAX_LINE_BYTES + 10)}`;
    const result = await ingestBytes(Buffer.from(`${HEADER}\n${ROWS[0]}\n${long}\n${ROWS.slice(1).join("\n")}\n`), parser);
    expect(result.counts).toEqual({ read: 4, accepted: 3, rejected: 1 });
    expect(result.rejects[0]).toMatchObject({ line: 3, code: "line-too-long", reason: expect.stringMatching(/longer than the 1,048,576 bytes a trace row may have \(1,048,589 bytes\)/) });
    expect(result.rejects[0]!.raw).toMatch(/^a,x{9998}… \(\d[\d,]* more bytes cut\)$/);
  });
});

describe("host-log encodings", () => {
  const log = "# host event log\n100.0 ckpt_start pid=1 m=1 size_mb=76\n113.5 ckpt_end pid=1 ckpt_bytes=76174000\n";
  const campaign = (name: string, bytes: Buffer) => {
    const host = join(scratch, name, "run-1", "azur-1");
    mkdirSync(host, { recursive: true });
    writeFileSync(join(host, "events.log"), bytes);
    return join(scratch, name);
  };

  it("reads CR-only line endings and a byte-order mark", async () => {
    const reference = await ingestFiles([campaign("lf", Buffer.from(log))]);
    expect(reference.counts).toEqual({ read: 1, accepted: 1, rejected: 0 });
    for (const [name, bytes] of [
      ["cr", Buffer.from(log.replace(/\n/g, "\r"))],
      ["bom", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(log)])],
    ] as const) {
      const result = await ingestFiles([campaign(name, bytes)]);
      expect(result.counts).toEqual(reference.counts);
      expect(result.observations.runs[0]!.aggregatedBwMbPerS).toBe(reference.observations.runs[0]!.aggregatedBwMbPerS);
    }
  });

  it("refuses a UTF-16 log, naming the encoding", async () => {
    await expect(ingestFiles([campaign("utf16", utf16(log, "le", true))])).rejects.toThrow(/events\.log is UTF-16 LE text \(byte-order mark FF FE\)/);
  });
});
