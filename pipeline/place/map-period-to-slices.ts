/**
 * Turn a checkpoint period into checkpoints at slice boundaries ([BKT] §IV; docs/science.md §5.4).
 *
 * After the checkpoint at slice j (j = 0 at the start), the next one goes after the slice
 * i > j minimising |Σ_{h=j+1..i} x_h − period|, until slice n (always checkpointed).
 *
 * - `mapping: "cost"` is [BKT] as written: x_h = c_h, the checkpoint *costs*. This is
 *   almost certainly a slip (the period is a span of work, and summing costs usually
 *   places far fewer checkpoints than the period means), but it is what the paper's
 *   comparison used, so it is the default.
 * - `mapping: "work"` is the corrected reading: x_h = p_h, the slices' work.
 *
 * Ties keep the earlier slice. O(n) per checkpoint placed, O(n·k) in all.
 */
import type { Checkpoints, Job } from "./job";

export type PeriodMapping = "cost" | "work";

export const PERIOD_MAPPINGS: readonly PeriodMapping[] = ["cost", "work"];

export function mapPeriodToSlices(job: Job, periodSeconds: number, mapping: PeriodMapping): Checkpoints {
  const x = mapping === "cost" ? job.costsSeconds : job.slicesSeconds;
  const n = x.length;
  const checkpoints: number[] = [];
  let j = 0;
  while (j < n) {
    let sum = 0;
    let best = j + 1;
    let bestDistance = Infinity;
    for (let i = j + 1; i <= n; i++) {
      sum += x[i - 1]!;
      const distance = Math.abs(sum - periodSeconds);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
      if (sum > periodSeconds) break; // sums only grow from here
    }
    checkpoints.push(best);
    j = best;
  }
  return checkpoints;
}
