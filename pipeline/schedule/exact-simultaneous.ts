/**
 * The exact simultaneous-start optimum (not in the papers; docs/science.md §4.4 asks for an exact
 * reference): the subset of maximum Σ p that meets `estimate(S) ≤ T` when every checkpoint
 * of S starts at time 0, under the chosen estimator and planning model. Such a set is a
 * feasible schedule, so ScheduleCkpt — which may also stagger starts — should match or
 * beat it; runs report when it does not.
 *
 * Method: depth-first branch and bound over the applications in decreasing p/s, include
 * before exclude, seeded with the greedy solution in that order. A subtree is cut when
 * 1. its value bound cannot beat the incumbent: the value so far plus Dantzig's fractional
 *    knapsack bound of the rest within the capacity left, C = T · max bw (any set that
 *    finishes by T moves at most that much, `upper-bound.ts`; under the policy `refuse` also
 *    C ≤ the fitted box's V, since the starting set must lie in it);
 * 2. under the policy `refuse`, the set already lies above the fitted box (m or V too large:
 *    every superset does too);
 * 3. (static estimator) even the fastest per-process share any superset can get,
 *    max_{m' ≥ |S|} bw(m', V)/m', cannot move the largest image by T;
 * 4. (static estimator) the set is infeasible and the model's per-process rate bw/m never
 *    increases with m or V over the reachable region (checked exactly in
 *    `reachable-bandwidth.ts`; true of the paper model): then m · max s / bw(m, V) only
 *    grows as checkpoints are added, so no superset is feasible either.
 * Otherwise feasibility is not assumed monotone (a general fitted model need not be, and
 * the fluid estimate's re-evaluation at completions is not provably monotone even for the
 * paper model), so an infeasible set is not cut. With several applications per node, at
 * most one per node may start (docs/science.md §4.6).
 *
 * Limits: a node limit and a time limit. When either stops the search the result is the
 * best set found, `provenOptimal: false`, and `upperBound` the largest bound of the
 * unexplored subtrees — honest about what was and was not proven.
 * Complexity: O(2^n) nodes in the worst case, each O(m) (static) or O(m) evaluations (fluid).
 */
import { dantzigBound } from "./knapsack";
import { scheduleDomainPolicy, type ScheduleDomainPolicy } from "../bandwidth/outside-domain";
import type { BandwidthModel } from "../fit/model";
import type { Application } from "./application";
import { createBandwidthOracle } from "./bandwidth-oracle";
import { reachableBandwidth } from "./reachable-bandwidth";
import { createSizeSet, insertSize, largestSize, removeSize } from "./size-set";
import { estimatorByName, type EstimatorName } from "./time-estimator";

export interface ExactLimits {
  /** Stop after this many search nodes (default 2 000 000). */
  nodeLimit?: number;
  /** Stop after this many milliseconds (default 2000). */
  timeLimitMs?: number;
}

export interface ExactSimultaneousResult {
  /** Σ p of the best set found, s (planned, under the estimator). */
  value: number;
  /** Input indices of that set, ascending. */
  chosen: number[];
  provenOptimal: boolean;
  stoppedBy: "node-limit" | "time-limit" | null;
  /** ≥ the optimum; equals `value` when proven optimal. */
  upperBound: number;
  nodes: number;
  elapsedMs: number;
  estimator: EstimatorName;
}

