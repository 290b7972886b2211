/** `ckpt pipeline`: run the whole pipeline, from traces to `reports/`. */
import { join } from "node:path";
import { listParameters } from "../runner/run-stages";
import { STAGES, runPipeline } from "../run";
import { booleanFlag, optionalStringFlag, stringFlag, type Command } from "../shared/command";
import { UsageError } from "../shared/errors";
import { parseParameterAssignments } from "./parameter-assignments";

export const command: Command = {
  name: "pipeline",
  help: [
    "Usage: ckpt pipeline [--traces <file|dir>[,…]] [--out reports] [--cluster NAME] [--strict] [--param <stage>.<name>=<value>]… [--explain] [--force] [--json]",
    "",
    "Runs the stages in data-flow order (ingest → fit → schedule/place → report), each only",
    "when its inputs (by content hash), parameters or code changed since the last run in",
    "--out; otherwise it is skipped. Outputs are byte-identical for identical inputs.",
    "The report is built in a folder next to --out and replaces it only when every stage",
    "succeeded; one run at a time may use an --out (a second one is refused).",
    "",
    "Options:",
    "  --traces <paths>   trace files (canonical CSV) or host-logs directories, comma-separated",
    "                     or repeated (default: the shipped sample traces)",
    "  --out <dir>        output folder (default: reports); new, empty, or an earlier report",
    "  --cluster NAME     the cluster the report describes (default: the traces' cluster",
    "                     column, else their file names)",
    "  --strict           fail when a scenario cannot be answered with the model (outside",
    "                     its fitted domain, or bw ≤ 0); by default it is listed as not",
    "                     applicable in the report and the run succeeds with warnings",
    "  --param k=v        override a stage parameter (value parsed as JSON, else a string);",
    "                     repeatable. Parameters and defaults:",
    ...listParameters(STAGES).map((p) => `                       ${p}`),
    "  --explain          say, for every stage, everything that made it run or be skipped",
    "  --force            run every stage",
    "  --json             print the outcome of every stage as JSON on stdout",
    "",
    "Progress (one line per stage, with elapsed time) goes to stderr.",
    "",
    "Example:",
    "  ckpt pipeline --explain",
    "  ckpt pipeline --out /tmp/report --param report.reproduction.peakM=2",
  ].join("\n"),
  options: {
    traces: { type: "string", multiple: true },
    out: { type: "string" },
    cluster: { type: "string" },
    strict: { type: "boolean" },
    param: { type: "string", multiple: true },
    explain: { type: "boolean" },
    force: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    const out = stringFlag(args, "out", "reports");
    const tracesValue = args.values.traces as string[] | undefined;
    const traces = tracesValue?.flatMap((t) => t.split(",")).map((t) => t.trim()).filter(Boolean);
    if (tracesValue !== undefined && traces!.length === 0) throw new UsageError("--traces needs at least one file or directory");
    const parameterOverrides = parseParameterAssignments((args.values.param as string[] | undefined) ?? [], "--param");
    const cluster = optionalStringFlag(args, "cluster");
    if (cluster !== undefined) parameterOverrides["report.cluster"] = cluster;
    // --strict: every stage that can meet a not-applicable scenario fails on it.
    if (booleanFlag(args, "strict")) for (const stage of ["schedule", "place"]) parameterOverrides[`${stage}.strict`] = true;
    const run = await runPipeline({
      out,
      ...(traces !== undefined ? { traces } : {}),
      force: booleanFlag(args, "force"),
      explain: booleanFlag(args, "explain"),
      parameterOverrides,
      log: (line) => io.stderr(line),
    });
    if (booleanFlag(args, "json")) {
      io.stdout(JSON.stringify({ out, manifest: run.manifestPath, stages: run.outcomes }, null, 2));
    } else {
      const ran = run.outcomes.filter((o) => o.ran).length;
      const total = run.outcomes.reduce((s, o) => s + o.seconds, 0);
      io.stdout(
        `${ran} of ${run.outcomes.length} stages ran, ${run.outcomes.length - ran} skipped, in ${total.toFixed(1)} s. ` +
          `Report: ${join(out, "index.html")}; every output with its hash: ${run.manifestPath}`,
      );
    }
    return 0;
  },
};
