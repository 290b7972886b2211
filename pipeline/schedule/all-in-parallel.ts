/**
 * All in parallel (docs/science.md §4.4): start every checkpoint at once, the collapse the bandwidth
 * model warns about. Executed on the fluid device under the truth model; when the model
 * has no usable bandwidth for that many concurrent checkpoints (≤ 0, or above its fitted
 * domain under the policy `refuse`, which for the paper model is every instance with more
 * than 18 applications) the device stalls and nothing is checkpointed — the outcome says
 * why in `stall`. O(n²) (n completions of O(n) each).
 */
import { applicationColumns, type Application } from "./application";
import { createBandwidthOracle } from "./bandwidth-oracle";
import { createFluidDevice } from "./fluid-device";
import type { ScheduleOptions } from "./schedule-options";
import { outcomeFromDevice, type StrategyOutcome } from "./strategy-outcome";

export function allInParallel(
  apps: readonly Application[],
  options: Pick<ScheduleOptions, "truthModel" | "truthBandwidth" | "deadlineS" | "domain" | "record">,
): StrategyOutcome {
  const truth = createBandwidthOracle(options.truthModel, options.domain, options.truthBandwidth);
  const device = createFluidDevice(applicationColumns(apps).sizesMb, truth, { recordSteps: options.record });
  for (let index = 0; index < apps.length; index++) device.start(index);
  while (device.advance() > 0);
  return outcomeFromDevice("all-in-parallel", apps, device, options.deadlineS, truth);
}
