/**
 * The three objectives a placement can minimise (docs/science.md §5.3, §6.1.5).
 *
 * - `paper`: [BTW10] / [BKT]'s expected waste up to the first failure,
 *   W(π) = Σ_i Δ(π_i, π_{i+1}); a run that never fails counts as zero waste, so the
 *   checkpoint overhead it paid is not priced and rare failures under-price checkpoints.
 * - `complete`: W(π) + σ_k (1 − F(ρ_k)), the same plus the overhead paid by a run that
 *   finishes with no failure: the expected waste of one attempt, failed or not.
 * - `bkt`: [BKT] §III-B's own objective, eq. (1)–(4): a failure in an interval costs the
 *   overhead *including* the checkpoint that closes it, σ_{i+1} + α(t − ρ_i) (+ β(ρ_{i+1} − t)
 *   when β > 0), so it exceeds `paper` by c_{π_{i+1}}·(F(ρ_{i+1}) − F(ρ_i)) per interval. Its
 *   eq. (4) for the first interval is read as eq. (1) with τ_last = 0 (`eq4 = "consistent"`,
 *   docs/science.md §6.1.9 B9); `"as-printed"` keeps the printed lost-work origin τ_j + c_j.
 */
import { InputError } from "../shared/errors";

export const OBJECTIVES = ["paper", "complete", "bkt"] as const;
export type Objective = (typeof OBJECTIVES)[number];

/** How [BKT]'s eq. (4) (the edges out of the start) is read: see `bkt` above. */
export const EQ4_READINGS = ["consistent", "as-printed"] as const;
export type Eq4Reading = (typeof EQ4_READINGS)[number];

/** Expected waste under each objective, seconds. */
export type WasteByObjective = Record<Objective, number>;

/** How the law's time origin and [BKT]'s eq. (4) are taken (both only matter to some callers). */
export interface ObjectiveReading {
  /** The law's clock starts this long before the first slice (e.g. a restart's download, docs/science.md §6.1.5). */
  timeOffsetSeconds?: number;
  eq4?: Eq4Reading;
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
