/**
 * Ingest at scale, against DuckDB measured in the same run.
 *
 * Inputs: the synthetic Azur campaign (`ckpt synth`) with enough repetitions for 1,001,343
 * rows (10 columns: the 7 canonical ones and cluster, dataset, repetition; written to
 * bench/out/ once), and for the scale runs that file's rows repeated with the run_ids made
 * distinct (copy k prefixes them with `c<k>-`), written to a temporary file and removed.
 *
 * Measured, each as the median of several runs after a warm-up:
 * - 1 M rows, end to end: `ckpt ingest` as a process of its own (start, read, validate,
 *   aggregate, write the observations and the rejects), against DuckDB as a process of its
 *   own doing `read_csv` + the same aggregation on 2 threads (`duckdb-aggregate.cjs`); the
 *   two are run alternately so that both see the same load on the machine;
 * - 1 M rows in process: the floors (reading, SHA-256, a JS loop over every byte),
 *   `ingestFilesTo` on one and two threads, writing the observations, DuckDB warm — and
 *   `ckpt ingest --help` for the start-up: where the end-to-end time goes;
 * - csv-parse (alone, and as the ingest's reference parser) on the first 100 k rows;
 * - 10 M rows end to end: rows/s and the child's peak RSS (`report-max-rss.cjs`);
 * - with `--100m` (`npm run bench -- ingest --100m`, several minutes and 9 GB of disk):
 *   100 M rows end to end, once.
 * Checks printed: the fast path and csv-parse give identical observations; DuckDB's (m, v)
 * cells match ours.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, createReadStream, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeSync, type Dirent } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse";
import { DuckDBInstance } from "@duckdb/node-api";
import type { IngestResult } from "../pipeline/ingest/ingest-files";
import { median, printTable, timeRuns } from "./harness";

/**
 * The library as the CLI runs it: the built dist/ (loaded after `ensureBuilt`), not the
 * TypeScript sources through tsx, whose transform makes the same code slower.
 */
async function library() {
  const dist = join(ROOT, "dist", "pipeline");
  return {
    ...((await import(join(dist, "ingest", "ingest-files.js"))) as typeof import("../pipeline/ingest/ingest-files")),
    ...((await import(join(dist, "ingest", "observations-artifact.js"))) as typeof import("../pipeline/ingest/observations-artifact")),
    ...((await import(join(dist, "ingest", "summarise-runs.js"))) as typeof import("../pipeline/ingest/summarise-runs")),
    ...((await import(join(dist, "ingest", "synthetic-azur.js"))) as typeof import("../pipeline/ingest/synthetic-azur")),
    ...((await import(join(dist, "shared", "atomic-write.js"))) as typeof import("../pipeline/shared/atomic-write")),
  };
}
type Library = Awaited<ReturnType<typeof library>>;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { aggregate: duckdbAggregate } = require("./duckdb-aggregate.cjs") as { aggregate: (connection: unknown, path: string) => Promise<Record<string, unknown>[]> };

/** 3,489 rows per repetition (7 sizes × Σ m=1..30, plus D1–D3 × Σ i=1..12) → 1,001,343 rows. */
const REPETITIONS = 287;
const RUNS = 5;
const ROOT = join(__dirname, "..");
/** Targets of the ingest lines of issue #17's table. */
const TARGET_ROWS_PER_S_10M = 1.5e6;
const TARGET_PEAK_MIB_10M = 400;

function generate({ openAtomicLineWriter, SYNTHETIC_HEADER, syntheticAzurRows, syntheticRowToCsv }: Library, path: string, repetitions: number): void {
  const writer = openAtomicLineWriter(path);
  writer.write(SYNTHETIC_HEADER);
  for (const row of syntheticAzurRows({ seed: 1, repetitions })) writer.write(syntheticRowToCsv(row));
  writer.commit();
}

/** `copies` copies of the data rows of `source` (one header), copy k's run_ids prefixed with `c<k>-`. */
function replicate(source: string, copies: number, target: string): void {
  const text = readFileSync(source);
  const bodyStart = text.indexOf(10) + 1;
  const lineStarts: number[] = [];
  for (let p = bodyStart; p < text.length; p = text.indexOf(10, p) + 1 || text.length) lineStarts.push(p);
  const fd = openSync(target, "w");
  try {
    writeSync(fd, text, 0, bodyStart);
    for (let k = 0; k < copies; k++) {
      const prefix = Buffer.from(`c${k}-`);
      const out = Buffer.allocUnsafe(text.length - bodyStart + lineStarts.length * prefix.length);
      let o = 0;
      for (let i = 0; i < lineStarts.length; i++) {
        o += prefix.copy(out, o);
        o += text.copy(out, o, lineStarts[i]!, lineStarts[i + 1] ?? text.length);
      }
      writeSync(fd, out, 0, o);
    }
  } finally {
    closeSync(fd);
  }
}

