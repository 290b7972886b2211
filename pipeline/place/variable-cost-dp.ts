/**
 * Optimal checkpoint placement with variable checkpoint costs ([BTW10] Prop. 1, eq. 3;
 * [BKT] §III states it as a shortest path over states (j, σ); docs/science.md §5.2).
 *
 * Costs are whole quanta (quantize-costs.ts). W*_l^θ is the least expected waste of the
 * first l slices with the last checkpoint right after slice l and total overhead exactly θ
 * quanta:
 *
 *     W*_0^0 = 0,   W*_l^θ = min_{r<l} ( W*_r^{θ−c_l} + Δ(r, l) ),   σ_r = θ − c_l,
 *     answer min_θ W*_n^θ            (paper objective)
 *            min_θ W*_n^θ + θ·q·(1 − F(τ_n + θq))   (complete objective, docs/science.md §5.3: the
 *            added term depends on the final state only, so the same DP is exact for it).
 *
 * Δ(r, l) = ∫_{ρ_r}^{ρ_l} [σ_r + α(t − ρ_r) + β(ρ_l − t)] f(t) dt with ρ_r = τ_r + σ_r q,
 * ρ_l = τ_l + θq needs F and M(x) = ∫_0^x t f(t) dt at the two boundaries. Both boundaries
 * are state times: ρ(j, s) = τ_j + s·q. So the law is evaluated once per reachable state
 * (a table), never in the transition loop. Expanding Δ, a transition (r, σ) → (l, θ) is
 *
 *     W_r + Δ = G[r,σ] + F_l·H[r,σ] − βρ_l·F[r,σ] + (βρ_l F_l + (α−β) M_l),
 *     H[r,σ] = σq(1−α) − ατ_r,   G[r,σ] = W_r − H[r,σ] F[r,σ] − (α−β) M[r,σ],
 *
 * where the last bracket is constant over r, and G, H are fixed once row r is final: the
 * inner loop over r is three loads and two multiply-adds (two loads when β = 0) over
 * contiguous typed arrays (states are stored σ-major, index σ(n+1) + j).
 *
 * [BKT]'s objective (objective.ts) charges σ_r + c_l instead of σ_r: with K = θq,
 * (K − αρ_r)(F_l − F_r) + α(M_l − M_r) adds c_l q (F_l − F[r,σ]) — the same shape as the β
 * term, so `betaRho` simply grows by c_l q. Its eq. (4) as printed changes only the edge out
 * of the start (r = 0), by −α(ρ_l − ρ_0)(F_l − F_0), handled apart. A time offset d (the law's
 * clock started d before the first slice) shifts every state time: τ_j ← τ_j + d.
 *
 * States that no schedule reaches (σ not a sum of costs ending with c_j) are skipped by a
 * reachability pass first, so the law is evaluated only where needed.
 *
 * Complexity, with C = Σ c_j quanta: (n+1)(C+1) states (memory: dp-memory.ts, refused
 * beyond the budget before allocating), at most one F and one M evaluation per reachable
 * state, and Σ_l Σ_θ #{r < l : S_r ≥ θ − c_l} ≤ n²C/2 transitions, O(n² C) = O(n³ c_max)
 * time. Ties keep the earliest r.
 */
import { microsSince } from "../shared/elapsed";
import { InputError } from "../shared/errors";
import type { Checkpoints } from "./job";
import type { FailureLaw } from "./laws/failure-law";
import { tabulateLaw } from "./laws/tabulate-law";
import { DEFAULT_DP_MEMORY_BYTES, estimateVariableCostDpMemory, requireDpMemory } from "./dp-memory";
import type { Objective, ObjectiveReading, WasteWeights } from "./objective";

export interface DpStats {
  /** Size of the state table. */
  states: number;
  /** States some schedule reaches (the law is evaluated at these). */
  reachableStates: number;
  /** Transitions examined by the inner loop. */
  transitions: number;
  /** Calls of the law's F and of its partial expectation. */
  lawEvaluations: number;
  memoryBytes: number;
  /** Time filling the law tables, and time in the DP proper (µs). */
  tableMicros: number;
  searchMicros: number;
}

export interface DpSolution {
  /** 1-based slices after which to checkpoint, ending with n. */
  checkpoints: Checkpoints;
  /** The optimum of the objective solved for, seconds. */
  expectedWaste: number;
  objective: Objective;
  stats: DpStats;
}

