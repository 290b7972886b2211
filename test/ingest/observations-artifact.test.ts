/**
 * The observations artifact written run by run (`writeObservationsArtifact`, what the CLI
 * does for inputs of any size) is byte for byte the in-memory one (`writeJsonAtomic` of
 * `buildObservationsArtifact`), which fit reads.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonAtomic } from "../../pipeline/shared/atomic-write";
import { ingestFiles, ingestFilesTo, type IngestOptions } from "../../pipeline/ingest/ingest-files";
import { buildObservationsArtifact, parseObservationsArtifact, pendingSha256, writeObservationsArtifact } from "../../pipeline/ingest/observations-artifact";
import { summariseRunTable } from "../../pipeline/ingest/summarise-runs";
import { RunTable } from "../../pipeline/ingest/run-table";
import fc from "fast-check";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-artifact-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the streamed observations artifact", () => {
  it.each<[string, string[], string[]]>([
    ["the synthetic campaign, grouped by data set", ["data/traces/synthetic-azur.csv"], ["dataset"]],
    ["a trace with problems and a host-logs campaign", ["data/examples/canonical-with-problems.csv", "data/examples/host-logs"], []],
    ["two traces grouped by an attribute one of them lacks", ["data/traces/vm-2vcpu-ext4-fsync.csv", "data/examples/canonical-with-problems.csv"], ["cluster"]],
  ])("is byte for byte the in-memory one: %s", async (_, paths, groupBy) => {
    const options: IngestOptions = { groupBy };
    const context = { toolVersion: "0.0.0-test", format: "auto", strict: false, groupBy, rejectsFile: "r.csv" };
    const inMemory = join(scratch, "in-memory.json");
    writeJsonAtomic(inMemory, buildObservationsArtifact(await ingestFiles(paths, options), context));
    const streamed = join(scratch, "streamed.json");
    const summary = await ingestFilesTo(paths, options, () => {});
    await writeObservationsArtifact(streamed, summary, summariseRunTable(summary.runs, { groupBy }), context);
    expect(readFileSync(streamed, "utf8")).toBe(readFileSync(inMemory, "utf8"));
    expect(parseObservationsArtifact(JSON.parse(readFileSync(streamed, "utf8")), streamed).counts).toEqual(summary.counts);
  });
});

describe("the runs encoded as bytes (runs-json.ts)", () => {
  const context = { toolVersion: "0.0.0-test", format: "auto", strict: false, groupBy: [], rejectsFile: null };
  const encoder = new TextEncoder();
  // Run_ids copied as bytes and ones JSON must escape or decode: quotes, backslashes,
  // control characters, DEL, non-ASCII and invalid UTF-8 (decoded as U+FFFD).
  const runIdBytes = fc.oneof(
    fc.string({ minLength: 1, maxLength: 12 }).map((s) => encoder.encode(s)),
    fc.string({ unit: "binary", minLength: 1, maxLength: 6 }).map((s) => encoder.encode(s)),
    fc.uint8Array({ minLength: 1, maxLength: 6 }),
    fc.constantFrom(...['a"b', "a\\b", "tab\there", "nl\nx", "\u007f", "é", "\u2028"].map((s) => encoder.encode(s))),
  );
  // Every kind of double: integers, exponents either side, negatives, -0, subnormals, non-finite.
  const anyDouble = fc.oneof(
    fc.double(),
    fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
    fc.integer().map((n) => n),
    fc.constantFrom(0, -0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e21, 1e-7, 9.999999999999999e20, 1.7976931348623157e308, 0.1 + 0.2),
  );
  const run = fc.record({
    id: runIdBytes,
    m: anyDouble,
    sumSizeMb: anyDouble,
    bw: anyDouble,
    uniform: fc.option(anyDouble, { nil: null }),
    source: fc.integer({ min: 0, max: 2 }),
    attributeSet: fc.integer({ min: -1, max: 1 }),
  });

  function tableOf(runs: fc.RecordValue<{ id: Uint8Array; m: number; sumSizeMb: number; bw: number; uniform: number | null; source: number; attributeSet: number }>[]) {
    const table = new RunTable();
    table.sources.push("a.csv", 'we"ird\\dir/é.csv', "x");
    table.attributeSets.push({ cluster: "azur", "quote\"d": "ß\n" }, {});
    for (const r of runs) table.append(r.id, r.m, r.sumSizeMb, r.bw, r.uniform, r.source, r.attributeSet);
    return table;
  }

  /** The streamed file and the in-memory one (JSON.stringify of the run objects). */
  async function bothWays(table: RunTable, validation: number[]): Promise<[string, string]> {
    const summary = { counts: { read: 1, accepted: 1, rejected: 0 }, inputs: [], runs: table };
    const streamed = join(scratch, "encoded.json");
    await writeObservationsArtifact(streamed, summary, { series: [], validationRuns: validation }, context);
    const all = Array.from({ length: table.length }, (_, i) => table.observation(i));
    const observations = { runs: all, series: [], validationRuns: validation.map((i) => all[i]!) };
    const inMemory = join(scratch, "objects.json");
    writeJsonAtomic(inMemory, buildObservationsArtifact({ ...summary, observations }, context));
    return [readFileSync(streamed, "utf8"), readFileSync(inMemory, "utf8")];
  }

  it("print every double as String(x) does (the old writer's jsonNumber), null if not finite", () => {
    // The encoder prints numbers with JSON.stringify of an array; the writer before it used String(x).
    fc.assert(
      fc.property(fc.array(anyDouble, { minLength: 1, maxLength: 20 }), (xs) => {
        expect(JSON.stringify(xs)).toBe(`[${xs.map((x) => (Number.isFinite(x) ? String(x) : "null")).join(",")}]`);
      }),
      { numRuns: 2000 },
    );
  });

  it("are byte for byte JSON.stringify's, for any run_id and any double", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(run, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 5 }), async (runs, picks) => {
        const table = tableOf(runs);
        const validation = runs.length === 0 ? [] : picks.map((p) => p % runs.length);
        const [streamed, inMemory] = await bothWays(table, validation);
        expect(streamed).toBe(inMemory);
      }),
      { numRuns: 300 },
    );
  });

  it("are too, across number batches and output buffers, and for a run larger than the buffer", async () => {
    const runs = fc.sample(run, { numRuns: 5000, seed: 7 });
    // A run_id of 400 KB of control bytes: 2.4 MB as JSON, more than the 1 MiB buffer.
    runs.splice(2500, 0, { ...runs[0]!, id: new Uint8Array(400_000).fill(1) });
    const table = tableOf(runs);
    const [streamed, inMemory] = await bothWays(table, [0, 2500, 4999, 3]);
    expect(streamed.length).toBeGreaterThan(3 << 20);
    expect(streamed === inMemory).toBe(true);
  });
});

