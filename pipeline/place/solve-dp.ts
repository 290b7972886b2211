/**
 * The DP placer for one job: picks the solver and prepares the costs.
 *
 * Decision: when every checkpoint costs the same, the constant-cost DP solves the job
 * exactly in O(n³) with the costs as given; otherwise costs are quantised (rounded as
 * quantize-costs.ts says) and the variable-cost DP solves the quantised job. The result
 * carries the costs it used, so that every other policy is evaluated on the same job.
 */
import { requirePositive } from "../shared/errors";
import { constantCostDp } from "./constant-cost-dp";
import { validateJob, type Job } from "./job";
import type { FailureLaw } from "./laws/failure-law";
import { validateWasteWeights, type Objective, type ObjectiveReading, type WasteWeights } from "./objective";
import { quantizeCosts, type CostRounding, type QuantizedCosts } from "./quantize-costs";
import { variableCostDp, type DpSolution } from "./variable-cost-dp";

export type DpSolver = "variable-cost" | "constant-cost";

export interface DpOptions extends WasteWeights, ObjectiveReading {
  objective: Objective;
  quantumSeconds: number;
  rounding?: CostRounding;
  maxMemoryBytes?: number;
  /** Called now and then with the share of the DP done (for long solves). */
  onProgress?: (fraction: number) => void;
}

export interface PreparedJob {
  solver: DpSolver;
  /** The quantisation applied (null for the constant-cost DP, which needs none). */
  quantization: QuantizedCosts | null;
  /** The job as solved (costs after quantisation). */
  solvedJob: Job;
}

export type JobDpSolution = DpSolution & PreparedJob;

/** Choose the solver and quantise the costs if it needs it (no solving). */
export function prepareDpJob(job: Job, quantumSeconds: number, rounding: CostRounding = "nearest"): PreparedJob {
  validateJob(job);
  requirePositive("the cost quantum (--quantum, seconds)", quantumSeconds);
  const costs = job.costsSeconds;
  if (costs.every((c) => c === costs[0])) return { solver: "constant-cost", quantization: null, solvedJob: job };
  const quantization = quantizeCosts(costs, quantumSeconds, rounding);
  return {
    solver: "variable-cost",
    quantization,
    solvedJob: { slicesSeconds: job.slicesSeconds, costsSeconds: quantization.costsSeconds },
  };
}

export function solveDp(job: Job, law: FailureLaw, options: DpOptions): JobDpSolution {
  const { alpha, beta } = validateWasteWeights(options);
  const { objective, maxMemoryBytes, onProgress, eq4, timeOffsetSeconds } = options;
  const prepared = prepareDpJob(job, options.quantumSeconds, options.rounding);
  const solution =
    prepared.quantization === null
      ? constantCostDp({ slicesSeconds: job.slicesSeconds, costSeconds: job.costsSeconds[0]!, law, alpha, beta, objective, maxMemoryBytes, onProgress, eq4, timeOffsetSeconds })
      : variableCostDp({
          slicesSeconds: job.slicesSeconds,
          costsQuanta: prepared.quantization.costsQuanta,
          quantumSeconds: prepared.quantization.quantumSeconds,
          law,
          alpha,
          beta,
          objective,
          maxMemoryBytes,
          onProgress,
          eq4,
          timeOffsetSeconds,
        });
  return { ...solution, ...prepared };
}
