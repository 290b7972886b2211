/**
 * `ckpt place`: optimal checkpoint placement in a job of slices under a failure law
 * (docs/science.md §5), compared with the Young / Daly / no-checkpoint baselines, optionally checked
 * by Monte Carlo. Reads the files, calls `placeJob`, prints a table or JSON.
 */
import { loadModel } from "../fit/load-model";
import {
  costsFromSizes,
  createLaw,
  LAW_EXAMPLES,
  parseDurationsCsv,
  parseLawString,
  parseSlicesCsv,
  PERIOD_MAPPINGS,
  neverFinishes,
  placeJob,
  type Job,
  EQ4_READINGS,
  OBJECTIVES,
  type PeriodMapping,
  type Placement,
  type PolicyName,
  type PolicyResult,
} from "../place";
import { writeJsonAtomic } from "../shared/atomic-write";
import { defineCommand } from "../command-line/command";
import type { OptionTable, OptionValues } from "../command-line/option-table";
import { InputError, UsageError } from "../shared/errors";
import { formatTable } from "../shared/format-table";
import { readInputFile } from "../input/read-input";

const POLICY_CHOICES = ["dp", "young", "daly", "none", "all"] as const;
type PolicyChoice = (typeof POLICY_CHOICES)[number];

const OPTIONS = {
  slices: {
    kind: "string",
    group: "Input",
    required: true,
    value: "FILE",
    help: "CSV with a header and one row per slice, in order: p (duration, s) and either c (checkpoint cost after the slice, s) or size_mb (checkpoint size, MB, turned into seconds by --model). Other columns are ignored.",
  },
  law: {
    kind: "string",
    group: "Input",
    required: true,
    value: "LAW",
    help: `time to failure of the host, e.g.\n${LAW_EXAMPLES.map((example) => `  ${example}`).join("\n")}\nevery law takes unit=s|min|h|d for its time parameters (default s); hyperexp needs param=rate|mean (how to read its μ, docs/science.md §5.5).`,
  },
  model: {
    kind: "string",
    group: "Input",
    value: "M",
    default: "paper",
    help: 'with size_mb: "paper" (docs/science.md §3.2) or a model file from `ckpt fit`; a checkpoint of s MB by one of m nodes writing together takes s / (bw(m, m·s/1000) / m) + latency seconds',
  },
  nodes: { kind: "number", group: "Input", value: "M", default: 1, help: "m, nodes checkpointing at the same time" },
  latency: { kind: "number", group: "Input", value: "S", default: 0, help: "seconds added to every size-derived checkpoint cost" },
  "cost-quantile": {
    kind: "number",
    group: "Input",
    value: "Q",
    help: "with size_mb and a model file from `ckpt fit`: plan with each checkpoint's cost at the Q quantile (0 < Q < 1) of one burst's predictive duration instead of the mean, e.g. 0.95: a cost that 95 % of bursts at (m, V) stay within (docs/science.md §3.6). Higher Q: dearer checkpoints, placed further apart",
  },
  alpha: { kind: "number", group: "Model", value: "A", default: 1, help: "share of lost time counted as waste, in (0, 1]" },
  beta: { kind: "number", group: "Model", value: "B", default: 0, help: "0: a failure is seen at once; 1: only at the next checkpoint" },
  quantum: {
    kind: "number",
    group: "Model",
    value: "S",
    default: 60,
    help: "cost quantum of the variable-cost DP, seconds ([BKT]); costs that are not multiples are rounded (--rounding) and reported",
  },
  rounding: { kind: "choice", group: "Model", choices: ["nearest", "up"], default: "nearest", help: "how costs become whole quanta" },
  objective: {
    kind: "choice",
    group: "Model",
    choices: OBJECTIVES,
    default: "paper",
    help: "paper: expected waste up to the first failure, as [BTW10]; complete: plus the overhead σ_k·(1 − F(ρ_k)) of a run that never fails (docs/science.md §5.3); bkt: [BKT]'s own objective, which charges a failure the overhead including the checkpoint closing its interval (docs/science.md §6.1.5)",
  },
  eq4: {
    kind: "choice",
    group: "Model",
    choices: EQ4_READINGS,
    default: "consistent",
    help: "with --objective bkt: consistent ([BKT] eq. 4 read as eq. 1 from t = 0) | as-printed (its lost work counted from τ_j + c_j)",
  },
  "max-memory-mb": { kind: "number", group: "Model", value: "N", default: 1024, help: "refuse DPs whose state space needs more" },
  policy: { kind: "choice", group: "Policies", choices: POLICY_CHOICES, default: "dp", help: "the policy reported as the result; all: every one of them, dp first" },
  mapping: {
    kind: "choice",
    group: "Policies",
    choices: PERIOD_MAPPINGS,
    default: "cost",
    help: "how young/daly periods become slice boundaries: cost (as [BKT] writes it: sums of checkpoint costs) | work (sums of slice durations, the corrected reading). Both are computed and listed; this picks the one reported as the result.",
  },
  simulate: {
    kind: "integer",
    group: "Monte Carlo",
    value: "N",
    min: 2,
    help: "also simulate N runs per policy: first-failure waste (mean and confidence interval next to the analytic value) and the makespan distribution when failed runs restart from their last checkpoint",
  },
  seed: { kind: "integer", group: "Monte Carlo", value: "N", min: 0, default: 1, help: "seed of the simulations (the same for every policy)" },
  confidence: { kind: "number", group: "Monte Carlo", value: "C", default: 0.95, help: "of the intervals" },
  "restart-seconds": { kind: "number", group: "Monte Carlo", value: "S", min: 0, default: 0, help: "restart model: time to restart on a fresh host" },
  json: {
    kind: "flag",
    group: "Output",
    help: "print JSON: checkpoints (1-based slices, ending with n), expectedWaste (seconds, under --objective), policy, objective, solverMicros, and the whole placement (every policy, both objectives, time lines, warnings)",
  },
  out: { kind: "string", group: "Output", value: "FILE", help: "also write that JSON to FILE (atomically)" },
} as const satisfies OptionTable;

