/**
 * Properties of the canonical parsers on arbitrary input (valid or not: garbage, quotes,
 * missing fields, duplicates, CRLF, chunk boundaries anywhere):
 * - read = accepted + rejected, and ingest never throws (with a valid header);
 * - the byte-level fast path and csv-parse give identical results;
 * - a record is one physical line (a stray quote costs its own line only);
 * - `ckpt ingest` on hostile traces: exit code, messages, outputs, accounting.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { InputError } from "../../pipeline/shared/errors";
import { memorySource } from "../../pipeline/ingest/byte-source";
import { ingestTraces, type IngestOptions, type IngestResult } from "../../pipeline/ingest/ingest-files";
import { readCanonicalSource } from "../../pipeline/ingest/canonical-reader";
import { createRowLedger } from "../../pipeline/ingest/row-ledger";
import { HEADER, traceLine, traceText } from "./csv-arbitraries";
import { scaledRuns } from "../fuzz/sandbox";

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
      scaledRuns(150, 1301),
    );
  });

  it("in strict mode either accepts everything or throws an InputError naming file:line", async () => {
    await fc.assert(
      fc.asyncProperty(traceText, async (text) => {
        const { result, error } = await outcome(ingestText(text, { strict: true }));
        if (result) expect(result.counts.rejected).toBe(0);
        else expect(error).toMatch(/^t\.csv:\d+: /);
      }),
      scaledRuns(150, 1302),
    );
  });

  it("gives identical results through the fast path and through csv-parse, wherever the chunks end", async () => {
    await fc.assert(
      fc.asyncProperty(traceText, fc.integer({ min: 1, max: 64 }), async (text, maxReadBytes) => {
        const fast = await outcome(ingestText(text, { canonicalParser: "fast", maxReadBytes }));
        const slow = await outcome(ingestText(text, { canonicalParser: "csv-parse" }));
        expect(fast).toEqual(slow);
      }),
      scaledRuns(200, 1303),
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

/**
 * `ckpt ingest` on random and mutated traces — columns missing or shuffled, quotes and
 * separators anywhere, huge, tiny and non-finite numbers, blank and comment lines, LF / CR
 * LF / CR endings, a BOM, UTF-16, gzip — run through the CLI in a folder of its own:
 * the exit code is 0, 1 or 2; no stack trace; no NaN or Infinity in what it writes; every
 * row is accounted for (read = accepted + rejected, and read is the number of row lines);
 * nothing is written outside --out's folder, and nothing is left there on a refusal.
 */
