/**
 * Monte Carlo check of the papers' expected waste ([BTW10] §2, [BKT] §III): the
 * first-failure model. Each run draws one failure time T from the law (seeded); if T falls
 * in (ρ_i, ρ_{i+1}] the run wastes σ_i + α(T − ρ_i) + β(ρ_{i+1} − T); if T > ρ_k the job
 * finished and wastes 0 under the paper objective, σ_k under the complete one (docs/science.md §5.3);
 * under [BKT]'s (objective.ts) a failure wastes σ_{i+1} + α(T − ρ_i) + β(ρ_{i+1} − T) and a
 * finished run 0.
 * The means estimate W(π) and W(π) + σ_k(1 − F(ρ_k)) without any of the closed forms, so
 * they check the analytic values. O(N log k).
 */
import { createRandom } from "../shared/random";
import { simulationBoundaries } from "./simulation-inputs";
import type { Checkpoints, Job } from "./job";
import type { FailureLaw } from "./laws/failure-law";
import { meanAccumulator, type MeanEstimate } from "../stats/mean-estimate";
import type { WasteWeights } from "./objective";

export interface SimulationOptions {
  runs: number;
  seed: number;
  /** Of the intervals, default 0.95. */
  confidence?: number;
}

export interface FirstFailureSimulation {
  model: "first-failure";
  runs: number;
  seed: number;
  /** Fraction of runs in which a failure struck before ρ_k. */
  failureFraction: number;
  paper: MeanEstimate;
  complete: MeanEstimate;
  bkt: MeanEstimate;
}

export function simulateFirstFailure(
  job: Job,
  checkpoints: Checkpoints,
  law: FailureLaw,
  { alpha, beta }: WasteWeights,
  { runs, seed, confidence = 0.95 }: SimulationOptions,
): FirstFailureSimulation {
  const { overheadSeconds: sigma, completionSeconds: rho } = simulationBoundaries(job, checkpoints, runs);
  const k = rho.length - 1;
  const end = rho[k]!;
  const random = createRandom(seed);
  const paper = meanAccumulator();
  const complete = meanAccumulator();
  const bkt = meanAccumulator();
  let failures = 0;
  for (let run = 0; run < runs; run++) {
    const t = law.sample(random);
    if (t > end) {
      paper.add(0);
      complete.add(sigma[k]!);
      bkt.add(0);
      continue;
    }
    // The segment i with ρ_i < t ≤ ρ_{i+1}.
    let lo = 0;
    let hi = k - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (rho[mid]! < t) lo = mid;
      else hi = mid - 1;
    }
    const waste = sigma[lo]! + alpha * (t - rho[lo]!) + beta * (rho[lo + 1]! - t);
    paper.add(waste);
    complete.add(waste);
    bkt.add(waste + sigma[lo + 1]! - sigma[lo]!);
    failures++;
  }
  return {
    model: "first-failure",
    runs,
    seed,
    failureFraction: failures / runs,
    paper: paper.result(confidence),
    complete: complete.result(confidence),
    bkt: bkt.result(confidence),
  };
}
