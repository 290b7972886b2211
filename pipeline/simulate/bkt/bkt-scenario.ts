/**
 * A [BKT] simulation scenario as data (docs/science.md §6.1): the platform, the workload,
 * the failure model and the policies, with the paper preset as defaults and every choice
 * the paper leaves open a named field (docs/science.md §6.1.9). Units are in the names:
 * hours, Mbit (megabits, as [BKT] Table II writes sizes), Mbit/s, MIPS, seconds.
 *
 * Scenario files are JSON objects holding any subset of these fields; what they leave out
 * keeps its default. Problems are reported with the file, the line of the field and how to
 * fix it.
 */
import { createLaw } from "../../place/laws/create-law";
import type { FailureLaw } from "../../place/laws/failure-law";
import { FITTED_MODELS_FILE, fittedLawString, isFittedLaw, type FittedInterval } from "../../place/laws/fitted-laws";
import { parseLawString } from "../../place/laws/law-string";
import { parseDurationsCsv } from "../../place/laws/parse-durations-csv";
import { InputError } from "../../shared/errors";
import { projectRoot } from "../../shared/version";
import { join } from "node:path";
import { boolean, checkFields, distinctAmong, integer, nonNegative, oneOf, positive, range, type Check } from "../../input/checks";
import { scenarioFields } from "../../input/scenario-file";
import { serverModelProblem, withServerDefaults, type ServerModelSpec } from "../server/measured-server";
import { readFileSync } from "node:fs";

/** What a transient unavailability does to the running copy (docs/science.md §6.1.4). */
export type TransientMode = "suspend" | "abort";
/**
 * The failure law the policies plan with (docs/science.md §6.1.4, B10): the availability law
 * from the copy's start (the default, [BKT]'s "client's failure density"), the same conditioned
 * on the age of the host's current availability interval, the remaining lifetime of the host
 * at its age (what loses work under `suspend`), or both risks together (what loses work under
 * `abort`).
 */
export type FailureLawForPolicy = "availability" | "availability-aged" | "lifetime" | "competing";
export const FAILURE_LAWS_FOR_POLICY: readonly FailureLawForPolicy[] = ["availability", "availability-aged", "lifetime", "competing"];
export type BktPolicy = "none" | "periodic" | "pckp" | "young" | "every-slice" | "pckp-paper" | "pckp-complete";
export const BKT_POLICIES: readonly BktPolicy[] = ["none", "periodic", "pckp", "young", "every-slice", "pckp-paper", "pckp-complete"];

/**
 * The server: its link (Mbit/s) and simultaneous connections, as [BKT] §IV-A-1 gives it; or a
 * measured bandwidth model in place of the link (docs/science.md §6.6), with the same
 * connection limit.
 */
export type BktServer = { mbps: number; connections: number } | BktMeasuredServer;
export type BktMeasuredServer = ServerModelSpec & { connections: number };

export function isMeasuredServer(server: BktServer): server is BktMeasuredServer {
  return "model" in server;
}

export interface BktScenario {
  /** Volatile clients M. */
  clients: number;
  /** Jobs in the bag J. */
  jobs: number;
  /** Slices per job, discrete uniform [min, max]. */
  slicesPerJob: [number, number];
  /** Work of a slice in hours on a host of the mean speed, uniform [min, max]. */
  sliceHours: [number, number];
  /** Checkpoint image after a slice, uniform [min, max] Mbit. */
  checkpointMbit: [number, number];
  /** Client CPU speed, Normal(mean, sd) MIPS, redrawn below `minSpeedMips`. */
  speedMips: { mean: number; sd: number };
  minSpeedMips: number;
  /** Client link, uniform [min, max] Mbit/s. */
  hostMbps: [number, number];
  /** The server: link Mbit/s and simultaneous connections, or a measured model and connections. */
  server: BktServer;
  /**
   * Laws of the availability and unavailability intervals and of the client lifetime ("none":
   * no departure): law strings as `ckpt place --law` (empirical files read from the working
   * directory), or for the two intervals `fitted:<trace>/<distribution>`, the Failure Trace
   * Archive fits of data/availability/fta-fitted-models.csv.
   */
  availability: string;
  unavailability: string;
  lifetime: string;
  /** An availability trace (FTA .tab or .avt) instead of the two interval laws; null for the laws. */
  trace: string | null;
  /**
   * Where in the trace t = 0 is, days from its start: clients follow the nodes observed at that
   * instant (a node outside the span it was observed over is neither up nor down — e.g. not yet
   * installed — so it is left out).
   */
  traceStartDays: number;
  transient: TransientMode;
  policies: BktPolicy[];
  /** The law Periodic's MTTF and the DP's density come from (docs/science.md §6.1.4). */
  failureLawForPolicy: FailureLawForPolicy;
  /**
   * Users' own checkpoint policies: ES modules (or TypeScript, through tsx) whose default export is
   * `{ name, plan(input) }` (docs/science.md §6.7, examples/policies/README.md), run after the
   * built-in `policies` on the same hosts; paths from the working directory.
   */
  policyModules: string[];
  /** The longest a module's `plan` may take for one copy, s of wall-clock time; past it the run stops. */
  policyTimeLimitS: number;
  /** Periodic: the period mapped on slice work ("work", the default) or on checkpoint costs ("costs", as printed). */
  dalyMapping: "work" | "costs";
  /** Quantum of the DP's checkpoint costs, seconds (costs rounded up to quanta). */
  quantumS: number;
  /** [BKT] eq. (4): "consistent" (default) or "as-printed". */
  eq4: "consistent" | "as-printed";
  /** Re-execution ratio α of the DP's objective. */
  alpha: number;
  latencySeconds: number;
  /** Hosts start available ("fresh") or in the availability process's equilibrium ("stationary"). */
  startState: "fresh" | "stationary";
  /** Copies of completed jobs keep running ("run-on") or stop at their next upload ("abort-on-contact"). */
  staleCopies: "run-on" | "abort-on-contact";
  /** A copy restarting from a checkpoint downloads its image first. */
  downloadOnRestart: boolean;
  /** Checkpoint sizes are megabits (default) or megabytes (×8). */
  checkpointSizeUnit: "Mbit" | "MB";
  /** Stop a run that has not finished by then (a safety net; reported as unfinished). */
  horizonHours: number;
  replications: number;
  seed: number;
}

