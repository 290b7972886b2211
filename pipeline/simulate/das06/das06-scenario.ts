/**
 * A [DAS06] simulation scenario as data (docs/science.md §6.2): the trace (a file, or the
 * labelled synthetic classroom), the machine set, the bag of tasks, checkpoints and where
 * they are kept, the policies, the starting points, and every choice the paper leaves open
 * as a named field with the project's reading as default (docs/science.md §6.2.9).
 */
import type { ClassroomOptions } from "./classroom-trace";
import { serverModelProblem, withServerDefaults, type ServerModelSpec } from "../server/measured-server";
import { checkFields, distinctAmong, integer, nonNegative, nullOr, oneOf, positive, probability, type Check } from "../../input/checks";
import { scenarioFields } from "../../input/scenario-file";

export type Das06Policy = "FCFS" | "FCFS-AT" | "FCFS-TR" | "FCFS-PRDCT-DMD";
export const DAS06_POLICIES: readonly Das06Policy[] = ["FCFS", "FCFS-AT", "FCFS-TR", "FCFS-PRDCT-DMD"];

export interface Das06Scenario {
  /** An availability trace (FTA .tab or Godfrey .avt, possibly .gz); null for the synthetic classroom trace (`synthetic`). */
  trace: string | null;
  /**
   * The synthetic classroom trace (used when `trace` is null): its seed and size, and the
   * generator's free parameters (docs/science.md §6.2.2): mean ON sojourn, the mean fraction of
   * machines on it calibrates to ([DAS06] §3.1: 17.42 of 32), and reboots per ON hour.
   */
  synthetic: { seed: number; machines: number; days: number; meanOnHours: number; meanAvailability: number; rebootsPerOnHour: number };
  machineSet: "M01" | "M04";
  /** Speed ratios from Table 1's printed ratios or from its performance indexes. */
  ratios: "ratio" | "index";
  tasks: number;
  /** Reference CPU seconds of each task. */
  taskCpuS: number;
  policies: Das06Policy[];
  /** Checkpoints per execution: 0, 1 (at 50 %) or 9 (every 10 %). */
  checkpoints: 0 | 1 | 9;
  checkpointMb: number;
  checkpointStore: "private" | "shared";
  /**
   * The shared repository as a measured server (docs/science.md §6.6): shared checkpoints are
   * written to it, sharing its bw(m, V), each capped by the machine's LAN rate; null: each write
   * takes checkpointMb / lanMBytePerS (D10). Private checkpoints stay on their machine either way.
   */
  checkpointServer: ServerModelSpec | null;
  /** Starting points: seconds from the trace's start, or every whole hour of the "weekday" / "weekend" windows. */
  startTimes: number[] | "weekday" | "weekend";
  /** Seconds from the trace's start to a Monday 00:00; null: from the trace's timestamps read as UTC (the synthetic trace starts on a Monday). */
  mondayOffsetS: number | null;
  /** The part of the trace the runs use, in days from its start (starting points inside it, runs censored at its end, machines observed throughout it); null: all of it. */
  windowDays: [number, number] | null;
  /** Instances a task may have at once (TR, PRDCT-DMD). */
  maxInstances: number;
  onTimeout: "cancel" | "keep";
  /** Tolerances of the adaptive timeout: night, weekend, and daytime min(max, base + perHour · R/3600 s). */
  tolerance: { night: number; weekend: number; dayBase: number; dayPerHour: number; dayMax: number };
  predictor: "oracle" | "noisy-oracle";
  /** noisy-oracle: probabilities of a false alarm and of a missed failure. */
  falsePositive: number;
  falseNegative: number;
  lanMBytePerS: number;
  /** The scheduler's refresh and round period, s. */
  refreshS: number;
  /** Runs must leave this many days of trace after their start. */
  minTraceLeftDays: number;
  seed: number;
}

export const DAS06_DEFAULTS: Das06Scenario = {
  trace: null,
  synthetic: { seed: 1, machines: 32, days: 39, meanOnHours: 8, meanAvailability: 17.42 / 32, rebootsPerOnHour: 0 },
  machineSet: "M04",
  ratios: "ratio",
  tasks: 25,
  taskCpuS: 1800,
  policies: ["FCFS", "FCFS-AT", "FCFS-TR", "FCFS-PRDCT-DMD"],
  checkpoints: 0,
  checkpointMb: 1,
  checkpointStore: "shared",
  checkpointServer: null,
  startTimes: "weekday",
  mondayOffsetS: null,
  windowDays: null,
  maxInstances: 3,
  onTimeout: "cancel",
  tolerance: { night: 0.1, weekend: 0.05, dayBase: 0.2, dayPerHour: 0.1, dayMax: 0.5 },
  predictor: "oracle",
  falsePositive: 0.1,
  falseNegative: 0.1,
  lanMBytePerS: 12.5,
  refreshS: 120,
  minTraceLeftDays: 7,
  seed: 1,
};