export function exactSimultaneous(
  apps: readonly Application[],
  options: { model: BandwidthModel; deadlineS: number; estimator: EstimatorName; domain: ScheduleDomainPolicy },
  limits: ExactLimits = {},
): ExactSimultaneousResult {
  const clockStart = performance.now();
  const nodeLimit = limits.nodeLimit ?? 2_000_000;
  const timeLimitMs = limits.timeLimitMs ?? 2000;
  const deadlineS = options.deadlineS;
  const refusesAbove = scheduleDomainPolicy(options.domain) === "refuse";
  const bandwidth = createBandwidthOracle(options.model, options.domain);
  const estimator = estimatorByName(options.estimator);
  const totalSizeMb = apps.reduce((sum, app) => sum + app.sizeMb, 0);
  const reachable = reachableBandwidth(options.model, options.domain, apps.length, totalSizeMb);
  const { mMax, vGbMax } = options.model.domain;
  const volumeCapMb = refusesAbove ? vGbMax * 1000 : Infinity;
  const capacityMb = Math.min(deadlineS * reachable.bandwidthMaxMbPerS, volumeCapMb);
  const perProcessFrom = reachable.perProcessMaxFromM;
  const cutInfeasible = options.estimator === "static" && reachable.perProcessRateNonIncreasing;
  const perProcessAt = (m: number) => (m < perProcessFrom.length ? perProcessFrom[m]! : 0);

  // Items: individually able to finish, by decreasing density.
  const items: number[] = [];
  apps.forEach((app, i) => {
    if (app.sizeMb <= capacityMb && app.sizeMb <= deadlineS * reachable.perProcessMaxMbPerS) items.push(i);
  });
  items.sort((a, b) => apps[b]!.pS / apps[b]!.sizeMb - apps[a]!.pS / apps[a]!.sizeMb || a - b);
  const n = items.length;
  const size = Float64Array.from(items, (i) => apps[i]!.sizeMb);
  const value = Float64Array.from(items, (i) => apps[i]!.pS);
  const nodeNames = new Map<string, number>();
  const nodeOf = Int32Array.from(items, (i) => {
    const node = apps[i]!.node;
    if (node === undefined) return -1;
    if (!nodeNames.has(node)) nodeNames.set(node, nodeNames.size);
    return nodeNames.get(node)!;
  });
  const nodeBusy = new Uint8Array(nodeNames.size);
  const dantzig = dantzigBound(size, value);
  const fractional = (k: number, room: number): number => (room <= 0 ? 0 : dantzig(k, room));

  const set = createSizeSet(n);
  const feasible = (): boolean => set.count === 0 || estimator.finishTimeS(set, 0, deadlineS, bandwidth) <= deadlineS;
  const stack = new Int32Array(n);
  let depth = 0;
  let best = 0;
  let bestSet: number[] = [];

  // Incumbent: greedy in density order.
  for (let k = 0; k < n; k++) {
    const node = nodeOf[k]!;
    if (node >= 0 && nodeBusy[node]) continue;
    if (estimator.finishTimeS(set, size[k]!, deadlineS, bandwidth) <= deadlineS) {
      insertSize(set, size[k]!);
      stack[depth++] = k;
      best += value[k]!;
      if (node >= 0) nodeBusy[node] = 1;
    }
  }
  bestSet = Array.from(stack.subarray(0, depth));
  for (let d = 0; d < depth; d++) removeSize(set, size[stack[d]!]!);
  nodeBusy.fill(0);
  depth = 0;

  let nodes = 0;
  let stoppedBy: ExactSimultaneousResult["stoppedBy"] = null;
  let openBound = 0;
  // The exclude branch is the last step of a node: a loop over k, not a call, so the call
  // depth is the number of applications included (10 000 applications overflowed the stack).
  const search = (k: number, current: number): void => {
    for (; ; k++) {
      nodes++;
      if (k === n) return;
      const bound = current + fractional(k, capacityMb - set.sumMb);
      if (stoppedBy !== null) {
        if (bound > openBound) openBound = bound;
        return;
      }
      if (bound <= best) return;
      if (nodes > nodeLimit) stoppedBy = "node-limit";
      else if ((nodes & 1023) === 0 && performance.now() - clockStart > timeLimitMs) stoppedBy = "time-limit";
      if (stoppedBy !== null) {
        if (bound > openBound) openBound = bound;
        return;
      }
      const node = nodeOf[k]!;
      const sizeMb = size[k]!;
      const m = set.count + 1;
      const volumeMb = set.sumMb + sizeMb;
      const largest = Math.max(largestSize(set), sizeMb);
      const canInclude =
        (node < 0 || nodeBusy[node] === 0) &&
        volumeMb <= capacityMb &&
        !(refusesAbove && m > mMax) &&
        (options.estimator !== "static" || largest <= deadlineS * perProcessAt(m));
      if (canInclude) {
        insertSize(set, sizeMb);
        if (node >= 0) nodeBusy[node] = 1;
        stack[depth++] = k;
        const withValue = current + value[k]!;
        if (cutInfeasible) {
          if (feasible()) {
            if (withValue > best) {
              best = withValue;
              bestSet = Array.from(stack.subarray(0, depth));
            }
            search(k + 1, withValue);
          }
        } else {
          if (withValue > best && feasible()) {
            best = withValue;
            bestSet = Array.from(stack.subarray(0, depth));
          }
          search(k + 1, withValue);
        }
        depth--;
        if (node >= 0) nodeBusy[node] = 0;
        removeSize(set, sizeMb);
      }
    }
  };
  search(0, 0);

  return {
    value: best,
    chosen: bestSet.map((k) => items[k]!).sort((a, b) => a - b),
    provenOptimal: stoppedBy === null,
    stoppedBy,
    upperBound: stoppedBy === null ? best : Math.max(best, openBound),
    nodes,
    elapsedMs: performance.now() - clockStart,
    estimator: options.estimator,
  };
}
