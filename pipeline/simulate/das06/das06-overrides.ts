/**
 * [DAS06] scenario fields from the command line: one flag per field in kebab-case
 * (`--machine-set M04`, `--tasks 75`, `--task-cpu-s 7200`, `--checkpoint-store private`,
 * `--policies FCFS,FCFS-TR`, `--start-times weekend` or `--start-times 28800,115200`,
 * `--window-days 0,39`), and one
 * per leaf of the nested ones (`--synthetic-seed`, `--synthetic-machines`, `--synthetic-days`,
 * `--tolerance-night`, …). Values are checked with the scenario (das06-scenario.ts).
 */
import { listOf, numberOrText, numbersOf, scenarioFlags } from "../../input/scenario-flags";
import { SERVER_MODEL_DEFAULTS } from "../server/measured-server";
import { DAS06_DEFAULTS, DAS06_FIELDS, type Das06Scenario } from "./das06-scenario";

function value(field: string, text: string): unknown {
  const trimmed = text.trim();
  if (field === "policies") return listOf(trimmed);
  if (field === "startTimes") return trimmed === "weekday" || trimmed === "weekend" ? trimmed : numbersOf(trimmed);
  if (field === "trace") return trimmed === "" || trimmed === "null" || trimmed === "none" || trimmed === "synthetic" ? null : trimmed;
  if (field === "windowDays") return trimmed === "" || trimmed === "null" || trimmed === "all" ? null : numbersOf(trimmed);
  if (field === "mondayOffsetS" && (trimmed === "" || trimmed === "null" || trimmed === "utc")) return null;
  if (field === "model") return trimmed;
  return numberOrText(trimmed);
}

/** The flags of a [DAS06] scenario's fields: their names for the option table, the fields a set of them overrides, each one's default as its help states it. */
export const DAS06_SCENARIO_FLAGS = scenarioFlags<keyof Das06Scenario>({
  fields: DAS06_FIELDS,
  defaults: DAS06_DEFAULTS,
  nested: {
    synthetic: ["seed", "machines", "days", "meanOnHours", "meanAvailability", "rebootsPerOnHour"],
    tolerance: ["night", "weekend", "dayBase", "dayPerHour", "dayMax"],
    checkpointServer: ["model", "outsideDomain", "volume"],
  },
  value,
  // What a field's null means, as its flag takes it.
  nullText: {
    trace: "none: the SYNTHETIC classroom trace",
    "window-days": "all",
    "monday-offset-s": "utc",
    // No measured server by default: shared checkpoints go at each machine's LAN rate; these are a measured server's defaults.
    "checkpoint-server-model": "none: each machine's LAN rate",
    "checkpoint-server-outside-domain": SERVER_MODEL_DEFAULTS.outsideDomain,
    "checkpoint-server-volume": SERVER_MODEL_DEFAULTS.volume,
  },
});

/**
 * What each flag sets, for `ckpt simulate das06 --help` and docs/cli.md (a test checks that
 * every flag has its line): the value's form first, then what it is, with its unit.
 */
export const DAS06_FLAG_HELP: Readonly<Record<string, string>> = {
  "synthetic-seed": "S: the synthetic classroom trace's seed (when no --trace)",
  "synthetic-machines": "N: its machines",
  "synthetic-days": "D: its length, days",
  "synthetic-mean-on-hours": "H: its machines' mean ON sojourn in open hours (the generator's choice, 8)",
  "synthetic-mean-availability": "F: the mean fraction of its machines on that it calibrates to ([DAS06] §3.1: 17.42 / 32)",
  "synthetic-reboots-per-on-hour": "R: reboots per ON hour, each one sample period down (0)",
  "window-days": "FROM,TO|all: the part of the trace the runs use, days from its start",
  "monday-offset-s": "S|utc: seconds from the trace's start to a Monday 00:00, or utc to read its timestamps as UTC",
  "machine-set": "M01|M04: [DAS06] Table 1's machine set",
  ratios: "ratio|index: speed ratios from Table 1's printed ratios or from its performance indexes",
  tasks: "N: tasks in the bag",
  "task-cpu-s": "S: each task's work, reference CPU seconds",
  checkpoints: "0|1|9: checkpoints per execution (none, at 50 %, every 10 %)",
  "checkpoint-mb": "MB: a checkpoint's size, MB",
  "checkpoint-store": "private|shared: where checkpoints are kept",
  "checkpoint-server-model": "FILE|paper: the shared repository as a measured server, a bandwidth model written by `ckpt fit --out` (or paper, the published Azur model): shared checkpoints share its bw(m, V), each capped by --lan-m-byte-per-s (docs/science.md §6.6)",
  "checkpoint-server-outside-domain": "clamp|extrapolate|refuse: a load outside the model's fitted domain takes the bandwidth at the domain's nearest edge (clamp, the default), the model's value there, or stops the run",
  "checkpoint-server-volume": "whole|remaining: the model's V is the total size of the writes in progress (the default) or what remains of them",
  "start-times": "weekday|weekend|S,S,…: the starting points, every whole hour of a window or seconds from the trace's start",
  "max-instances": "N: instances a task may have at once (TR, PRDCT-DMD)",
  "on-timeout": "cancel|keep: what the adaptive timeout does to the late instance",
  predictor: "oracle|noisy-oracle: the failure predictor of FCFS-PRDCT-DMD",
  "false-positive": "P: noisy-oracle's probability of a false alarm",
  "false-negative": "P: noisy-oracle's probability of a missed failure",
  "lan-m-byte-per-s": "X: the LAN's rate, MB/s",
  "refresh-s": "S: the scheduler's refresh and round period, s",
  "tolerance-night": "X: the adaptive timeout's tolerance at night, a fraction of the ideal time (0.1 = 10 %)",
  "tolerance-weekend": "X: on weekends, a fraction",
  "tolerance-day-base": "X: by day, min(max, base + per-hour · R/3600 s) with R the remaining reference CPU seconds: base, a fraction",
  "tolerance-day-per-hour": "X: per hour of R, a fraction",
  "tolerance-day-max": "X: max, a fraction",
  "min-trace-left-days": "D: runs must leave this many days of trace after their start",
  // Shared with bkt (simulate.ts words them for both): trace, policies, seed.
  trace: "FILE: an availability trace (FTA .tab or .avt, possibly .gz) instead of the SYNTHETIC classroom trace",
  policies: "a list of FCFS, FCFS-AT, FCFS-TR, FCFS-PRDCT-DMD",
  seed: "S: the runs' seed (das06 generate: the trace's)",
};