/** Build dist/ if a source file is newer than it (the CLI runs from dist/). */
function ensureBuilt(): void {
  const built = join(ROOT, "dist", "pipeline", "cli.js");
  const newest = (directory: string): number => {
    let latest = 0;
    for (const entry of readdirSync(directory, { withFileTypes: true }) as Dirent[]) {
      const path = join(directory, entry.name);
      latest = Math.max(latest, entry.isDirectory() ? newest(path) : entry.name.endsWith(".ts") ? statSync(path).mtimeMs : 0);
    }
    return latest;
  };
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(ROOT, "pipeline"))) return;
  console.log("building dist/ (npm run build)…");
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed");
}

interface ChildRun {
  ms: number;
  maxRssMiB: number;
}

/** Run `node args…` as a child process; its wall time and peak RSS. */
function runChild(args: string[]): ChildRun {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ["-r", join(__dirname, "report-max-rss.cjs"), ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${child.status}:\n${child.stderr}`);
  const rss = /max-rss-kib (\d+)\s*$/.exec(child.stderr);
  return { ms, maxRssMiB: rss === null ? NaN : Number(rss[1]) / 1024 };
}

const cliIngest = (trace: string, out: string) => runChild(["bin/ckpt.js", "ingest", trace, "--out", out]);
const duckdbChild = (trace: string) => runChild([join(__dirname, "duckdb-aggregate.cjs"), trace]);

async function readOnly(path: string, withHash: boolean): Promise<void> {
  const handle = await open(path, "r");
  const buffer = Buffer.allocUnsafe(1 << 20);
  const hash = createHash("sha256");
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    if (withHash) hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  await handle.close();
}

async function csvParseOnly(path: string): Promise<number> {
  let rows = 0;
  const parser = createReadStream(path, { highWaterMark: 1 << 20 }).pipe(parse({ from_line: 2, relax_column_count: true }));
  for await (const record of parser as AsyncIterable<string[]>) {
    if (+record[2]! > 0) rows++;
  }
  return rows;
}

const mib = (bytes: number) => bytes / 2 ** 20;
const verdict = (met: boolean) => (met ? "met" : "NOT met");

export default async function ingestBenchmark(): Promise<void> {
  const with100M = process.argv.includes("--100m");
  ensureBuilt();
  const lib = await library();
  const { ingestFiles, ingestFilesTo, observationsOf, writeObservationsArtifact, summariseRunTable } = lib;
  const directory = join(__dirname, "out");
  mkdirSync(directory, { recursive: true });
  const million = join(directory, `ingest-${REPETITIONS}-repetitions.csv`);
  const small = join(directory, "ingest-29-repetitions.csv");
  for (const [path, repetitions] of [
    [million, REPETITIONS],
    [small, 29],
  ] as const) {
    if (!existsSync(path)) generate(lib, path, repetitions);
  }
  const scratch = mkdtempSync(join(tmpdir(), "ckpt-ingest-bench-"));
  try {
    const out = join(scratch, "observations.json");
    const bytes = statSync(million).size;

    // 1 M rows in process.
    let fast: IngestResult | undefined;
    const inProcess = await timeRuns(async () => {
      const summary = await ingestFilesTo([million], {}, () => {});
      fast = { ...summary, observations: observationsOf(summary.runs), rejects: [] };
    }, RUNS);
    const rows = fast!.counts.read;
    console.log(`input: ${rows.toLocaleString("en-US")} rows, ${(bytes / 1e6).toFixed(1)} MB, 10 columns (bench/out/${million.slice(directory.length + 1)}); medians of ${RUNS} runs after 1 warm-up`);
    const read = await timeRuns(() => readOnly(million, false), RUNS);
    const hashed = await timeRuns(() => readOnly(million, true), RUNS);
    const instance = await DuckDBInstance.create(":memory:", { threads: "2" });
    const connection = await instance.connect();
    let duckCells: Record<string, unknown>[] = [];
    const duckWarm = await timeRuns(async () => {
      duckCells = await duckdbAggregate(connection, million);
    }, RUNS);
    connection.closeSync();
    instance.closeSync();

    // 1 M rows end to end, ours and DuckDB's alternately.
    cliIngest(million, out);
    duckdbChild(million);
    const cli: ChildRun[] = [];
    const duck: ChildRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      cli.push(cliIngest(million, out));
      duck.push(duckdbChild(million));
    }

    // Where the time goes (printed with the results): start-up, floors, one thread, the artifact.
    const startUp = median([0, 1, 2].map(() => runChild(["bin/ckpt.js", "ingest", "--help"]).ms));
    const whole = readFileSync(million);
    const byteLoop = await timeRuns(() => {
      let separators = 0;
      for (let i = 0; i < whole.length; i++) if (whole[i]! <= 44) separators++;
      return separators;
    }, RUNS);
    const oneThread = await timeRuns(() => ingestFilesTo([million], { parallelMinBytes: Infinity }, () => {}), RUNS);
    const summary = await ingestFilesTo([million], {}, () => {});
    const artifact = join(scratch, "artifact.json");
    const writeArtifact = await timeRuns(
      () => writeObservationsArtifact(artifact, summary, summariseRunTable(summary.runs), { toolVersion: "bench", format: "auto", strict: false, groupBy: [], rejectsFile: null }),
      RUNS,
    );

    // csv-parse on 100 k rows.
    const smallRows = (await ingestFiles([small])).counts.read;
    const csvOnly = await timeRuns(() => csvParseOnly(small), 3);
    let viaCsvParse: IngestResult | undefined;
    const csvParsePath = await timeRuns(async () => {
      viaCsvParse = await ingestFiles([small], { canonicalParser: "csv-parse" });
    }, 3);
    const smallFast = await ingestFiles([small]);
    const same = JSON.stringify(viaCsvParse!.observations) === JSON.stringify(smallFast.observations) && JSON.stringify(viaCsvParse!.rejects) === JSON.stringify(smallFast.rejects);

    // DuckDB's cells against ours.
    const ours = new Map<string, { mean: number; sd: number; count: number }>();
    for (const s of fast!.observations.series) for (const p of s.points) ours.set(`${p.sizeMb}/${p.m}`, { mean: p.meanBwMbPerS, sd: p.sdBwMbPerS, count: p.count });
    let worst = 0;
    let unmatched = 0;
    for (const r of duckCells) {
      const mine = ours.get(`${Number(r.size_mb)}/${Number(r.m)}`);
      if (mine === undefined || mine.count !== Number(r.runs)) {
        unmatched++;
        continue;
      }
      worst = Math.max(worst, Math.abs(mine.mean - Number(r.mean_bw)) / Math.abs(Number(r.mean_bw)), Math.abs(mine.sd - Number(r.sd_bw)) / Math.max(1e-12, Math.abs(Number(r.sd_bw))));
    }

    const ms = (runs: ChildRun[]) => median(runs.map((r) => r.ms));
    const m = (times: number[]) => median(times);
    const rate = (n: number, milliseconds: number) => n / (milliseconds / 1000) / 1e6;
    const duckE2E = ms(duck);
    printTable(
      "1 M rows (M rows/s = rows / median wall time; ratio = our time / DuckDB's end-to-end time)",
      ["route", "median ms", "M rows/s", "peak RSS MiB", "× DuckDB e2e"],
      [
        ["ckpt ingest, end to end (process)", ms(cli), rate(rows, ms(cli)), median(cli.map((r) => r.maxRssMiB)), ms(cli) / duckE2E],
        ["DuckDB read_csv + GROUP BY, end to end (process, 2 threads)", duckE2E, rate(rows, duckE2E), median(duck.map((r) => r.maxRssMiB)), 1],
        ["ingestFilesTo, in process", m(inProcess), rate(rows, m(inProcess)), "", m(inProcess) / duckE2E],
        ["DuckDB, in process, warm (2 threads)", m(duckWarm), rate(rows, m(duckWarm)), "", m(duckWarm) / duckE2E],
        ["read the file, 1 MiB chunks (floor)", m(read), rate(rows, m(read)), "", m(read) / duckE2E],
        ["read + SHA-256 (floor with provenance)", m(hashed), rate(rows, m(hashed)), "", m(hashed) / duckE2E],
        [`csv-parse alone, arrays (${(smallRows / 1000).toFixed(0)} k rows)`, m(csvOnly), rate(smallRows, m(csvOnly)), "", ""],
        [`ingestFiles, csv-parse on every line (${(smallRows / 1000).toFixed(0)} k rows)`, m(csvParsePath), rate(smallRows, m(csvParsePath)), "", ""],
      ],
    );
    console.log(`\nckpt ingest end to end: ${(ms(cli) / 1000).toFixed(3)} s vs DuckDB ${(duckE2E / 1000).toFixed(3)} s (ratio ${(ms(cli) / duckE2E).toFixed(2)}; target < 1: ${verdict(ms(cli) < duckE2E)}); in process ${(m(inProcess) / 1000).toFixed(3)} s vs DuckDB warm ${(m(duckWarm) / 1000).toFixed(3)} s (ratio ${(m(inProcess) / m(duckWarm)).toFixed(2)})`);
    console.log(`checks: fast path and csv-parse give identical observations and rejects: ${same}; DuckDB cells ${duckCells.length}, ours ${ours.size}, unmatched ${unmatched}, largest relative difference of mean/sd ${worst.toExponential(1)}`);
    console.log(`all end-to-end times (ms): ckpt ${cli.map((r) => r.ms.toFixed(0)).join(" ")}; DuckDB ${duck.map((r) => r.ms.toFixed(0)).join(" ")}`);
    printTable(
      "where the end-to-end time goes (medians, ms)",
      ["part", "ms", "note"],
      [
        ["start-up: node + the CLI's modules (ckpt ingest --help)", startUp, "DuckDB's start-up is in its e2e time too"],
        ["read the file", m(read), "page cache"],
        ["SHA-256 of the file", m(hashed) - m(read), "provenance; done by the worker thread"],
        ["a JS loop that only looks at every byte", m(byteLoop), "the floor of any scanner written in JS, one thread"],
        ["ingest in process, one thread, warm", m(oneThread), `${(m(oneThread) * 1e6 / rows).toFixed(0)} ns a row: scan, checks, ledger`],
        ["ingest in process, two threads (worker started cold)", m(inProcess), ""],
        [`write the observations (${summary.runs.length.toLocaleString("en-US")} runs, ${mib(statSync(artifact).size).toFixed(0)} MiB of JSON)`, m(writeArtifact), "DuckDB prints 213 cells"],
      ],
    );

    // Scale: 10 M rows (and 100 M with --100m), end to end.
    const scale: (string | number)[][] = [];
    for (const copies of with100M ? [10, 100] : [10]) {
      const trace = join(scratch, `ingest-${copies}x.csv`);
      const started = Date.now();
      replicate(million, copies, trace);
      const scaleRows = (rows * copies).toLocaleString("en-US");
      console.log(`\ngenerated ${scaleRows} rows (${(statSync(trace).size / 1e9).toFixed(2)} GB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const runs = copies >= 100 ? [cliIngest(trace, out)] : [cliIngest(trace, out), cliIngest(trace, out), cliIngest(trace, out)];
      rmSync(trace, { force: true });
      const wall = ms(runs);
      const peak = Math.max(...runs.map((r) => r.maxRssMiB));
      scale.push([`${scaleRows} rows, end to end (${runs.length} run${runs.length > 1 ? "s" : ""})`, wall / 1000, rate(rows * copies, wall), peak, mib(statSync(out).size)]);
      if (copies === 10) {
        console.log(`10 M rows: ${rate(rows * copies, wall).toFixed(2)} M rows/s (target ≥ ${TARGET_ROWS_PER_S_10M / 1e6}: ${verdict(rate(rows * copies, wall) * 1e6 >= TARGET_ROWS_PER_S_10M)}), peak RSS ${peak.toFixed(0)} MiB (target ≤ ${TARGET_PEAK_MIB_10M}: ${verdict(peak <= TARGET_PEAK_MIB_10M)})`);
      } else {
        console.log(`100 M rows: completed, ${rate(rows * copies, wall).toFixed(2)} M rows/s, peak RSS ${peak.toFixed(0)} MiB`);
      }
    }
    printTable("scale (peak RSS of the ckpt process; the observations file lists every run)", ["input", "median s", "M rows/s", "peak RSS MiB", "observations MiB"], scale);
    if (!with100M) console.log("(100 M rows: npm run bench -- ingest --100m)");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
