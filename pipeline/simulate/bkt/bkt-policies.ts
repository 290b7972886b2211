/**
 * Where a copy of a job checkpoints, under each policy of [BKT] §IV-A-2 (docs/science.md
 * §6.1.5), from the copy's own slice durations p_j = w_j / speed and checkpoint costs
 * c_j = o_j / link + latency on its host, for the slices it has left (k+1..n):
 *
 * - `none`: only the final result (slice n);
 * - `periodic`: Daly's higher-order period for the copy's mean cost C and the failure law's
 *   MTTF, mapped to slice boundaries on work (`dalyMapping = "work"`, the default) or on
 *   costs ("costs", as printed); `young`: the same with Young's period;
 * - `every-slice`: after every slice;
 * - `pckp`: the DP with [BKT]'s objective (costs in quanta rounded up, never 0; the time
 *   origin shifted by a planned download, docs/science.md §6.1.5); `pckp-paper` and
 *   `pckp-complete`: the DP with the other objectives.
 *
 * Every policy plans with the copy's failure law (bkt-policy-law.ts): the run's availability
 * law by default, or one that depends on the host's ages when the copy starts.
 *
 * DP plans are cached per run by everything the DP sees — the job and its starting slice, the
 * slice durations (the host's speed), the cost vector in quanta and the download shift — when
 * the failure law is the run's: copies whose costs round to the same quanta (hosts of nearby
 * links, e.g. every host when checkpoints cost under one quantum) share one solve. In the
 * paper preset speeds are drawn from a continuous law, so two hosts never share slice
 * durations and the cache almost never hits there; the hit count is kept (`BktPlanner.stats`).
 * A law that depends on the copy is never cached (two copies never share their hosts' ages).
 */
import { dalyPeriod, youngPeriod } from "../../place/checkpoint-periods";
import type { FailureLaw } from "../../place/laws/failure-law";
import { mapPeriodToSlices } from "../../place/map-period-to-slices";
import type { Objective } from "../../place/objective";
import { variableCostDp } from "../../place/variable-cost-dp";
import type { BktPolicy, BktScenario } from "./bkt-scenario";

export interface CopyInputs {
  /** What identifies the copy's slice durations: its job, start slice and host speed. */
  key: string;
  slicesSeconds: Float64Array;
  costsSeconds: Float64Array;
  /** Planned download before the first slice (0 when none). */
  downloadSeconds: number;
  /** The copy's own failure law (bkt-policy-law.ts); absent: the run's, and the plan may be cached. */
  law?: FailureLaw;
}

export interface BktPlanner {
  /** Checkpoint flags for the copy's slices (index i: after its (i+1)-th remaining slice); the last is always set. */
  plan(policy: BktPolicy, copy: CopyInputs): Uint8Array;
  readonly stats: { dpCalls: number; dpCacheHits: number };
}

const DP_OBJECTIVE: Partial<Record<BktPolicy, Objective>> = { pckp: "bkt", "pckp-paper": "paper", "pckp-complete": "complete" };

export function createPlanner(scenario: BktScenario, law: FailureLaw): BktPlanner {
  const cache = new Map<string, Uint8Array>();
  const stats = { dpCalls: 0, dpCacheHits: 0 };
  const flags = (m: number, checkpoints: number[]) => {
    const out = new Uint8Array(m);
    for (const k of checkpoints) out[k - 1] = 1;
    out[m - 1] = 1;
    return out;
  };
  return {
    stats,
    plan(policy, copy) {
      const m = copy.slicesSeconds.length;
      if (policy === "none") return flags(m, []);
      if (policy === "every-slice") return new Uint8Array(m).fill(1);
      const copyLaw = copy.law ?? law;
      if (policy === "periodic" || policy === "young") {
        const meanCost = copy.costsSeconds.reduce((s, c) => s + c, 0) / m;
        const period = (policy === "young" ? youngPeriod : dalyPeriod)(meanCost, copyLaw.meanSeconds);
        const job = { slicesSeconds: [...copy.slicesSeconds], costsSeconds: [...copy.costsSeconds] };
        return flags(m, mapPeriodToSlices(job, period, scenario.dalyMapping === "costs" ? "cost" : "work"));
      }
      const objective = DP_OBJECTIVE[policy]!;
      const costsQuanta = Int32Array.from(copy.costsSeconds, (c) => Math.max(1, Math.ceil(c / scenario.quantumS - 1e-12)));
      const key = copy.law === undefined || copy.law === law ? `${policy}|${copy.key}|${costsQuanta.join(",")}|${copy.downloadSeconds}` : null;
      const cached = key === null ? undefined : cache.get(key);
      if (cached !== undefined) {
        stats.dpCacheHits++;
        return cached;
      }
      stats.dpCalls++;
      const solution = variableCostDp({
        slicesSeconds: copy.slicesSeconds,
        costsQuanta,
        quantumSeconds: scenario.quantumS,
        law: copyLaw,
        alpha: scenario.alpha,
        beta: 0,
        objective,
        eq4: scenario.eq4,
        timeOffsetSeconds: copy.downloadSeconds,
      });
      const plan = flags(m, solution.checkpoints);
      if (key !== null) cache.set(key, plan);
      return plan;
    },
  };
}
