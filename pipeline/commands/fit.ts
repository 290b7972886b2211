/**
 * `ckpt fit`: fit bw(m, V) to checkpoint traces (through ingest) or to an observations
 * file, print the report, optionally write the model artifact.
 */
import { ingestFiles, type RejectedRow } from "../ingest/ingest-files";
import { nothingAcceptedMessage } from "../ingest/reject-reasons";
import type { Observations } from "../ingest/observations";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel, type FitOptions, type InputFile } from "../fit/fit-bandwidth-model";
import { formatFitReport } from "../fit/format-fit-report";
import { readObservations } from "../fit/read-observations";
import { writeJsonAtomic } from "../shared/atomic-write";
import { defineCommand } from "../command-line/command";
import { InputError, UsageError } from "../shared/errors";
import { sha256OfFile } from "../shared/hash";
import { MODEL_FORMS } from "../fit/model";
import { loadModel } from "../fit/load-model";
import { checkStaleness, formatStaleCheck } from "../fit/stale-check";

/** `--cap-mb-per-s`: a bandwidth > 0 or "measured"; absent, none declared (0, as the fit's options say it). */
function capFlag(text: string | undefined): FitOptions["capMbPerS"] {
  if (text === undefined) return DEFAULT_FIT_OPTIONS.capMbPerS;
  if (text.trim() === "measured") return "measured";
  const value = text.trim() === "" ? NaN : Number(text);
  if (!(Number.isFinite(value) && value > 0)) {
    throw new UsageError(
      `--cap-mb-per-s expects a bandwidth in MB/s > 0 (the device's rated bandwidth) or the word measured (the largest cell mean of the traces), got "${text}"; leave it out to declare none`,
    );
  }
  return value;
}

/** `--check`'s exit code when the model is stale (1 and 2 are refusals). */
const STALE_EXIT_CODE = 3;

