/**
 * `ckpt simulate`: the desktop-grid simulators (docs/science.md §6). Subcommands: the
 * models (their own files register in pipeline/simulate/simulator.ts), `sweep` (one shard
 * of a grid of runs, resumable), `merge` (the shards' cells into one table with 95 %
 * intervals) and `trace-stats` (what an availability trace holds).
 */
import { chmodSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { arrayScript, OAR_SHARDS_FILE } from "../harness/batch-script";
import { projectRoot } from "../shared/version";
import { writeFileAtomic, writeJsonAtomic } from "../shared/atomic-write";
import { choiceFlag, defineCommand, numberFlag, stringFlag, type CommandIo } from "../command-line/command";
import type { OptionTable } from "../command-line/option-table";
import { InputError, UsageError } from "../shared/errors";
import { formatTable } from "../shared/format-table";
import { SIMULATORS } from "../simulate/simulator";
import { mergedCsv, mergeSweep } from "../simulate/sweep/merge-sweep";
import { parseSweepSpec, sweepCells, type SweepSpec } from "../simulate/sweep/sweep-spec";
import { traceStatistics } from "../simulate/traces/availability-trace";
import { readAvailabilityTrace } from "../simulate/traces/read-availability-trace";
import { rejectToCsvLine, REJECTS_CSV_HEADER } from "../ingest/rejects-csv";
import { BKT_FLAG_HELP, BKT_SCENARIO_FLAGS } from "../simulate/bkt/bkt-overrides";
import { BKT_PAPER_PRESET, readBktScenario, validateBktScenario } from "../simulate/bkt/bkt-scenario";
import { simulateBkt, type BktProgress } from "../simulate/bkt/bkt-simulator";
import { progressPrinter, type ProgressState } from "../simulate/progress-bar";
import { classroomStatistics, classroomTraceToFta, generateClassroomTrace } from "../simulate/das06/classroom-trace";
import { DAS06_FLAG_HELP, DAS06_SCENARIO_FLAGS } from "../simulate/das06/das06-overrides";
import { DAS06_DEFAULTS, readDas06Scenario, validateDas06Scenario } from "../simulate/das06/das06-scenario";
import { simulateDas06 } from "../simulate/das06/das06-simulator";
import { idealExecutionTime, machineRatios, MACHINE_SETS, publishedIetMin } from "../simulate/das06/machines";
import { parseShard, runShard } from "../simulate/sweep/run-shard";
import { restampGrid } from "../simulate/sweep/restamp";
import { mergeFields } from "../input/merge-fields";
import { flagOrField } from "../input/messages";
import { readInputFile } from "../input/read-input";
import type { ScenarioFlags } from "../input/scenario-flags";
import type { MeasuredServerIdentity } from "../simulate/server/measured-server";

const SUBCOMMANDS = ["bkt", "das06", "sweep", "batch", "merge", "restamp", "trace-stats"] as const;

/** The scenario flags both simulators have (trace, policies, seed): one option each, worded for both. */
const SHARED_SCENARIO_FLAGS = BKT_SCENARIO_FLAGS.flags.filter((flag) => DAS06_SCENARIO_FLAGS.flags.includes(flag));

const BKT_GROUP = "[BKT] scenario fields (default: the paper preset, docs/science.md §6.1)";
const DAS06_GROUP = "[DAS06] scenario fields (default: docs/science.md §6.2)";

/** One string option per scenario field, with its default (the scenario's own checks name the field when a value is wrong). */
function scenarioOptions(flags: readonly string[], help: Readonly<Record<string, string>>, defaults: Readonly<Record<string, string>>, subcommand: string, group: string): OptionTable {
  const table: OptionTable = {};
  for (const flag of flags) {
    // Those of both simulators, and --tasks (batch's too), are written once in the table below.
    if (SHARED_SCENARIO_FLAGS.includes(flag) || flag === "tasks") continue;
    const [value, text] = splitValueForm(help[flag]!);
    // One module per flag, repeatable (its scenario field is a list).
    table[flag] = flag === "policy-module" ? { kind: "strings", repeatable: true, for: [subcommand], group, value, help: text } : { kind: "string", for: [subcommand], group, value, defaultText: defaults[flag]!, help: text };
  }
  return table;
}

/** "MIN,MAX: slices per job" → ["MIN,MAX", "slices per job"]. */
function splitValueForm(help: string): [string, string] {
  const colon = help.indexOf(": ");
  return colon < 0 ? ["<value>", help] : [help.slice(0, colon), help.slice(colon + 2)];
}

const BOTH = (flag: string) => `bkt: ${splitValueForm(BKT_FLAG_HELP[flag]!)[1]}; das06: ${splitValueForm(DAS06_FLAG_HELP[flag]!)[1]}`;

/** A field both simulators have, as each one's help shows it (its own wording, default and section). */
const EACH = (flag: string) => ({
  bkt: { help: splitValueForm(BKT_FLAG_HELP[flag]!)[1], defaultText: BKT_SCENARIO_FLAGS.defaultTexts[flag]!, group: BKT_GROUP },
  das06: { help: splitValueForm(DAS06_FLAG_HELP[flag]!)[1], defaultText: DAS06_SCENARIO_FLAGS.defaultTexts[flag]!, group: DAS06_GROUP },
});

const EXIT_CODES = "Exit codes: 0 done, 1 bad input (the message says what, where and how to fix it), 2 usage error.";

export const command = defineCommand({
  name: "simulate",
  title: "desktop-grid simulations (docs/science.md §6): sweeps, shards, merge, traces",
  usage: [
    "ckpt simulate bkt [scenario.json] [--<field> <value>]… [--json] [--out <file>] [--quiet]",
    "ckpt simulate das06 [scenario.json] [--<field> <value>]… [--json] [--out <file>] [--quiet]",
    "ckpt simulate das06 --iet --machine-set M01|M04 --tasks N --task-cpu-s S [--json]",
    "ckpt simulate das06 generate --machines 32 --days 39 --seed S --out trace.tab",
    "ckpt simulate sweep <spec.json> --out <dir> [--shard i/N] [--json] [--quiet]",
    "ckpt simulate batch <spec.json> --scheduler slurm|oar --out <dir> --tasks N [--walltime HH:MM:SS]",
    "ckpt simulate merge <spec.json> --out <dir> [--from <dir>[,<dir>…]] [--json]",
    "ckpt simulate restamp --grid data/simulations/<grid> [--sample N] [--json] [--quiet]",
    "ckpt simulate trace-stats <trace> [--format fta|avt] [--rejects <file>] [--json]",
  ],
  description: `bkt, das06
  The two desktop-grid simulators: [BKT]'s volunteer clients checkpointing a bag of jobs
  (docs/science.md §6.1), and [DAS06]'s classroom PCs running a bag of tasks (§6.2); either
  with a measured checkpoint server (a model written by ckpt fit, §6.6), [BKT] with your own
  checkpoint policy as a module (--policy-module, §6.7).
sweep
  Runs shard i of N of the sweep (default 0/1: every cell): the cells whose index c in the
  canonical order (first axis slowest, seed last) has c mod N = i. Each cell is written to
  <dir>/cells/<cell id>.json (atomically); a cell already there for the same spec and code is
  skipped, so a rerun or a requeued job redoes only what is missing. Progress on stderr.
batch
  Writes a job-array script running the sweep in N shards, one per array task (Slurm's
  --array; OAR's --array-param-file, whose lines <dir>/shards.txt are the shards), into
  <dir>/sweep.slurm.sh or sweep.oar.sh (--script to choose), and prints how to submit it;
  merge when every task has ended.
merge
  Checks that every cell of the spec has exactly one result in <dir>/cells (and the --from
  folders, e.g. one per job-array task), all from this spec and one code version, then writes
  <dir>/merged.json (every cell, and per parameter combination each metric's mean with its
  95 % interval and the policies' paired differences) and <dir>/merged.csv. Any N gives the
  same bytes as N = 1.
restamp
  Re-stamps a kept grid (<grid>/cells and merged.json, its spec <grid>.json) with the
  simulator's current code version after a change that does not alter what it computes:
  recomputes --sample cells (default 3, spread over the grid) and compares their results
  with the kept ones; if all are identical, writes the new code version into every cell and
  merged.json (atomically), else refuses, naming the cell and the field that differs.
trace-stats
  Reads an availability trace — the Failure Trace Archive's event_trace table (.tab) or a
  Godfrey .avt file, either possibly .gz — and prints its nodes, span, mean availability and
  interval statistics, with every line accounted for (--rejects writes the rejected lines with
  their line number and reason).`,
  subcommands: SUBCOMMANDS,
  subcommandHelp: {
    bkt: {
      title: "the [BKT] desktop grid: a bag of jobs on volatile clients, checkpoint policies compared (docs/science.md §6.1)",
      usage: ["ckpt simulate bkt [scenario.json] [--<field> <value>]… [--json] [--out <file>] [--quiet]"],
      description: `Volunteer clients pull a bag of jobs from one server and checkpoint each job by each
policy, on common random numbers: every policy sees the same clients, jobs and availability
histories. The scenario is the paper preset, with any field from the scenario file (a JSON
object of the fields below in camelCase, e.g. { "clients": 5000, "sliceHours": [1, 5] }),
then from the flags.

Prints per policy, means over the replications with their 95 % interval:
  makespan h            when the last job's result reached the server, hours
  avg waste h/client    (overhead + lost computation) / clients, hours ([BKT] Figs 1(b)–3(b))
  overhead h (ckpts + final upload)
                        client-hours of checkpoint uploads, restart downloads, waits for a
                        server connection, and each job's final upload (its result, sent under
                        every policy: policy none, which takes no checkpoint, has only that)
  lost h                computation lost to failures, client-hours
  connection wait h     of the overhead, waits for a server connection, client-hours
  ckpts taken           checkpoints uploaded
  accepted              of those, the ones newer than the job's last accepted checkpoint
  copies                job copies started (restarts and duplicates)
  unfinished runs       replications stopped by --horizon-hours
and the makespan differences to the first policy, paired by seed. --json prints all of it
(each mean as { mean, ci95, n, … }, failures, Mbit sent, events) and every run; "timing"
(seconds, events/s) is the only part that differs between identical runs. A progress bar on
stderr unless --quiet.`,
      notes: `${EXIT_CODES}

Example (a small grid, two replications, about ten seconds):
  ckpt simulate bkt --clients 200 --jobs 50 --replications 2`,
    },
    das06: {
      title: "the [DAS06] institutional desktop grid: a bag of tasks on a classroom's PCs, four scheduling policies (docs/science.md §6.2)",
      usage: [
        "ckpt simulate das06 [scenario.json] [--<field> <value>]… [--json] [--out <file>] [--quiet]",
        "ckpt simulate das06 --iet --machine-set M01|M04 --tasks N --task-cpu-s S [--json]",
        "ckpt simulate das06 generate --machines 32 --days 39 --seed S --out trace.tab",
      ],
      description: `A bag of tasks on a classroom's PCs, from every starting point of a week window of the
trace, under four scheduling policies, with private or shared checkpoints. The scenario is
the defaults below, with any field from the scenario file (a JSON object of the fields in
camelCase, e.g. { "machineSet": "M01", "taskCpuS": 7200 }), then from the flags.

Prints the ideal execution time (IET, minutes) and per policy:
  slowdown              turnaround / IET, mean with its 95 % interval
  turnaround min        from the start to the last task's end, minutes
  runs, censored        starting points, and runs the trace's end cut short
  failures, restarts, replicas, checkpoints   per run
--json gives each mean as { mean, ci95, n, … } with the IET used (ietS, seconds). --iet prints
only the IET of a task set on a machine set, next to [DAS06] Table 2's value. generate writes
the synthetic classroom trace (matched to [DAS06] §3.1's statistics) in the FTA format,
labelled SYNTHETIC in its header, and prints its statistics.`,
      notes: `${EXIT_CODES}

Examples:
  ckpt simulate das06 --tasks 25 --task-cpu-s 1800 --checkpoints 1 --quiet
  ckpt simulate das06 --iet --machine-set M01 --tasks 75 --task-cpu-s 7200
  ckpt simulate das06 generate --seed 2 --out classroom.tab`,
    },
  },
  allowPositionals: true,
  options: {
    out: {
      kind: "string",
      for: ["bkt", "das06", "sweep", "batch", "merge"],
      value: "<file|dir>",
      help: "bkt, das06: also write the report (JSON) to this file; das06 generate: the trace file; sweep, batch, merge: the sweep folder (required there)",
      inSubcommand: { bkt: { value: "<file>", help: "also write the report (JSON) to this file" }, das06: { value: "<file>", help: "also write the report (JSON) to this file; generate: the trace file (required there)" } },
    },
    json: { kind: "flag", for: ["bkt", "das06", "sweep", "merge", "restamp", "trace-stats"], help: "machine-readable output" },
    quiet: { kind: "flag", for: ["bkt", "das06", "sweep", "restamp"], help: "no progress on stderr" },
    grid: { kind: "string", for: ["restamp"], value: "<dir>", help: "the kept grid's folder (holding cells/ and merged.json; its spec is <dir>.json), required" },
    sample: { kind: "string", for: ["restamp"], value: "N", default: "3", help: "cells to recompute and compare before re-stamping" },
    iet: { kind: "flag", for: ["das06"], help: "print only the ideal execution time of --tasks × --task-cpu-s on --machine-set" },
    machines: { kind: "string", for: ["das06"], value: "N", defaultText: "32", help: "generate: machines of the synthetic trace" },
    days: { kind: "string", for: ["das06"], value: "D", defaultText: "39", help: "generate: days of the synthetic trace" },
    shard: { kind: "string", for: ["sweep"], value: "i/N", default: "0/1", help: "the shard to run" },
    from: { kind: "string", for: ["merge"], value: "<dir>[,<dir>…]", help: "more folders holding cells (e.g. one per job-array task)" },
    format: { kind: "choice", for: ["trace-stats"], choices: ["fta", "avt"], defaultText: "from the file's name", help: "the trace's format" },
    rejects: { kind: "string", for: ["trace-stats"], value: "<file>", help: "write the rejected lines (CSV: file, line, code, reason, raw)" },
    scheduler: { kind: "choice", for: ["batch"], choices: ["slurm", "oar"], required: true, help: "the batch scheduler of the job array" },
    tasks: {
      kind: "string",
      for: ["das06", "batch"],
      value: "N",
      help: "das06: tasks in the bag; batch: array tasks (shards), required there",
      inSubcommand: { das06: { help: splitValueForm(DAS06_FLAG_HELP.tasks!)[1], defaultText: DAS06_SCENARIO_FLAGS.defaultTexts.tasks!, group: DAS06_GROUP } },
    },
    walltime: { kind: "string", for: ["batch"], value: "HH:MM:SS", default: "1:00:00", help: "per array task" },
    queue: { kind: "string", for: ["batch"], value: "<queue|partition>", help: "the partition (Slurm) or queue (OAR)" },
    script: { kind: "string", for: ["batch"], value: "<file>", defaultText: "--out/sweep.slurm.sh or --out/sweep.oar.sh", help: "where to write the job script" },
    ckpt: { kind: "string", for: ["batch"], value: "\"<command>\"", defaultText: "the node running this command, with this project's bin/ckpt.js, as an NFS /home sees them", help: "the command that runs ckpt on the nodes" },
    trace: { kind: "string", for: ["bkt", "das06"], group: "Scenario fields of both simulators", value: "FILE", help: BOTH("trace"), inSubcommand: EACH("trace") },
    policies: { kind: "string", for: ["bkt", "das06"], group: "Scenario fields of both simulators", value: "P,P,…", help: BOTH("policies"), inSubcommand: EACH("policies") },
    seed: { kind: "string", for: ["bkt", "das06"], group: "Scenario fields of both simulators", value: "S", help: BOTH("seed"), inSubcommand: EACH("seed") },
    ...scenarioOptions(BKT_SCENARIO_FLAGS.flags, BKT_FLAG_HELP, BKT_SCENARIO_FLAGS.defaultTexts, "bkt", BKT_GROUP),
    ...scenarioOptions(DAS06_SCENARIO_FLAGS.flags, DAS06_FLAG_HELP, DAS06_SCENARIO_FLAGS.defaultTexts, "das06", DAS06_GROUP),
  },
  notes: `The sweep spec (JSON):
  { "simulator": "<name>", "parameters": { … fixed … },
    "axes": [ { "name": "clients", "values": [5000, 10000] }, … ],
    "exclude": [ { "clients": 5000, "jobs": 10000 } ],
    "seeds": [1, 2, 3]   or   { "first": 1, "count": 10 } }
  An axis name may be a dotted path ("server.connections").

Simulators: ${Object.keys(SIMULATORS).join(", ")}.

${EXIT_CODES}

Examples:
  ckpt simulate trace-stats data/availability/microsoft99.avt.gz
  ckpt simulate sweep grid.json --out runs/grid --shard 3/8
  ckpt simulate merge grid.json --out runs/grid`,
  run: ({ values, positionals, subcommand }, io) => run(subcommand as (typeof SUBCOMMANDS)[number], positionals, values as SimulateOptions, io),
});

/**
 * The options as the table gives them, checked (flags are booleans, choices and defaults
 * applied); the scenario flags stay text, for the scenarios' own checks, and `--out` and
 * `--tasks` are required by some subcommands only (read with the value helpers).
 */
interface SimulateOptions extends Readonly<Record<string, unknown>> {
  out?: string;
  json: boolean;
  quiet: boolean;
  iet: boolean;
  shard: string;
  from?: string;
  format?: "fta" | "avt";
  rejects?: string;
  scheduler?: "slurm" | "oar";
  walltime: string;
  queue?: string;
  script?: string;
  ckpt?: string;
  grid?: string;
  sample: string;
}

async function run(subcommand: (typeof SUBCOMMANDS)[number], rest: string[], args: SimulateOptions, io: CommandIo): Promise<number> {
  if (subcommand === "bkt") return bkt(rest, args, io);
  if (subcommand === "das06") return das06(rest, args, io);
  if (subcommand === "restamp") return restamp(rest, args, io);
  if (rest.length !== 1) throw new UsageError(`"simulate ${subcommand}" takes one ${subcommand === "trace-stats" ? "trace file" : "sweep spec file"}, got ${rest.length}`);
  const file = rest[0]!;
  if (subcommand === "trace-stats") return traceStats(file, args, io);
  const spec = readSpec(file);
  const out = stringFlag(args, "out");
  if (subcommand === "batch") return arrayBatch(file, out, args, io);
  if (subcommand === "sweep") {
    const shard = parseShard(args.shard);
    const quiet = args.quiet;
    const outcome = await runShard(spec, SIMULATORS, out, shard, (line) => {
      if (!quiet) io.stderr(line);
    });
    if (args.json) io.stdout(JSON.stringify({ out, shard, ...outcome }, null, 2));
    else io.stdout(`shard ${shard.index}/${shard.count}: ${outcome.cells} cells, ${outcome.ran} run, ${outcome.skipped} already done; results in ${join(out, "cells")}`);
    return 0;
  }
  const from = (args.from ?? "").split(",").map((f) => f.trim()).filter(Boolean);
  const merged = mergeSweep(spec, [out, ...from]);
  writeJsonAtomic(join(out, "merged.json"), merged);
  writeFileAtomic(join(out, "merged.csv"), mergedCsv(merged));
  if (args.json) io.stdout(JSON.stringify(merged, null, 2));
  else io.stdout(`merged ${merged.cells.length} cells into ${merged.groups.length} parameter combinations: ${join(out, "merged.json")}, ${join(out, "merged.csv")}`);
  return 0;
}

/** A scenario (the defaults or a scenario file's fields) with the flags' fields over it. */
function withFlags(base: object, flags: ScenarioFlags<string>, args: object): Record<string, unknown> {
  return mergeFields(base as Record<string, unknown>, flags.overrides(args as Record<string, unknown>));
}

/** Where a field of a scenario made of a file and flags is: its flag, or the file's field. */
const flagWhere = (flags: ScenarioFlags<string>) => (field: string) => flagOrField(flags.flagOf(field), field);

async function bkt(files: string[], args: SimulateOptions, io: CommandIo): Promise<number> {
  if (files.length > 1) throw new UsageError(`"simulate bkt" takes at most one scenario file, got ${files.length}`);
  const base = files[0] === undefined ? BKT_PAPER_PRESET : readBktScenario(readInputFile(files[0], "the scenario"), files[0]);
  const scenario = validateBktScenario(withFlags(base, BKT_SCENARIO_FLAGS, args), flagWhere(BKT_SCENARIO_FLAGS));
  const quiet = args.quiet;
  const bar = progressPrinter({ tty: process.stderr.isTTY === true, write: (text) => process.stderr.write(text), line: (text) => io.stderr(text) });
  const perPolicy: Record<string, { seconds: number; events: number; eventsPerSecond: number }> = {};
  const started = performance.now();
  const report = await simulateBkt(
    scenario,
    quiet ? undefined : (p) => bar(bktProgressState(p)),
    (policy, _seed, seconds, events) => {
      const t = (perPolicy[policy] ??= { seconds: 0, events: 0, eventsPerSecond: 0 });
      t.seconds += seconds;
      t.events += events;
      t.eventsPerSecond = t.events / t.seconds;
    },
  );
  bar.end();
  const seconds = (performance.now() - started) / 1000;
  // Wall-clock figures: the only part of the output that differs between identical runs.
  const timing = { seconds, events: report.events, eventsPerSecond: report.events / seconds, policies: perPolicy };
  const out = args.out;
  if (out !== undefined) writeJsonAtomic(out, report);
  if (args.json) {
    io.stdout(JSON.stringify({ ...report, timing }, null, 2));
    return 0;
  }
  const ci = (m: { mean: number; low: number | null; high: number | null; n: number }, digits = 1) =>
    m.n === 0 ? "—" : m.low === null ? m.mean.toFixed(digits) : `${m.mean.toFixed(digits)} [${m.low.toFixed(digits)}, ${m.high!.toFixed(digits)}]`;
  io.stdout(
    [
      `[BKT] desktop grid: ${scenario.clients} clients, ${scenario.jobs} jobs, transient ${scenario.transient}${scenario.transient === "suspend" ? " (the project's calibration)" : " ([BKT]'s literal reading)"}, ` +
        `${scenario.replications} replication(s) from seed ${scenario.seed}${report.trace ? `, trace ${report.trace.file} from day ${report.trace.startDays} (${report.trace.nodesObservedAtStart} nodes observed then)` : ""}; policies plan with ${report.policyLaw}${scenario.failureLawForPolicy === "availability" ? "" : ` (${scenario.failureLawForPolicy}: per copy, from its host's ages)`}`,
      ...(report.server ? [serverLine(report.server)] : []),
      ...(report.policyModules ?? []).map((m) => `policy "${m.name}" from ${m.file} (sha256 ${m.sha256})`),
      formatTable(
        ["policy", "makespan h (95 % CI)", "avg waste h/client", "overhead h (ckpts + final upload)", "lost h", "connection wait h", "ckpts taken", "share of boundaries %", "accepted", "copies", "unfinished runs"],
        Object.entries(report.policies).map(([policy, p]) => [
          policy,
          ci(p.makespanH),
          ci(p.averageWasteH, 2),
          p.checkpointOverheadH.mean.toFixed(0),
          p.lostComputationH.mean.toFixed(0),
          p.connectionWaitH.mean.toFixed(0),
          p.checkpointsTaken.mean.toFixed(0),
          (100 * p.checkpointShare.mean).toFixed(1),
          p.checkpointsAccepted.mean.toFixed(0),
          p.copies.mean.toFixed(0),
          String(p.unfinishedRuns),
        ]),
      ),
      "overhead: client-hours of checkpoint uploads, restart downloads and connection waits, and of each job's final upload (its result, sent under every policy; policy none takes no checkpoint, so its overhead is the final uploads alone)",
      ...(report.server
        ? [
            serverTable(
              "transfers",
              "h",
              Object.entries(report.policies).map(([policy, p]) => ({ policy, count: p.server!.transfers, outside: p.server!.transfersOutsideDomain, busy: p.server!.busyFraction, utilisation: p.server!.utilisation, wait: p.server!.waitH })),
            ),
          ]
        : []),
      ...Object.entries(report.pairedMakespanDifferenceH).map(([pair, d]) => `makespan ${pair}: ${ci(d)} h (paired by seed)`),
      `${report.events} events in ${seconds.toFixed(1)} s (${(timing.eventsPerSecond / 1e6).toFixed(2)} M events/s; ${Object.entries(perPolicy).map(([p, t]) => `${p} ${(t.eventsPerSecond / 1e6).toFixed(2)}`).join(", ")})`,
      ...report.warnings.map((w) => `warning: ${w}`),
      ...(out ? [`written to ${out}`] : []),
    ].join("\n"),
  );
  return 0;
}

/** A [BKT] run's progress as the bar draws it: runs done plus the running one's share of jobs. */
function bktProgressState(p: BktProgress): ProgressState {
  if (p.run >= p.runs) return { fraction: 1, stage: "done", detail: "" };
  return {
    fraction: (p.run + p.completedJobs / p.jobs) / p.runs,
    stage: `run ${p.run + 1}/${p.runs} (seed ${p.seed}, ${p.policy})`,
    detail: `${p.completedJobs}/${p.jobs} jobs, t = ${p.timeH.toFixed(1)} h, ${(p.events / 1e6).toFixed(1)} M events`,
  };
}

async function das06(rest: string[], args: SimulateOptions, io: CommandIo): Promise<number> {
  const json = args.json;
  if (rest[0] === "generate") {
    if (rest.length > 1) throw new UsageError(`"simulate das06 generate" takes no file; give --out`);
    const number = (flag: string, fallback: number, integer: boolean) => {
      const value = args[flag] === undefined ? fallback : Number(args[flag]);
      if (!(value > 0 || (flag === "seed" && value === 0)) || (integer && !Number.isInteger(value))) throw new UsageError(`--${flag} expects ${integer ? "an integer" : "a number"} > 0, got ${String(args[flag])}`);
      return value;
    };
    const trace = generateClassroomTrace({ machines: number("machines", 32, true), days: number("days", 39, false), seed: number("seed", 1, true) });
    const out = stringFlag(args, "out");
    writeFileAtomic(out, classroomTraceToFta(trace));
    const stats = classroomStatistics(trace);
    if (json) io.stdout(JSON.stringify({ ...stats, out }, null, 2));
    else
      io.stdout(
        `${out}: SYNTHETIC classroom trace matched to [DAS06] §3.1 statistics — ${trace.options.machines} machines, ${trace.options.days} days, seed ${trace.options.seed}; ` +
          `mean ${stats.meanOnMachines.toFixed(2)} machines on (${(100 * stats.meanAvailability).toFixed(2)} %), mean ON ${stats.onHours.mean.toFixed(1)} h, mean OFF ${stats.offHours.mean.toFixed(1)} h (calibrated mean OFF ${stats.meanOffHours.toFixed(2)} h), ` +
          `${stats.changesWhileClosed} state changes while closed`,
      );
    return 0;
  }
  if (args.iet) {
    const set = choiceFlag(args, "machine-set", MACHINE_SETS, "M04");
    const positive = (flag: string, integer: boolean) => {
      const text = stringFlag(args, flag);
      const value = Number(text);
      if (!(value > 0 && Number.isFinite(value)) || (integer && !Number.isInteger(value))) throw new UsageError(`--${flag} expects ${integer ? "an integer" : "a number"} > 0, got ${text}`);
      return value;
    };
    const tasks = positive("tasks", true);
    const taskCpuS = positive("task-cpu-s", false);
    const ratios = choiceFlag(args, "ratios", ["ratio", "index"] as const, "ratio");
    const ietS = idealExecutionTime(machineRatios(set, 32, ratios), tasks, taskCpuS);
    const published = publishedIetMin(set, tasks, taskCpuS);
    if (json) io.stdout(JSON.stringify({ machineSet: set, tasks, taskCpuS, ratios, ietS, ietMin: ietS / 60, publishedIetMin: published }, null, 2));
    else io.stdout(`IET of ${tasks} tasks of ${taskCpuS} s on ${set}: ${(ietS / 60).toFixed(2)} min (${ietS.toFixed(1)} s)${published === null ? "" : `; [DAS06] Table 2 prints ${published.toFixed(2)} min`}`);
    return 0;
  }
  if (rest.length > 1) throw new UsageError(`"simulate das06" takes at most one scenario file, got ${rest.length}`);
  const base = rest[0] === undefined ? DAS06_DEFAULTS : readDas06Scenario(readInputFile(rest[0], "the scenario"), rest[0]);
  const scenario = validateDas06Scenario(withFlags(base, DAS06_SCENARIO_FLAGS, args), flagWhere(DAS06_SCENARIO_FLAGS));
  const started = performance.now();
  const report = await simulateDas06(scenario, args.quiet ? undefined : (message) => io.stderr(message));
  const seconds = (performance.now() - started) / 1000;
  const out = args.out;
  if (out !== undefined) writeJsonAtomic(out, report);
  if (json) {
    io.stdout(JSON.stringify({ ...report, timing: { seconds, eventsPerSecond: report.events / seconds } }, null, 2));
    return 0;
  }
  const ci = (m: { mean: number; low: number | null; high: number | null; n: number }, digits: number) =>
    m.n === 0 ? "—" : m.low === null ? m.mean.toFixed(digits) : `${m.mean.toFixed(digits)} [${m.low.toFixed(digits)}, ${m.high!.toFixed(digits)}]`;
  const traceLine = report.trace.synthetic ? `the SYNTHETIC classroom trace (seed ${report.trace.seed}; ${report.trace.caption})` : `${report.trace.file}`;
  io.stdout(
    [
      `[DAS06] ${scenario.machineSet}, ${scenario.tasks} tasks of ${scenario.taskCpuS} s, ${scenario.checkpoints} checkpoint(s), ${scenario.checkpointStore} store, on ${traceLine}; ` +
        `${report.startTimesS.length} starting points (${Array.isArray(scenario.startTimes) ? "given" : scenario.startTimes}); IET ${(report.ietS / 60).toFixed(2)} min`,
      ...(report.checkpointServer ? [serverLine(report.checkpointServer)] : []),
      formatTable(
        ["policy", "slowdown (95 % CI)", "turnaround min", "runs", "censored", "failures", "restarts", "replicas", "checkpoints"],
        Object.entries(report.policies).map(([policy, p]) => [
          policy,
          ci(p.slowdown, 3),
          ci({ ...p.turnaroundS, mean: p.turnaroundS.mean / 60, low: p.turnaroundS.low === null ? null : p.turnaroundS.low / 60, high: p.turnaroundS.high === null ? null : p.turnaroundS.high / 60 }, 1),
          String(p.runs),
          String(p.censored),
          p.failures.mean.toFixed(2),
          p.restarts.mean.toFixed(2),
          p.replicas.mean.toFixed(2),
          p.checkpoints.mean.toFixed(2),
        ]),
      ),
      ...(Object.values(report.policies).some((p) => p.server)
        ? [
            serverTable(
              "writes",
              "s",
              Object.entries(report.policies).map(([policy, p]) => ({ policy, count: p.server!.writes, outside: p.server!.writesOutsideDomain, busy: p.server!.busyFraction, utilisation: p.server!.utilisation, wait: p.server!.waitS })),
            ),
          ]
        : []),
      `${report.events} events in ${seconds.toFixed(2)} s`,
      ...report.warnings.map((w) => `warning: ${w}`),
      ...(out ? [`written to ${out}`] : []),
    ].join("\n"),
  );
  return 0;
}

/** What a measured server did, per policy (means per run): the same table for both simulators. */
function serverTable(what: "transfers" | "writes", waitUnit: "h" | "s", rows: { policy: string; count: { mean: number }; outside: { mean: number }; busy: { mean: number }; utilisation: { mean: number }; wait: { mean: number } }[]): string {
  const percent = (x: number) => `${(100 * x).toFixed(1)} %`;
  return formatTable(
    ["policy", what, "outside domain", "server busy", "utilisation when busy", `${what}' wait ${waitUnit}`],
    rows.map((r) => [r.policy, r.count.mean.toFixed(1), r.outside.mean.toFixed(1), percent(r.busy.mean), percent(r.utilisation.mean), r.wait.mean.toFixed(1)]),
  );
}

/** One line naming a measured server: its model, file, hash, domain and the choices made outside it. */
function serverLine(server: MeasuredServerIdentity): string {
  const d = server.domain;
  return (
    `server: the ${server.form} model "${server.name}" from ${server.file} (sha256 ${server.sha256}), fitted on m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${d.vGbMin}, ${d.vGbMax}] GB; ` +
    `outside it: ${server.outsideDomain}; V = ${server.volume === "whole" ? "the total size of the transfers in progress" : "what remains of them"}`
  );
}

/** `restamp --grid <dir>`: the spec is <dir>.json; the kept grids name their input files from the project root. */
async function restamp(rest: string[], args: SimulateOptions, io: CommandIo): Promise<number> {
  if (rest.length > 0) throw new UsageError(`"simulate restamp" takes no positional argument (give the grid with --grid), got ${rest.join(" ")}`);
  const grid = stringFlag(args, "grid").replace(/[/\\]+$/, "");
  const sample = numberFlag(args, "sample");
  const specPath = `${grid}.json`;
  const spec = readSpec(specPath);
  const quiet = args.quiet;
  if (!quiet) io.stderr(`${grid}: recomputing ${sample} cell(s) with the current code, then re-stamping (spec ${specPath})`);
  const outcome = await restampGrid(spec, SIMULATORS, grid, {
    sample,
    filesFrom: projectRoot(),
    log: (line) => {
      if (!quiet) io.stderr(line);
    },
  });
  if (args.json) io.stdout(JSON.stringify(outcome, null, 2));
  else {
    io.stdout(
      `${grid}: ${outcome.sampled.length} of ${outcome.cells} cells recomputed, identical (cells ${outcome.sampled.map((c) => c.index).join(", ")}); ` +
        `${outcome.rewritten} file(s) re-stamped from ${outcome.previousCodeVersions.join(", ")} to code version ${outcome.codeVersion}`,
    );
  }
  return 0;
}

function readSpec(path: string): SweepSpec {
  const spec = parseSweepSpec(readInputFile(path, "the sweep spec"), path);
  if (sweepCells(spec).length === 0) throw new InputError(`${path}: the sweep has no cell (every combination is excluded)`);
  return spec;
}

async function traceStats(path: string, args: SimulateOptions, io: CommandIo): Promise<number> {
  const trace = await readAvailabilityTrace(path, args.format);
  const rejectsPath = args.rejects;
  if (rejectsPath !== undefined) {
    writeFileAtomic(rejectsPath, [REJECTS_CSV_HEADER, ...trace.rejects.map((r) => rejectToCsvLine({ file: path, line: r.line, reason: r.reason, raw: r.raw }))].join("\n") + "\n");
  }
  const stats = traceStatistics(trace);
  if (args.json) {
    io.stdout(JSON.stringify({ ...stats, rejects: trace.rejects.slice(0, 100) }, null, 2));
    return 0;
  }
  const hours = (h: number | null) => (h === null ? "—" : h.toFixed(2));
  io.stdout(
    [
      `${path} (${stats.format === "fta" ? "Failure Trace Archive event_trace" : "Godfrey .avt"}; sha256 ${stats.sha256})`,
      `lines: ${stats.counts.lines} = ${stats.counts.accepted} accepted + ${stats.counts.rejected} rejected + ${stats.counts.comments} comments/headers/blank`,
      formatTable(
        ["quantity", "value"],
        [
          ["nodes", String(stats.nodes)],
          ["span (days)", stats.spanDays.toFixed(2)],
          ["mean availability (per node, over its observed time)", stats.meanAvailability.toFixed(4)],
          ["available intervals", String(stats.available.count)],
          ["  mean / median (h)", `${hours(stats.available.meanHours)} / ${hours(stats.available.medianHours)}`],
          ["unavailable stretches between them", String(stats.unavailable.count)],
          ["  mean / median (h)", `${hours(stats.unavailable.meanHours)} / ${hours(stats.unavailable.medianHours)}`],
        ],
      ),
      ...stats.warnings.map((w) => `warning: ${w}`),
      ...trace.rejects.slice(0, 5).map((r) => `rejected ${path}:${r.line}: ${r.reason}`),
      ...(trace.rejects.length > 5 ? [`… ${trace.rejects.length - 5} more rejected lines${rejectsPath ? ` in ${rejectsPath}` : " (--rejects FILE lists them all)"}`] : []),
    ].join("\n"),
  );
  return 0;
}

function arrayBatch(specPath: string, out: string, args: SimulateOptions, io: CommandIo): number {
  const scheduler = args.scheduler!;
  const tasks = numberFlag(args, "tasks");
  const walltime = args.walltime;
  if (!/^\d{1,3}:\d{2}:\d{2}$/.test(walltime)) throw new UsageError(`--walltime expects HH:MM:SS, e.g. 2:00:00; got "${walltime}"`);
  const ckptFlag = args.ckpt;
  const outDir = resolve(out);
  const { script, paramFile } = arrayScript({
    scheduler,
    jobName: `ckpt-${basename(specPath).replace(/\.json$/i, "").replace(/[^A-Za-z0-9._-]/g, "_")}`.slice(0, 64),
    sweepPath: resolve(specPath),
    outDir,
    tasks,
    walltime,
    queue: args.queue ?? null,
    ckpt: ckptFlag !== undefined ? ckptFlag.trim().split(/\s+/) : [process.execPath, join(projectRoot(), "bin", "ckpt.js")],
  });
  const scriptPath = resolve(args.script ?? join(outDir, scheduler === "oar" ? "sweep.oar.sh" : "sweep.slurm.sh"));
  if (paramFile !== null) writeFileAtomic(join(outDir, OAR_SHARDS_FILE), paramFile);
  writeFileAtomic(scriptPath, script);
  chmodSync(scriptPath, 0o755);
  io.stdout(
    `wrote ${scriptPath} (${tasks} array tasks${paramFile !== null ? `, one per line of ${join(outDir, OAR_SHARDS_FILE)}` : ""})\nsubmit it with:  ${scheduler === "oar" ? `oarsub -S ${scriptPath}` : `sbatch ${scriptPath}`}\n` +
      `then, when every task has ended:  ckpt simulate merge ${specPath} --out ${out}`,
  );
  return 0;
}
