/**
 * `ckpt fit`: fit bw(m, V) to checkpoint traces (through ingest) or to an observations
 * file, print the report, optionally write the model artifact.
 */
import { ingestFiles } from "../ingest/ingest-files";
import type { Observations } from "../ingest/observations";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel, type FitOptions, type InputFile } from "../fit/fit-bandwidth-model";
import { formatFitReport } from "../fit/format-fit-report";
import { readObservations } from "../fit/read-observations";
import { writeJsonAtomic } from "../shared/atomic-write";
import { booleanFlag, choiceFlag, numberFlag, optionalStringFlag, type Command } from "../shared/command";
import { InputError, UsageError } from "../shared/errors";
import { sha256OfFile } from "../shared/hash";

const help = `ckpt fit — fit the aggregated checkpoint bandwidth model bw(m, V) by least squares (docs/science.md §3)

Usage:
  ckpt fit <trace file or directory>… [options]
  ckpt fit --observations <observations.json> [options]

Input (one of):
  <traces>…               canonical CSV files or host-logs directories, read through ingest
                          (lenient: rejected rows are counted here, listed by \`ckpt ingest\`)
  --observations <file>   the observations file written by \`ckpt ingest --out\` (its traces
                          and their hashes are carried into the model's provenance)

Options:
  --form paper|full       paper (default): a·m²·V² + b·m² + c·V² + d·m + e, as [Y11] eq. 4;
                          full: Σ_{i,j≤2} a_ij·m^i·V^j (9 terms)
  --points means|runs     fit the per-(m, v) means (default, as the papers did) or every run
  --all-points            also fit the points after each series' peak (default: up to it)
  --folds <k>             k-fold cross-validated RMSE (default 5; 0 skips it)
  --seed <n>              seed of the fold assignment (default 1)
  --strict                traces: stop at the first bad row (file:line: reason)
  --group-by <col,…>      traces: separate size series by these extra columns (e.g. cluster),
                          each with its own peak; the fit pools them
  --out <model.json>      write the model artifact (coefficients, units, domain, metrics,
                          provenance), atomically; use it with \`ckpt peaks --model\`
  --json                  print the full report as JSON (model, coefficients with SE and CI,
                          covariance, metrics, peaks, residual of every point)
  -h, --help              this text

Units: m a count, V in GB (= MB / 1000), bw in MB/s. Designs that cannot identify the form
(too few distinct m or sizes, too few points, nearly collinear terms) are refused (exit 1)
with what data is missing.

Examples:
  ckpt fit data/traces/synthetic-azur.csv --out model.json
  ckpt fit --observations observations.json --form full --points runs --json`;

export const command: Command = {
  name: "fit",
  help,
  allowPositionals: true,
  options: {
    observations: { type: "string" },
    form: { type: "string" },
    points: { type: "string" },
    "all-points": { type: "boolean" },
    folds: { type: "string" },
    seed: { type: "string" },
    strict: { type: "boolean" },
    "group-by": { type: "string" },
    out: { type: "string" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    const observationsPath = optionalStringFlag(args, "observations");
    const traces = args.positionals;
    if ((observationsPath === undefined) === (traces.length === 0)) {
      throw new UsageError(
        traces.length === 0
          ? "give trace files/directories or --observations <file>"
          : "give either trace files/directories or --observations, not both",
      );
    }
    const options: FitOptions = {
      form: choiceFlag(args, "form", ["paper", "full"] as const, DEFAULT_FIT_OPTIONS.form),
      points: choiceFlag(args, "points", ["means", "runs"] as const, DEFAULT_FIT_OPTIONS.points),
      allPoints: booleanFlag(args, "all-points"),
      folds: numberFlag(args, "folds", DEFAULT_FIT_OPTIONS.folds),
      seed: numberFlag(args, "seed", DEFAULT_FIT_OPTIONS.seed),
    };
    if (!Number.isInteger(options.folds) || options.folds < 0 || options.folds === 1) {
      throw new UsageError(`--folds expects 0 (skip cross-validation) or an integer ≥ 2, got ${options.folds}`);
    }
    if (!Number.isInteger(options.seed)) throw new UsageError(`--seed expects an integer, got ${options.seed}`);

    let observations: Observations;
    let inputs: InputFile[];
    let ingestSummary: string | undefined;
    let ingestCounts: { read: number; accepted: number; rejected: number } | undefined;
    if (observationsPath !== undefined) {
      if (booleanFlag(args, "strict") || args.values["group-by"] !== undefined) {
        throw new UsageError("--strict and --group-by apply to traces; an observations file is already ingested (see `ckpt ingest`)");
      }
      const file = readObservations(observationsPath);
      observations = file.observations;
      inputs = [
        { path: observationsPath, sha256: sha256OfFile(observationsPath) },
        ...file.upstreamInputs.map((input) => ({ ...input, via: observationsPath })),
      ];
    } else {
      const groupBy = optionalStringFlag(args, "group-by");
      const result = await ingestFiles(traces, {
        strict: booleanFlag(args, "strict"),
        ...(groupBy !== undefined ? { groupBy: groupBy.split(",").map((name) => name.trim()).filter((name) => name !== "") } : {}),
      });
      observations = result.observations;
      inputs = result.inputs;
      ingestCounts = result.counts;
      const { read, accepted, rejected } = result.counts;
      if (accepted === 0) {
        const reasons = Object.entries(result.rejectedByCode ?? {}).map(([code, n]) => `${n} ${code}`).join(", ");
        throw new InputError(
          `none of the ${read} rows of ${traces.join(", ")} was accepted${reasons ? ` (${reasons})` : ""}, so there is nothing to fit; ` +
            `\`ckpt ingest ${traces.join(" ")}\` lists every row with its file, line and reason`,
        );
      }
      ingestSummary = `ingest: read ${read} rows = ${accepted} accepted + ${rejected} rejected${rejected > 0 ? " (`ckpt ingest` lists them with their reasons)" : ""}`;
    }

    const report = fitBandwidthModel(observations, options, inputs);
    const out = optionalStringFlag(args, "out");
    if (out !== undefined) writeJsonAtomic(out, report.model);
    if (booleanFlag(args, "json")) {
      // The residual columns are typed arrays: printed as JSON arrays.
      const asArrays = (_key: string, value: unknown) => (value instanceof Float64Array ? Array.from(value) : value);
      io.stdout(JSON.stringify(ingestCounts === undefined ? report : { ...report, ingest: ingestCounts }, asArrays, 2));
    } else {
      io.stdout([...(ingestSummary ? [ingestSummary, ""] : []), formatFitReport(report), ...(out ? [`model written to ${out}`] : [])].join("\n"));
    }
    return 0;
  },
};
