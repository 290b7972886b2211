/** The schedule boundaries a simulation needs, after checking its arguments. */
import { InputError } from "../shared/errors";
import { scheduleBoundaries, type ScheduleBoundaries } from "./expected-waste";
import { validateCheckpoints, type Checkpoints, type Job } from "./job";

export function simulationBoundaries(job: Job, checkpoints: Checkpoints, runs: number): ScheduleBoundaries {
  if (!Number.isInteger(runs) || runs < 2) throw new InputError(`a simulation needs an integer number of runs ≥ 2 (--simulate), got ${runs}`);
  validateCheckpoints(checkpoints, job.slicesSeconds.length);
  return scheduleBoundaries(job, checkpoints);
}
