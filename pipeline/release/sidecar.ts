/**
 * A job's sidecar (docs/science.md §6.3.2): a JSON file `<dir>/<job id>.json` the job's
 * wrapper writes — its image size or resident memory in MB (measured by the job) and when
 * it last checkpointed — which the release hook prefers to what the scheduler knows.
 *
 *     { "sizeMb": 812.5, "lastCheckpointAt": 1795563178 }      (epoch seconds)
 *
 * Sidecars are written by users and read by the hook as root, so they are not trusted:
 * opened without following a symbolic link and without blocking (a FIFO would hang the
 * hook), read only when a regular file owned by the job's own user (another user cannot
 * speak for someone's job) of at most 64 KiB, and never echoed in messages (a link to a
 * root-only file must not show its content). A sidecar that fails any of this, or is not
 * valid JSON (half-written), is a warning for that job alone, which keeps what the
 * scheduler knows.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { RunningJob } from "./release-plan";

export const SIDECAR_MAX_BYTES = 64 * 1024;

/** A last checkpoint this far in the future is a clock or a wrapper error, not a checkpoint. */
const FUTURE_TOLERANCE_S = 300;

export interface SidecarResult {
  job: RunningJob;
  /** Why the sidecar was not used (null: used, or there is none). */
  warning: string | null;
}

/** The job with what its sidecar says, or as it was with a warning saying why the sidecar was ignored. */
export function applySidecar(job: RunningJob, dir: string | null, nowS: number): SidecarResult {
  if (dir === null) return { job, warning: null };
  const path = join(dir, `${job.sidecarId}.json`);
  const ignored = (why: string): SidecarResult => ({ job, warning: `job ${job.jobId}: its sidecar ${path} ${why}: ignored, the scheduler's values are used` });
  if (!/^\d+$/.test(job.sidecarId)) return ignored("has no job number to be named by");
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { job, warning: null };
    return ignored(code === "ELOOP" ? "is a symbolic link (not followed)" : `cannot be opened (${code ?? (error as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return ignored(`is not a regular file (${stat.isFIFO() ? "a FIFO" : stat.isDirectory() ? "a folder" : "a device or socket"})`);
    if (job.uid === null) return ignored("cannot be checked: the scheduler does not say who owns the job");
    if (stat.uid !== job.uid) return ignored(`is owned by uid ${stat.uid}, not by the job's user ${job.user ?? "?"} (uid ${job.uid})`);
    if (stat.size > SIDECAR_MAX_BYTES) return ignored(`is ${stat.size} bytes, more than a sidecar's ${SIDECAR_MAX_BYTES}`);
    const buffer = Buffer.alloc(SIDECAR_MAX_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > SIDECAR_MAX_BYTES) return ignored(`grew past ${SIDECAR_MAX_BYTES} bytes while read`);
    let sidecar: unknown;
    try {
      sidecar = JSON.parse(buffer.subarray(0, length).toString("utf8"));
    } catch {
      return ignored(`is not valid JSON (${length} bytes: being written, or not a sidecar); expected {"sizeMb": …, "lastCheckpointAt": …}`);
    }
    if (typeof sidecar !== "object" || sidecar === null || Array.isArray(sidecar)) return ignored(`is JSON but not an object; expected {"sizeMb": …, "lastCheckpointAt": …}`);
    const { sizeMb, lastCheckpointAt } = sidecar as { sizeMb?: unknown; lastCheckpointAt?: unknown };
    const out = { ...job };
    if (sizeMb !== undefined) {
      if (!(typeof sizeMb === "number" && sizeMb > 0 && Number.isFinite(sizeMb))) return ignored(`has sizeMb ${describe(sizeMb)}, not a number of MB > 0`);
      out.sizeMb = sizeMb;
      out.sizeSource = "sidecar";
    }
    if (lastCheckpointAt !== undefined) {
      if (!(typeof lastCheckpointAt === "number" && Number.isFinite(lastCheckpointAt) && lastCheckpointAt >= 0)) return ignored(`has lastCheckpointAt ${describe(lastCheckpointAt)}, not epoch seconds`);
      if (lastCheckpointAt > nowS + FUTURE_TOLERANCE_S) return ignored(`has lastCheckpointAt ${new Date(lastCheckpointAt * 1000).toISOString()}, in the future`);
      out.lastCheckpointAtS = lastCheckpointAt;
    }
    return { job: out, warning: null };
  } finally {
    closeSync(fd);
  }
}

/** A value from a user's file, said by its kind (numbers as they are: they reveal nothing the user did not write). */
function describe(value: unknown): string {
  return typeof value === "number" ? String(value) : `of type ${value === null ? "null" : Array.isArray(value) ? "list" : typeof value}`;
}