/** What both DPs take besides the checkpoint costs. */
export interface DpInput extends WasteWeights, ObjectiveReading {
  slicesSeconds: ArrayLike<number>;
  law: FailureLaw;
  objective: Objective;
  maxMemoryBytes?: number;
  /** Called now and then with the share of the work done (for long solves). */
  onProgress?: (fraction: number) => void;
}

export interface VariableCostDpInput extends DpInput {
  /** c_j in whole quanta. */
  costsQuanta: ArrayLike<number>;
  quantumSeconds: number;
}


export function variableCostDp(input: VariableCostDpInput): DpSolution {
  const { slicesSeconds, costsQuanta, quantumSeconds: q, law, alpha, beta, objective } = input;
  const bkt = objective === "bkt";
  const eq4AsPrinted = bkt && input.eq4 === "as-printed";
  const n = slicesSeconds.length;
  const width = n + 1;
  const tau = new Float64Array(width);
  tau[0] = input.timeOffsetSeconds ?? 0;
  const cumulativeCost = new Float64Array(width); // S_j = Σ_{i≤j} c_i, quanta
  for (let j = 1; j <= n; j++) {
    const c = costsQuanta[j - 1]!;
    if (!Number.isInteger(c) || c < 0) throw new InputError(`slice ${j}: the DP needs costs in whole quanta ≥ 0, got ${c} (quantize-costs.ts rounds them)`);
    tau[j] = tau[j - 1]! + slicesSeconds[j - 1]!;
    cumulativeCost[j] = cumulativeCost[j - 1]! + c;
  }
  const totalQuanta = cumulativeCost[n]!;
  const estimate = estimateVariableCostDpMemory(n, totalQuanta);
  requireDpMemory(
    estimate,
    input.maxMemoryBytes ?? DEFAULT_DP_MEMORY_BYTES,
    `${n} slices with total checkpoint cost ${totalQuanta} quanta of ${q} s`,
    "use a larger --quantum (fewer quanta per cost), split the job, or raise --max-memory-mb",
  );
  const size = estimate.states;

  // Reachability: (l, θ) is reachable iff θ − c_l is reachable at some r < l.
  const tableStart = process.hrtime.bigint();
  const reach = new Uint8Array(size);
  const reachedBefore = new Uint8Array(totalQuanta + 1); // union over rows r < l
  reach[0] = 1;
  reachedBefore[0] = 1;
  let reachableStates = 1;
  for (let l = 1; l <= n; l++) {
    const c = costsQuanta[l - 1]!;
    const previousMax = cumulativeCost[l - 1]!;
    for (let sigma = 0; sigma <= previousMax; sigma++) {
      if (reachedBefore[sigma] === 1) {
        reach[(sigma + c) * width + l] = 1;
        reachableStates++;
      }
    }
    for (let theta = c; theta <= cumulativeCost[l]!; theta++) if (reach[theta * width + l] === 1) reachedBefore[theta] = 1;
  }

  // Law tables at every reachable state's time ρ(j, s) = τ_j + s q: gathered, evaluated in one
  // call of the law (tabulate-law.ts), scattered to the states.
  const stateOf = new Int32Array(reachableStates);
  const times = new Float64Array(reachableStates);
  for (let j = 0, k = 0; j <= n; j++) {
    for (let s = 0; s <= cumulativeCost[j]!; s++) {
      const index = s * width + j;
      if (reach[index] !== 1) continue;
      stateOf[k] = index;
      times[k++] = tau[j]! + s * q;
    }
  }
  const cdfAt = new Float64Array(reachableStates);
  const momentAt = new Float64Array(reachableStates);
  tabulateLaw(law, times, cdfAt, momentAt);
  const cdf = new Float64Array(size);
  const moment = new Float64Array(size);
  for (let k = 0; k < reachableStates; k++) {
    cdf[stateOf[k]!] = cdfAt[k]!;
    moment[stateOf[k]!] = momentAt[k]!;
  }
  const lawEvaluations = 2 * reachableStates;
  const tableMicros = microsSince(tableStart);

  const searchStart = process.hrtime.bigint();
  const waste = new Float64Array(size).fill(Infinity);
  const parent = new Int32Array(size);
  const hoisted = new Float64Array(size).fill(Infinity); // G
  const slope = new Float64Array(size); // H
  waste[0] = 0;
  // The start state (0, 0) at time τ_0 (0 unless offset): H = −ατ_0, G = 0 − H·F_0 − (α − β)·M_0.
  slope[0] = -alpha * tau[0]!;
  hoisted[0] = -slope[0]! * cdf[0]! - (alpha - beta) * moment[0]!;
  // firstRow[σ]: the smallest r whose rows hold overhead σ (S_r ≥ σ).
  const firstRow = new Int32Array(totalQuanta + 1);
  for (let sigma = 0, r = 0; sigma <= totalQuanta; sigma++) {
    while (cumulativeCost[r]! < sigma) r++;
    firstRow[sigma] = r;
  }
  const alphaMinusBeta = alpha - beta;
  const oneMinusAlphaQ = (1 - alpha) * q;
  let transitions = 0;
  // Progress in units of the transition bound l·S_{l−1} per row.
  const { onProgress } = input;
  let workBound = 0;
  for (let l = 1; l <= n; l++) workBound += l * (cumulativeCost[l - 1]! + 1);
  let workDone = 0;
  let nextReport = 0.1;
  for (let l = 1; l <= n; l++) {
    if (onProgress !== undefined) {
      workDone += l * (cumulativeCost[l - 1]! + 1);
      if (workDone / workBound >= nextReport) {
        onProgress(workDone / workBound);
        nextReport += 0.1;
      }
    }
    const c = costsQuanta[l - 1]!;
    const tauL = tau[l]!;
    const maxTheta = cumulativeCost[l]!;
    for (let theta = c; theta <= maxTheta; theta++) {
      const index = theta * width + l;
      if (reach[index] !== 1) continue;
      const base = (theta - c) * width;
      const cdfL = cdf[index]!;
      const betaRho = beta * (tauL + theta * q) + (bkt ? c * q : 0);
      let rFirst = firstRow[theta - c]!;
      let best = Infinity;
      let bestR = -1;
      if (eq4AsPrinted && rFirst === 0) {
        // The start's edge as [BKT] prints eq. (4) (objective.ts): lost work from ρ_l, not ρ_0.
        best = hoisted[0]! + cdfL * slope[0]! - betaRho * cdf[0]! - alpha * (tauL + theta * q - tau[0]!) * (cdfL - cdf[0]!);
        bestR = 0;
        rFirst = 1;
        transitions++;
      }
      // The inner loop runs over the state index k = base + r of row θ − c directly.
      let bestState = -1;
      if (betaRho === 0) {
        for (let k = base + rFirst, end = base + l; k < end; k++) {
          const value = hoisted[k]! + cdfL * slope[k]!;
          if (value < best) {
            best = value;
            bestState = k;
          }
        }
      } else {
        for (let k = base + rFirst, end = base + l; k < end; k++) {
          const value = hoisted[k]! + cdfL * slope[k]! - betaRho * cdf[k]!;
          if (value < best) {
            best = value;
            bestState = k;
          }
        }
      }
      if (bestState >= 0) bestR = bestState - base;
      transitions += l - rFirst;
      waste[index] = best + betaRho * cdfL + alphaMinusBeta * moment[index]!;
      parent[index] = bestR;
    }
    const slopeBase = -alpha * tauL;
    for (let theta = c; theta <= maxTheta; theta++) {
      const index = theta * width + l;
      if (reach[index] !== 1) continue;
      const h = theta * oneMinusAlphaQ + slopeBase;
      slope[index] = h;
      hoisted[index] = waste[index]! - h * cdf[index]! - alphaMinusBeta * moment[index]!;
    }
  }

  let bestTheta = -1;
  let bestWaste = Infinity;
  for (let theta = costsQuanta[n - 1]!; theta <= totalQuanta; theta++) {
    const index = theta * width + n;
    if (reach[index] !== 1) continue;
    const value = waste[index]! + (objective === "complete" ? theta * q * law.survival(tau[n]! + theta * q) : 0);
    if (value < bestWaste) {
      bestWaste = value;
      bestTheta = theta;
    }
  }
  const checkpoints: number[] = [];
  for (let l = n, theta = bestTheta; l > 0; ) {
    checkpoints.push(l);
    const r = parent[theta * width + l]!;
    theta -= costsQuanta[l - 1]!;
    l = r;
  }
  return dpSolution(checkpoints, bestWaste, objective, { states: size, reachableStates, transitions, lawEvaluations, memoryBytes: estimate.bytes, tableMicros }, searchStart);
}

/**
 * Both DPs' answer: the checkpoints the backtracking found (last slice first, put in slice
 * order here), the optimum and the counters, the search's time taken now.
 */
export function dpSolution(backtracked: number[], expectedWaste: number, objective: Objective, stats: Omit<DpStats, "searchMicros">, searchStart: bigint): DpSolution {
  backtracked.reverse();
  return { checkpoints: backtracked, expectedWaste, objective, stats: { ...stats, searchMicros: microsSince(searchStart) } };
}