/** The paper preset (docs/science.md §6.1.1–6.1.2), with the project's readings of §6.1.9. */
export const BKT_PAPER_PRESET: BktScenario = {
  clients: 5000,
  jobs: 1000,
  slicesPerJob: [1, 50],
  sliceHours: [1, 5],
  checkpointMbit: [10, 512],
  speedMips: { mean: 1771, sd: 669.5 },
  minSpeedMips: 177.1,
  hostMbps: [1, 2],
  server: { mbps: 1000, connections: 100 },
  availability: "weibull:shape=0.431,scale=1.682,unit=h",
  unavailability: "hyperexp:p=0.398,0.305,0.298;mu=0.031,11.566,1.322;param=mean;unit=h",
  lifetime: "weibull:shape=0.58,scale=137,unit=d",
  trace: null,
  traceStartDays: 0,
  transient: "suspend",
  policies: ["none", "periodic", "pckp"],
  failureLawForPolicy: "availability",
  policyModules: [],
  policyTimeLimitS: 10,
  dalyMapping: "work",
  quantumS: 60,
  eq4: "consistent",
  alpha: 1,
  latencySeconds: 0,
  startState: "fresh",
  staleCopies: "run-on",
  downloadOnRestart: true,
  checkpointSizeUnit: "Mbit",
  horizonHours: 100_000,
  replications: 1,
  seed: 1,
};

/**
 * The law of a scenario's law field: a law string, or (for an interval) a fitted model
 * `fitted:<trace>/<distribution>`, resolved to the law string of that interval.
 */
export function bktLaw(text: string, interval: FittedInterval | "lifetime"): FailureLaw {
  let resolved = text;
  if (isFittedLaw(text)) {
    if (interval === "lifetime") throw new InputError(`law "${text}": the fitted models are laws of availability and unavailability intervals, not of a client's lifetime; give a law string or "none"`);
    resolved = fittedLawString(text, interval, readFileSync(join(projectRoot(), FITTED_MODELS_FILE), "utf8"), FITTED_MODELS_FILE);
  }
  return createLaw(parseLawString(resolved, (path) => parseDurationsCsv(readFileSync(path, "utf8"), path)).spec);
}

const law = (interval: FittedInterval | "lifetime"): Check => (v) => {
  if (interval === "lifetime" && v === "none") return null;
  if (typeof v !== "string") return `a law string such as "weibull:shape=0.431,scale=1.682,unit=h"${interval === "lifetime" ? ' or "none"' : ' or a fitted model such as "fitted:Microsoft99/weibull"'}`;
  try {
    const mean = bktLaw(v, interval).meanSeconds;
    return Number.isFinite(mean) && mean > 0 ? null : `a law with a finite mean > 0 (this one's mean is ${mean} s)`;
  } catch (error) {
    return (error as Error).message;
  }
};

