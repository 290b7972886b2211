/**
 * The [BKT] server's bag of jobs (docs/science.md §6.1.3): which jobs were never handed out,
 * which are still uncompleted, and the most recent checkpoint the server holds of each.
 *
 * A request gets a job never handed out, chosen uniformly; else a duplicate of any
 * uncompleted job, chosen uniformly; else nothing ("halt"). The choices draw from the
 * server's own random stream, one draw per job handed out, so that every policy compared on
 * common random numbers sees the same choices for the same requests. The server keeps a
 * checkpoint only if it is newer than the one it has; the first result completes a job.
 *
 * Every operation is O(1): the two lists are arrays with swap-removal.
 */
import type { Random } from "../../shared/random";

export interface BktJobBag {
  /** A job for a request: never handed out (`first`), else a duplicate of an uncompleted one; null when every job is completed. */
  pick(): { job: number; first: boolean } | null;
  /** The highest slice of `job` whose checkpoint the server holds (0: none). */
  checkpointedSlice(job: number): number;
  /** A checkpoint of `job` after slice `k` arrived: kept (true) if newer than the one held, else outdated (false). */
  offerCheckpoint(job: number, k: number): boolean;
  isCompleted(job: number): boolean;
  /** The first result of `job` arrived. */
  complete(job: number): void;
}

export function createJobBag(jobs: number, server: Random): BktJobBag {
  const kStar = new Int32Array(jobs);
  const completed = new Uint8Array(jobs);
  const neverHanded = Int32Array.from({ length: jobs }, (_, j) => j);
  let neverHandedCount = jobs;
  const uncompleted = Int32Array.from({ length: jobs }, (_, j) => j);
  const positionInUncompleted = Int32Array.from({ length: jobs }, (_, j) => j);
  let uncompletedCount = jobs;
  return {
    pick() {
      if (neverHandedCount > 0) {
        const i = Math.floor(server.next() * neverHandedCount);
        const job = neverHanded[i]!;
        neverHanded[i] = neverHanded[--neverHandedCount]!;
        return { job, first: true };
      }
      if (uncompletedCount > 0) return { job: uncompleted[Math.floor(server.next() * uncompletedCount)]!, first: false };
      return null;
    },
    checkpointedSlice: (job) => kStar[job]!,
    offerCheckpoint(job, k) {
      if (k <= kStar[job]!) return false;
      kStar[job] = k;
      return true;
    },
    isCompleted: (job) => completed[job] === 1,
    complete(job) {
      completed[job] = 1;
      const i = positionInUncompleted[job]!;
      const last = uncompleted[--uncompletedCount]!;
      uncompleted[i] = last;
      positionInUncompleted[last] = i;
    },
  };
}
