/**
 * Place the checkpoints of one job under every requested policy and compare them: the
 * stage's main entry point, a pure function from (job, law, options) to a serialisable
 * `Placement` (the "placements" artifact that reports draw).
 *
 * Policies: `dp` (solve-dp.ts), `young` and `daly` (checkpoint-periods.ts, each mapped to
 * slices both ways, map-period-to-slices.ts), `none` (only the mandatory final
 * checkpoint). Every policy is evaluated on the same job, the one the DP solves (costs
 * quantised when the DP needs it), under both objectives, by the plain evaluator
 * (expected-waste.ts); when costs were rounded, also on the original costs. With
 * `simulate`, every policy is simulated with the same seed (common random numbers, so that
 * differences between policies are not noise): first-failure waste with confidence
 * intervals, and the makespan distribution under restarts.
 *
 * Young's and Daly's inputs: M = the law's mean (∫ t f), C = the job's mean checkpoint
 * cost (docs/science.md §5.4).
 *
 * A law under which the host can hardly run the first slice (survival to its end < 1e-9)
 * gives objectives ≈ 0 that tell the policies apart no more: the placement says so in a
 * warning. Where that survival is 0 in double precision the job can never finish:
 * `neverFinishes` says so, and `ckpt place` refuses the law with it.
 */
import { microsSince } from "../shared/elapsed";
import { dalyPeriod, youngPeriod } from "./checkpoint-periods";
import { expectedWaste } from "./expected-waste";
import type { Checkpoints, Job } from "./job";
import type { FailureLaw } from "./laws/failure-law";
import { formatLawString } from "./laws/law-string";
import { mapPeriodToSlices, PERIOD_MAPPINGS, type PeriodMapping } from "./map-period-to-slices";
import { OBJECTIVES, validateWasteWeights, type Objective, type WasteByObjective } from "./objective";
import { describeRounding } from "./quantize-costs";
import { simulateFirstFailure, type FirstFailureSimulation } from "./simulate-first-failure";
import { simulateRestarts, type MakespanDistribution } from "./simulate-restarts";
import { prepareDpJob, solveDp, type DpOptions, type DpSolver } from "./solve-dp";
import { placementTimeline, type PlacementTimeline } from "./timeline";
import type { DpStats } from "./variable-cost-dp";

export type PolicyName = "dp" | "young" | "daly" | "none";

export const POLICY_NAMES: readonly PolicyName[] = ["dp", "young", "daly", "none"];

export interface PlaceSimulationOptions {
  runs: number;
  seed: number;
  confidence?: number;
  /** Restart model: time to restart on a fresh host, seconds (default 0). */
  restartSeconds?: number;
}

export interface PlaceJobOptions extends DpOptions {
  policies: readonly PolicyName[];
  simulate?: PlaceSimulationOptions;
  /** Called before each policy's simulation (long runs report progress). */
  onSimulate?: (label: string) => void;
}

export interface PolicyResult {
  policy: PolicyName;
  /** "dp", "young (cost)", "daly (work)", "none". */
  label: string;
  /** Young/Daly: how the period was mapped to slices. */
  mapping?: PeriodMapping;
  /** Young/Daly: the period in seconds of work. */
  periodSeconds?: number;
  checkpoints: Checkpoints;
  /** On the solved job (quantised costs when the DP quantised them), seconds. */
  expectedWaste: WasteByObjective;
  /** On the job's original costs, when they were rounded. */
  expectedWasteOriginalCosts?: WasteByObjective;
  /** Time spent computing this policy's schedule alone (µs). */
  solverMicros: number;
  /** DP only. */
  solver?: DpSolver;
  dpStats?: DpStats;
  timeline: PlacementTimeline;
  monteCarlo?: { firstFailure: FirstFailureSimulation; restart: MakespanDistribution };
}

