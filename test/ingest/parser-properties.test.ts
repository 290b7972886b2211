/**
 * Properties of the canonical parsers on arbitrary input (valid or not: garbage, quotes,
 * missing fields, duplicates, CRLF, chunk boundaries anywhere):
 * - read = accepted + rejected, and ingest never throws (with a valid header);
 * - the byte-level fast path and csv-parse give identical results.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../pipeline/shared/errors";
import { memorySource } from "../../pipeline/ingest/byte-source";
import { ingestTraces, type IngestOptions, type IngestResult } from "../../pipeline/ingest/ingest-files";
import { readCanonicalSource } from "../../pipeline/ingest/canonical-reader";
import { createRowLedger } from "../../pipeline/ingest/row-ledger";
import { HEADER, traceLine, traceText } from "./csv-arbitraries";

function ingestText(text: string, options: IngestOptions & { maxReadBytes?: number } = {}): Promise<IngestResult> {
  return ingestTraces([{ format: "canonical", open: async () => memorySource("t.csv", text, { maxReadBytes: options.maxReadBytes }) }], options);
}

async function outcome(promise: Promise<IngestResult>): Promise<{ result?: IngestResult; error?: string }> {
  try {
    return { result: await promise };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { error: error.message };
  }
}

describe("canonical parser properties", () => {
  it("accounts for every row and never throws, whatever the rows", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(traceLine, fc.constantFrom("\n", "\r\n")), { maxLength: 30 }), fc.constantFrom<"fast" | "csv-parse">("fast", "csv-parse"), async (lines, parser) => {
        const text = `${HEADER}\n${lines.map(([line, ending]) => line + ending).join("")}`;
        const { counts, rejects, observations } = await ingestText(text, { canonicalParser: parser });
        expect(counts.read).toBe(counts.accepted + counts.rejected);
        expect(rejects).toHaveLength(counts.rejected);
        expect(observations.runs.reduce((n, r) => n + r.m, 0)).toBe(counts.accepted);
        for (const reject of rejects) {
          expect(reject.line).toBeGreaterThanOrEqual(2);
          expect(reject.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("in strict mode either accepts everything or throws an InputError naming file:line", async () => {
    await fc.assert(
      fc.asyncProperty(traceText, async (text) => {
        const { result, error } = await outcome(ingestText(text, { strict: true }));
        if (result) expect(result.counts.rejected).toBe(0);
        else expect(error).toMatch(/^t\.csv:\d+: /);
      }),
      { numRuns: 150 },
    );
  });

  it("gives identical results through the fast path and through csv-parse, wherever the chunks end", async () => {
    await fc.assert(
      fc.asyncProperty(traceText, fc.integer({ min: 1, max: 64 }), async (text, maxReadBytes) => {
        const fast = await outcome(ingestText(text, { canonicalParser: "fast", maxReadBytes }));
        const slow = await outcome(ingestText(text, { canonicalParser: "csv-parse" }));
        expect(fast).toEqual(slow);
      }),
      { numRuns: 200 },
    );
  });
});

describe("an unclosed quote on the first data line", () => {
  // Found by the property above: csv-parse reported its error before the header record it
  // had already parsed was handled, so the row's error was blamed on the header.
  it("is a rejected row, not a bad header, through both parsers", async () => {
    const text = `${HEADER}\n"`;
    for (const parser of ["fast", "csv-parse"] as const) {
      const { counts, rejects } = await ingestText(text, { canonicalParser: parser, maxReadBytes: 1 });
      expect(counts).toEqual({ read: 1, accepted: 0, rejected: 1 });
      expect(rejects[0]).toMatchObject({ line: 2, code: "malformed-csv" });
    }
  });
});

describe("a record is one physical line: a stray quote costs its own line only", () => {
  const rows = Array.from({ length: 50 }, (_, i) => `r${i},n1,1,76,76,0,${10 + i}`);

  it.each(["fast", "csv-parse"] as const)("rejects the line of a quote that does not close on it and reads the next lines (%s)", async (parser) => {
    // The quote opened on line 3 closes on line 5; read as RFC 4180 across lines, lines 3-5
    // were one field and the valid row r3 on line 4 was lost.
    const text = [HEADER, "r1,n1,1,76,76,0,10", 'r2,"n1,1,76,76,0,10', "r3,n1,1,76,76,0,10", 'r4,n1",1,76,76,0,10', "r5,n1,1,76,76,0,10", ""].join("\n");
    const result = await ingestText(text, { canonicalParser: parser });
    expect(result.rejects).toEqual([
      { file: "t.csv", line: 3, code: "malformed-csv", raw: 'r2,"n1,1,76,76,0,10', reason: expect.stringMatching(/does not close on it \(a field cannot span lines\)/) },
    ]);
    // Every physical line after the header is accepted or rejected; r4's node is `n1"` (a quote inside an unquoted field is a character).
    expect(result.counts).toEqual({ read: 5, accepted: 4, rejected: 1 });
    expect(result.observations.runs.map((r) => r.runId)).toEqual(["r1", "r3", "r4", "r5"]);
  });

  it.each(["fast", "csv-parse"] as const)("reads quoted fields within a line: commas, doubled quotes, CRLF, a quoted header (%s)", async (parser) => {
    const quoted = [...rows.slice(0, 30), '"r,30",n1,1,76,76,0,40', '"r""31",n1,1,76,76,0,41', ...rows.slice(32)];
    const text = `"run_id","node",m,"size_mb",ckpt_mb,start_s,end_s\r\n${quoted.join("\r\n")}\r\n`;
    const result = await ingestText(text, { canonicalParser: parser });
    expect(result.counts).toEqual({ read: 50, accepted: 50, rejected: 0 });
    expect(result.observations.runs.map((r) => r.runId).slice(29, 32)).toEqual(["r29", "r,30", 'r"31']);
  });

  it("reads a line break inside quotes as two lines, each judged on its own", async () => {
    const text = `${HEADER}\n"r\n1",n1,1,76,76,0,10\nr2,n1,1,76,76,0,10\n`;
    for (const parser of ["fast", "csv-parse"] as const) {
      const result = await ingestText(text, { canonicalParser: parser });
      expect(result.rejects.map((r) => [r.line, r.code])).toEqual([[2, "malformed-csv"]]);
      // Line 3 alone is a well-formed row whose run_id is `1"`.
      expect(result.observations.runs.map((r) => r.runId)).toEqual(['1"', "r2"]);
    }
  });
});