const CHECKS: Record<keyof Das06Scenario, Check> = {
  trace: (v) => (v === null || (typeof v === "string" && v !== "") ? null : "a trace file (FTA .tab or .avt), or null for the synthetic classroom trace"),
  synthetic: (v) => {
    const s = v as Das06Scenario["synthetic"];
    return typeof s === "object" &&
      s !== null &&
      integer(0)(s.seed) === null &&
      integer(1, 10_000)(s.machines) === null &&
      positive(s.days) === null &&
      positive(s.meanOnHours) === null &&
      typeof s.meanAvailability === "number" &&
      s.meanAvailability > 0 &&
      s.meanAvailability < 1 &&
      nonNegative(s.rebootsPerOnHour) === null
      ? null
      : '{ "seed": integer, "machines": integer ≥ 1, "days": > 0, "meanOnHours": > 0, "meanAvailability": in (0, 1), "rebootsPerOnHour": ≥ 0 }';
  },
  machineSet: oneOf("M01", "M04"),
  ratios: oneOf("ratio", "index"),
  tasks: integer(1, 100_000),
  taskCpuS: positive,
  policies: distinctAmong("policies", DAS06_POLICIES),
  checkpoints: oneOf(0, 1, 9),
  checkpointMb: nonNegative,
  checkpointStore: oneOf("private", "shared"),
  checkpointServer: (v) => (v === null ? null : serverModelProblem(v) === null ? null : `null or a measured server ${serverModelProblem(v)}`),
  startTimes: (v) =>
    v === "weekday" || v === "weekend" || (Array.isArray(v) && v.length > 0 && v.every((t) => typeof t === "number" && Number.isFinite(t) && t >= 0))
      ? null
      : '"weekday", "weekend", or a non-empty list of seconds ≥ 0 from the trace\'s start',
  mondayOffsetS: nullOr(nonNegative),
  windowDays: (v) =>
    v === null || (Array.isArray(v) && v.length === 2 && v.every((d) => typeof d === "number" && Number.isFinite(d) && d >= 0) && v[0] < v[1])
      ? null
      : "[from, to] in days from the trace's start with 0 ≤ from < to, or null for the whole trace",
  maxInstances: integer(1, 100),
  onTimeout: oneOf("cancel", "keep"),
  tolerance: (v) => {
    const t = v as Das06Scenario["tolerance"];
    return typeof t === "object" && t !== null && [t.night, t.weekend, t.dayBase, t.dayPerHour, t.dayMax].every((x) => nonNegative(x) === null)
      ? null
      : '{ "night", "weekend", "dayBase", "dayPerHour", "dayMax": numbers ≥ 0 }';
  },
  predictor: oneOf("oracle", "noisy-oracle"),
  falsePositive: probability,
  falseNegative: probability,
  lanMBytePerS: positive,
  refreshS: positive,
  minTraceLeftDays: nonNegative,
  seed: integer(0, 2 ** 31 - 1),
};

export const DAS06_FIELDS = Object.keys(CHECKS) as (keyof Das06Scenario)[];

export function validateDas06Scenario(scenario: Record<string, unknown>, where: (field: string) => string = () => "scenario"): Das06Scenario {
  const s = checkFields<Das06Scenario>(scenario, CHECKS, "a [DAS06] scenario", where);
  return s.checkpointServer === null ? s : { ...s, checkpointServer: withServerDefaults(s.checkpointServer) };
}

/** The defaults with a scenario file's fields over them (objects merge with the defaults', lists are replaced whole). */
export function readDas06Scenario(text: string, file: string): Das06Scenario {
  const { fields, where } = scenarioFields(text, file, DAS06_DEFAULTS, '{ "machineSet": "M04", "tasks": 75 }');
  return validateDas06Scenario(fields, where);
}

/** The synthetic classroom generator's options for a scenario's `synthetic` field. */
export function classroomOptionsOf(synthetic: Das06Scenario["synthetic"]): ClassroomOptions {
  return {
    machines: synthetic.machines,
    days: synthetic.days,
    seed: synthetic.seed,
    meanOnHours: synthetic.meanOnHours,
    targetMeanOn: synthetic.meanAvailability * synthetic.machines,
    rebootsPerOnHour: synthetic.rebootsPerOnHour,
  };
}