/** One row of "expected waste by policy and objective", flat for tables and plots. */
export interface WasteRow {
  label: string;
  policy: PolicyName;
  mapping: PeriodMapping | null;
  objective: Objective;
  expectedWasteSeconds: number;
  monteCarloMeanSeconds: number | null;
  monteCarloLowSeconds: number | null;
  monteCarloHighSeconds: number | null;
  monteCarloRuns: number | null;
}

export interface Placement {
  schema: "ckpt-lab/placement@1";
  /** The objective the DP minimised. */
  objective: Objective;
  alpha: number;
  beta: number;
  quantumSeconds: number;
  law: { string: string; description: string; meanSeconds: number };
  job: { slices: number; totalWorkSeconds: number; totalCostSeconds: number };
  costs: {
    solver: DpSolver;
    rounding: string | null;
    roundedCount: number;
    maxRoundingSeconds: number;
    /** The costs every policy was evaluated with. */
    costsSeconds: number[];
  };
  /** Young/Daly inputs. */
  mttfSeconds: number;
  meanCostSeconds: number;
  policies: PolicyResult[];
  wasteTable: WasteRow[];
  warnings: string[];
}


/** e^−x is 0 in double precision from about this x on (Math.exp(-745.2) === 0). */
const EXP_UNDERFLOW = 745;

/**
 * Why the job can never finish under `law` — the host cannot survive its first slice, which
 * starts every run: survival 0 in double precision — and how to fix the law; null when it can.
 */
export function neverFinishes(job: Job, law: FailureLaw): string | null {
  const firstSliceSeconds = job.slicesSeconds[0]!;
  if (law.survival(firstSliceSeconds) > 0) return null;
  const range =
    law.spec.kind === "exponential"
      ? `; an exponential law leaves it a chance only for rate < ${Number((EXP_UNDERFLOW / firstSliceSeconds).toPrecision(3))}/s (${EXP_UNDERFLOW} / ${firstSliceSeconds} s), e.g. exp:rate=1e-4 or exp:mean=4,unit=h`
      : "";
  return (
    `the job can never finish under ${law.description}: the host fails before the end of the first slice (${firstSliceSeconds} s) with probability 1 ` +
    `(its survival to ${firstSliceSeconds} s is 0 in double precision; mean time to failure ${Number(law.meanSeconds.toPrecision(3))} s), so every policy's waste would be 0 and say nothing. ` +
    `Check the law's parameters and its unit (unit=s|min|h|d)${range}`
  );
}

