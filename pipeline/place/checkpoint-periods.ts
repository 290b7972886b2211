/**
 * The periodic baselines' checkpoint periods (docs/science.md §5.4, [BKT] §IV), for a mean time to
 * failure M and a checkpoint cost C (both seconds). Each is the compute time between two
 * checkpoints (the checkpoint itself not included).
 *
 * - Young (CACM 17(9), 1974): first order, √(2 C M).
 * - Daly (FGCS 22(3), 2006, "higher order" perturbation solution): for C < 2M,
 *   √(2CM) · [1 + ⅓ √(C/(2M)) + ⅑ (C/(2M))] − C; for C ≥ 2M, M. Check: Daly's own example
 *   (M = 24 h / 6 h / 15 min, C = 5 min, restart 10 min; his Figs. 3–5 state the model
 *   predicts 117 / 57 / 9.1 min) gives 116.7 / 56.7 / 9.14 min here; Young gives
 *   120 / 60 / 12.2 min. The restart time R does not enter either period.
 */
import { requireNonNegative, requirePositive } from "../shared/errors";

export function youngPeriod(costSeconds: number, mttfSeconds: number): number {
  requireNonNegative("checkpoint cost C", costSeconds);
  requirePositive("mean time to failure M", mttfSeconds);
  return Math.sqrt(2 * costSeconds * mttfSeconds);
}

export function dalyPeriod(costSeconds: number, mttfSeconds: number): number {
  requireNonNegative("checkpoint cost C", costSeconds);
  requirePositive("mean time to failure M", mttfSeconds);
  if (costSeconds >= 2 * mttfSeconds) return mttfSeconds;
  const ratio = costSeconds / (2 * mttfSeconds);
  return Math.sqrt(2 * costSeconds * mttfSeconds) * (1 + Math.sqrt(ratio) / 3 + ratio / 9) - costSeconds;
}