/** The check of each field: what it must be. */
const CHECKS: Record<keyof BktScenario, Check> = {
  clients: integer(1, 1_000_000),
  jobs: integer(1, 10_000_000),
  slicesPerJob: range(integer(1, 10_000), true),
  sliceHours: range(positive),
  checkpointMbit: range(nonNegative),
  speedMips: (v) => {
    const s = v as { mean?: unknown; sd?: unknown };
    return typeof s === "object" && s !== null && positive(s.mean) === null && nonNegative(s.sd) === null ? null : '{ "mean": MIPS > 0, "sd": MIPS ≥ 0 }';
  },
  minSpeedMips: positive,
  hostMbps: range(positive),
  server: (v) => {
    const s = v as { mbps?: unknown; connections?: unknown; model?: unknown };
    const linkShape = '{ "mbps": Mbit/s > 0, "connections": an integer ≥ 1 }';
    if (typeof s !== "object" || s === null) return linkShape;
    if (s.model === undefined) return positive(s.mbps) === null && integer(1)(s.connections) === null && Object.keys(s).every((k) => k === "mbps" || k === "connections") ? null : `${linkShape}, or a measured server`;
    const problem = serverModelProblem(s, ["connections", "mbps"]);
    if (problem !== null) return `${linkShape}, or a measured server ${problem}`;
    return integer(1)(s.connections) === null ? null : `a measured server with "connections": an integer ≥ 1`;
  },
  availability: law("availability"),
  unavailability: law("unavailability"),
  lifetime: law("lifetime"),
  trace: (v) => (v === null || (typeof v === "string" && v !== "") ? null : "a trace file (FTA .tab or .avt, possibly .gz), or null to use the availability laws"),
  traceStartDays: nonNegative,
  transient: oneOf("suspend", "abort"),
  policies: distinctAmong("policies", BKT_POLICIES),
  failureLawForPolicy: oneOf(...FAILURE_LAWS_FOR_POLICY),
  policyModules: (v) =>
    Array.isArray(v) && v.every((p) => typeof p === "string" && p !== "") && new Set(v).size === v.length ? null : "a list of distinct module files (ES modules whose default export is { name, plan })",
  policyTimeLimitS: positive,
  dalyMapping: oneOf("work", "costs"),
  quantumS: positive,
  eq4: oneOf("consistent", "as-printed"),
  alpha: (v) => (typeof v === "number" && v > 0 && v <= 1 ? null : "a number in (0, 1]"),
  latencySeconds: nonNegative,
  startState: oneOf("fresh", "stationary"),
  staleCopies: oneOf("run-on", "abort-on-contact"),
  downloadOnRestart: boolean,
  checkpointSizeUnit: oneOf("Mbit", "MB"),
  horizonHours: positive,
  replications: integer(1, 10_000),
  seed: integer(0, 2 ** 31 - 1),
};

export const BKT_FIELDS = Object.keys(CHECKS) as (keyof BktScenario)[];

/**
 * Check every field of a complete scenario; `where(field)` says where a field is (a file and
 * line) for the message.
 */
export function validateBktScenario(scenario: Record<string, unknown>, where: (field: string) => string = () => "scenario"): BktScenario {
  const s = checkFields<BktScenario>(scenario, CHECKS, "a [BKT] scenario", where);
  if ((s.failureLawForPolicy === "lifetime" || s.failureLawForPolicy === "competing") && s.lifetime === "none") {
    throw new InputError(`${where("failureLawForPolicy")}: failureLawForPolicy "${s.failureLawForPolicy}" plans with the clients' lifetime law, but lifetime is "none"; give a lifetime law or plan with "availability"`);
  }
  if (s.trace !== null && (s.availability !== BKT_PAPER_PRESET.availability || s.unavailability !== BKT_PAPER_PRESET.unavailability)) {
    // Both given: the trace wins, which must be said, not silently.
    throw new InputError(`${where("trace")}: give either a trace or the availability/unavailability laws, not both (the trace replaces the two laws)`);
  }
  if (!isMeasuredServer(s.server)) return s;
  // A measured server replaces the link: a link rate given with it would be silently unused.
  const { mbps, ...measured } = s.server as BktMeasuredServer & { mbps?: number };
  if (mbps !== undefined && !("mbps" in BKT_PAPER_PRESET.server && mbps === BKT_PAPER_PRESET.server.mbps)) {
    throw new InputError(`${where("server")}: give the server either a link rate (server.mbps) or a measured model (server.model), not both (the model replaces the link)`);
  }
  return { ...s, server: withServerDefaults(measured) };
}

/** The preset with a scenario file's fields over it (objects merge with the preset's, lists are replaced whole). */
export function readBktScenario(text: string, file: string, base: BktScenario = BKT_PAPER_PRESET): BktScenario {
  const { fields, where } = scenarioFields(text, file, base, '{ "clients": 5000, "jobs": 1000 }');
  return validateBktScenario(fields, where);
}
