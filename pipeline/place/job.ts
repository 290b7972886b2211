/**
 * A job to place checkpoints in ([BTW10] §2, [BKT] §III; docs/science.md §5.1): `n` slices of
 * durations p_1..p_n (seconds) that run one after the other, and c_j, the cost in seconds
 * of checkpointing right after slice j. A checkpoint after the last slice is mandatory.
 */
import { InputError } from "../shared/errors";

export interface Job {
  /** p_j, j = 1..n (index j − 1), seconds, each > 0. */
  slicesSeconds: number[];
  /** c_j, the checkpoint cost after slice j, seconds, each ≥ 0. */
  costsSeconds: number[];
}

/** A schedule: the 1-based slices after which to checkpoint, increasing, ending with n. */
export type Checkpoints = number[];

/** Refuse an empty job, non-positive durations, negative costs, or mismatched lengths. */
export function validateJob(job: Job, where = "job"): Job {
  const n = job.slicesSeconds.length;
  if (n === 0) throw new InputError(`${where}: the job has no slices; give at least one slice (a row p,c)`);
  if (job.costsSeconds.length !== n) {
    throw new InputError(`${where}: ${n} slice durations but ${job.costsSeconds.length} checkpoint costs; give one cost per slice`);
  }
  job.slicesSeconds.forEach((p, i) => {
    if (!(p > 0) || !Number.isFinite(p)) throw new InputError(`${where}: slice ${i + 1} has duration ${p} s; every duration must be a finite number > 0`);
  });
  job.costsSeconds.forEach((c, i) => {
    if (!(c >= 0) || !Number.isFinite(c)) throw new InputError(`${where}: slice ${i + 1} has checkpoint cost ${c} s; every cost must be a finite number ≥ 0`);
  });
  return job;
}

/** Check that `checkpoints` is a schedule of an n-slice job. */
export function validateCheckpoints(checkpoints: Checkpoints, n: number): Checkpoints {
  if (checkpoints.length === 0 || checkpoints[checkpoints.length - 1] !== n) {
    throw new InputError(`a schedule must end with the last slice (${n}), got [${checkpoints.join(", ")}]`);
  }
  for (let i = 0; i < checkpoints.length; i++) {
    const j = checkpoints[i]!;
    if (!Number.isInteger(j) || j < 1 || j > n || (i > 0 && j <= checkpoints[i - 1]!)) {
      throw new InputError(`a schedule lists increasing slice numbers in 1..${n}, got [${checkpoints.join(", ")}]`);
    }
  }
  return checkpoints;
}
