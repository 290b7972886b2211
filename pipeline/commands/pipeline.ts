/** `ckpt pipeline`: run the whole pipeline, from traces to `reports/`. */
import { join } from "node:path";
import { listParameters } from "../runner/run-stages";
import { ALL_STAGES, runPipeline } from "../run";
import { defineCommand } from "../command-line/command";
import { UsageError } from "../shared/errors";
import { parseParameterAssignments } from "./parameter-assignments";

export const command = defineCommand({
  name: "pipeline",
  title: "run every stage, traces → report (skips what is up to date)",
  usage: [
    "ckpt pipeline [--out reports] [--param <stage>.<name>=<value>]… [--explain] [--force] [--jobs N] [--json]",
    "ckpt pipeline --traces <file|dir>[,…] [--cluster NAME] [--with reproduction] [--strict] [--out reports] [--param …]…",
  ],
  description: `Without --traces: the papers' reproduction on the shipped sample traces (the fit in the
papers' form, ScheduleCkpt with the published model, the traces this project measured, the
desktop-grid simulators, the reproduction table). With --traces: a report about that cluster
alone — the form of bw(m, V) chosen by cross-validation, ScheduleCkpt, its campaigns and the
DP placer's costs with that model, the published Azur model once as a comparison; the sample
traces are not read, the papers' simulation grids and the reproduction not run unless --with
reproduction; the desktop grids, scaled down, run with the server fitted to those traces
next to Azur's and an ideal one (simulate-servers), to say which checkpoint policy comes
first with each.
Stages run in data-flow order (ingest → fit → schedule/place → report), each only when its
inputs (by content hash), parameters or code changed since the last run in --out; otherwise
it is skipped. Outputs are byte-identical for identical inputs. The report is built in a
folder next to --out and replaces it only when every stage succeeded; one run at a time may
use an --out (a second one is refused).`,
  options: {
    traces: {
      kind: "strings",
      repeatable: true,
      value: "<paths>",
      defaultText: "the shipped sample traces",
      help: "trace files (canonical CSV) or host-logs directories, comma-separated or repeated",
    },
    out: { kind: "string", value: "<dir>", default: "reports", help: "output folder; new, empty, or an earlier report" },
    cluster: { kind: "string", value: "NAME", defaultText: "the traces' cluster column, else their file names", help: "the cluster the report describes" },
    with: {
      kind: "choice",
      choices: ["reproduction"],
      value: "reproduction",
      help: "with --traces: also run the desktop-grid simulators and the papers' campaigns with the published model, and show the reproduction of the papers",
    },
    strict: {
      kind: "flag",
      help: "fail when a scenario cannot be answered with the model (outside its fitted domain, or bw ≤ 0); by default it is listed as not applicable in the report and the run succeeds with warnings",
    },
    param: {
      kind: "assignments",
      value: "k=v",
      help: "override a stage parameter (value parsed as JSON, else a string); `ckpt pipeline --help` lists the parameters with their defaults",
    },
    explain: { kind: "flag", help: "say, for every stage, everything that made it run or be skipped" },
    force: { kind: "flag", help: "run every stage" },
    jobs: {
      kind: "integer",
      value: "N",
      min: 1,
      default: 1,
      help: "run stages that do not depend on each other side by side in N worker threads (1: every stage on the main thread; each thread loads its own copy of the code, which on two cores costs more than it saves)",
    },
    json: { kind: "flag", help: "print the outcome of every stage as JSON on stdout" },
  },
  helpAppendix: () =>
    [
      "Parameters (--param) and their defaults (the reproduction sets fit.form=\"paper\"; a cluster's report sets",
      "schedule.model=\"fitted\" and report.mode=\"cluster\"; --param overrides both):",
      ...listParameters(ALL_STAGES).map((p) => `  ${p}`),
    ].join("\n"),
  notes: `Progress (one line per stage, with elapsed time) goes to stderr.

Example:
  ckpt pipeline --explain
  ckpt pipeline --traces hpc16.csv --cluster hpc16 --out hpc16-report
  ckpt pipeline --out /tmp/report --param reproduce.peakM=2`,
  async run({ values }, io) {
    const { out, traces } = values;
    if (values.with !== undefined && traces === undefined) {
      throw new UsageError("--with reproduction adds the reproduction to a cluster's report (--traces); without --traces the pipeline is the reproduction");
    }
    const parameterOverrides = parseParameterAssignments(values.param, "--param");
    if (values.cluster !== undefined) parameterOverrides["report.cluster"] = values.cluster;
    // --strict: every stage that can meet a not-applicable scenario fails on it.
    if (values.strict) for (const stage of ["schedule", "place"]) parameterOverrides[`${stage}.strict`] = true;
    const run = await runPipeline({
      out,
      ...(traces !== undefined ? { traces } : {}),
      withReproduction: values.with === "reproduction",
      force: values.force,
      explain: values.explain,
      jobs: values.jobs,
      parameterOverrides,
      log: (line) => io.stderr(line),
    });
    if (values.json) {
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
});
