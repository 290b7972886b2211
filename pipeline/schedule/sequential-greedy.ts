/**
 * Sequential greedy, the baseline of [Y-thesis] Table 7.2 / [Y11] Table 3 (docs/science.md §4.4): one
 * checkpoint at a time, in decreasing p (ties by input index), each predicted at
 * bw(1, s_i), started when the previous one finishes if the prediction says it finishes
 * by T.
 *
 * Decision: "as long as it finishes before T" is read as a `while` (rule `stop`, the
 * default): the first application that would not finish ends the baseline. Rule `skip`
 * passes over it and tries the next (smaller) ones, the stronger baseline. The two agree on
 * the identical-size campaign the papers ran. Execution follows the truth model, so a
 * wrong prediction shows as a miss. O(n log n).
 */
import { applicationColumns, type Application } from "./application";
import { createBandwidthOracle } from "./bandwidth-oracle";
import { criterionOrder } from "./criterion-order";
import { createFluidDevice } from "./fluid-device";
import type { ScheduleOptions } from "./schedule-options";
import { outcomeFromDevice, type StrategyOutcome } from "./strategy-outcome";

export function sequentialGreedy(
  apps: readonly Application[],
  options: Pick<ScheduleOptions, "model" | "planBandwidth" | "truthModel" | "truthBandwidth" | "deadlineS" | "domain" | "sequentialRule" | "record">,
): StrategyOutcome {
  const { sizesMb, pS } = applicationColumns(apps);
  const plan = createBandwidthOracle(options.model, options.domain, options.planBandwidth);
  const truth = createBandwidthOracle(options.truthModel, options.domain, options.truthBandwidth);
  const device = createFluidDevice(sizesMb, truth, { recordSteps: options.record });
  for (const index of criterionOrder(pS, sizesMb, "p")) {
    const sizeMb = sizesMb[index]!;
    const bw = plan.bandwidthMbPerS(1, sizeMb / 1000);
    const fits = bw > 0 && device.timeS + sizeMb / bw <= options.deadlineS;
    if (!fits) {
      if (options.sequentialRule === "stop") break;
      continue;
    }
    device.start(index);
    if (device.advance() < 0) break; // the truth model cannot move it: nothing more can happen
  }
  return outcomeFromDevice("sequential-greedy", apps, device, options.deadlineS, truth);
}
