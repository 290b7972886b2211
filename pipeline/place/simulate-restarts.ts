/**
 * Monte Carlo of the whole execution with restarts (issue 4, "restart model"; docs/science.md §5.3
 * calls it the ground truth for both objectives). The job runs its schedule on a host
 * whose time to failure is drawn from the law (seeded). When the host fails at T inside
 * segment i (between checkpoints i and i+1), the work since checkpoint i is lost; the
 * failure is noticed β(ρ_{i+1} − T) later (β = 1: only at the next scheduled checkpoint),
 * then the job restarts from checkpoint i on a fresh host (new failure time, clock at 0)
 * after `restartSeconds`, and so on until the last checkpoint completes.
 *
 * Makespan = Σ over hosts of the time spent on them. α does not enter: it weights lost
 * work in the papers' waste, whereas here lost work is simply redone. A run that fails
 * more than `maxFailuresPerRun` times is counted as unfinished (a segment the law almost
 * never lets through would otherwise loop for ever) and left out of the statistics.
 * O(N · (k + failures)).
 */
import { createRandom } from "../shared/random";
import type { Checkpoints, Job } from "./job";
import type { FailureLaw } from "./laws/failure-law";
import { meanAccumulator, type MeanEstimate } from "../stats/mean-estimate";
import type { SimulationOptions } from "./simulate-first-failure";
import { simulationBoundaries } from "./simulation-inputs";

export interface RestartOptions extends SimulationOptions {
  beta: number;
  restartSeconds?: number;
  maxFailuresPerRun?: number;
  histogramBins?: number;
}

export interface MakespanDistribution {
  model: "restart";
  runs: number;
  seed: number;
  finishedRuns: number;
  unfinishedRuns: number;
  /** τ_n + σ_k: the makespan with no failure. */
  failureFreeSeconds: number;
  mean: MeanEstimate;
  standardDeviationSeconds: number;
  minSeconds: number;
  maxSeconds: number;
  /** Type-7 (linear) sample quantiles, seconds. */
  quantiles: { p05: number; p25: number; p50: number; p75: number; p95: number; p99: number };
  meanFailures: number;
  /** Equal-width bins from min to max: counts[i] in [edges[i], edges[i+1]). */
  histogram: { edgesSeconds: number[]; counts: number[] };
}

function quantile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function simulateRestarts(job: Job, checkpoints: Checkpoints, law: FailureLaw, options: RestartOptions): MakespanDistribution {
  const { runs, seed, beta, confidence = 0.95, restartSeconds = 0, maxFailuresPerRun = 10_000, histogramBins = 20 } = options;
  const { completionSeconds: rho } = simulationBoundaries(job, checkpoints, runs);
  const k = rho.length - 1;
  const random = createRandom(seed);
  const makespans = new Float64Array(runs);
  const accumulator = meanAccumulator();
  let finished = 0;
  let totalFailures = 0;
  for (let run = 0; run < runs; run++) {
    let segment = 0; // next segment to run: from checkpoint `segment` to `segment + 1`
    let makespan = 0;
    let failures = 0;
    while (segment < k && failures <= maxFailuresPerRun) {
      const failureTime = law.sample(random);
      const start = rho[segment]!; // time line of this host, shifted so that it starts at 0
      while (segment < k && rho[segment + 1]! - start < failureTime) segment++;
      if (segment === k) {
        makespan += rho[k]! - start;
        break;
      }
      makespan += failureTime + beta * (rho[segment + 1]! - start - failureTime) + restartSeconds;
      failures++;
    }
    if (segment === k) {
      makespans[finished++] = makespan;
      accumulator.add(makespan);
      totalFailures += failures;
    }
  }
  const sorted = makespans.subarray(0, finished).sort();
  const mean = accumulator.result(confidence);
  const minSeconds = finished > 0 ? sorted[0]! : NaN;
  const maxSeconds = finished > 0 ? sorted[finished - 1]! : NaN;
  const width = (maxSeconds - minSeconds) / histogramBins;
  const counts = new Array<number>(histogramBins).fill(0);
  for (const value of sorted) counts[width > 0 ? Math.min(histogramBins - 1, Math.floor((value - minSeconds) / width)) : 0]! += 1;
  return {
    model: "restart",
    runs,
    seed,
    finishedRuns: finished,
    unfinishedRuns: runs - finished,
    failureFreeSeconds: rho[k]!,
    mean,
    standardDeviationSeconds: mean.standardError * Math.sqrt(finished),
    minSeconds,
    maxSeconds,
    quantiles: {
      p05: quantile(sorted, 0.05),
      p25: quantile(sorted, 0.25),
      p50: quantile(sorted, 0.5),
      p75: quantile(sorted, 0.75),
      p95: quantile(sorted, 0.95),
      p99: quantile(sorted, 0.99),
    },
    meanFailures: finished > 0 ? totalFailures / finished : NaN,
    histogram: {
      edgesSeconds: Array.from({ length: histogramBins + 1 }, (_, i) => minSeconds + i * width),
      counts,
    },
  };
}
