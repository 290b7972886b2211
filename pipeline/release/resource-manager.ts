/**
 * What the release hook asks of a batch scheduler (docs/science.md §6.3.2, the executor's
 * adapters): the nodes it knows, the jobs running on some nodes, a checkpoint signal to a
 * job, whether a job still runs, and a requeue so the job restarts from its image.
 * Implemented by slurm.ts and oar.ts with the schedulers' own commands.
 */
import { spawnSync } from "node:child_process";
import { InputError } from "../shared/errors";
import type { RunningJob } from "./release-plan";
import type { NodeTakeovers } from "./release-triggers";

export interface JobsQuery {
  nodes: string[];
  /** Size for jobs whose memory the scheduler does not know (MB); without it such a job is refused. */
  defaultSizeMb: number | null;
}

export interface ResourceManager {
  name: "slurm" | "oar";
  /** Every node the scheduler knows. */
  knownNodes(): string[];
  /** The nodes of a reservation. */
  reservationNodes(name: string): string[];
  /** Jobs running on any of the nodes, sizes from the scheduler (sidecars are read by the caller). */
  runningJobs(query: JobsQuery): RunningJob[];
  /** What will take nodes: reservations not yet started, drains (for --watch; Slurm only). */
  takeovers?(): NodeTakeovers;
  signalCheckpoint(jobId: string, signal: string): void;
  isRunning(jobId: string): boolean;
  /** Queue the job again so it restarts from its image; says how (e.g. the new job id). */
  requeue(jobId: string): string;
}

/** Run a scheduler command; a missing command or a failure is an InputError saying which and why. */
export function schedulerCommand(rm: string, command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 60_000 });
  if (result.error !== undefined) {
    const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new InputError(
      missing
        ? `${command} not found: is ${rm === "slurm" ? "Slurm" : "OAR"} installed here, with its client commands on PATH? (--rm ${rm})`
        : `${command} ${args.join(" ")} could not run: ${result.error.message}`,
    );
  }
  if (result.status !== 0) {
    throw new InputError(`${command} ${args.join(" ")} failed (exit ${result.status}): ${(result.stderr || result.stdout).trim().split("\n").slice(-3).join(" ")} — is the ${rm === "slurm" ? "Slurm controller" : "OAR server"} running?`);
  }
  return result.stdout;
}
