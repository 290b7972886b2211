/**
 * The memory a DP will need, estimated before anything is allocated, and the refusal
 * when it exceeds the budget (issue: "a state space that would exceed memory (estimate it
 * first and refuse with the figure)").
 *
 * Both DPs keep, per state, the best waste W (Float64), the backtracking pointer (Int32),
 * the law's F and ∫_0 t f at the state's time (Float64 ×2), two Float64 terms hoisted out
 * of the inner loop, and a reachability byte: 45 bytes. Variable-cost states are (j, σ)
 * for j = 0..n and σ = 0..Σc_j quanta; constant-cost states are (j, k), k = 0..n.
 */
import { InputError } from "../shared/errors";

export const DP_BYTES_PER_STATE = 8 + 4 + 8 + 8 + 8 + 8 + 1;

/** Default budget: 1 GiB, far below what Node can address, far above the [BKT] workloads. */
export const DEFAULT_DP_MEMORY_BYTES = 1024 * 1024 * 1024;

export interface DpMemoryEstimate {
  states: number;
  bytes: number;
}

export function estimateVariableCostDpMemory(sliceCount: number, totalCostQuanta: number): DpMemoryEstimate {
  const states = (sliceCount + 1) * (totalCostQuanta + 1);
  return { states, bytes: states * DP_BYTES_PER_STATE };
}

export function estimateConstantCostDpMemory(sliceCount: number): DpMemoryEstimate {
  const states = (sliceCount + 1) * (sliceCount + 1);
  return { states, bytes: states * DP_BYTES_PER_STATE };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 3 : 0)} MiB`;

/** Throw an InputError naming the figure when `estimate` exceeds `budgetBytes`. */
export function requireDpMemory(estimate: DpMemoryEstimate, budgetBytes: number, what: string, fix: string): void {
  const arrayLimit = 2 ** 31 - 1; // typed arrays are indexed by 32-bit integers here
  if (estimate.bytes > budgetBytes || estimate.states > arrayLimit) {
    throw new InputError(
      `${what}: the DP would need ${estimate.states.toLocaleString("en-US")} states × ${DP_BYTES_PER_STATE} bytes = ${mib(estimate.bytes)}, ` +
        `over the ${mib(budgetBytes)} budget; ${fix}`,
    );
  }
}