export const command = defineCommand({
  name: "fit",
  title: "fit the aggregated checkpoint bandwidth model bw(m, V) by least squares (docs/science.md §3)",
  usage: [
    "ckpt fit <trace file or directory>… [options]",
    "ckpt fit --observations <observations.json> [options]",
    "ckpt fit --check <model.json> <new trace>… [--level 0.95] [--significance 0.05] [--json]",
  ],
  description: `Input: canonical CSV files or host-logs directories, read through ingest (lenient:
rejected rows are counted here and listed by \`ckpt ingest\`), or the observations file that
\`ckpt ingest --out\` wrote (its traces and their hashes are carried into the model's provenance).`,
  allowPositionals: true,
  options: {
    observations: { kind: "string", value: "<file>", help: "the observations file written by `ckpt ingest --out`, instead of trace files" },
    form: {
      kind: "choice",
      choices: ["auto", ...MODEL_FORMS],
      default: DEFAULT_FIT_OPTIONS.form,
      help:
        "auto: every form below fitted on every point, the lowest k-fold CV RMSE kept (ties within one standard error to the fewest parameters); " +
        "paper: a·m²·V² + b·m² + c·V² + d·m + e, as [Y11] eq. 4; full: Σ_{i,j≤2} a_ij·m^i·V^j (9 terms); " +
        "usl: a shared server's Universal Scalability Law with a size factor; link-capacity: m writers' links into one server's capacity (docs/science.md §3.5)",
    },
    points: { kind: "choice", choices: ["means", "runs"], default: DEFAULT_FIT_OPTIONS.points, help: "fit the per-(m, v) means (as the papers did) or every run" },
    "all-points": { kind: "flag", help: "also fit the points after each series' peak (default: up to it; --form auto always fits every point)" },
    folds: { kind: "integer", value: "<k>", min: 0, default: DEFAULT_FIT_OPTIONS.folds, help: "k-fold cross-validated RMSE (0 skips it; --form auto needs it)" },
    seed: { kind: "integer", value: "<n>", default: DEFAULT_FIT_OPTIONS.seed, help: "seed of the fold assignment" },
    weighting: {
      kind: "choice",
      choices: ["auto", "unweighted", "relative"],
      default: DEFAULT_FIT_OPTIONS.weighting,
      help:
        "auto: relative weights (1 / cell mean²) when the replicates' spread grows with their mean (multiplicative noise), else unweighted; the paper form always unweighted, the papers' method; " +
        "unweighted: least squares on MB/s; relative: weights 1 / cell mean² (docs/science.md §4.7)",
    },
    "cap-mb-per-s": {
      kind: "string",
      value: "<MB/s|measured>",
      defaultText: "none declared",
      help:
        "the device's cap b_max: the model never answers above it (docs/science.md §3.2). A bandwidth in MB/s > 0: declared (the server's or links' rated bandwidth); " +
        "measured: the largest mean of a measured (m, V) cell of the traces. Recorded in the model with where it comes from (bandwidthCapSource); without it, none is declared, as the model's notes say",
    },
    strict: { kind: "flag", help: "traces: stop at the first bad row (file:line: reason)" },
    "group-by": {
      kind: "strings",
      value: "<col,…>",
      help: "traces: separate size series by these extra columns (e.g. cluster), each with its own peak; the fit pools them",
    },
    out: {
      kind: "string",
      value: "<model.json>",
      help: "write the model artifact (coefficients, units, domain, metrics, provenance), atomically; use it with `ckpt peaks --model`",
    },
    check: {
      kind: "string",
      value: "<model.json>",
      help:
        "instead of fitting, check that model against the new trace (any format ckpt ingest reads, a `ckpt release --log` log too, or --observations): " +
        "how many of its bursts inside the model's fitted domain fall outside the --level prediction interval, and a one-sided binomial test of that count against 1 − level; " +
        "stale when its p-value is below --significance (then refit; exit code 3). --json: stale, checked, outside, below, above, expectedOutside, pValue, level, significance, recommendation (the refit, when stale)",
    },
    level: { kind: "number", value: "<p>", default: 0.95, help: "with --check: the prediction intervals' level, in (0, 1)" },
    significance: { kind: "number", value: "<a>", default: 0.05, help: "with --check: the binomial test's level, in (0, 1): stale when P(≥ that many outside | the model holds) < a" },
    json: {
      kind: "flag",
      help: "print the full report as JSON (model, coefficients with SE and CI, covariance, metrics, peaks, residual of every point; with --form auto the candidates in selection)",
    },
  },
  notes: `Units: m a count, V in GB (= MB / 1000), bw in MB/s. Designs that cannot identify the form
(too few distinct m or sizes, too few points, nearly collinear terms) are refused (exit 1)
with what data is missing; under --form auto such a form is listed, not chosen.

A model is checked with its prediction intervals, which need the run-to-run variance the fit
measures from replicate runs: a model written before models carried it is refused with how to
refit it. Each maintenance window's \`ckpt release --log\` measures the cluster: check the
model against it after each one.

Examples:
  ckpt fit my-cluster.csv --out model.json
  ckpt fit --check model.json release.log --json
  ckpt fit data/traces/synthetic-azur.csv --form paper --out model.json
  ckpt fit --observations observations.json --form full --points runs --json`,
  async run({ values, positionals: traces, given }, io) {
    const observationsPath = values.observations;
    if ((observationsPath === undefined) === (traces.length === 0)) {
      throw new UsageError(
        traces.length === 0
          ? "give trace files/directories or --observations <file>"
          : "give either trace files/directories or --observations, not both",
      );
    }
    const checkPath = values.check;
    if (checkPath === undefined) {
      const checkOnly = ["level", "significance"].filter((name) => given.has(name));
      if (checkOnly.length > 0) throw new UsageError(`--${checkOnly.join(" and --")} appl${checkOnly.length === 1 ? "ies" : "y"} to --check <model.json> only`);
    } else {
      const fitOnly = ["form", "points", "all-points", "folds", "seed", "out", "weighting", "cap-mb-per-s"].filter((name) => given.has(name));
      if (fitOnly.length > 0) throw new UsageError(`--check checks a model, it does not fit one: drop --${fitOnly.join(", --")}`);
    }
    const capMbPerS = capFlag(values["cap-mb-per-s"]);
    const options: FitOptions = { form: values.form, points: values.points, allPoints: values["all-points"], folds: values.folds, seed: values.seed, weighting: values.weighting, capMbPerS };
    if (options.folds === 1) throw new UsageError(`--folds expects 0 (skip cross-validation) or an integer ≥ 2, got ${options.folds}`);
    if (options.form === "auto" && options.folds === 0) throw new UsageError("--form auto chooses the form by cross-validation: give --folds ≥ 2, or a form (--form paper…)");

    let observations: Observations;
    let inputs: InputFile[];
    let ingestSummary: string | undefined;
    let ingestCounts: { read: number; accepted: number; rejected: number } | undefined;
    if (observationsPath !== undefined) {
      if (values.strict || values["group-by"] !== undefined) {
        throw new UsageError("--strict and --group-by apply to traces; an observations file is already ingested (see `ckpt ingest`)");
      }
      const file = readObservations(observationsPath);
      observations = file.observations;
      inputs = [
        { path: observationsPath, sha256: sha256OfFile(observationsPath) },
        ...file.upstreamInputs.map((input) => ({ ...input, via: observationsPath })),
      ];
    } else {
      const groupBy = values["group-by"];
      const result = await ingestFiles(traces, { strict: values.strict, ...(groupBy !== undefined ? { groupBy } : {}) });
      observations = result.observations;
      inputs = result.inputs;
      ingestCounts = result.counts;
      const { read, accepted, rejected } = result.counts;
      if (accepted === 0) {
        const firstOfCode = new Map<string, RejectedRow>();
        for (const row of result.rejects) if (row.code !== undefined && !firstOfCode.has(row.code)) firstOfCode.set(row.code, row);
        const why = read === 0 ? `the traces ${traces.join(", ")} hold no data rows` : nothingAcceptedMessage(read, result.rejectedByCode ?? {}, firstOfCode, null);
        throw new InputError(`nothing to fit: ${why}\n\`ckpt ingest ${traces.join(" ")}\` writes every rejected row with its file, line and reason`);
      }
      ingestSummary = `ingest: read ${read} rows = ${accepted} accepted + ${rejected} rejected${rejected > 0 ? " (`ckpt ingest` lists them with their reasons)" : ""}`;
      // How the traces were read, when it is worth saying (a ';' file read as such, comment lines skipped).
      for (const warning of result.warnings ?? []) io.stderr(`warning: ${warning}`);
    }

    if (checkPath !== undefined) {
      const check = checkStaleness(loadModel(checkPath), observations.runs, { level: values.level, significance: values.significance });
      const newTrace = observationsPath !== undefined ? `--observations ${observationsPath}` : traces.join(" ");
      const refit = `\`ckpt fit ${newTrace} --out model.json\` (with the model's own traces too, to pool them)`;
      const answer = { ...check, recommendation: check.stale ? `refit: ${refit}` : null, ...(ingestCounts !== undefined ? { ingest: ingestCounts } : {}) };
      if (values.json) io.stdout(JSON.stringify(answer, null, 2));
      else io.stdout([...(ingestSummary ? [ingestSummary, ""] : []), formatStaleCheck(check, refit)].join("\n"));
      // Its own code, so that a cron job or a release hook can act on a stale model.
      return check.stale ? STALE_EXIT_CODE : 0;
    }

    const report = fitBandwidthModel(observations, options, inputs);
    const out = values.out;
    if (out !== undefined) writeJsonAtomic(out, report.model);
    if (values.json) {
      // The residual columns are typed arrays: printed as JSON arrays.
      const asArrays = (_key: string, value: unknown) => (value instanceof Float64Array ? Array.from(value) : value);
      io.stdout(JSON.stringify(ingestCounts === undefined ? report : { ...report, ingest: ingestCounts }, asArrays, 2));
    } else {
      io.stdout([...(ingestSummary ? [ingestSummary, ""] : []), formatFitReport(report), ...(out ? [`model written to ${out}`] : [])].join("\n"));
    }
    return 0;
  },
});
