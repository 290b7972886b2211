/**
 * The expected waste of a given schedule ([BTW10] §2 eq. 1–2, [BKT] §III; docs/science.md §5.1, §5.3):
 *
 *     Δ(π_i, π_{i+1}) = ∫_{ρ_i}^{ρ_{i+1}} [σ_i + α(t − ρ_i) + β(ρ_{i+1} − t)] f(t) dt
 *                     = (σ_i − α ρ_i + β ρ_{i+1}) P(ρ_i < T ≤ ρ_{i+1}) + (α − β) ∫_{ρ_i}^{ρ_{i+1}} t f(t) dt
 *     W(π) = Σ_i Δ(π_i, π_{i+1});   complete objective: W(π) + σ_k (1 − F(ρ_k)).
 *
 * This is the plain evaluator: O(n) arithmetic and O(k) law calls per schedule, through the
 * tail-accurate `probabilityBetween` / `partialExpectationBetween`. It shares no code with
 * the DPs' precomputed tables, so it serves as their independent check (brute force).
 */
import type { Checkpoints, Job } from "./job";
import { partialExpectationBetween, probabilityBetween, type FailureLaw } from "./laws/failure-law";
import type { WasteByObjective, WasteWeights } from "./objective";

/** The failure-free time line of a schedule: σ_i and ρ_i for i = 0..k (seconds). */
export interface ScheduleBoundaries {
  /** σ_i, the overhead paid up to and including the i-th checkpoint. */
  overheadSeconds: number[];
  /** ρ_i = τ_{π_i} + σ_i, when the i-th checkpoint completes. */
  completionSeconds: number[];
}

export function scheduleBoundaries(job: Job, checkpoints: Checkpoints): ScheduleBoundaries {
  const overheadSeconds = [0];
  const completionSeconds = [0];
  let work = 0;
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

/** W(π) under both objectives, in seconds. */
export function expectedWaste(job: Job, checkpoints: Checkpoints, law: FailureLaw, { alpha, beta }: WasteWeights): WasteByObjective {
  const { overheadSeconds: sigma, completionSeconds: rho } = scheduleBoundaries(job, checkpoints);
  let paper = 0;
  for (let i = 0; i + 1 < rho.length; i++) {
    const probability = probabilityBetween(law, rho[i]!, rho[i + 1]!);
    const moment = partialExpectationBetween(law, rho[i]!, rho[i + 1]!);
    paper += (sigma[i]! - alpha * rho[i]! + beta * rho[i + 1]!) * probability + (alpha - beta) * moment;
  }
  const k = rho.length - 1;
  return { paper, complete: paper + sigma[k]! * law.survival(rho[k]!) };
}
