/**
 * `ckpt schedule`: run ScheduleCkpt on an applications CSV and print what it checkpoints,
 * next to the baselines, the CTNYS upper bound and (with --exact) the exact
 * simultaneous-start optimum. Thin: flags and files here, the work in pipeline/schedule.
 */
import { readFileSync } from "node:fs";
import { loadModel } from "../fit/load-model";
import {
  booleanFlag,
  choiceFlag,
  numberFlag,
  optionalStringFlag,
  stringFlag,
  type Command,
  type CommandIo,
  type ParsedArgs,
} from "../shared/command";
import { InputError } from "../shared/errors";
import { writeJsonAtomic } from "../shared/atomic-write";
import { formatNumber, formatTable, type Cell } from "../shared/format-table";

/** Schedule tables: two decimals (shares, seconds), integers (counts, CTNYS) without. */
const numericTable = (header: string[], rows: Cell[][]): string => formatTable(header, rows, { decimals: 2 });
import {
  CRITERIA,
  DOMAIN_POLICIES,
  ESTIMATOR_NAMES,
  IDLE_STARTS,
  SEQUENTIAL_RULES,
  SCHEDULE_DEFAULTS,
  evaluateSchedule,
  parseAppsCsv,
  resolveScheduleOptions,
  type ScheduleReport,
  type StrategyOutcome,
} from "../schedule";

const help = `ckpt schedule — decide which applications to checkpoint before the deadline (ScheduleCkpt, docs/science.md §4)

Usage:
  ckpt schedule --model <file|paper> --apps <csv> --deadline <s> [options]

Input:
  --model <file|paper>   bandwidth model bw(m, V): "paper" (published coefficients) or a file from \`ckpt fit --out\`
  --apps <csv>           applications: header id,p,size_mb[,node]; p = computation time not yet saved (s),
                         size_mb = checkpoint image size (MB = 10^6 bytes); with a node column, applications
                         sharing a node are checkpointed by waves (docs/science.md §4.6)
  --deadline <s>         T: seconds until the workstations are released (> 0)

Algorithm:
  --k0 <n>               Sahni enumeration depth of ks_bw, integer ≥ 0 (default ${SCHEDULE_DEFAULTS.k0})
  --criterion p|density  order: decreasing p, or decreasing p/size (default ${SCHEDULE_DEFAULTS.criterion})
  --estimator static|fluid
                         time estimate of a set: the paper's formula, or the fluid progression (default ${SCHEDULE_DEFAULTS.estimator})
  --subsets up-to|exactly
                         ks_bw enumerates J with |J| ≤ k0 (Sahni, default) or |J| = k0 (Annex A literally)
  --domain strict|warn   outside the model's fitted domain: strict (default) treats sets above it (more
                         processes or more data than measured) as infeasible; warn uses the extrapolation.
                         Both count the evaluations outside it and treat bw ≤ 0 as infeasible
  --truth <file|paper>   execute with another model than the one planned with; checkpoints finishing after
                         T are then reported as missed
  --idle-start constant-term|admit-first
                         index_bw_max on an idle device: compare the first candidate with bw(0, 0) = e, as the
                         papers do (default), or admit it; on a device fastest with one writer the fitted e can
                         exceed every bw(1, s) and the papers' rule then starts nothing
  --sequential stop|skip sequential greedy baseline: stop at the first application that would miss T
                         (default) or skip it and try the next

Reports:
  --bound                print the CTNYS upper bound's details (always computed: every run shows its gap)
  --exact                also solve the best simultaneous start exactly (branch and bound)
  --exact-nodes <n>      node limit of --exact (default 2000000)
  --max-estimates <n>    refuse a decision whose ks_bw would make more time estimates than n
                         (Σ_{j≤k0} C(r, j) subsets of r candidates, each completed greedily;
                         default 1e9, about 10 s): a large k0 would otherwise run for hours
  --exact-time-ms <ms>   time limit of --exact (default 2000)
  --json                 print the full result as JSON (includes "checkpointed", "ctnys", "rctnys",
                         "apps": [{id, checkpointed, start, finish}], "schedulerMicros")
  --out <file>           also write the JSON result to a file (atomically)

Exit codes: 0 done, 1 bad input (the message says what and where), 2 usage error.

Example:
  ckpt schedule --model paper --apps apps.csv --deadline 420 --k0 2 --criterion density --exact`;

