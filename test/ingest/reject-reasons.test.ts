/**
 * Every reject reason, through both canonical parsers, and strict mode's `file:line: reason`.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../pipeline/shared/errors";
import { ingestCanonicalTexts, ingestFiles, type IngestResult } from "../../pipeline/ingest/ingest-files";
import type { CanonicalParser } from "../../pipeline/ingest/canonical-reader";

const HEADER = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s";
const GOOD = "good,n1,1,76,76,0,10";

function expectAccounted(result: IngestResult): void {
  expect(result.counts.read).toBe(result.counts.accepted + result.counts.rejected);
  expect(result.rejects).toHaveLength(result.counts.rejected);
}

describe.each<CanonicalParser>(["fast", "csv-parse"])("reject reasons (%s parser)", (parser) => {
  const ingest = (...rows: string[]) => ingestCanonicalTexts([{ name: "t.csv", text: [HEADER, ...rows].join("\n") + "\n" }], { canonicalParser: parser });

  it.each([
    ["missing fields", "r,n1,1,76,76,0", "field-count", /missing fields: expected 7 fields .*found 6/],
    ["extra fields", "r,n1,1,76,76,0,10,x", "field-count", /extra fields: expected 7 fields .*found 8/],
    ["an empty run_id", ",n1,1,76,76,0,10", "empty-field", /run_id is empty/],
    ["an empty node", "r,,1,76,76,0,10", "empty-field", /node is empty/],
    ["a non-numeric value", "r,n1,1,76,76,0,ten", "non-numeric", /end_s must be a finite decimal number, found "ten"/],
    ["spaces around a number", "r,n1,1, 76,76,0,10", "non-numeric", /size_mb .*found " 76" \(spaces around values are not allowed\)/],
    ["an infinite number", "r,n1,1,76,1e999,0,10", "non-numeric", /ckpt_mb must be a finite/],
    ["a fractional m", "r,n1,1.5,76,76,0,10", "invalid-m", /m must be a whole number ≥ 1.*found 1.5/],
    ["m = 0", "r,n1,0,76,76,0,10", "invalid-m", /found 0/],
    ["a non-positive size", "r,n1,1,-76,76,0,10", "non-positive-size", /size_mb must be > 0.*found -76/],
    ["a non-positive checkpoint size", "r,n1,1,76,0,0,10", "non-positive-ckpt", /ckpt_mb must be > 0/],
    ["end before start", "r,n1,1,76,76,10,5", "end-before-start", /end_s \(5\) is before start_s \(10\)/],
    ["a zero duration", "r,n1,1,76,76,5,5", "zero-duration", /end_s equals start_s \(5\)/],
    // Found by npm run fuzz: each was accepted with an infinite or zero bandwidth.
    ["a bandwidth beyond the doubles", "r,n1,1,76,1e10,0,1e-300", "bandwidth-out-of-range", /= 10000000000 \/ \(1e-300 − 0\) overflows: not a measurable bandwidth/],
    ["a duration beyond the doubles (bandwidth 0)", "r,n1,1,76,76,-1e308,1e308", "bandwidth-out-of-range", /= 76 \/ \(1e\+308 − -1e\+308\) is 0 MB\/s/],
    ["m times the bandwidth beyond the doubles", "r,n1,3,76,1e308,0,1", "bandwidth-out-of-range", /is 1e\+308 MB\/s, and m = 3 processes at that rate overflow/],
  ])("rejects %s, with the line, the raw text and a reason that says what was expected", async (_, row, code, reason) => {
    const result = await ingest(GOOD, row);
    expectAccounted(result);
    expect(result.counts).toEqual({ read: 2, accepted: 1, rejected: 1 });
    expect(result.rejects).toEqual([{ file: "t.csv", line: 3, code, reason: expect.stringMatching(reason), raw: row }]);
  });

  it("rejects a duplicate (run_id, node) row and keeps the first", async () => {
    const result = await ingest("r,n1,1,76,76,0,10", "r,n1,1,76,76,0,11");
    expectAccounted(result);
    expect(result.counts).toEqual({ read: 2, accepted: 1, rejected: 1 });
    expect(result.rejects[0]).toMatchObject({ line: 3, code: "duplicate-process", reason: expect.stringContaining("first at t.csv:2") });
    // The kept row is the first: 76 MB in 10 s.
    expect(result.observations.runs[0]!.aggregatedBwMbPerS).toBe(7.6);
  });

  it("rejects every row of a run whose rows contradict each other on m", async () => {
    const result = await ingest(GOOD, "r,n1,2,76,76,0,10", "r,n2,3,76,76,0,10", "r,n3,2,76,76,0,10");
    expectAccounted(result);
    expect(result.counts).toEqual({ read: 4, accepted: 1, rejected: 3 });
    expect(result.rejects.map((r) => [r.line, r.code])).toEqual([
      [3, "contradicting-m"],
      [4, "contradicting-m"],
      [5, "contradicting-m"],
    ]);
    expect(result.rejects[0]!.reason).toMatch(/m = 2 at t.csv:3, m = 3 at t.csv:4/);
  });

  it("rejects every row of a run whose row count differs from m, saying how many of its rows failed on their own", async () => {
    const result = await ingest("r,n1,3,76,76,0,10", "r,n2,3,76,76,0,x", "r,n3,3,76,76,0,10", GOOD);
    expectAccounted(result);
    expect(result.counts).toEqual({ read: 4, accepted: 1, rejected: 3 });
    expect(result.rejects.map((r) => [r.line, r.code])).toEqual([
      [2, "run-size-mismatch"],
      [3, "non-numeric"],
      [4, "run-size-mismatch"],
    ]);
    expect(result.rejects[0]!.reason).toMatch(/declares m = 3 but has 2 valid rows \(1 other row was rejected\)/);
  });

  it("rejects the rows of a run with more rows than m", async () => {
    const result = await ingest("r,n1,1,76,76,0,10", "r,n2,1,76,76,0,10");
    expect(result.rejects.map((r) => r.code)).toEqual(["run-size-mismatch", "run-size-mismatch"]);
    expect(result.counts.accepted).toBe(0);
  });

  it("scopes runs to their file: run_id 1 in two files is two runs", async () => {
    const result = await ingestCanonicalTexts(
      [
        { name: "a.csv", text: `${HEADER}\n1,n1,1,76,76,0,10\n` },
        { name: "b.csv", text: `${HEADER}\n1,n1,1,76,76,0,20\n` },
      ],
      { canonicalParser: parser },
    );
    expect(result.counts).toEqual({ read: 2, accepted: 2, rejected: 0 });
    expect(result.observations.runs.map((r) => [r.runId, r.source, r.aggregatedBwMbPerS])).toEqual([
      ["1", "a.csv", 7.6],
      ["1", "b.csv", 3.8],
    ]);
  });

  it("refuses a header without the canonical columns as a whole-file error", async () => {
    await expect(ingestCanonicalTexts([{ name: "t.csv", text: "run,node,m\n1,2,3\n" }], { canonicalParser: parser })).rejects.toThrow(
      /t\.csv:1: expected a header with the columns run_id,node,m,size_mb,ckpt_mb,start_s,end_s .*missing run_id, size_mb, ckpt_mb, start_s, end_s/,
    );
    await expect(ingestCanonicalTexts([{ name: "t.csv", text: `${HEADER},m\n` }], { canonicalParser: parser })).rejects.toThrow(/names column "m" twice/);
    await expect(ingestCanonicalTexts([{ name: "t.csv", text: "\n\n" }], { canonicalParser: parser })).rejects.toThrow(/t\.csv:1: the file has no header line/);
  });

  it("accepts the columns in any order, with extra columns", async () => {
    const result = await ingestCanonicalTexts(
      [{ name: "t.csv", text: "cluster,end_s,start_s,ckpt_mb,size_mb,m,node,run_id\nazur,10,0,76,76,1,n1,r\n" }],
      { canonicalParser: parser },
    );
    expect(result.observations.runs).toEqual([
      { runId: "r", m: 1, vGb: 0.076, aggregatedBwMbPerS: 7.6, uniformSizeMb: 76, source: "t.csv", attributes: { cluster: "azur" } },
    ]);
  });
});

describe("strict mode", () => {
  const strict = (text: string, canonicalParser: CanonicalParser = "fast") =>
    ingestCanonicalTexts([{ name: "traces/t.csv", text }], { strict: true, canonicalParser });

  it.each<CanonicalParser>(["fast", "csv-parse"])("stops at the first bad row with file:line: reason (%s)", async (parser) => {
    const error = await strict(`${HEADER}\n${GOOD}\nr,n1,1,76,76,0,ten\nr,n1,1,76,76,0\n`, parser).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe('traces/t.csv:3: end_s must be a finite decimal number, found "ten"');
  });

  it("reports a run-level problem at the run's first row", async () => {
    await expect(strict(`${HEADER}\n${GOOD}\nr,n1,2,76,76,0,10\n`)).rejects.toThrow(/^traces\/t\.csv:3: run "r" declares m = 2 but has 1 valid row/);
    await expect(strict(`${HEADER}\nr,n1,2,76,76,0,10\nr,n2,3,76,76,0,10\n`)).rejects.toThrow(/^traces\/t\.csv:3: run "r" mixes contradicting m/);
    await expect(strict(`${HEADER}\nr,n1,1,76,76,0,10\nr,n1,1,76,76,0,10\n`)).rejects.toThrow(/^traces\/t\.csv:3: duplicate process/);
  });

  it("gives the same result as lenient mode on clean input", async () => {
    const text = `${HEADER}\n${GOOD}\nr,n1,2,76,76,0,10\nr,n2,2,76,76,0,20\n`;
    const lenient = await ingestCanonicalTexts([{ name: "traces/t.csv", text }]);
    expect(await strict(text)).toEqual(lenient);
  });
});

describe("the worked example data/examples/canonical-with-problems.csv", () => {
  it("rejects one row (or run) per reason, and reads the quoted row through csv-parse", async () => {
    const result = await ingestFiles(["data/examples/canonical-with-problems.csv"]);
    expectAccounted(result);
    expect(result.counts).toEqual({ read: 17, accepted: 4, rejected: 13 });
    expect(result.rejects.map((r) => `${r.line} ${r.code}`)).toEqual([
      "4 field-count",
      "5 field-count",
      "6 empty-field",
      "7 non-numeric",
      "8 invalid-m",
      "9 non-positive-size",
      "10 non-positive-ckpt",
      "11 end-before-start",
      "12 zero-duration",
      "14 duplicate-process",
      "15 contradicting-m",
      "16 contradicting-m",
      "17 run-size-mismatch",
    ]);
    expect(result.observations.runs.map((r) => r.runId)).toEqual(["ok-1", "twice", "quoted, with a comma"]);
  });
});
