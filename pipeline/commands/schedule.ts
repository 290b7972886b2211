/**
 * `ckpt schedule`: run ScheduleCkpt on an applications CSV and print what it checkpoints,
 * next to the baselines, the CTNYS upper bound and (with --exact) the exact
 * simultaneous-start optimum. Thin: flags and files here, the work in pipeline/schedule.
 */
import { DOMAIN_POLICY_ALIASES } from "../bandwidth/outside-domain";
import { loadModel } from "../fit/load-model";
import { defineCommand } from "../command-line/command";
import { InputError, UsageError } from "../shared/errors";
import { writeJsonAtomic } from "../shared/atomic-write";
import { formatNumber, formatTable, type Cell } from "../shared/format-table";
import { readInputFile } from "../input/read-input";

/** Schedule tables: two decimals (shares, seconds), integers (counts, CTNYS) without. */
const numericTable = (header: string[], rows: Cell[][]): string => formatTable(header, rows, { decimals: 2 });
import {
  CRITERIA,
  SCHEDULE_DOMAIN_POLICIES,
  ESTIMATOR_NAMES,
  IDLE_STARTS,
  SEQUENTIAL_RULES,
  SCHEDULE_DEFAULTS,
  planOptionsAt,
  confidentPlan,
  evaluateSchedule,
  parseAppsCsv,
  parseConfidence,
  predictiveQuantile,
  resolveConfidence,
  resolveScheduleOptions,
  wavesOf,
  type ConfidentPlanReport,
  type ScheduleReport,
  type StrategyOutcome,
} from "../schedule";

function readApps(path: string) {
  return parseAppsCsv(readInputFile(path, "the applications CSV"), path);
}