describe("a hash still being computed while the observations are written", () => {
  it("is written over its stand-in before the file is renamed: the same file as with the hash known", async () => {
    // ~3 MB, so that the file is read on two threads (parallelMinBytes 0) and its worker hashes it after its part.
    const lines = ["run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster"];
    for (let r = 0; r < 30_000; r++) for (let i = 1; i <= 1 + (r % 4); i++) lines.push(`r${r},n${i},${1 + (r % 4)},76,76.174,${r}.5,${r + 10 + i / 8},c${r % 3}`);
    const trace = join(scratch, "trace-é.csv");
    writeFileSync(trace, `${lines.join("\n")}\n`);
    const paths = ["data/traces/synthetic-azur.csv", trace];
    const context = { toolVersion: "0.0.0-test", format: "auto", strict: false, groupBy: [], rejectsFile: null };

    const known = await ingestFilesTo(paths, { parallelMinBytes: 0 }, () => {});
    const withHash = join(scratch, "hash-known.json");
    await writeObservationsArtifact(withHash, known, summariseRunTable(known.runs), context);

    const deferred = await ingestFilesTo(paths, { parallelMinBytes: 0, deferHashes: true }, () => {});
    expect(deferred.sha256Ready).toBeDefined();
    // Whether the hashing thread has finished by now depends on the machine: hold the hash
    // back instead, so that the write always starts with the stand-in and the hash arrives
    // while it runs (what a large file does).
    await deferred.sha256Ready;
    const sha256 = deferred.inputs[1]!.sha256;
    deferred.inputs[1]!.sha256 = pendingSha256(1);
    let release!: () => void;
    deferred.sha256Ready = new Promise<void>((resolve) => (release = resolve)).then(() => void (deferred.inputs[1]!.sha256 = sha256));
    const withStandIn = join(scratch, "hash-deferred.json");
    const writing = writeObservationsArtifact(withStandIn, deferred, summariseRunTable(deferred.runs), context);
    release(); // the head, stand-in included, is written before the first await
    await writing;

    expect(readFileSync(withStandIn, "utf8")).toBe(readFileSync(withHash, "utf8"));
    expect(JSON.parse(readFileSync(withHash, "utf8")).inputs[1].sha256).toBe(createHash("sha256").update(readFileSync(trace)).digest("hex"));
  });
});
