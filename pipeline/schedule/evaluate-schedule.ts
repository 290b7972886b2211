/**
 * Everything `ckpt schedule` reports about one instance, as one serialisable artifact:
 * ScheduleCkpt's run (by waves when several applications share a node), the baselines
 * (sequential greedy, all in parallel), the CTNYS upper bound with every strategy's gap
 * to it, optionally the exact simultaneous-start optimum, and plain-language warnings
 * (fitted-domain use, misses, stalls, an unproven optimum, the heuristic below the exact
 * solution). Pure: no files, no printing.
 */
import { applicationColumns, validateApplications, type Application } from "./application";
import { allInParallel } from "./all-in-parallel";
import { exactSimultaneous, type ExactLimits, type ExactSimultaneousResult } from "./exact-simultaneous";
import { createBandwidthOracle, type BandwidthEvaluationCounts } from "./bandwidth-oracle";
import { createFluidDevice } from "./fluid-device";
import { scheduleByWaves, wavesOf, type WavesOutcome } from "./schedule-by-waves";
import { scheduleCkpt, type ScheduleCkptOutcome } from "./schedule-ckpt";
import type { ScheduleOptions } from "./schedule-options";
import { sequentialGreedy } from "./sequential-greedy";
import { outcomeFromDevice, type StrategyOutcome } from "./strategy-outcome";
import { upperBound, type UpperBound } from "./upper-bound";
import { idleStartStallReason } from "./model-applicability";
import type { ConfidentPlanReport } from "./confident-plan";

export interface GapToBound {
  /** bound − CTNYS, s. */
  seconds: number;
  /** (bound − CTNYS) / bound (0 when the bound is 0). */
  share: number;
}

export interface ExactReport {
  result: ExactSimultaneousResult;
  /** The exact set started at t = 0 and executed under the truth model. */
  outcome: StrategyOutcome;
  /** ScheduleCkpt's CTNYS ≥ the exact set's planned value. */
  heuristicMatchesOrBeats: boolean;
  /** exact value − ScheduleCkpt's CTNYS, s (> 0: the heuristic did worse). */
  heuristicShortfallS: number;
}

export interface ScheduleReport extends ScheduleCkptOutcome {
  schema: "ckpt-lab/schedule@1";
  inputs: {
    model: string;
    truthModel: string;
    deadlineS: number;
    k0: number;
    criterion: string;
    estimator: string;
    domain: string;
    enumeration: string;
    sequentialRule: string;
    idleStart: string;
    appCount: number;
  };
  units: { time: "s"; size: "MB"; volume: "GB (MB / 1000)"; bandwidth: "MB/s"; micros: "µs" };
  /** Per wave, when several applications share a node (docs/science.md §4.6). */
  waves?: WavesOutcome["waves"];
  baselines: { sequentialGreedy: StrategyOutcome; allInParallel: StrategyOutcome };
  upperBound: UpperBound;
  gapToUpperBound: { scheduleCkpt: GapToBound; sequentialGreedy: GapToBound; allInParallel: GapToBound; exact?: GapToBound };
  exact: ExactReport | null;
  /** With `--confidence`: the confident plan next to the mean plan (confident-plan.ts); the rest of the report is the confident plan's. */
  confidence?: ConfidentPlanReport;
  warnings: string[];
}

export interface EvaluateOptions {
  /** Run the exact simultaneous-start solver with these limits (off when absent). */
  exact?: ExactLimits;
  /** Node limit of the upper bound's knapsack. */
  boundNodeLimit?: number;
  /** The waves, as indices into the applications (default: by node, `wavesOf`): for applications that span several nodes. */
  waves?: readonly (readonly number[])[];
}

function gap(bound: number, ctnys: number): GapToBound {
  return { seconds: bound - ctnys, share: bound > 0 ? (bound - ctnys) / bound : 0 };
}

function domainWarnings(who: string, counts: BandwidthEvaluationCounts, options: ScheduleOptions, model: ScheduleOptions["model"]): string[] {
  const warnings: string[] = [];
  const d = model.domain;
  if (counts.aboveDomain > 0) {
    const at = counts.firstAboveDomain!;
    warnings.push(
      options.domain === "refuse"
        ? `${who}: ${counts.aboveDomain} of ${counts.evaluations} bandwidth evaluations fell above the fitted domain of "${model.name}" (m ≤ ${d.mMax}, V ≤ ${d.vGbMax} GB; first at m = ${at.m}, V = ${at.vGb.toFixed(3)} GB) and were treated as infeasible (--domain refuse); --domain extrapolate uses the extrapolation instead`
        : `${who}: ${counts.aboveDomain} of ${counts.evaluations} bandwidth evaluations extrapolated above the fitted domain of "${model.name}" (m ≤ ${d.mMax}, V ≤ ${d.vGbMax} GB; first at m = ${at.m}, V = ${at.vGb.toFixed(3)} GB): results there rest on extrapolation`,
    );
  }
  if (counts.nonPositive > 0) {
    const at = counts.firstNonPositive!;
    warnings.push(
      `${who}: the model "${model.name}" predicted no usable bandwidth (≤ 0) in ${counts.nonPositive} evaluations (first: bw(${at.m}, ${at.vGb.toFixed(3)} GB) = ${at.rawMbPerS.toFixed(3)} MB/s); those sets were treated as infeasible`,
    );
  }
  return warnings;
}

