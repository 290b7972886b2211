/**
 * The two objectives a placement can minimise (docs/science.md §5.3).
 *
 * - `paper`: [BTW10] / [BKT]'s expected waste up to the first failure,
 *   W(π) = Σ_i Δ(π_i, π_{i+1}); a run that never fails counts as zero waste, so the
 *   checkpoint overhead it paid is not priced and rare failures under-price checkpoints.
 * - `complete`: W(π) + σ_k (1 − F(ρ_k)), the same plus the overhead paid by a run that
 *   finishes with no failure: the expected waste of one attempt, failed or not.
 */
import { InputError } from "../shared/errors";

export type Objective = "paper" | "complete";

export const OBJECTIVES: readonly Objective[] = ["paper", "complete"];

/** Expected waste under each objective, seconds. */
export interface WasteByObjective {
  paper: number;
  complete: number;
}

/** α (re-execution ratio, in (0, 1]) and β (detection delay factor, usually 0 or 1). */
export interface WasteWeights {
  alpha: number;
  beta: number;
}

/** Refuse α ∉ (0, 1] and β ∉ [0, 1] ([BTW10] §2: α is a re-execution ratio, β ∈ {0, 1}). */
export function validateWasteWeights({ alpha, beta }: WasteWeights): WasteWeights {
  if (!(alpha > 0 && alpha <= 1)) {
    throw new InputError(`α (--alpha) must be in (0, 1] (the fraction of lost time that counts as waste), got ${alpha}; [BKT] uses 1`);
  }
  if (!(beta >= 0 && beta <= 1)) {
    throw new InputError(`β (--beta) must be in [0, 1] (0: a failure is seen at once, 1: only at the next checkpoint), got ${beta}`);
  }
  return { alpha, beta };
}