/** The job with costs in seconds, and warnings about how they were obtained. */
function readJob(values: OptionValues<typeof OPTIONS>, given: ReadonlySet<string>): { job: Job; warnings: string[]; costSource: string } {
  const path = values.slices;
  const table = parseSlicesCsv(readInputFile(path, "--slices file"), path);
  const warnings = table.ignoredColumns.length > 0 ? [`${path}: ignored column(s) ${table.ignoredColumns.join(", ")}`] : [];
  const sizeFlags = ["model", "nodes", "latency", "cost-quantile"].filter((name) => given.has(name));
  if (table.costsSeconds) {
    if (sizeFlags.length > 0) {
      throw new UsageError(
        `--${sizeFlags.join(", --")} appl${sizeFlags.length === 1 ? "ies" : "y"} only to checkpoint sizes (a size_mb column), but ${path} gives costs in seconds (a "c" column); drop the flag or give sizes`,
      );
    }
    return { job: { slicesSeconds: table.slicesSeconds, costsSeconds: table.costsSeconds }, warnings, costSource: "c column (s)" };
  }
  const model = loadModel(values.model);
  const { nodes, latency: latencySeconds } = values;
  const costQuantile = values["cost-quantile"];
  const sized = costsFromSizes(table.sizesMb!, { model, nodes, latencySeconds, costQuantile });
  const costAt = costQuantile === undefined ? "mean bandwidth" : `the ${costQuantile} quantile of the burst duration`;
  return {
    job: { slicesSeconds: table.slicesSeconds, costsSeconds: sized.costsSeconds },
    warnings: [...warnings, ...sized.warnings],
    costSource: `size_mb through model "${model.name}" at ${costAt}, m = ${nodes}, latency ${latencySeconds} s`,
  };
}

function headline(placement: Placement, choice: PolicyChoice, mapping: PeriodMapping): PolicyResult {
  const wanted = choice === "all" ? "dp" : choice;
  return placement.policies.find((p) => p.policy === wanted && (p.mapping === undefined || p.mapping === mapping))!;
}

const seconds = (x: number | null | undefined, digits = 1) => (x === null || x === undefined || Number.isNaN(x) ? "—" : x.toFixed(digits));