export const command = defineCommand({
  name: "schedule",
  title: "decide which applications to checkpoint before the deadline (ScheduleCkpt, docs/science.md §4)",
  usage: ["ckpt schedule --model <file|paper> --apps <csv> --deadline <s> [options]"],
  options: {
    model: {
      kind: "string",
      group: "Input",
      required: true,
      value: "<file|paper>",
      help: 'bandwidth model bw(m, V): "paper" (published coefficients) or a file from `ckpt fit --out`',
    },
    apps: {
      kind: "string",
      group: "Input",
      required: true,
      value: "<csv>",
      help: "applications: header id,p,size_mb[,node]; p = computation time not yet saved (s), size_mb = checkpoint image size (MB = 10^6 bytes); with a node column, applications sharing a node are checkpointed by waves (docs/science.md §4.6)",
    },
    deadline: { kind: "number", group: "Input", required: true, value: "<s>", help: "T: seconds until the workstations are released (> 0)" },
    k0: { kind: "number", group: "Algorithm", value: "<n>", default: SCHEDULE_DEFAULTS.k0, help: "Sahni enumeration depth of ks_bw, integer ≥ 0" },
    criterion: { kind: "choice", group: "Algorithm", choices: CRITERIA, default: SCHEDULE_DEFAULTS.criterion, help: "order: decreasing p, or decreasing p/size" },
    estimator: {
      kind: "choice",
      group: "Algorithm",
      choices: ESTIMATOR_NAMES,
      default: SCHEDULE_DEFAULTS.estimator,
      help: "time estimate of a set: the paper's formula, or the fluid progression",
    },
    subsets: {
      kind: "choice",
      group: "Algorithm",
      choices: ["up-to", "exactly"],
      default: "up-to",
      help: "ks_bw enumerates J with |J| ≤ k0 (Sahni) or |J| = k0 (Annex A literally)",
    },
    domain: {
      kind: "choice",
      group: "Algorithm",
      choices: SCHEDULE_DOMAIN_POLICIES,
      aliases: DOMAIN_POLICY_ALIASES,
      default: SCHEDULE_DEFAULTS.domain,
      help: "outside the model's fitted domain: refuse treats sets above it (more processes or more data than measured) as infeasible; extrapolate uses the extrapolation. Both count the evaluations outside it and treat bw ≤ 0 as infeasible",
    },
    confidence: {
      kind: "string",
      group: "Algorithm",
      value: "<p|mean>",
      default: "mean",
      help: "plan so that every chosen checkpoint ends by T with probability ≥ p under the model's predictive distribution (0 < p < 1; one factor for the whole release: ScheduleCkpt on the (1 − p)-quantile of the bandwidth), and print the plan's miss probability and the work it gives up against the mean plan; mean: plan on the model's mean, as the papers do. Needs a model fitted by `ckpt fit` (its predictive distribution)",
    },
    truth: {
      kind: "string",
      group: "Algorithm",
      value: "<file|paper>",
      help: "execute with another model than the one planned with; checkpoints finishing after T are then reported as missed",
    },
    "idle-start": {
      kind: "choice",
      group: "Algorithm",
      choices: IDLE_STARTS,
      default: SCHEDULE_DEFAULTS.idleStart,
      help: "index_bw_max on an idle device: compare the first candidate with bw(0, 0) = e, as the papers do, or admit it; on a device fastest with one writer the fitted e can exceed every bw(1, s) and the papers' rule then starts nothing",
    },
    sequential: {
      kind: "choice",
      group: "Algorithm",
      choices: SEQUENTIAL_RULES,
      default: SCHEDULE_DEFAULTS.sequentialRule,
      help: "sequential greedy baseline: stop at the first application that would miss T, or skip it and try the next",
    },
    bound: { kind: "flag", group: "Reports", help: "print the CTNYS upper bound's details (always computed: every run shows its gap)" },
    exact: { kind: "flag", group: "Reports", help: "also solve the best simultaneous start exactly (branch and bound)" },
    "exact-nodes": { kind: "number", group: "Reports", value: "<n>", default: 2_000_000, help: "node limit of --exact" },
    "exact-time-ms": { kind: "number", group: "Reports", value: "<ms>", default: 2000, help: "time limit of --exact" },
    "max-estimates": {
      kind: "number",
      group: "Algorithm",
      value: "<n>",
      default: SCHEDULE_DEFAULTS.maxEstimatesPerDecision,
      help: "refuse a decision whose ks_bw would make more time estimates than n (Σ_{j≤k0} C(r, j) subsets of r candidates, each completed greedily; about 10 s at the default): a large k0 would otherwise run for hours",
    },
    json: {
      kind: "flag",
      group: "Reports",
      help: 'print the full result as JSON (includes "checkpointed", "ctnys", "rctnys", "apps": [{id, checkpointed, start, finish}], "schedulerMicros")',
    },
    out: { kind: "string", group: "Reports", value: "<file>", help: "also write the JSON result to a file (atomically)" },
  },
  notes: `Exit codes: 0 done, 1 bad input (the message says what and where), 2 usage error.

Example:
  ckpt schedule --model paper --apps apps.csv --deadline 420 --k0 2 --criterion density --exact`,
  run({ values }, io) {
    const model = loadModel(values.model);
    const confidence = resolveConfidence(parseConfidence(values.confidence), model);
    if (confidence !== "mean" && values.exact) throw new UsageError("--exact solves the simultaneous start on the model's mean: leave it out with --confidence, or use --confidence mean");
    const meanOptions = resolveScheduleOptions({
      model,
      ...(values.truth !== undefined ? { truthModel: loadModel(values.truth) } : {}),
      deadlineS: values.deadline,
      k0: values.k0,
      criterion: values.criterion,
      estimator: values.estimator,
      domain: values.domain,
      enumeration: values.subsets === "up-to" ? "up-to-k0" : "exactly-k0",
      sequentialRule: values.sequential,
      idleStart: values["idle-start"],
      maxEstimatesPerDecision: values["max-estimates"],
    });
    const exactNodes = values["exact-nodes"];
    const exactTimeMs = values["exact-time-ms"];
    if (!(exactNodes > 0) || !(exactTimeMs > 0)) throw new InputError("--exact-nodes and --exact-time-ms must be > 0");
    const apps = readApps(values.apps);
    let options = meanOptions;
    let confident: ConfidentPlanReport | undefined;
    if (confidence !== "mean") {
      const quantile = predictiveQuantile(model);
      confident = confidentPlan(apps, meanOptions, quantile, confidence, wavesOf(apps));
      const planned = planOptionsAt(meanOptions, quantile, confident.confident.plannedQuantile);
      // Executed on the same quantile unless --truth says what the device does.
      options = values.truth !== undefined ? { ...planned, truthBandwidth: undefined } : planned;
    }
    const evaluated = evaluateSchedule(apps, options, values.exact ? { exact: { nodeLimit: exactNodes, timeLimitMs: exactTimeMs } } : {});
    const report: ScheduleReport = confident ? { ...evaluated, confidence: confident, warnings: [...evaluated.warnings, ...confident.warnings] } : evaluated;
    if (values.out !== undefined) writeJsonAtomic(values.out, report);
    if (values.json) io.stdout(JSON.stringify(report, null, 2));
    else io.stdout(renderReport(report, values.apps, values.bound));
    for (const warning of report.warnings) io.stderr(`warning: ${warning}`);
    return 0;
  },
});

