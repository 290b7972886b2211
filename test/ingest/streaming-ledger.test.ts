/**
 * The streaming ledger (sealed runs re-read from the file, spooled rejects) against the
 * naive reading of the rules in `reference-ingest.ts`, on random traces whose runs are
 * consecutive, scattered, incomplete, duplicated or contradictory, read in chunks of any
 * size; and the cases that make the ledger re-read a sealed run, one by one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memorySource } from "../../pipeline/ingest/byte-source";
import { readCanonicalSource } from "../../pipeline/ingest/canonical-reader";
import { createRowLedger } from "../../pipeline/ingest/row-ledger";
import { ingestTraces, type IngestResult } from "../../pipeline/ingest/ingest-files";
import { referenceIngest } from "./reference-ingest";

const HEADER = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster";

function ingest(files: { name: string; text: string }[], parser: "fast" | "csv-parse", maxReadBytes?: number): Promise<IngestResult> {
  return ingestTraces(
    files.map(({ name, text }) => ({ format: "canonical", open: async () => memorySource(name, text, { maxReadBytes }) })),
    { canonicalParser: parser },
  );
}

function expectLikeReference(result: IngestResult, files: { name: string; text: string }[]): void {
  const reference = referenceIngest(files);
  expect(result.observations.runs).toEqual(reference.runs);
  expect(result.rejects.map((r) => ({ file: r.file, line: r.line, code: r.code }))).toEqual(reference.rejects);
  expect(result.counts.read).toBe(reference.read);
  expect(result.counts.read).toBe(result.counts.accepted + result.counts.rejected);
}

/** Rows of a few runs: complete, short, long, duplicated, contradictory, broken; then shuffled locally. */
const runRows = fc
  .array(
    fc.record({
      m: fc.integer({ min: 1, max: 4 }),
      sizeMb: fc.constantFrom("15", "76", "76"),
      missing: fc.constantFrom(0, 0, 0, 1),
      extra: fc.constantFrom(0, 0, 0, 1),
      duplicate: fc.boolean(),
      contradict: fc.constantFrom(false, false, false, true),
      broken: fc.constantFrom(false, false, false, true),
      cluster: fc.constantFrom("azur", "azur", "orsay"),
    }),
    { maxLength: 12 },
  )
  .map((runs) =>
    runs.flatMap((run, r) => {
      const count = Math.max(0, run.m - run.missing + run.extra);
      const rows = Array.from({ length: count }, (_, i) => {
        const m = run.contradict && i === count - 1 ? run.m + 1 : run.m;
        const end = run.broken && i === 0 ? "x" : String(10 + i);
        return `run${r},n${i + 1},${m},${run.sizeMb},76.174,0.5,${end},${i === 2 ? "orsay" : run.cluster}`;
      });
      if (run.duplicate && rows.length > 0) rows.push(rows[0]!);
      return rows;
    }),
  );

/** Move some rows elsewhere (runs become scattered), and sprinkle blank and comment lines. */
const traceText = fc
  .tuple(runRows, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 8 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom("", "# note", "\r")), { maxLength: 3 }), fc.constantFrom("\n", "\r\n"))
  .map(([rows, moves, extras, ending]) => {
    const lines = [...rows];
    for (const [from, to] of moves) {
      if (lines.length < 2) break;
      const [row] = lines.splice(from % lines.length, 1);
      lines.splice(to % (lines.length + 1), 0, row!);
    }
    for (const [at, line] of extras) lines.splice(at % (lines.length + 1), 0, line);
    return [HEADER, ...lines].map((l) => l + ending).join("");
  });

describe("the streaming ledger agrees with the naive reading of the rules", () => {
  it("on random traces, whatever the order of their rows and the size of the chunks", async () => {
    await fc.assert(
      fc.asyncProperty(traceText, traceText, fc.constantFrom<"fast" | "csv-parse">("fast", "csv-parse"), fc.integer({ min: 1, max: 200 }), async (a, b, parser, maxReadBytes) => {
        const files = [
          { name: "a.csv", text: a },
          { name: "b.csv", text: b },
        ];
        expectLikeReference(await ingest(files, parser, maxReadBytes), files);
      }),
      { numRuns: 200 },
    );
  });
});

describe("rows of a run that was already sealed", () => {
  // Run r is sealed when s starts; each case then sends r one more row.
  const base = [HEADER, "r,n1,2,76,76,0,10,azur", "r,n2,2,76,76,0,11,azur", "s,n1,1,76,76,0,12,azur"];
  it.each([
    ["completes it", ["q,n1,2,76,76,0,10,azur", "s2,n1,1,76,76,0,10,azur", "q,n2,2,76,76,0,11,azur"]],
    ["duplicates one of its processes", ["r,n1,2,76,76,0,13,azur"]],
    ["makes it too long", ["r,n3,2,76,76,0,13,azur"]],
    ["contradicts its m", ["r,n3,3,76,76,0,13,azur"]],
    ["gives another attribute value", ["r,n1,2,76,76,0,13,orsay", "t,n1,1,76,76,0,14,azur"]],
  ])("%s: the result is the naive one", async (_, later) => {
    const files = [{ name: "t.csv", text: [...base, "# a comment between", ...later, ""].join("\n") }];
    for (const parser of ["fast", "csv-parse"] as const) expectLikeReference(await ingest(files, parser), files);
  });

  it("is found again across a chunk boundary and after rejected lines inside its extent", async () => {
    const files = [{ name: "t.csv", text: [HEADER, "r,n1,3,76,76,0,10,azur", "garbage", "r,n2,3,76,76,0,11,azur", "s,n1,1,76,76,0,12,azur", "r,n3,3,76,76,0,13,azur", ""].join("\n") }];
    for (const maxReadBytes of [1, 7, 64]) expectLikeReference(await ingest(files, "fast", maxReadBytes), files);
    const result = await ingest(files, "fast");
    expect(result.observations.runs.map((r) => r.runId)).toEqual(["r", "s"]);
  });
});

describe("the ledger's memory limits", () => {
  const read = (text: string, limits: { maxRunIdsPerFile?: number; maxRowsInMemory?: number }) => {
    const ledger = createRowLedger(limits);
    return readCanonicalSource(memorySource("t.csv", text), ledger).then(() => ledger.finish());
  };

  it("refuses more distinct run_ids in one file than its limit, saying how to get under it", async () => {
    const text = [HEADER, ...Array.from({ length: 11 }, (_, r) => `run${r},n1,1,76,76,0,1,azur`), ""].join("\n");
    await expect(read(text, { maxRunIdsPerFile: 10 })).rejects.toThrow(/t\.csv: more than 10 distinct run_id values in one file; .*split the file into several \(runs never span files\)/);
    expect((await read(text, { maxRunIdsPerFile: 11 })).runs.length).toBe(11);
  });

  it("refuses to hold more rows of scattered runs than its limit, saying to keep runs together", async () => {
    // Every run's second row comes after all the first rows: each run is scattered.
    const runs = Array.from({ length: 6 }, (_, r) => r);
    const text = [HEADER, ...runs.map((r) => `run${r},n1,2,76,76,0,1,azur`), ...runs.map((r) => `run${r},n2,2,76,76,0,1,azur`), ""].join("\n");
    await expect(read(text, { maxRowsInMemory: 8 })).rejects.toThrow(/t\.csv:\d+: more than 8 rows belong to runs whose rows are not consecutive.*keep each run's rows together \(e\.g\. sort the file by run_id\)/);
    expect((await read(text, { maxRowsInMemory: 12 })).runs.length).toBe(6);
  });
});
