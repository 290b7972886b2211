/** `ckpt synth`: write the seeded synthetic Azur-like campaign as a canonical trace CSV. */
import { openAtomicLineWriter } from "../shared/atomic-write";
import { booleanFlag, numberFlag, stringFlag, type Command } from "../shared/command";
import { UsageError } from "../shared/errors";
import { sha256OfFile } from "../shared/hash";
import { formatTable } from "../shared/format-table";
import { SYNTHETIC_HEADER, syntheticAzurRows, syntheticRowToCsv } from "../ingest/synthetic-azur";

const DEFAULT_OUT = "data/traces/synthetic-azur.csv";

function integerFlag(args: Parameters<Command["run"]>[0], name: string, fallback: number, minimum: number): number {
  const value = numberFlag(args, name, fallback);
  if (!Number.isInteger(value) || value < minimum) throw new UsageError(`--${name} expects a whole number ≥ ${minimum}, got ${value}`);
  return value;
}

export const command: Command = {
  name: "synth",
  summary: "write a seeded synthetic Azur-like checkpoint campaign (canonical CSV)",
  help: `Usage: ckpt synth [--seed N] [--repetitions R] [--max-m M] [--uniform-only] [--out FILE] [--json]

Writes a SYNTHETIC checkpoint campaign shaped like the Azur measurements of [Y-thesis] ch. 4:
for every application size of [Y-thesis] Table 4.1 (15 … 684 MB) and m = 1..M processes,
R runs; then mixed-size validation runs for the data sets D1–D3 (the first i blocks,
i = 1..12). The curve rises to Table 4.1's peaks and collapses after them, with seeded noise
(the generating curve is documented in pipeline/ingest/synthetic-azur.ts). The same options
give a byte-identical file. Not measured data: keep "synthetic" in the file name.

Options:
  --seed N          seed of the random draws (default 1)
  --repetitions R   runs per (m, size) and per (data set, i) (default 20)
  --max-m M         largest number of processes per size series (default 30)
  --uniform-only    leave out the D1–D3 validation runs
  --out FILE        where to write the CSV (default ${DEFAULT_OUT}); written atomically
  --json            print the summary as JSON
  -h, --help        this help

Columns: run_id,node,m,size_mb,ckpt_mb,start_s,end_s and the extra columns cluster,
dataset (uniform, D1, D2, D3) and repetition.

Example:
  ckpt synth --seed 1 --repetitions 20 --out data/traces/synthetic-azur.csv`,
  options: {
    seed: { type: "string" },
    repetitions: { type: "string" },
    "max-m": { type: "string" },
    "uniform-only": { type: "boolean" },
    out: { type: "string" },
    json: { type: "boolean" },
  },
  run(args, io) {
    const seed = numberFlag(args, "seed", 1);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed expects a whole number, got ${seed}`);
    const repetitions = integerFlag(args, "repetitions", 20, 1);
    const maxM = integerFlag(args, "max-m", 30, 1);
    const validation = !booleanFlag(args, "uniform-only");
    const out = stringFlag(args, "out", DEFAULT_OUT);

    const writer = openAtomicLineWriter(out);
    let rows = 0;
    const runs = new Set<string>();
    try {
      writer.write(SYNTHETIC_HEADER);
      for (const row of syntheticAzurRows({ seed, repetitions, maxM, validation })) {
        writer.write(syntheticRowToCsv(row));
        rows++;
        runs.add(row.runId);
      }
      writer.commit();
    } catch (error) {
      writer.abort();
      throw error;
    }
    const summary = { out, seed, repetitions, maxM, validation, rows, runs: runs.size, sha256: sha256OfFile(out) };
    if (booleanFlag(args, "json")) {
      io.stdout(JSON.stringify(summary, null, 2));
    } else {
      io.stdout(
        formatTable(
          ["file", "seed", "repetitions", "max m", "validation runs", "runs", "rows"],
          [[out, String(seed), String(repetitions), String(maxM), validation ? "D1–D3" : "none", String(runs.size), String(rows)]],
        ),
      );
      io.stdout(`sha256 ${summary.sha256}  (synthetic data: generated, not measured)`);
    }
    return 0;
  },
};
