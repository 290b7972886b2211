/**
 * Ingest throughput on a generated 1,000,000-row canonical CSV (issue 2: target ≥ 1 M rows/s
 * end to end, i.e. read + parse + validate + aggregate, here also hashing the file).
 *
 * The file is the synthetic Azur campaign (`ckpt synth`) with enough repetitions for
 * ~1 M rows, 10 columns (the 7 canonical ones and cluster, dataset, repetition), written to
 * bench/out/ once. Measured, each as the median of several runs after a warm-up:
 * - the floors: reading the file in 1 MiB chunks, and SHA-256 over it;
 * - csv-parse alone (arrays, no validation), the RECIPES reference;
 * - `ingestFiles` with the csv-parse path, and with the byte-level fast path (the default);
 * - the same aggregation in DuckDB (`read_csv` + GROUP BY run, then per (m, v)), the
 *   reference this benchmark compares with, and the largest relative difference between
 *   its series means and ours (a check that both computed the same thing).
 */
import { createReadStream, existsSync, mkdirSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parse } from "csv-parse";
import { DuckDBInstance } from "@duckdb/node-api";
import { openAtomicLineWriter } from "../pipeline/shared/atomic-write";
import { ingestFiles, type IngestResult } from "../pipeline/ingest/ingest-files";
import { SYNTHETIC_HEADER, syntheticAzurRows, syntheticRowToCsv } from "../pipeline/ingest/synthetic-azur";
import { median, printTable, timeRuns } from "./harness";

/** 3,489 rows per repetition (7 sizes × Σ m=1..30, plus D1–D3 × Σ i=1..12) → 1,001,343 rows. */
const REPETITIONS = 287;
const RUNS = 5;

function generate(path: string): number {
  const writer = openAtomicLineWriter(path);
  writer.write(SYNTHETIC_HEADER);
  let rows = 0;
  for (const row of syntheticAzurRows({ seed: 1, repetitions: REPETITIONS })) {
    writer.write(syntheticRowToCsv(row));
    rows++;
  }
  writer.commit();
  return rows;
}

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

export default async function ingestBenchmark(): Promise<void> {
  const directory = join(__dirname, "out");
  mkdirSync(directory, { recursive: true });
  const path = join(directory, `ingest-${REPETITIONS}-repetitions.csv`);
  if (!existsSync(path)) {
    const started = Date.now();
    const rows = generate(path);
    console.log(`generated ${rows.toLocaleString("en-US")} rows in ${Date.now() - started} ms`);
  }
  const bytes = statSync(path).size;

  let result: IngestResult | undefined;
  const fast = await timeRuns(async () => {
    result = await ingestFiles([path]);
  }, RUNS);
  const rows = result!.counts.read;
  console.log(`input: ${path.slice(directory.length + 1)}, ${rows.toLocaleString("en-US")} rows, ${(bytes / 1e6).toFixed(1)} MB, 10 columns; median of ${RUNS} runs after 1 warm-up`);

  const read = await timeRuns(() => readOnly(path, false), RUNS);
  const hashed = await timeRuns(() => readOnly(path, true), RUNS);
  const csvOnly = await timeRuns(() => csvParseOnly(path), 3);
  let slowResult: IngestResult | undefined;
  const slow = await timeRuns(async () => {
    slowResult = await ingestFiles([path], { canonicalParser: "csv-parse" });
  }, 3);

  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  let duckRows: Record<string, unknown>[] = [];
  const duck = await timeRuns(async () => {
    duckRows = (await connection.runAndReadAll(DUCKDB_SQL(path))).getRowObjectsJson() as Record<string, unknown>[];
  }, RUNS);
  connection.closeSync();
  instance.closeSync();

  // Same numbers? Compare DuckDB's per-(m, v) means with ours.
  const ours = new Map<string, { mean: number; sd: number; count: number }>();
  for (const s of result!.observations.series) {
    for (const p of s.points) ours.set(`${p.sizeMb}/${p.m}`, { mean: p.meanBwMbPerS, sd: p.sdBwMbPerS, count: p.count });
  }
  let worst = 0;
  let missing = 0;
  for (const r of duckRows) {
    const mine = ours.get(`${Number(r.size_mb)}/${Number(r.m)}`);
    if (mine === undefined || mine.count !== Number(r.runs)) {
      missing++;
      continue;
    }
    worst = Math.max(worst, Math.abs(mine.mean - Number(r.mean_bw)) / Math.abs(Number(r.mean_bw)), Math.abs(mine.sd - Number(r.sd_bw)) / Math.max(1e-12, Math.abs(Number(r.sd_bw))));
  }
  const same = JSON.stringify(slowResult!.observations) === JSON.stringify(result!.observations);

  const m = (times: number[]) => median(times);
  const rate = (times: number[]) => rows / (m(times) / 1000) / 1e6;
  printTable(
    "ingest of a canonical CSV (rows/s = rows / median wall time)",
    ["route", "median ms", "M rows/s", "× DuckDB time"],
    [
      ["read file, 1 MiB chunks (floor)", m(read), rate(read), m(read) / m(duck)],
      ["read + SHA-256 (floor with provenance)", m(hashed), rate(hashed), m(hashed) / m(duck)],
      ["csv-parse alone, arrays, no validation", m(csvOnly), rate(csvOnly), m(csvOnly) / m(duck)],
      ["ingestFiles, csv-parse path", m(slow), rate(slow), m(slow) / m(duck)],
      ["ingestFiles, fast path (default)", m(fast), rate(fast), m(fast) / m(duck)],
      ["DuckDB read_csv + GROUP BY (reference)", m(duck), rate(duck), 1],
    ],
  );
  console.log(`\nfast path: ${rate(fast).toFixed(2)} M rows/s end to end (target ≥ 1), ${(m(fast) / m(duck)).toFixed(2)} × DuckDB's time`);
  console.log(`checks: fast path and csv-parse path give identical observations: ${same}; DuckDB series cells ${duckRows.length}, ours ${ours.size}, unmatched ${missing}, largest relative difference of mean/sd ${worst.toExponential(1)}`);
  console.log(`all times (ms): fast ${fast.map((t) => t.toFixed(0)).join(" ")}; csv-parse path ${slow.map((t) => t.toFixed(0)).join(" ")}; DuckDB ${duck.map((t) => t.toFixed(0)).join(" ")}`);
}