const percent = (p: number) => (p <= 1e-6 ? "< 0.0001 %" : `${formatNumber(p * 100, p < 0.01 ? 2 : 1)} %`);

function confidenceLines(c: ConfidentPlanReport): string[] {
  return [
    "",
    c.confident.plannedQuantile === null
      ? `confidence ${c.confidence}, ${c.dependence}: the mean plan already holds at this confidence and saves at least as much as the plan on the ${formatNumber((1 - c.confidence) * 100, 1)} % quantile; the tables below show it`
      : `confidence ${c.confidence}, ${c.dependence}: planned on the ${formatNumber((1 - c.confidence) * 100, 1)} % quantile of the model's predictive bandwidth; the tables below show that plan`,
    numericTable(["plan", "planned on", "started", "planned CTNYS s", "miss probability", "expected CTNYS s"], [
      ["confident", c.confident.plannedQuantile === null ? "mean (holds at this confidence)" : `q = ${formatNumber(c.confident.plannedQuantile, 3)}`, c.confident.started.length, c.confident.plannedCtnysS, percent(c.confident.missProbability), formatNumber(c.confident.expectedCtnysS, 0)],
      ["mean (the papers')", "mean", c.mean.started.length, c.mean.plannedCtnysS, percent(c.mean.missProbability), formatNumber(c.mean.expectedCtnysS, 0)],
    ]),
    `the confidence gives up ${formatNumber(c.costS, 0)} s of the mean plan's ${formatNumber(c.mean.plannedCtnysS, 0)} s (${formatNumber(c.costShare * 100, 1)} %); ` +
      "miss probability: a started checkpoint ends after T, the plan played as planned under one release-wide quantile; expected CTNYS: Σ p saved, averaged over that quantile",
  ];
}

function strategyRow(name: string, outcome: StrategyOutcome, bound: number): Cell[] {
  return [
    name,
    `${outcome.checkpointed.length}/${outcome.apps.length}`,
    outcome.ctnys,
    outcome.rctnys,
    formatNumber(outcome.ctnysShare * 100, 1),
    outcome.missed.length,
    bound > 0 ? formatNumber(((bound - outcome.ctnys) / bound) * 100, 1) : "—",
    outcome.stall ? "stalled" : "",
  ];
}

/** The papers' two abbreviations, said once in the output (docs/science.md §4.1). */
const CTNYS_SPELLED_OUT =
  "CTNYS: cumulative computation time not yet saved (Σ p) of the applications checkpointed; RCTNYS: that of the others, lost when the nodes are released at T";

