/**
 * Sequential greedy at a measured single-process rate ([Y-thesis] Table 7.2 / [Y11] Table 3;
 * docs/science.md §4.4–§4.5): what the thesis ran on the cluster. One checkpoint at a time,
 * in decreasing p (ties by input index), each taking s_i / rate seconds, while it finishes
 * by T (rule `stop`; `skip` passes over it, as in `sequential-greedy.ts`).
 *
 * The model-based baseline (`sequential-greedy.ts`) prices a lone checkpoint at bw(1, s_i),
 * about 8.6 MB/s with the published coefficients; one process reached only ≈ 5.3–6 MB/s on
 * the hardware (docs/science.md §4.5), which is why the printed counts are below the model's.
 * O(n log n).
 */
import { applicationColumns, type Application } from "./application";
import { criterionOrder } from "./criterion-order";
import type { SequentialRule } from "./schedule-options";

export interface SequentialAtRateOutcome {
  rateMbPerS: number;
  checkpointed: number;
  ctnys: number;
  /** When the last checkpoint ended, s. */
  endS: number;
}

export function sequentialAtRate(apps: readonly Application[], rateMbPerS: number, deadlineS: number, rule: SequentialRule = "stop"): SequentialAtRateOutcome {
  if (!(rateMbPerS > 0) || !Number.isFinite(rateMbPerS)) throw new RangeError(`the single-process rate must be a finite number of MB/s > 0, found ${rateMbPerS}`);
  const { sizesMb, pS } = applicationColumns(apps);
  let timeS = 0;
  let checkpointed = 0;
  let ctnys = 0;
  for (const index of criterionOrder(pS, sizesMb, "p")) {
    const durationS = sizesMb[index]! / rateMbPerS;
    if (timeS + durationS > deadlineS) {
      if (rule === "stop") break;
      continue;
    }
    timeS += durationS;
    checkpointed++;
    ctnys += pS[index]!;
  }
  return { rateMbPerS, checkpointed, ctnys, endS: timeS };
}