describe("ckpt ingest on hostile traces", () => {
  const hostileNumber = fc.oneof(
    fc.constantFrom("1e308", "1e400", "-1e308", "1e-320", "5e-324", "-0", "0", "0x1F", "NaN", "Infinity", "1_000", "1,5", "", " 2", "+3", ".5", "5.", "12345678901234567890"),
    fc.double().map(String),
  );
  const text = fc.string({ unit: fc.constantFrom(..."ab\"',;\t #é\r"), maxLength: 6 });
  /** A run of m processes, valid unless mutated. */
  const run = fc.record({
    m: fc.integer({ min: 1, max: 3 }),
    size: fc.constantFrom("15", "76", "114.5"),
    start: fc.constantFrom("0", "0.010", "1302012345.120"),
    duration: fc.constantFrom(1, 2.5, 13.866),
    cluster: fc.constantFrom("azur", "orsay"),
  });
  const mutation = fc.oneof(
    { weight: 12, arbitrary: fc.constant({ kind: "none" as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("number" as const), field: fc.integer({ min: 2, max: 6 }), value: hostileNumber }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("text" as const), field: fc.integer({ min: 0, max: 7 }), value: text }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("quote" as const, "separator" as const, "drop" as const, "extra" as const, "comment" as const, "blank" as const), at: fc.nat() }) },
  );
  const COLUMNS = ["run_id", "node", "m", "size_mb", "ckpt_mb", "start_s", "end_s", "cluster"];
  const trace = fc.record({
    columns: fc.oneof({ weight: 5, arbitrary: fc.shuffledSubarray(COLUMNS, { minLength: 8 }) }, { weight: 1, arbitrary: fc.shuffledSubarray(COLUMNS, { minLength: 6 }) }),
    quotedHeader: fc.boolean(),
    runs: fc.array(fc.tuple(run, fc.array(mutation, { minLength: 3, maxLength: 3 })), { maxLength: 8 }),
    ending: fc.constantFrom("\n", "\r\n", "\r"),
    wrapping: fc.constantFrom("plain", "plain", "plain", "plain", "bom", "utf16", "gzip", "empty"),
    strict: fc.constantFrom(false, false, true),
  });

  it("exits 0, 1 or 2 with a message, writes only under --out, and accounts for every row", async () => {
    const root = mkdtempSync(join(tmpdir(), "ckpt-hostile-"));
    const listFiles = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? listFiles(join(dir, name)).map((f) => `${name}/${f}`) : [name]));
    let caseNumber = 0;
    let ingested = 0;
    try {
      await fc.assert(
        fc.asyncProperty(trace, async (t) => {
          const dir = join(root, String(caseNumber++));
          const header = t.quotedHeader ? t.columns.map((c) => `"${c}"`).join(",") : t.columns.join(",");
          const lines = t.runs.flatMap(([r, mutations], index) =>
            Array.from({ length: r.m }, (_, i) => {
              const byColumn: Record<string, string> = {
                run_id: `r${index}`,
                node: `n${i + 1}`,
                m: String(r.m),
                size_mb: r.size,
                ckpt_mb: r.size,
                start_s: r.start,
                end_s: String(Number(r.start) + r.duration),
                cluster: r.cluster,
              };
              const fields = t.columns.map((c) => byColumn[c]!);
              const mutation = mutations[i]!;
              if (mutation.kind === "number" || mutation.kind === "text") fields[mutation.field % fields.length] = mutation.value;
              let line = fields.join(",");
              if (mutation.kind === "quote") line = `${line.slice(0, mutation.at % (line.length + 1))}"${line.slice(mutation.at % (line.length + 1))}`;
              if (mutation.kind === "separator") line = line.replace(/,/g, mutation.at % 2 === 0 ? ";" : "\t");
              if (mutation.kind === "drop") line = fields.filter((_, j) => j !== mutation.at % fields.length).join(",");
              if (mutation.kind === "extra") line = `${line},${fields[0]}`;
              if (mutation.kind === "comment") line = `# ${line}`;
              if (mutation.kind === "blank") line = "";
              return line;
            }),
          );
          const body = [header, ...lines].join(t.ending) + t.ending;
          const content = body.split(t.ending).slice(1);
          const rowLines = content.filter((l) => l !== "" && !l.startsWith("#")).length;
          const bytes =
            t.wrapping === "bom"
              ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)])
              : t.wrapping === "utf16"
                ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, "utf16le")])
                : t.wrapping === "gzip"
                  ? gzipSync(body)
                  : t.wrapping === "empty"
                    ? Buffer.alloc(0)
                    : Buffer.from(body);
          mkdirSync(join(dir, "out"), { recursive: true });
          writeFileSync(join(dir, "trace.csv"), bytes);
          const argv = ["ingest", join(dir, "trace.csv"), "--out", join(dir, "out", "obs.json"), "--json", ...(t.strict ? ["--strict"] : [])];
          const { code, stdout, stderr } = await runCli(argv);

          expect([0, 1, 2]).toContain(code);
          expect(stderr).not.toMatch(/^\s+at /m);
          expect(stdout).not.toMatch(/NaN|Infinity/);
          const written = listFiles(dir).sort();
          if (code !== 0) {
            expect(stderr).toMatch(/^ckpt ingest: /);
            // A refusal leaves nothing but, when every row was rejected, the rejects file.
            expect(written.filter((f) => f !== "trace.csv" && f !== "out/obs.rejects.csv")).toEqual([]);
            return;
          }
          ingested++;
          expect(written).toEqual(t.strict ? ["out/obs.json", "trace.csv"] : ["out/obs.json", "out/obs.rejects.csv", "trace.csv"]);
          const artifactText = readFileSync(join(dir, "out", "obs.json"), "utf8");
          const artifact = JSON.parse(artifactText) as { counts: { read: number; accepted: number; rejected: number }; observations: { series: { points: Record<string, number>[] }[]; runs: Record<string, unknown>[] } };
          const { read, accepted, rejected } = artifact.counts;
          expect(read).toBe(accepted + rejected);
          expect(read).toBe(rowLines);
          for (const run of artifact.observations.runs) for (const key of ["m", "vGb", "aggregatedBwMbPerS"]) expect(Number.isFinite(run[key])).toBe(true);
          for (const series of artifact.observations.series) for (const point of series.points) for (const value of Object.values(point)) expect(Number.isFinite(value)).toBe(true);
          if (!t.strict) {
            const rejectRows = parse(readFileSync(join(dir, "out", "obs.rejects.csv")), { columns: true }) as unknown[];
            expect(rejectRows).toHaveLength(rejected);
          }
        }),
        scaledRuns(120, 1304),
      );
      // The generator must reach the accounting checks, not only refusals.
      expect(ingested).toBeGreaterThan(20);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
