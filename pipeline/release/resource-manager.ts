/**
 * What the release hook asks of a batch scheduler (docs/science.md §6.3.2, the executor's
 * adapters): the nodes it knows, the jobs running on some nodes, a checkpoint signal to a
 * job, whether a job still runs, and a requeue so the job restarts from its image.
 * Implemented by slurm.ts and oar.ts with the schedulers' own commands.
 */
import { execFile, spawnSync } from "node:child_process";
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
  /** Asynchronous: a wave's jobs are signalled at once (OAR's oardel takes about 2 s each). */
  signalCheckpoint(jobId: string, signal: string): Promise<void>;
  isRunning(jobId: string): boolean;
  /** Queue the job again so it restarts from its image; says how (e.g. the new job id). */
  requeue(jobId: string): string;
}

/** Run a scheduler command; a missing command or a failure is an InputError saying which and why. */
export function schedulerCommand(rm: string, command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 60_000 });
  return commandOutput(rm, command, args, result.error, result.status, result.stdout, result.stderr);
}

/** The same, without blocking: for commands several jobs wait on at once. */
export function schedulerCommandAsync(rm: string, command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: "utf8", timeout: 60_000 }, (error, stdout, stderr) => {
      const spawnError = error !== null && typeof error.code === "string" ? error : undefined;
      const status = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      try {
        resolve(commandOutput(rm, command, args, spawnError, status, stdout, stderr));
      } catch (failure) {
        reject(failure as Error);
      }
    });
  });
}

function commandOutput(rm: string, command: string, args: string[], error: Error | undefined, status: number | null, stdout: string, stderr: string): string {
  if (error !== undefined) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new InputError(
      missing
        ? `${command} not found: is ${rm === "slurm" ? "Slurm" : "OAR"} installed here, with its client commands on PATH? (--rm ${rm})`
        : `${command} ${args.join(" ")} could not run: ${error.message}`,
    );
  }
  if (status !== 0) {
    throw new InputError(`${command} ${args.join(" ")} failed (exit ${status}): ${(stderr || stdout).trim().split("\n").slice(-3).join(" ")} — is the ${rm === "slurm" ? "Slurm controller" : "OAR server"} running?`);
  }
  return stdout;
}
