/**
 * The knobs of a ScheduleCkpt run and their defaults, validated in one place so that the
 * CLI, the campaigns and notebooks refuse the same impossible parameters with the same
 * messages.
 *
 * Defaults are the published algorithm: the static estimator ([Y11] eq. 2), |J| ≤ k0
 * (Sahni's scheme), criterion p, k0 = 2 (the largest k0 the papers ran, docs/science.md §4.5), the
 * fitted-domain policy `refuse` (see `bandwidth-oracle.ts`; the older `strict` and `warn` are
 * read as `refuse` and `extrapolate`).
 */
import type { BandwidthModel } from "../fit/model";
import { InputError } from "../shared/errors";
import { scheduleDomainPolicy, type BandwidthFunction, type ScheduleDomainPolicy } from "./bandwidth-oracle";
import { CRITERIA, type Criterion } from "./criterion-order";
import { IDLE_STARTS, type IdleStart } from "./index-bw-max";
import { SUBSET_ENUMERATIONS, type SubsetEnumeration } from "./ks-bw";
import { ESTIMATOR_NAMES, type EstimatorName } from "./time-estimator";

/** How sequential greedy treats an application that would finish after T (docs/science.md §4.4). */
export type SequentialRule = "stop" | "skip";
export const SEQUENTIAL_RULES: readonly SequentialRule[] = ["stop", "skip"];

export interface ScheduleOptions {
  /** The model the scheduler plans with. */
  model: BandwidthModel;
  /** The model the execution follows (defaults to `model`): a different one studies wrong predictions. */
  truthModel: BandwidthModel;
  /**
   * The bandwidth the scheduler plans with, when not `model`'s mean: a quantile of its
   * predictive distribution (`--confidence`). `model` still names it and gives the domain.
   */
  planBandwidth?: BandwidthFunction;
  /** The bandwidth the execution follows, when not `truthModel`'s (a quantile, a replayed run). */
  truthBandwidth?: BandwidthFunction;
  /** T: seconds until the workstations are released (> 0). */
  deadlineS: number;
  /** Sahni enumeration depth (integer ≥ 0). */
  k0: number;
  criterion: Criterion;
  estimator: EstimatorName;
  domain: ScheduleDomainPolicy;
  enumeration: SubsetEnumeration;
  sequentialRule: SequentialRule;
  /** ks_bw's result-preserving pruning. */
  prune: boolean;
  /** index_bw_max on an idle device: compare with bw(0, 0) = e (the papers) or admit the first candidate. */
  idleStart: IdleStart;
  /** Keep the decisions and the bandwidth steps (for reports); campaigns turn it off. */
  record: boolean;
  /**
   * Refuse a decision whose ks_bw would make more time estimates than this (Σ_{j ≤ k0}
   * C(r, j) subsets, each completed by up to r estimates): a large k0 over many candidates
   * would otherwise run for hours. About 10^8 estimates a second.
   */
  maxEstimatesPerDecision: number;
}

export type ScheduleOptionsInput = Pick<ScheduleOptions, "model" | "deadlineS"> & Partial<ScheduleOptions>;

export const SCHEDULE_DEFAULTS = {
  k0: 2,
  criterion: "p",
  estimator: "static",
  domain: "refuse",
  enumeration: "up-to-k0",
  sequentialRule: "stop",
  prune: true,
  idleStart: "constant-term",
  record: true,
  maxEstimatesPerDecision: 1e9,
} as const satisfies Partial<ScheduleOptions>;

function requireChoice<T extends string>(name: string, value: T, choices: readonly T[]): void {
  if (!choices.includes(value)) throw new InputError(`${name} must be one of ${choices.join(", ")}, found ${JSON.stringify(value)}`);
}

/** Fill in defaults and refuse impossible values (deadline ≤ 0, k0 < 0 or fractional, unknown names). */
export function resolveScheduleOptions(input: ScheduleOptionsInput): ScheduleOptions {
  const options: ScheduleOptions = { ...SCHEDULE_DEFAULTS, truthModel: input.model, ...input } as ScheduleOptions;
  if (!Number.isFinite(options.deadlineS) || options.deadlineS <= 0) {
    throw new InputError(`the deadline T must be a finite number of seconds > 0, found ${options.deadlineS}; e.g. --deadline 420`);
  }
  if (!Number.isInteger(options.k0) || options.k0 < 0) {
    throw new InputError(`k0 (the Sahni enumeration depth) must be an integer ≥ 0, found ${options.k0}; the papers use 0, 1 or 2`);
  }
  if (!(options.maxEstimatesPerDecision > 0)) {
    throw new InputError(`the largest number of estimates per decision must be > 0, found ${options.maxEstimatesPerDecision}; e.g. --max-estimates 1e9`);
  }
  requireChoice("criterion", options.criterion, CRITERIA);
  requireChoice("estimator", options.estimator, ESTIMATOR_NAMES);
  options.domain = scheduleDomainPolicy(options.domain);
  requireChoice("subset enumeration", options.enumeration, SUBSET_ENUMERATIONS);
  requireChoice("sequential rule", options.sequentialRule, SEQUENTIAL_RULES);
  requireChoice("idle start", options.idleStart, IDLE_STARTS);
  return options;
}