/** Run ScheduleCkpt, the baselines, the bound and optionally the exact solver on `apps`. */
export function evaluateSchedule(apps: readonly Application[], options: ScheduleOptions, evaluate: EvaluateOptions = {}): ScheduleReport {
  validateApplications(apps);
  const waves = evaluate.waves ?? wavesOf(apps);
  const heuristic: ScheduleCkptOutcome | WavesOutcome = waves.length > 1 ? scheduleByWaves(apps, options, waves) : scheduleCkpt(apps, options);
  const sequential = sequentialGreedy(apps, options);
  const parallel = allInParallel(apps, options);
  const bound = upperBound(apps, options, evaluate.boundNodeLimit);
  const warnings: string[] = [
    ...domainWarnings("ScheduleCkpt's decisions", heuristic.evaluations, options, options.model),
    ...(options.truthModel !== options.model ? domainWarnings("the execution (truth model)", heuristic.truthEvaluations, options, options.truthModel) : []),
  ];
  if (heuristic.missed.length > 0) {
    warnings.push(
      `${heuristic.missed.length} checkpoint(s) started but did not complete by T = ${options.deadlineS} s (${heuristic.missed.slice(0, 10).join(", ")}${heuristic.missed.length > 10 ? ", …" : ""}): ` +
        (options.truthModel !== options.model ? "the truth model is slower than the plan" : `the ${options.estimator} estimate was optimistic`) +
        "; their p counts in RCTNYS",
    );
  }
  const idleStall = idleStartStallReason(options.model, apps, options.idleStart, heuristic.startedCount);
  if (idleStall !== null) warnings.push(`${idleStall} (sequential greedy saves ${sequential.ctnys} s here)`);
  if (heuristic.stall) warnings.push(`ScheduleCkpt's execution stalled at t = ${heuristic.stall.atS.toFixed(3)} s: ${heuristic.stall.reason}`);
  if (!bound.exact) warnings.push(`the upper bound's knapsack hit its node limit: the bound ${bound.ctnys.toFixed(3)} is valid but not tight`);

  let exact: ExactReport | null = null;
  if (evaluate.exact) {
    const result = exactSimultaneous(apps, options, evaluate.exact);
    const truth = createBandwidthOracle(options.truthModel, options.domain, options.truthBandwidth);
    const device = createFluidDevice(applicationColumns(apps).sizesMb, truth, { recordSteps: options.record });
    for (const index of result.chosen) device.start(index);
    while (device.advance() > 0);
    const outcome = outcomeFromDevice("exact-simultaneous", apps, device, options.deadlineS, truth);
    const shortfall = result.value - heuristic.ctnys;
    exact = { result, outcome, heuristicMatchesOrBeats: shortfall <= 1e-9 * Math.max(1, result.value), heuristicShortfallS: shortfall };
    if (!result.provenOptimal) {
      warnings.push(
        `the exact simultaneous-start search stopped at its ${result.stoppedBy} after ${result.nodes} nodes: ${result.value} is the best found, not proven optimal (the optimum is ≤ ${result.upperBound.toFixed(3)})`,
      );
    }
    if (!exact.heuristicMatchesOrBeats) {
      warnings.push(`ScheduleCkpt saved ${heuristic.ctnys} s, less than the best simultaneous start (${result.value} s): the heuristic is ${shortfall} s short on this instance`);
    }
  }

  return {
    schema: "ckpt-lab/schedule@1",
    inputs: {
      model: options.model.name,
      truthModel: options.truthModel.name,
      deadlineS: options.deadlineS,
      k0: options.k0,
      criterion: options.criterion,
      estimator: options.estimator,
      domain: options.domain,
      enumeration: options.enumeration,
      sequentialRule: options.sequentialRule,
      idleStart: options.idleStart,
      appCount: apps.length,
    },
    units: { time: "s", size: "MB", volume: "GB (MB / 1000)", bandwidth: "MB/s", micros: "µs" },
    ...heuristic,
    baselines: { sequentialGreedy: sequential, allInParallel: parallel },
    upperBound: bound,
    gapToUpperBound: {
      scheduleCkpt: gap(bound.ctnys, heuristic.ctnys),
      sequentialGreedy: gap(bound.ctnys, sequential.ctnys),
      allInParallel: gap(bound.ctnys, parallel.ctnys),
      ...(exact ? { exact: gap(bound.ctnys, exact.outcome.ctnys) } : {}),
    },
    exact,
    warnings,
  };
}
