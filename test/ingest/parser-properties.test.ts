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

describe("the fast path hands over to csv-parse at the first line it does not handle", () => {
  const rows = Array.from({ length: 50 }, (_, i) => `r${i},n1,1,76,76,0,${10 + i}`);
  const csvParseFrom = async (text: string) => {
    const ledger = createRowLedger();
    const report = await readCanonicalSource(memorySource("t.csv", text), ledger, { parser: "fast" });
    return { report, result: ledger.finish() };
  };

  it("reads a clean file entirely on the fast path", async () => {
    const { report, result } = await csvParseFrom(`${HEADER}\n${rows.join("\n")}\n`);
    expect(report.csvParseFromLine).toBeNull();
    expect(result.runs).toHaveLength(50);
  });

  it("switches at a quoted field in the middle, with the same result as csv-parse alone", async () => {
    const quoted = [...rows.slice(0, 30), '"r,30",n1,1,76,76,0,40', ...rows.slice(31)];
    const text = `${HEADER}\r\n${quoted.join("\r\n")}\r\n`;
    const { report } = await csvParseFrom(text);
    expect(report.csvParseFromLine).toBe(32);
    const fast = await ingestText(text);
    expect(fast).toEqual(await ingestText(text, { canonicalParser: "csv-parse" }));
    expect(fast.observations.runs.map((r) => r.runId)).toContain("r,30");
    expect(fast.counts).toEqual({ read: 50, accepted: 50, rejected: 0 });
  });

  it("switches at line 1 for a quoted header", async () => {
    const text = `"run_id","node","m","size_mb","ckpt_mb","start_s","end_s"\n${rows.join("\n")}\n`;
    const { report } = await csvParseFrom(text);
    expect(report.csvParseFromLine).toBe(1);
    expect((await ingestText(text)).counts.accepted).toBe(50);
  });

  it("rejects the line of a quote that is never closed and goes on with the next line", async () => {
    const text = `${HEADER}\n${rows[0]}\n"${rows[1]}\n${rows[2]}\n`;
    const result = await ingestText(text);
    expect(result.counts).toEqual({ read: 3, accepted: 2, rejected: 1 });
    expect(result.rejects[0]).toMatchObject({ line: 3, code: "malformed-csv", raw: `"${rows[1]}`, reason: expect.stringMatching(/never closed/) });
  });
});
