/**
 * Ingest, the command line end to end (`ckpt ingest trace.csv --out observations.json`: a
 * fresh process that reads, validates, aggregates, hashes the input and writes the
 * artifact), on the synthetic Azur campaign written out to ~1 M and ~10 M rows.
 *
 * - 1 M rows, against DuckDB (`read_csv` + the same two GROUP BYs, `threads = 2`) end to end
 *   as ours is — a process of its own (bench/duckdb-aggregate.cjs: start node, load DuckDB,
 *   query, print), the target's reference — and, for information, its query alone, warm, in
 *   the bench's own process; and a C ingest (bench/reference/ingest-csv.c, a fresh process).
 *   All must find the same (m, v) cells with the same run counts, means and standard
 *   deviations.
 * - 10 M rows: rows per second and the process's peak resident memory (getrusage's maxrss,
 *   read at exit by a preloaded module).
 * - 100 M rows only when CKPT_BENCH_100M=1 (an 8.5 GB file written once to bench/out/).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { openAtomicLineWriter } from "../../pipeline/shared/atomic-write";
import { SYNTHETIC_HEADER, syntheticAzurRows, syntheticRowToCsv } from "../../pipeline/ingest/synthetic-azur";
import type { ObservationsArtifact } from "../../pipeline/ingest/observations-artifact";
import { median } from "../harness";
import { compileReference, runReference } from "../reference/c-reference";
import { ROOT, formatMs, formatRatio, timeProcess, type Anchor } from "./anchor";
import { formatProfile, profileMainThread, type ProfileGroup } from "./cpu-profile";

/** 3,489 rows per repetition of the synthetic campaign. */
const ROWS_PER_REPETITION = 3489;
const RUNS = 5;
const CLI = join(ROOT, "bin", "ckpt.js");
const PEAK_MEMORY_MODULE = join(__dirname, "peak-memory.cjs");
const DUCKDB_PROCESS = join(__dirname, "..", "duckdb-aggregate.cjs");