function renderReport(report: ScheduleReport, appsPath: string, showBound: boolean): string {
  const i = report.inputs;
  const bound = report.upperBound;
  const lines: string[] = [
    `ScheduleCkpt on ${appsPath}: ${i.appCount} applications, T = ${i.deadlineS} s, model "${i.model}"` +
      (i.truthModel !== i.model ? ` (executed under "${i.truthModel}")` : "") +
      `, ${i.estimator} estimator, criterion ${i.criterion}, k0 = ${i.k0}${i.enumeration === "exactly-k0" ? " (|J| = k0)" : ""}, domain policy ${i.domain}`,
    `checkpointed ${report.checkpointed.length}/${i.appCount}, CTNYS ${formatNumber(report.ctnys, 0)} s, RCTNYS ${formatNumber(report.rctnys, 0)} s ` +
      `(${formatNumber(report.ctnysShare * 100, 1)} % of Σp = ${formatNumber(report.totalP, 0)} s); ${report.iterations} decisions in ${formatNumber(report.schedulerMicros, 0)} µs; ` +
      `${report.evaluations.evaluations} bandwidth evaluations (${report.evaluations.aboveDomain} above, ${report.evaluations.belowDomain} below the fitted domain)`,
    `upper bound on CTNYS ${formatNumber(bound.ctnys, 0)} s${bound.exact ? "" : " (knapsack node limit: valid, not tight)"}; gap ${formatNumber(report.gapToUpperBound.scheduleCkpt.seconds, 0)} s (${formatNumber(report.gapToUpperBound.scheduleCkpt.share * 100, 1)} %)`,
    CTNYS_SPELLED_OUT,
  ];
  if (report.confidence) lines.push(...confidenceLines(report.confidence));
  if (report.waves) {
    lines.push("", "waves (one application per node at a time, docs/science.md §4.6):");
    lines.push(numericTable(["wave", "start s", "end s", "apps", "checkpointed", "CTNYS", "decisions", "µs"],
      report.waves.map((w) => [w.wave, w.startS, w.endS, w.appIds.length, w.checkpointedCount, w.ctnys, w.iterations, formatNumber(w.schedulerMicros, 0)])));
  }
  const rows: Cell[][] = [
    strategyRow("ScheduleCkpt", report, bound.ctnys),
    strategyRow("sequential greedy", report.baselines.sequentialGreedy, bound.ctnys),
    strategyRow("all in parallel", report.baselines.allInParallel, bound.ctnys),
  ];
  if (report.exact) {
    const e = report.exact;
    rows.push(strategyRow(`exact simultaneous start${e.result.provenOptimal ? "" : " (not proven)"}`, e.outcome, bound.ctnys));
  }
  lines.push("", numericTable(["strategy", "checkpointed", "CTNYS s", "RCTNYS s", "share %", "missed", "gap to bound %", "note"], rows));
  if (report.exact) {
    const r = report.exact.result;
    lines.push(
      `exact: ${r.nodes} nodes in ${formatNumber(r.elapsedMs, 1)} ms, ${r.provenOptimal ? "proven optimal" : `not proven optimal (stopped by the ${r.stoppedBy}; optimum ≤ ${formatNumber(r.upperBound, 0)})`}; ` +
        (report.exact.heuristicMatchesOrBeats ? "ScheduleCkpt matches or beats it" : `ScheduleCkpt is ${formatNumber(report.exact.heuristicShortfallS, 0)} s below it`),
    );
  }
  if (showBound) {
    const r = bound.reachable;
    lines.push(
      "",
      "upper bound: in T the device moves at most C = T · max bw; a 0/1 knapsack (weights size_mb, values p, capacity C) over the applications able to finish alone bounds CTNYS",
      numericTable(["quantity", "value"], [
        ["max bw over reachable states (MB/s)", formatNumber(r.bandwidthMaxMbPerS, 3)],
        ["attained at m", r.bandwidthMaxAt ? r.bandwidthMaxAt.m : null],
        ["attained at V (GB)", r.bandwidthMaxAt ? formatNumber(r.bandwidthMaxAt.vGb, 3) : null],
        ["region searched", `m ≤ ${r.region.mMax}, V ≤ ${formatNumber(r.region.vGbMax, 3)} GB`],
        ["max per-process bw (MB/s)", formatNumber(r.perProcessMaxMbPerS, 3)],
        ["capacity C (MB)", formatNumber(bound.capacityMb, 1)],
        ["applications able to finish alone", bound.eligibleCount],
        ["knapsack optimum (s)", formatNumber(bound.ctnys, 0)],
        ["knapsack solved exactly", bound.exact ? "yes" : "no (node limit)"],
        ["knapsack nodes", bound.nodes],
        ["knapsack set", bound.knapsackIds.join(" ")],
      ]),
    );
  }
  lines.push(
    "",
    numericTable(
      ["id", "p s", "size MB", ...(report.waves ? ["node", "wave"] : []), "checkpointed", "start s", "finish s"],
      report.apps.map((a) => [
        a.id, a.pS, a.sizeMb, ...(report.waves ? [a.node ?? null, a.wave ?? null] : []),
        a.checkpointed ? "yes" : a.missed ? "MISSED" : "no",
        a.start === null ? null : formatNumber(a.start, 2),
        a.finish === null ? null : formatNumber(a.finish, 2),
      ]),
    ),
  );
  return lines.join("\n");
}
