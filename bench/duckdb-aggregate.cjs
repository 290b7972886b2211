// The DuckDB reference of the ingest benchmark, as a process of its own (so that it is timed
// end to end like `ckpt ingest`: start, load, read, aggregate, print): `read_csv` of a
// canonical trace and the same aggregation as ingest (runs, then per (m, v) the count,
// mean and sample standard deviation of the uniform-size, complete runs), on 2 threads.
// Usage: node bench/duckdb-aggregate.cjs trace.csv  → prints the (m, v) cells as JSON.
"use strict";
const { DuckDBInstance } = require("@duckdb/node-api");

const SQL = (path) => `
  WITH processes AS (
    SELECT run_id, m, size_mb, ckpt_mb / (end_s - start_s) AS bw
    FROM read_csv('${path.replace(/'/g, "''")}', header = true, columns = {
      'run_id': 'VARCHAR', 'node': 'VARCHAR', 'm': 'INTEGER', 'size_mb': 'DOUBLE', 'ckpt_mb': 'DOUBLE',
      'start_s': 'DOUBLE', 'end_s': 'DOUBLE', 'cluster': 'VARCHAR', 'dataset': 'VARCHAR', 'repetition': 'INTEGER'})
  ), runs AS (
    SELECT run_id, any_value(m) AS m, sum(bw) AS bw, min(size_mb) AS size_min, max(size_mb) AS size_max, count(*) AS processes
    FROM processes GROUP BY run_id
  )
  SELECT size_min AS size_mb, m, count(*)::INTEGER AS runs, avg(bw) AS mean_bw, coalesce(stddev_samp(bw), 0) AS sd_bw
  FROM runs WHERE size_min = size_max AND processes = m GROUP BY size_min, m ORDER BY size_min, m`;

async function aggregate(connection, path) {
  return (await connection.runAndReadAll(SQL(path))).getRowObjectsJson();
}

async function main() {
  const instance = await DuckDBInstance.create(":memory:", { threads: "2" });
  const connection = await instance.connect();
  const cells = await aggregate(connection, process.argv[2]);
  connection.closeSync();
  instance.closeSync();
  process.stdout.write(`${JSON.stringify(cells)}\n`);
}

module.exports = { SQL, aggregate };
if (require.main === module) void main();