/** The campaign with `repetitions` repetitions under bench/out/, written once. */
function traceFile(repetitions: number): { path: string; rows: number; bytes: number } {
  const path = join(ROOT, "bench", "out", `ingest-${repetitions}-repetitions.csv`);
  if (!existsSync(path)) {
    const started = Date.now();
    const writer = openAtomicLineWriter(path);
    writer.write(SYNTHETIC_HEADER);
    for (const row of syntheticAzurRows({ seed: 1, repetitions })) writer.write(syntheticRowToCsv(row));
    writer.commit();
    console.log(`wrote ${path.slice(ROOT.length + 1)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return { path, rows: repetitions * ROWS_PER_REPETITION, bytes: statSync(path).size };
}

const DUCKDB_SQL = (path: string) => `
  WITH processes AS (
    SELECT run_id, m, size_mb, ckpt_mb / (end_s - start_s) AS bw
    FROM read_csv('${path}', header = true, columns = {
      'run_id': 'VARCHAR', 'node': 'VARCHAR', 'm': 'INTEGER', 'size_mb': 'DOUBLE', 'ckpt_mb': 'DOUBLE',
      'start_s': 'DOUBLE', 'end_s': 'DOUBLE', 'cluster': 'VARCHAR', 'dataset': 'VARCHAR', 'repetition': 'INTEGER'})
  ), runs AS (
    SELECT run_id, any_value(m) AS m, sum(bw) AS bw, min(size_mb) AS size_min, max(size_mb) AS size_max, count(*) AS processes
    FROM processes GROUP BY run_id
  )
  SELECT size_min AS size_mb, m, count(*)::INTEGER AS runs, avg(bw) AS mean_bw, coalesce(stddev_samp(bw), 0) AS sd_bw
  FROM runs WHERE size_min = size_max AND processes = m GROUP BY size_min, m ORDER BY size_min, m`;

interface Cell {
  count: number;
  mean: number;
  sd: number;
}

/** The largest relative difference between two sets of cells, or Infinity when they differ in cells or counts. */
function cellDifference(ours: Map<string, Cell>, theirs: Map<string, Cell>): number {
  if (ours.size !== theirs.size) return Infinity;
  let worst = 0;
  for (const [key, cell] of theirs) {
    const mine = ours.get(key);
    if (mine === undefined || mine.count !== cell.count) return Infinity;
    worst = Math.max(worst, Math.abs(mine.mean - cell.mean) / Math.abs(cell.mean), Math.abs(mine.sd - cell.sd) / Math.max(1e-12, Math.abs(cell.sd)));
  }
  return worst;
}

/** `ckpt ingest` in a fresh process: wall ms and peak resident MiB of each run, and the observations. */
function ingestCli(path: string, runs: number): { ms: number[]; peakMib: number[]; cells: Map<string, Cell> } {
  const folder = mkdtempSync(join(tmpdir(), "ckpt-bench-ingest-"));
  try {
    const out = join(folder, "observations.json");
    const peakFile = join(folder, "peak-kib");
    const ms: number[] = [];
    const peakMib: number[] = [];
    for (let r = 0; r < runs; r++) {
      ms.push(timeProcess(process.execPath, ["--require", PEAK_MEMORY_MODULE, CLI, "ingest", path, "--out", out], { env: { ...process.env, CKPT_BENCH_PEAK_FILE: peakFile } }));
      peakMib.push(Number(readFileSync(peakFile, "utf8")) / 1024);
    }
    const artifact = JSON.parse(readFileSync(out, "utf8")) as ObservationsArtifact;
    const cells = new Map<string, Cell>();
    for (const s of artifact.observations.series) {
      for (const p of s.points) cells.set(`${p.sizeMb}/${p.m}`, { count: p.count, mean: p.meanBwMbPerS, sd: p.sdBwMbPerS });
    }
    return { ms, peakMib, cells };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function duckdb(path: string, runs: number): Promise<{ ms: number[]; cells: Map<string, Cell> }> {
  const instance = await DuckDBInstance.create(":memory:", { threads: "2" });
  const connection = await instance.connect();
  const ms: number[] = [];
  let rows: Record<string, unknown>[] = [];
  try {
    for (let r = 0; r <= runs; r++) {
      const start = process.hrtime.bigint();
      rows = (await connection.runAndReadAll(DUCKDB_SQL(path))).getRowObjectsJson() as Record<string, unknown>[];
      if (r > 0) ms.push(Number(process.hrtime.bigint() - start) / 1e6); // the first run warms the file cache
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  const cells = new Map<string, Cell>();
  for (const row of rows) cells.set(`${Number(row.size_mb)}/${Number(row.m)}`, { count: Number(row.runs), mean: Number(row.mean_bw), sd: Number(row.sd_bw) });
  return { ms, cells };
}

/** DuckDB end to end: a fresh process that starts node, loads DuckDB, runs the query and prints the cells. */
function duckdbProcess(path: string, runs: number): number[] {
  return Array.from({ length: runs }, () => timeProcess(process.execPath, [DUCKDB_PROCESS, path]));
}

function cIngest(path: string, runs: number): { ms: number[]; cells: Map<string, Cell> } {
  const binary = compileReference("ingest-csv");
  const ms = Array.from({ length: runs }, () => timeProcess(binary, [path]));
  const cells = new Map<string, Cell>();
  for (const line of runReference(binary, [path]).trim().split("\n").slice(1)) {
    const [size, m, count, mean, sd] = line.split(" ").map(Number) as [number, number, number, number, number];
    cells.set(`${size}/${m}`, { count, mean, sd });
  }
  return { ms, cells };
}

/** How `ckpt ingest`'s main thread is split up in the profile the benchmark prints. */
const INGEST_PROFILE_GROUPS: ProfileGroup[] = [
  { name: "starting node and loading modules", pattern: /node:internal\/(modules|bootstrap|main)|^(wrapSafe|compileForInternalLoader|requireBuiltin|internalBinding|internalModuleStat|readFileUtf8) / },
  { name: "reading and parsing rows", pattern: /ingest\/(canonical-|byte-interner|byte-source|decimal|process-values|trace-)|^read / },
  { name: "per-run sums and tables", pattern: /ingest\/(row-ledger|run-table|summarise-runs|observations\.|reject-)/ },
  { name: "writing the observations", pattern: /ingest\/(runs-json|observations-artifact)|shared\/atomic-write|^(writeBuffer|writeString|fsync|fdatasync|writeSync) / },
  { name: "waiting (for the worker thread or the disk)", pattern: /^\(idle\) / },
  { name: "garbage collection", pattern: /^\(garbage collector\) / },
];

export async function ingestAnchors(): Promise<Anchor[]> {
  const million = traceFile(287);
  timeProcess(process.execPath, [CLI, "--version"]); // warm the module cache of the file system
  const ours = ingestCli(million.path, RUNS);
  const duck = await duckdb(million.path, RUNS);
  const duckProcessMs = median(duckdbProcess(million.path, RUNS));
  const startUpMs = median(Array.from({ length: RUNS }, () => timeProcess(process.execPath, [CLI, "ingest", "--help"])));
  const c = cIngest(million.path, RUNS);
  const profileFolder = mkdtempSync(join(tmpdir(), "ckpt-bench-ingest-profile-"));
  let profile: ReturnType<typeof profileMainThread>;
  try {
    profile = profileMainThread([CLI, "ingest", million.path, "--out", join(profileFolder, "observations.json")], INGEST_PROFILE_GROUPS);
  } finally {
    rmSync(profileFolder, { recursive: true, force: true });
  }
  const oursMs = median(ours.ms);
  const duckMs = median(duck.ms);
  const cMs = median(c.ms);
  const duckDifference = cellDifference(ours.cells, duck.cells);
  const cDifference = cellDifference(ours.cells, c.cells);
  const agree = duckDifference <= 1e-9 && cDifference <= 1e-9;
  const rate = (rows: number, ms: number) => rows / ms / 1000;
  const anchors: Anchor[] = [
    {
      work: `ingest ${(million.rows / 1e6).toFixed(2)} M canonical rows (${(million.bytes / 1e6).toFixed(0)} MB), CLI end to end`,
      reference: `DuckDB read_csv + GROUP BY (2 threads), end to end: ${formatMs(duckProcessMs)} (its query alone, warm: ${formatMs(duckMs)}); C: ${formatMs(cMs)}`,
      ours: formatMs(oursMs),
      ratio: oursMs / duckProcessMs,
      target: "faster than DuckDB (< 1×)",
      met: oursMs < duckProcessMs && agree,
      notes: [
        `ours ${rate(million.rows, oursMs).toFixed(2)} M rows/s, DuckDB end to end ${rate(million.rows, duckProcessMs).toFixed(2)} (query alone ${rate(million.rows, duckMs).toFixed(2)}), C ${rate(million.rows, cMs).toFixed(2)}; ours ÷ DuckDB's query alone ${formatRatio(oursMs / duckMs)}, ours ÷ C ${formatRatio(oursMs / cMs)}`,
        `both end to end: a fresh process that starts node and loads its modules (ours also hashes the input with SHA-256 and writes the observations artifact, one JSON object per run; DuckDB prints its cells); C is a fresh process that parses, checks and aggregates (no hash, no output file)`,
        `same ${ours.cells.size} (m, v) cells, run counts, means and sds: ${agree ? "yes" : "NO"} (largest relative difference: DuckDB ${duckDifference.toExponential(1)}, C ${cDifference.toExponential(1)})`,
        `peak resident memory of ours: ${Math.max(...ours.peakMib).toFixed(0)} MiB; start-up alone (node and the command's modules, \`ckpt ingest --help\`): ${formatMs(startUpMs)}`,
        `where ours goes, one run under V8's sampling profiler (main thread, ${formatMs(profile.totalMs)} of samples; the worker reads the other part of the file meanwhile): ${formatProfile(profile)}. Why Node does not get below DuckDB here: pipeline/ingest/README.md`,
      ],
    },
  ];

  const ten = traceFile(2870);
  const big = ingestCli(ten.path, 3);
  const bigMs = median(big.ms);
  const bigPeak = Math.max(...big.peakMib);
  const bigRate = rate(ten.rows, bigMs);
  anchors.push({
    work: `ingest ${(ten.rows / 1e6).toFixed(1)} M rows (${(ten.bytes / 1e9).toFixed(2)} GB), CLI end to end`,
    reference: "—",
    ours: `${bigRate.toFixed(2)} M rows/s, ${bigPeak.toFixed(0)} MiB peak`,
    ratio: null,
    target: "≥ 1.5 M rows/s, ≤ 400 MiB",
    met: bigRate >= 1.5 && bigPeak <= 400,
    notes: [`median of 3 runs: ${formatMs(bigMs)}; peak resident memory over the runs ${bigPeak.toFixed(0)} MiB`],
  });

  if (process.env.CKPT_BENCH_100M === "1") {
    const hundred = traceFile(28700);
    let outcome: string;
    let met = false;
    try {
      const run = ingestCli(hundred.path, 1);
      outcome = `completed: ${rate(hundred.rows, run.ms[0]!).toFixed(2)} M rows/s, ${run.peakMib[0]!.toFixed(0)} MiB peak`;
      met = true;
    } catch (error) {
      outcome = `failed: ${(error as Error).message.split("\n")[0]}`;
    }
    anchors.push({ work: `ingest ${(hundred.rows / 1e6).toFixed(0)} M rows (${(hundred.bytes / 1e9).toFixed(1)} GB)`, reference: "—", ours: outcome, ratio: null, target: "completes", met, notes: [] });
  }
  return anchors;
}
