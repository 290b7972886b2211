/**
 * Optimal checkpoint placement when every checkpoint costs the same c seconds
 * ([BTW10] §3, the constant-cost case; docs/science.md §5.2). The overhead after k checkpoints is
 * k·c, so the state is (l, k) and no quantisation is needed:
 *
 *     W*_0^0 = 0,   W*_l^k = min_{k−1 ≤ r < l} ( W*_r^{k−1} + Δ(r, l) ),   σ_r = (k−1)c,
 *     answer min_k W*_n^k   (complete objective: + k·c·(1 − F(τ_n + kc))).
 *
 * The same table and hoisting scheme as the variable-cost DP (variable-cost-dp.ts), with
 * overhead k·c in place of σ·q: one F and one ∫_0 t f per state (j, k), k ≤ j, and an inner
 * loop of three loads. Complexity: (n+1)² states, n(n+1)/2 law-table entries,
 * Σ_l Σ_{k≤l} (l − k + 1) ≈ n³/6 transitions, O(n³). Ties keep the earliest r.
 */
import { microsSince } from "../shared/elapsed";
import { DEFAULT_DP_MEMORY_BYTES, estimateConstantCostDpMemory, requireDpMemory } from "./dp-memory";
import { dpSolution, type DpInput, type DpSolution } from "./variable-cost-dp";

export interface ConstantCostDpInput extends DpInput {
  costSeconds: number;
}


export function constantCostDp(input: ConstantCostDpInput): DpSolution {
  const { slicesSeconds, costSeconds: c, law, alpha, beta, objective } = input;
  // [BKT]'s objective and eq. (4), and a time offset, as in variable-cost-dp.ts.
  const bkt = objective === "bkt";
  const eq4AsPrinted = bkt && input.eq4 === "as-printed";
  const n = slicesSeconds.length;
  const width = n + 1;
  const estimate = estimateConstantCostDpMemory(n);
  requireDpMemory(estimate, input.maxMemoryBytes ?? DEFAULT_DP_MEMORY_BYTES, `${n} slices`, "split the job or raise --max-memory-mb");
  const size = estimate.states;
  const tau = new Float64Array(width);
  tau[0] = input.timeOffsetSeconds ?? 0;
  for (let j = 1; j <= n; j++) tau[j] = tau[j - 1]! + slicesSeconds[j - 1]!;

  // State (j, k) at index k(n+1) + j, time τ_j + k c; reachable iff k = j = 0 or 1 ≤ k ≤ j.
  const tableStart = process.hrtime.bigint();
  const cdf = new Float64Array(size);
  const moment = new Float64Array(size);
  let lawEvaluations = 0;
  if (tau[0] !== 0) {
    cdf[0] = law.cdf(tau[0]!);
    moment[0] = law.partialExpectation(tau[0]!);
    lawEvaluations += 2;
  }
  for (let k = 1; k <= n; k++) {
    for (let j = k; j <= n; j++) {
      const t = tau[j]! + k * c;
      cdf[k * width + j] = law.cdf(t);
      moment[k * width + j] = law.partialExpectation(t);
      lawEvaluations += 2;
    }
  }
  const tableMicros = microsSince(tableStart);

  const searchStart = process.hrtime.bigint();
  const waste = new Float64Array(size).fill(Infinity);
  const parent = new Int32Array(size);
  const hoisted = new Float64Array(size).fill(Infinity);
  const slope = new Float64Array(size);
  waste[0] = 0;
  slope[0] = -alpha * tau[0]!;
  hoisted[0] = -slope[0]! * cdf[0]! - (alpha - beta) * moment[0]!;
  const alphaMinusBeta = alpha - beta;
  let transitions = 0;
  let nextReport = 0.1;
  for (let l = 1; l <= n; l++) {
    const done = (l / n) ** 3; // rows cost ∝ l²
    if (input.onProgress !== undefined && done >= nextReport) {
      input.onProgress(done);
      nextReport += 0.1;
    }
    for (let k = 1; k <= l; k++) {
      const index = k * width + l;
      const base = (k - 1) * width;
      const cdfL = cdf[index]!;
      const betaRho = beta * (tau[l]! + k * c) + (bkt ? c : 0);
      let best = Infinity;
      let bestR = -1;
      let rFirst = k - 1;
      if (eq4AsPrinted && rFirst === 0) {
        best = hoisted[0]! + cdfL * slope[0]! - betaRho * cdf[0]! - alpha * (tau[l]! + k * c - tau[0]!) * (cdfL - cdf[0]!);
        bestR = 0;
        rFirst = 1;
      }
      for (let r = rFirst; r < l; r++) {
        const value = hoisted[base + r]! + cdfL * slope[base + r]! - betaRho * cdf[base + r]!;
        if (value < best) {
          best = value;
          bestR = r;
        }
      }
      transitions += l - k + 1;
      waste[index] = best + betaRho * cdfL + alphaMinusBeta * moment[index]!;
      parent[index] = bestR;
    }
    for (let k = 1; k <= l; k++) {
      const index = k * width + l;
      const h = k * c * (1 - alpha) - alpha * tau[l]!;
      slope[index] = h;
      hoisted[index] = waste[index]! - h * cdf[index]! - alphaMinusBeta * moment[index]!;
    }
  }

  let bestK = -1;
  let bestWaste = Infinity;
  for (let k = 1; k <= n; k++) {
    const value = waste[k * width + n]! + (objective === "complete" ? k * c * law.survival(tau[n]! + k * c) : 0);
    if (value < bestWaste) {
      bestWaste = value;
      bestK = k;
    }
  }
  const checkpoints: number[] = [];
  for (let l = n, k = bestK; l > 0; k--) {
    checkpoints.push(l);
    l = parent[k * width + l]!;
  }
  return dpSolution(checkpoints, bestWaste, objective, { states: size, reachableStates: 1 + (n * (n + 1)) / 2, transitions, lawEvaluations, memoryBytes: estimate.bytes, tableMicros }, searchStart);
}
