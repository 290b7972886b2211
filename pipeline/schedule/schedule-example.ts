/**
 * The schedule stage's example run (stages/schedule-stage.ts), as its `schedule-example`
 * artifact holds it: one instance planned by ScheduleCkpt against the deadline, next to the
 * sequential greedy and all-at-once baselines.
 */
import type { ScheduleCkptOutcome } from "./schedule-ckpt";
import type { StrategyOutcome } from "./strategy-outcome";

export interface ScheduleExample {
  apps: string;
  model: string;
  deadlineS: number;
  k0: number;
  criterion: string;
  estimator: string;
  scheduleCkpt: ScheduleCkptOutcome;
  sequentialGreedy: StrategyOutcome;
  allInParallel: StrategyOutcome;
  /** What a reader must know about the run (e.g. why ScheduleCkpt started nothing). */
  notes?: string[];
}
