/**
 * Running a batch scheduler's command for the release hook: its whole output (no cap: the
 * `squeue --json` of a production cluster is megabytes), a time limit after which the
 * command is stopped (a controller that does not answer must not hang the hook), and an
 * error that says which command failed, how, and what to check.
 */
import { spawn } from "node:child_process";
import { InputError } from "../shared/errors";

export interface SchedulerCommandOptions {
  /** Stop the command after this long (ms). */
  timeoutMs: number;
  /** The environment it runs in (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** Who answers for a failed command, in messages. */
const SERVICE: Record<string, string> = { slurm: "the Slurm controller (slurmctld)", oar: "the OAR server" };
const PRODUCT: Record<string, string> = { slurm: "Slurm", oar: "OAR" };

/** Run `command args`; resolves with its stdout, rejects with an InputError saying why. */
export function runSchedulerCommand(rm: "slurm" | "oar", command: string, args: readonly string[], options: SchedulerCommandOptions): Promise<string> {
  const shown = `${command} ${args.join(" ")}`.trim();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGTERM");
      // A command that ignores SIGTERM is killed; its output so far is discarded.
      killer = setTimeout(() => child.kill("SIGKILL"), 2000);
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      clearTimeout(killer);
      reject(
        new InputError(
          error.code === "ENOENT"
            ? `${command} not found: is ${PRODUCT[rm]} installed here, with its client commands on PATH? (--rm ${rm})`
            : `${shown} could not run: ${error.message}`,
        ),
      );
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      const err = Buffer.concat(stderr).toString("utf8");
      if (timedOut) {
        reject(new InputError(`${shown} did not answer within ${options.timeoutMs / 1000} s (stopped) — is ${SERVICE[rm]} reachable? (--command-timeout-s)`));
        return;
      }
      if (status !== 0) {
        const said = err.trim() || Buffer.concat(stdout).toString("utf8").trim();
        const last = said.split("\n").slice(-3).join(" ").slice(0, 500);
        reject(new InputError(`${shown} failed (${signal !== null ? `killed by ${signal}` : `exit ${status}`})${last ? `: ${last}` : ""}`));
        return;
      }
      resolve(Buffer.concat(stdout).toString("utf8"));
    });
  });
}
