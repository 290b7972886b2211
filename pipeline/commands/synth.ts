/** `ckpt synth`: write a seeded synthetic checkpoint campaign (Azur-like, or a cluster unlike Azur) as a canonical trace CSV. */
import { openAtomicLineWriter } from "../shared/atomic-write";
import { defineCommand } from "../command-line/command";
import { UsageError } from "../shared/errors";
import { sha256OfFile } from "../shared/hash";
import { formatTable } from "../shared/format-table";
import { SYNTHETIC_HEADER, syntheticAzurRows, syntheticRowToCsv, type SyntheticRow } from "../ingest/synthetic-azur";
import { CLUSTER_SHAPES, CLUSTER_SHAPE_NAMES, syntheticClusterRows, type ClusterShapeName } from "../ingest/synthetic-cluster";

const DEFAULT_OUT = "data/traces/synthetic-azur.csv";

export const command = defineCommand({
  name: "synth",
  title: "write a seeded SYNTHETIC checkpoint campaign (canonical CSV)",
  usage: [`ckpt synth [--shape azur|${CLUSTER_SHAPE_NAMES.join("|")}] [--seed N] [--repetitions R] [--max-m M] [--uniform-only] [--out FILE] [--json]`],
  description: `The default shape, azur, follows the Azur measurements of [Y-thesis] ch. 4: for every
application size of [Y-thesis] Table 4.1 (15 … 684 MB) and m = 1..M processes, R runs; then
mixed-size validation runs for the data sets D1–D3 (the first i blocks, i = 1..12). The curve
rises to Table 4.1's peaks and collapses after them, with seeded noise
(pipeline/ingest/synthetic-azur.ts). Three shapes unlike Azur, for trying a recalibration
(pipeline/ingest/synthetic-cluster.ts):
  collapse   a small NFS fastest with one writer, falling from m = 1 (m = 1..6, 32–512 MB)
  saturate   a parallel file system saturating near 950 MB/s (m = 1..32, 64 MB–2 GB each)
  link-flat  16 nodes on Gigabit Ethernet into an NFS server near 800 MB/s: linear in m up to
             the links' corner, then flat (m = 1..16, 64 MB–2 GB each)
The same options give a byte-identical file. Not measured data: keep "synthetic" in the
file name.`,
  options: {
    shape: { kind: "choice", choices: ["azur", ...CLUSTER_SHAPE_NAMES], default: "azur", help: "the campaign's shape: Azur-like, or a cluster unlike Azur (above)" },
    seed: { kind: "integer", value: "N", default: 1, help: "seed of the random draws" },
    repetitions: { kind: "integer", value: "R", min: 1, default: 20, help: "runs per (m, size) and per (data set, i)" },
    "max-m": { kind: "integer", value: "M", min: 1, default: 30, help: "azur: largest number of processes per size series" },
    "uniform-only": { kind: "flag", help: "azur: leave out the D1–D3 validation runs" },
    out: {
      kind: "string",
      value: "FILE",
      defaultText: `${DEFAULT_OUT} for azur, <cluster>.csv in the current folder for the others`,
      help: "where to write the CSV, atomically",
    },
    json: { kind: "flag", help: "print the summary as JSON" },
  },
  notes: `Columns: run_id,node,m,size_mb,ckpt_mb,start_s,end_s and the extra columns cluster,
dataset (uniform, D1, D2, D3) and repetition.

Examples:
  ckpt synth --seed 1 --repetitions 20 --out data/traces/synthetic-azur.csv
  ckpt synth --shape saturate --repetitions 5 --out pfs-synthetic.csv`,
  run({ values, given }, io) {
    const { shape, seed, repetitions } = values;
    if (shape !== "azur" && (given.has("max-m") || values["uniform-only"])) {
      throw new UsageError(`--max-m and --uniform-only apply to --shape azur; the ${shape} shape has its own m and no validation runs`);
    }
    const maxM = values["max-m"];
    const validation = !values["uniform-only"];
    const out = values.out ?? (shape === "azur" ? DEFAULT_OUT : `${CLUSTER_SHAPES[shape as ClusterShapeName].cluster}.csv`);
    const rows: Iterable<SyntheticRow> =
      shape === "azur" ? syntheticAzurRows({ seed, repetitions, maxM, validation }) : syntheticClusterRows({ shape: shape as ClusterShapeName, seed, repetitions });

    const writer = openAtomicLineWriter(out);
    let rowCount = 0;
    const runs = new Set<string>();
    try {
      writer.write(SYNTHETIC_HEADER);
      for (const row of rows) {
        writer.write(syntheticRowToCsv(row));
        rowCount++;
        runs.add(row.runId);
      }
      writer.commit();
    } catch (error) {
      writer.abort();
      throw error;
    }
    const summary = { out, shape, seed, repetitions, ...(shape === "azur" ? { maxM, validation } : {}), rows: rowCount, runs: runs.size, sha256: sha256OfFile(out) };
    if (values.json) {
      io.stdout(JSON.stringify(summary, null, 2));
    } else {
      io.stdout(
        formatTable(
          ["file", "shape", "seed", "repetitions", "max m", "validation runs", "runs", "rows"],
          [[out, shape, String(seed), String(repetitions), shape === "azur" ? String(maxM) : "—", shape === "azur" && validation ? "D1–D3" : "none", String(runs.size), String(rowCount)]],
        ),
      );
      io.stdout(`sha256 ${summary.sha256}  (synthetic data: generated, not measured)`);
    }
    return 0;
  },
});
