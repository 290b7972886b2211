/**
 * A job's sidecar (docs/science.md §6.3.2): a JSON file `<dir>/<job id>.json` the job's
 * wrapper writes — its image size or resident memory in MB (measured by the job) and when
 * it last checkpointed — which the release hook prefers to what the scheduler knows.
 *
 *     { "sizeMb": 812.5, "lastCheckpointAt": 1795563178 }      (epoch seconds)
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../shared/errors";
import type { RunningJob } from "./release-plan";

export function applySidecar(job: RunningJob, dir: string | null): RunningJob {
  if (dir === null) return job;
  const path = join(dir, `${job.jobId}.json`);
  if (!existsSync(path)) return job;
  let sidecar: { sizeMb?: unknown; lastCheckpointAt?: unknown };
  try {
    sidecar = JSON.parse(readFileSync(path, "utf8")) as typeof sidecar;
  } catch (error) {
    throw new InputError(`${path}: not a job sidecar (${(error as Error).message}); expected {"sizeMb": …, "lastCheckpointAt": …}`);
  }
  const out = { ...job };
  if (sidecar.sizeMb !== undefined) {
    if (!(typeof sidecar.sizeMb === "number" && sidecar.sizeMb > 0 && Number.isFinite(sidecar.sizeMb))) throw new InputError(`${path}: sizeMb must be a number of MB > 0, found ${JSON.stringify(sidecar.sizeMb)}`);
    out.sizeMb = sidecar.sizeMb;
    out.sizeSource = "sidecar";
  }
  if (sidecar.lastCheckpointAt !== undefined) {
    if (!(typeof sidecar.lastCheckpointAt === "number" && Number.isFinite(sidecar.lastCheckpointAt))) throw new InputError(`${path}: lastCheckpointAt must be epoch seconds, found ${JSON.stringify(sidecar.lastCheckpointAt)}`);
    out.lastCheckpointAtS = sidecar.lastCheckpointAt;
  }
  return out;
}
