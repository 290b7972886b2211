/**
 * The expected waste of a given schedule ([BTW10] §2 eq. 1–2, [BKT] §III; docs/science.md §5.1, §5.3):
 *
 *     Δ(π_i, π_{i+1}) = ∫_{ρ_i}^{ρ_{i+1}} [σ_i + α(t − ρ_i) + β(ρ_{i+1} − t)] f(t) dt
 *                     = (σ_i − α ρ_i + β ρ_{i+1}) P(ρ_i < T ≤ ρ_{i+1}) + (α − β) ∫_{ρ_i}^{ρ_{i+1}} t f(t) dt
 *     W(π) = Σ_i Δ(π_i, π_{i+1});   complete objective: W(π) + σ_k (1 − F(ρ_k));
 *     [BKT]'s objective: σ_{i+1} instead of σ_i in Δ (objective.ts), its first interval as
 *     `eq4` says; every time shifted by `timeOffsetSeconds` (the law's clock starts earlier).
 *
 * This is the plain evaluator: O(n) arithmetic and O(k) law calls per schedule, through the
 * tail-accurate `probabilityBetween` / `partialExpectationBetween`. It shares no code with
 * the DPs' precomputed tables, so it serves as their independent check (brute force).
 */
import type { Checkpoints, Job } from "./job";
import { partialExpectationBetween, probabilityBetween, type FailureLaw } from "./laws/failure-law";
import type { ObjectiveReading, WasteByObjective, WasteWeights } from "./objective";

/** The failure-free time line of a schedule: σ_i and ρ_i for i = 0..k (seconds). */
export interface ScheduleBoundaries {
  /** σ_i, the overhead paid up to and including the i-th checkpoint. */
  overheadSeconds: number[];
  /** ρ_i = τ_{π_i} + σ_i, when the i-th checkpoint completes. */
  completionSeconds: number[];
}

export function scheduleBoundaries(job: Job, checkpoints: Checkpoints, timeOffsetSeconds = 0): ScheduleBoundaries {
  const overheadSeconds = [0];
  const completionSeconds = [timeOffsetSeconds];
  let work = timeOffsetSeconds;
  let overhead = 0;
  let previous = 0;
  for (const j of checkpoints) {
    for (let s = previous; s < j; s++) work += job.slicesSeconds[s]!;
    overhead += job.costsSeconds[j - 1]!;
    overheadSeconds.push(overhead);
    completionSeconds.push(work + overhead);
    previous = j;
  }
  return { overheadSeconds, completionSeconds };
}

/** W(π) under every objective, in seconds. */
export function expectedWaste(job: Job, checkpoints: Checkpoints, law: FailureLaw, { alpha, beta }: WasteWeights, reading: ObjectiveReading = {}): WasteByObjective {
  const { overheadSeconds: sigma, completionSeconds: rho } = scheduleBoundaries(job, checkpoints, reading.timeOffsetSeconds);
  let paper = 0;
  let bkt = 0;
  for (let i = 0; i + 1 < rho.length; i++) {
    const probability = probabilityBetween(law, rho[i]!, rho[i + 1]!);
    const moment = partialExpectationBetween(law, rho[i]!, rho[i + 1]!);
    paper += (sigma[i]! - alpha * rho[i]! + beta * rho[i + 1]!) * probability + (alpha - beta) * moment;
    // [BKT] eq. (4) as printed: the first interval's lost work counted from ρ_1, not ρ_0.
    const lostFrom = i === 0 && reading.eq4 === "as-printed" ? rho[1]! : rho[i]!;
    bkt += (sigma[i + 1]! - alpha * lostFrom + beta * rho[i + 1]!) * probability + (alpha - beta) * moment;
  }
  const k = rho.length - 1;
  // Every integrand is ≥ 0 (except eq. (4) as printed, whose first interval can go below 0);
  // a negative sum is cancellation between ρ·P and the moment (≈ 1e-12 s when failures come
  // almost surely within the first interval), not waste.
  paper = Math.max(0, paper);
  if (reading.eq4 !== "as-printed") bkt = Math.max(0, bkt);
  return { paper, complete: paper + sigma[k]! * law.survival(rho[k]!), bkt };
}
