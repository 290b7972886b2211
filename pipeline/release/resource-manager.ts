/**
 * What the release hook asks of a batch scheduler (docs/science.md §6.3.2, the executor's
 * adapters): the nodes it knows, the jobs running on some nodes, a checkpoint signal to one
 * job, how a signalled job stands (still running, or ended and how), and a requeue so the
 * job restarts from its image. Implemented by slurm.ts and oar.ts with the schedulers' own
 * commands; every job is addressed as the scheduler addresses it (an array task as
 * `<array>_<task>` on Slurm, never a bare array id that would mean every task).
 */
import type { RunningJob } from "./release-plan";
import type { NodeTakeovers } from "./release-triggers";

export interface JobsQuery {
  nodes: string[];
  /** Size for jobs whose memory the scheduler does not know (MB); null: such a job's size is unknown. */
  defaultSizeMb: number | null;
}

/** What the scheduler says of the jobs on some nodes, and what it warned about. */
export interface JobsSnapshot {
  jobs: RunningJob[];
  warnings: string[];
}

/** How a signalled job stands. */
export type JobState =
  /** Still running (or finishing its end: the executor waits). */
  | { ended: false; state: string }
  /**
   * Ended. `saved`: it ended as a job that checkpointed on the signal does (exit 0);
   * `requeued`: it is queued again already (its wrapper requeued itself).
   */
  | { ended: true; saved: boolean; requeued: boolean; how: string };

export interface ResourceManager {
  name: "slurm" | "oar";
  /** Every node the scheduler knows. */
  knownNodes(): Promise<string[]>;
  /** The nodes of a reservation. */
  reservationNodes(name: string): Promise<string[]>;
  /** Jobs running on any of the nodes, sizes from the scheduler (sidecars are read by the caller). */
  runningJobs(query: JobsQuery): Promise<JobsSnapshot>;
  /** What will take nodes: reservations not yet started, drains (for --watch; Slurm only). */
  takeovers?(): Promise<NodeTakeovers>;
  /** Send the checkpoint signal (null: the one the job chose at submission, where the scheduler keeps one). */
  signalCheckpoint(jobId: string, signal: string | null): Promise<void>;
  /** Exactly one job's state; anything but exactly one record for the job is an error. */
  jobState(jobId: string): Promise<JobState>;
  /** Queue the job again so it restarts from its image; says how (e.g. the new job id). Throws when the scheduler refused. */
  requeue(jobId: string): Promise<string>;
}
