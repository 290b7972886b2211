/**
 * How long a set of simultaneous checkpoints takes (docs/science.md §4.2): the pluggable time
 * estimators ScheduleCkpt's constraint `estimate ≤ T − t` uses.
 *
 * Both assume equal sharing: m simultaneous checkpoints each get bw(m, V)/m.
 * - `static` ([Y11] eq. 2, [Y-thesis] eq. 5.3 and Annex A): the set finishes at
 *   `max_i s_i / (bw(m, Σ s_i)/m)`. The paper's formula and the default.
 * - `fluid` (the progression ScheduleCkpt itself applies, [Y-thesis] Algorithm 1 lines
 *   10–17): all run at the common rate bw(m, V)/m, V the sum of the *remaining* sizes;
 *   when the smallest finishes, m and V are re-evaluated. The rate is held constant
 *   between completions (the papers' event-driven reading; docs/science.md §4.2), which is exactly
 *   what the execution (`fluid-device.ts`) simulates, so with the same model as truth a
 *   fluid-feasible set never misses its deadline.
 *
 * The signature is allocation-free: the estimators read a `SizeSet` (ascending sizes) and
 * one optional extra checkpoint (`extraMb > 0`), the "Select ∪ {i}" of ks_bw, without
 * building the union.
 */
import type { BandwidthOracle } from "./bandwidth-oracle";
import type { SizeSet } from "./size-set";
import { fluidEstimator } from "./fluid-estimator";
import { staticEstimator } from "./static-estimator";

export type EstimatorName = "static" | "fluid";
export const ESTIMATOR_NAMES: readonly EstimatorName[] = ["static", "fluid"];

export interface TimeEstimator {
  readonly name: EstimatorName;
  /**
   * Seconds from now until the last checkpoint of `set` (plus one of `extraMb`, when > 0)
   * finishes; `Infinity` when the model has no usable bandwidth for it. Once the running
   * total passes `budgetS` it may stop and return any value > `budgetS`.
   */
  finishTimeS(set: SizeSet, extraMb: number, budgetS: number, bandwidth: BandwidthOracle): number;
}

export function estimatorByName(name: EstimatorName): TimeEstimator {
  return name === "static" ? staticEstimator : fluidEstimator;
}