/** What the table's reader needs to know that its rows do not say. */
function tableNotes(placement: Placement, choice: PolicyChoice): string[] {
  const notes: string[] = [];
  if (placement.policies.some((p) => p.policy === "none")) {
    notes.push(
      `none: its one checkpoint is the one after the last slice (${placement.job.slices}), which every schedule ends with: it saves the job's result (docs/science.md §5.1)`,
    );
  }
  if (choice !== "all") {
    const missing = ["young", "daly", "none"].filter((name) => !placement.policies.some((p) => p.policy === name));
    const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing[missing.length - 1]}`;
    if (missing.length > 0) notes.push(`to compare with the baseline${missing.length === 1 ? "" : "s"} ${names}: --policy all`);
  }
  return notes;
}

function renderText(placement: Placement, main: PolicyResult, costSource: string, choice: PolicyChoice): string {
  const hours = (s: number) => `${(s / 3600).toFixed(2)} h`;
  const objectiveText = {
    paper: "paper (expected waste up to the first failure, [BTW10])",
    complete: "complete (paper + overhead of a run that never fails, docs/science.md §5.3)",
    bkt: "bkt ([BKT]'s: a failure also costs the checkpoint closing its interval, docs/science.md §6.1.5)",
  }[placement.objective];
  const simulated = placement.policies.some((p) => p.monteCarlo);
  const header = ["policy", "checkpoints", "overhead s", "W paper s", "W complete s"];
  if (simulated) {
    const level = Math.round((placement.policies[0]!.monteCarlo!.firstFailure.paper.confidence ?? 0.95) * 100);
    header.push(`MC paper s (${level}% CI)`, `MC complete s (${level}% CI)`, "makespan mean s", "makespan p95 s");
  }
  const rows = placement.policies.map((p) => {
    const row = [
      p.label,
      String(p.checkpoints.length),
      seconds(p.timeline.totalOverheadSeconds),
      seconds(p.expectedWaste.paper),
      seconds(p.expectedWaste.complete),
    ];
    if (p.monteCarlo) {
      const { paper, complete } = p.monteCarlo.firstFailure;
      row.push(
        `${seconds(paper.mean)} [${seconds(paper.low)}, ${seconds(paper.high)}]`,
        `${seconds(complete.mean)} [${seconds(complete.low)}, ${seconds(complete.high)}]`,
        seconds(p.monteCarlo.restart.mean.mean),
        seconds(p.monteCarlo.restart.quantiles.p95),
      );
    }
    return row;
  });
  const lines = [
    `job: ${placement.job.slices} slices, ${hours(placement.job.totalWorkSeconds)} of work; costs from ${costSource}`,
    `law: ${placement.law.description}; mean ${hours(placement.law.meanSeconds)}`,
    `objective: ${objectiveText}; α = ${placement.alpha}, β = ${placement.beta}; ${
      placement.costs.solver === "constant-cost" ? "equal costs: constant-cost DP" : `variable-cost DP, quantum ${placement.quantumSeconds} s`
    }`,
    "",
    `${main.label}: checkpoint after slice${main.checkpoints.length > 1 ? "s" : ""} ${main.checkpoints.join(", ")}`,
    `expected waste ${seconds(main.expectedWaste[placement.objective])} s (${placement.objective} objective)${
      main.periodSeconds !== undefined ? `; period ${seconds(main.periodSeconds)} s` : ""
    }; solver ${(main.solverMicros / 1000).toFixed(3)} ms`,
    "",
    formatTable(header, rows),
    ...tableNotes(placement, choice),
  ];
  return lines.join("\n");
}

export const command = defineCommand({
  name: "place",
  title: "where to checkpoint a job of slices under a failure law ([BTW10], [BKT])",
  usage: ["ckpt place --slices <job.csv> --law <law> [options]"],
  options: OPTIONS,
  notes: `Exit codes: 0 success, 1 bad input, 2 usage error.

Example:
  ckpt place --slices job.csv --law weibull:shape=0.431,scale=1.682,unit=h --policy all --simulate 100000`,
  run({ values, given }, io) {
    const { objective, eq4, policy, mapping, rounding, alpha, beta, quantum: quantumSeconds, confidence } = values;
    if (given.has("eq4") && objective !== "bkt") throw new UsageError("--eq4 applies to --objective bkt only");
    const maxMemoryMb = values["max-memory-mb"];
    if (!(maxMemoryMb > 0)) throw new UsageError(`--max-memory-mb expects a number > 0, got ${maxMemoryMb}`);
    const runs = values.simulate ?? 0;
    const seed = values.seed;
    if (!(confidence > 0 && confidence < 1)) throw new UsageError(`--confidence expects a number in (0, 1), got ${confidence}`);
    const restartSeconds = values["restart-seconds"];

    const { job, warnings: inputWarnings, costSource } = readJob(values, given);
    const parsedLaw = parseLawString(values.law, (path) => parseDurationsCsv(readInputFile(path, "durations file"), path));
    const law = createLaw(parsedLaw.spec);
    const never = neverFinishes(job, law);
    if (never !== null) throw new InputError(never);
    const policies: PolicyName[] = policy === "all" ? ["dp", "young", "daly", "none"] : [policy];
    const progress = runs >= 100_000;
    const started = Date.now();
    const placement = placeJob(job, law, {
      alpha,
      beta,
      objective,
      eq4,
      quantumSeconds,
      rounding,
      maxMemoryBytes: maxMemoryMb * 2 ** 20,
      policies,
      simulate: runs > 0 ? { runs, seed, confidence, restartSeconds } : undefined,
      onSimulate: progress ? (label) => io.stderr(`simulating ${label}: ${runs} runs…`) : undefined,
      // Only solves that take a while report progress.
      onProgress: (fraction) => {
        if (Date.now() - started > 1000) io.stderr(`dp: ${Math.round(fraction * 100)} %…`);
      },
    });
    placement.warnings.unshift(...inputWarnings, ...parsedLaw.warnings);
    for (const warning of placement.warnings) io.stderr(`warning: ${warning}`);

    const main = headline(placement, policy, mapping);
    const { objective: _sameObjective, ...details } = placement;
    const output = {
      policy: main.policy,
      ...(main.mapping ? { mapping: main.mapping } : {}),
      objective,
      ...(values["cost-quantile"] !== undefined ? { costQuantile: values["cost-quantile"] } : {}),
      checkpoints: main.checkpoints,
      expectedWaste: main.expectedWaste[objective],
      solverMicros: main.solverMicros,
      ...details,
    };
    if (values.out !== undefined) writeJsonAtomic(values.out, output);
    io.stdout(values.json ? JSON.stringify(output, null, 2) : renderText(placement, main, costSource, policy));
    return 0;
  },
});