export function placeJob(job: Job, law: FailureLaw, options: PlaceJobOptions): Placement {
  const weights = validateWasteWeights(options);
  const prepared = prepareDpJob(job, options.quantumSeconds, options.rounding);
  const solved = prepared.solvedJob;
  const warnings: string[] = [];
  const rounding = prepared.quantization ? describeRounding(prepared.quantization) : null;
  if (rounding) warnings.push(rounding);
  const n = job.slicesSeconds.length;
  const meanCostSeconds = solved.costsSeconds.reduce((s, c) => s + c, 0) / n;
  const mttfSeconds = law.meanSeconds;
  const firstSliceSurvival = law.survival(job.slicesSeconds[0]!);
  if (firstSliceSurvival < 1e-9) {
    warnings.push(
      `the law leaves the host almost no chance to run even the first slice (${job.slicesSeconds[0]} s) before failing ` +
        `(probability ${firstSliceSurvival.toPrecision(2)}; mean time to failure ${mttfSeconds.toPrecision(3)} s): every objective, ` +
        `the waste up to the first failure, is then ≈ 0 and says nothing about the policies. Check the law's parameters and its unit (e.g. unit=h)`,
    );
  }

  const results: PolicyResult[] = [];
  const evaluate = (base: Omit<PolicyResult, "expectedWaste" | "timeline">): PolicyResult => {
    const result: PolicyResult = {
      ...base,
      expectedWaste: expectedWaste(solved, base.checkpoints, law, weights, options),
      timeline: placementTimeline(solved, base.checkpoints),
    };
    if (prepared.quantization && prepared.quantization.roundedCount > 0) {
      result.expectedWasteOriginalCosts = expectedWaste(job, base.checkpoints, law, weights, options);
    }
    return result;
  };

  for (const policy of POLICY_NAMES.filter((p) => options.policies.includes(p))) {
    if (policy === "dp") {
      const start = process.hrtime.bigint();
      const solution = solveDp(job, law, options);
      const solverMicros = microsSince(start);
      results.push(
        evaluate({ policy, label: "dp", checkpoints: solution.checkpoints, solverMicros, solver: solution.solver, dpStats: solution.stats }),
      );
    } else if (policy === "none") {
      results.push(evaluate({ policy, label: "none", checkpoints: [n], solverMicros: 0 }));
    } else {
      for (const mapping of PERIOD_MAPPINGS) {
        const start = process.hrtime.bigint();
        const periodSeconds = (policy === "young" ? youngPeriod : dalyPeriod)(meanCostSeconds, mttfSeconds);
        const checkpoints = mapPeriodToSlices(solved, periodSeconds, mapping);
        const solverMicros = microsSince(start);
        results.push(evaluate({ policy, label: `${policy} (${mapping})`, mapping, periodSeconds, checkpoints, solverMicros }));
      }
    }
  }

  if (options.simulate) {
    const { runs, seed, confidence, restartSeconds } = options.simulate;
    for (const result of results) {
      options.onSimulate?.(result.label);
      result.monteCarlo = {
        firstFailure: simulateFirstFailure(solved, result.checkpoints, law, weights, { runs, seed, confidence }),
        restart: simulateRestarts(solved, result.checkpoints, law, { runs, seed, confidence, beta: weights.beta, restartSeconds }),
      };
      if (result.monteCarlo.restart.unfinishedRuns > 0) {
        warnings.push(
          `${result.label}: ${result.monteCarlo.restart.unfinishedRuns} of ${runs} restart runs failed more than 10000 times and were left out of the makespan statistics`,
        );
      }
    }
  }

  return {
    schema: "ckpt-lab/placement@1",
    objective: options.objective,
    alpha: weights.alpha,
    beta: weights.beta,
    quantumSeconds: options.quantumSeconds,
    law: { string: formatLawString(law.spec), description: law.description, meanSeconds: law.meanSeconds },
    job: {
      slices: n,
      totalWorkSeconds: job.slicesSeconds.reduce((s, p) => s + p, 0),
      totalCostSeconds: solved.costsSeconds.reduce((s, c) => s + c, 0),
    },
    costs: {
      solver: prepared.solver,
      rounding: prepared.quantization ? prepared.quantization.rounding : null,
      roundedCount: prepared.quantization?.roundedCount ?? 0,
      maxRoundingSeconds: prepared.quantization?.maxRoundingSeconds ?? 0,
      costsSeconds: solved.costsSeconds,
    },
    mttfSeconds,
    meanCostSeconds,
    policies: results,
    wasteTable: wasteRows(results),
    warnings,
  };
}

/** Expected waste by policy and objective, with the Monte Carlo interval when simulated. */
export function wasteRows(results: PolicyResult[]): WasteRow[] {
  return results.flatMap((result) =>
    OBJECTIVES.map((objective) => {
      const simulated = result.monteCarlo?.firstFailure[objective];
      return {
        label: result.label,
        policy: result.policy,
        mapping: result.mapping ?? null,
        objective,
        expectedWasteSeconds: result.expectedWaste[objective],
        monteCarloMeanSeconds: simulated?.mean ?? null,
        monteCarloLowSeconds: simulated?.low ?? null,
        monteCarloHighSeconds: simulated?.high ?? null,
        monteCarloRuns: simulated?.runs ?? null,
      };
    }),
  );
}