export const command: Command = {
  name: "schedule",
  help,
  options: {
    model: { type: "string" },
    apps: { type: "string" },
    deadline: { type: "string" },
    k0: { type: "string" },
    criterion: { type: "string" },
    estimator: { type: "string" },
    subsets: { type: "string" },
    domain: { type: "string" },
    truth: { type: "string" },
    sequential: { type: "string" },
    "idle-start": { type: "string" },
    bound: { type: "boolean" },
    exact: { type: "boolean" },
    "exact-nodes": { type: "string" },
    "exact-time-ms": { type: "string" },
    "max-estimates": { type: "string" },
    json: { type: "boolean" },
    out: { type: "string" },
  },
  run,
};

function readApps(path: string) {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new InputError(`cannot read the applications CSV "${path}": ${(error as Error).message}`, { cause: error });
  }
  return parseAppsCsv(text, path);
}

function run(args: ParsedArgs, io: CommandIo): number {
  const modelReference = stringFlag(args, "model");
  const appsPath = stringFlag(args, "apps");
  const deadlineS = numberFlag(args, "deadline");
  const truthReference = optionalStringFlag(args, "truth");
  const subsets = choiceFlag(args, "subsets", ["up-to", "exactly"] as const, "up-to");
  const exactNodes = numberFlag(args, "exact-nodes", 2_000_000);
  const exactTimeMs = numberFlag(args, "exact-time-ms", 2000);
  const options = resolveScheduleOptions({
    model: loadModel(modelReference),
    ...(truthReference !== undefined ? { truthModel: loadModel(truthReference) } : {}),
    deadlineS,
    k0: numberFlag(args, "k0", SCHEDULE_DEFAULTS.k0),
    criterion: choiceFlag(args, "criterion", CRITERIA, SCHEDULE_DEFAULTS.criterion),
    estimator: choiceFlag(args, "estimator", ESTIMATOR_NAMES, SCHEDULE_DEFAULTS.estimator),
    domain: choiceFlag(args, "domain", DOMAIN_POLICIES, SCHEDULE_DEFAULTS.domain),
    enumeration: subsets === "up-to" ? "up-to-k0" : "exactly-k0",
    sequentialRule: choiceFlag(args, "sequential", SEQUENTIAL_RULES, SCHEDULE_DEFAULTS.sequentialRule),
    idleStart: choiceFlag(args, "idle-start", IDLE_STARTS, SCHEDULE_DEFAULTS.idleStart),
    maxEstimatesPerDecision: numberFlag(args, "max-estimates", SCHEDULE_DEFAULTS.maxEstimatesPerDecision),
  });
  if (!(exactNodes > 0) || !(exactTimeMs > 0)) throw new InputError("--exact-nodes and --exact-time-ms must be > 0");
  const apps = readApps(appsPath);
  const report = evaluateSchedule(apps, options, booleanFlag(args, "exact") ? { exact: { nodeLimit: exactNodes, timeLimitMs: exactTimeMs } } : {});
  const out = optionalStringFlag(args, "out");
  if (out !== undefined) writeJsonAtomic(out, report);
  if (booleanFlag(args, "json")) io.stdout(JSON.stringify(report, null, 2));
  else io.stdout(renderReport(report, appsPath, booleanFlag(args, "bound")));
  for (const warning of report.warnings) io.stderr(`warning: ${warning}`);
  return 0;
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

function renderReport(report: ScheduleReport, appsPath: string, showBound: boolean): string {
  const i = report.inputs;
  const bound = report.upperBound;
  const lines: string[] = [
    `ScheduleCkpt on ${appsPath}: ${i.appCount} applications, T = ${i.deadlineS} s, model "${i.model}"` +
      (i.truthModel !== i.model ? ` (executed under "${i.truthModel}")` : "") +
      `, ${i.estimator} estimator, criterion ${i.criterion}, k0 = ${i.k0}${i.enumeration === "exactly-k0" ? " (|J| = k0)" : ""}, ${i.domain} domain`,
    `checkpointed ${report.checkpointed.length}/${i.appCount}, CTNYS ${formatNumber(report.ctnys, 0)} s, RCTNYS ${formatNumber(report.rctnys, 0)} s ` +
      `(${formatNumber(report.ctnysShare * 100, 1)} % of Σp = ${formatNumber(report.totalP, 0)} s); ${report.iterations} decisions in ${formatNumber(report.schedulerMicros, 0)} µs; ` +
      `${report.evaluations.evaluations} bandwidth evaluations (${report.evaluations.aboveDomain} above, ${report.evaluations.belowDomain} below the fitted domain)`,
    `upper bound on CTNYS ${formatNumber(bound.ctnys, 0)} s${bound.exact ? "" : " (knapsack node limit: valid, not tight)"}; gap ${formatNumber(report.gapToUpperBound.scheduleCkpt.seconds, 0)} s (${formatNumber(report.gapToUpperBound.scheduleCkpt.share * 100, 1)} %)`,
  ];
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
