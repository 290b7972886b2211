/**
 * An upper bound on the CTNYS of every schedule of an instance, so that every run can say
 * how far it is from the best possible.
 *
 * Argument: in the fluid execution the device's aggregated rate is bw(m, V) of the state
 * it is in, so in [0, T] it moves at most C = T · max bw MB (the maximum over the states the
 * instance can reach, `reachable-bandwidth.ts`); and a checkpoint never goes faster than
 * the largest per-process share, so one of size s can complete by T only if
 * s ≤ T · max bw(m, V)/m ("individually able to finish in T"; for the paper model that
 * maximum is the single-process rate at V → 0). Every set of checkpoints completing by T is
 * therefore a feasible solution of the 0/1 knapsack (weights s_i, values p_i, capacity C)
 * over the eligible applications, and the knapsack's optimum bounds CTNYS from above.
 *
 * Decisions: the bound is computed with the *truth* model (it bounds what the execution
 * can complete, whatever the scheduler believed); under the domain policy `refuse` states
 * above the fitted box are infeasible, so they do not count in max bw. The knapsack is
 * exact (branch and bound); if its node limit is hit the bound stays valid but is flagged
 * `exact: false` (see `knapsack.ts`). It ignores per-node constraints (a relaxation).
 */
import { scheduleDomainPolicy, type ScheduleDomainPolicy } from "../bandwidth/outside-domain";
import type { BandwidthModel } from "../fit/model";
import type { Application } from "./application";
import { knapsack01 } from "./knapsack";
import { reachableBandwidth, type ReachableBandwidth } from "./reachable-bandwidth";

export interface UpperBound {
  /** The bound on CTNYS, s. */
  ctnys: number;
  /** The knapsack was solved to optimality (otherwise `ctnys` is its valid open bound). */
  exact: boolean;
  /** C = T · max bw, MB. */
  capacityMb: number;
  reachable: ReachableBandwidth;
  /** Applications individually able to finish by T. */
  eligibleCount: number;
  /** The knapsack's best set (a relaxation's solution, not necessarily a schedule). */
  knapsackIds: string[];
  nodes: number;
}

export function upperBound(
  apps: readonly Application[],
  options: { truthModel: BandwidthModel; deadlineS: number; domain: ScheduleDomainPolicy },
  nodeLimit?: number,
): UpperBound {
  const totalSizeMb = apps.reduce((sum, app) => sum + app.sizeMb, 0);
  const reachable = reachableBandwidth(options.truthModel, options.domain, apps.length, totalSizeMb);
  const capacityMb = options.deadlineS * reachable.bandwidthMaxMbPerS;
  const largestAloneMb = options.deadlineS * reachable.perProcessMaxMbPerS;
  // Under `refuse` a checkpoint larger than the fitted box's V can never start.
  const largestInDomainMb = scheduleDomainPolicy(options.domain) === "refuse" ? options.truthModel.domain.vGbMax * 1000 : Infinity;
  const eligible = apps.map((app) => app.sizeMb <= largestAloneMb && app.sizeMb <= largestInDomainMb);
  const weights = apps.map((app, i) => (eligible[i] ? app.sizeMb : Infinity));
  const result = knapsack01(
    weights,
    apps.map((app) => app.pS),
    capacityMb,
    nodeLimit,
  );
  return {
    ctnys: result.upperBound,
    exact: result.exact,
    capacityMb,
    reachable,
    eligibleCount: eligible.filter(Boolean).length,
    knapsackIds: result.chosen.map((i) => apps[i]!.id),
    nodes: result.nodes,
  };
}
