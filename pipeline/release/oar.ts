/**
 * The OAR adapter of the release hook (docs/science.md §6.3.3), for OAR 2.5.
 *
 * - Jobs from `oarstat -J --sql "state = 'Running'"` (only the running ones: the listing of
 *   a busy server is megabytes otherwise): `assigned_network_address`, `startTime`,
 *   `owner`, `jobType`. Every job, array tasks included, has its own id. OAR knows no
 *   memory per job: sizes come from the jobs' sidecars or --default-size-mb.
 * - The checkpoint signal with `oardel --checkpoint` (the signal the job chose at
 *   submission with `oarsub --signal`, default SIGUSR2) or, given --signal, `oardel -s
 *   <SIG>`; both reach the first process of the job (submit `exec ./job.sh` or a script with
 *   -S so that the job's own shell gets it). OAR refuses both for interactive jobs, and
 *   refuses to resubmit them: such a job cannot be saved by the hook.
 * - How a job stands from `oarstat -fJ -j <id>`: its state and its exit code (a wait status:
 *   0, or 99 << 8 for an idempotent job that asks OAR to resubmit it, means it checkpointed;
 *   a job killed by the signal it did not trap ends "Terminated" with the signal's number).
 * - Requeue with `oarsub --resubmit` (a new job id) — unless OAR has resubmitted it already
 *   (an idempotent job that exited 99 after more than 60 s), so that it restarts once.
 */
import { execFile } from "node:child_process";
import { InputError } from "../shared/errors";
import type { RunningJob } from "./release-plan";
import type { JobsQuery, JobState, ResourceManager } from "./resource-manager";
import { runSchedulerCommand } from "./scheduler-command";

/** A job as `oarstat -J` prints it (OAR 2.5). */
export interface OarJob {
  jobId: string;
  state: string;
  name: string | null;
  owner: string | null;
  startTimeS: number | null;
  nodes: string[];
  jobType: string | null;
  resubmitJobId: number | null;
  /** A wait status (`oarstat -f`), null while running. */
  exitCode: number | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `oarstat -J` (with or without -f): job id → job. Empty output is no job. Pure. */
export function parseOarstat(text: string): OarJob[] {
  if (text.trim() === "") return [];
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    throw new InputError(`oarstat -J printed no JSON (${text.length} bytes, starting "${text.slice(0, 80).replace(/\s+/g, " ")}")`);
  }
  if (!isObject(root)) throw new InputError("oarstat -J printed JSON that is not an object of jobs: a shape the hook does not know (it reads OAR 2.5)");
  return Object.entries(root).map(([id, job]) => {
    const where = `oarstat -J, job ${id}`;
    if (!/^\d+$/.test(id) || !isObject(job)) throw new InputError(`${where}: not a job record: a shape the hook does not know (it reads OAR 2.5)`);
    if (typeof job.state !== "string") throw new InputError(`${where}: state is ${JSON.stringify(job.state)}, not a string`);
    const nodes = job.assigned_network_address ?? [];
    if (!Array.isArray(nodes) || !nodes.every((n) => typeof n === "string")) throw new InputError(`${where}: assigned_network_address is not a list of node names`);
    const numberOrNull = (field: string) => {
      const value = job[field];
      if (value === undefined || value === null) return null;
      if (typeof value === "number" && Number.isFinite(value)) return value;
      throw new InputError(`${where}: ${field} is ${JSON.stringify(value)}, not a number`);
    };
    const start = numberOrNull("startTime");
    const resubmit = numberOrNull("resubmit_job_id");
    return {
      jobId: id,
      state: job.state,
      name: typeof job.name === "string" ? job.name : null,
      owner: typeof job.owner === "string" ? job.owner : typeof job.job_user === "string" ? job.job_user : null,
      startTimeS: start !== null && start > 0 ? start : null,
      nodes: [...new Set(nodes as string[])],
      jobType: typeof job.jobType === "string" ? job.jobType : null,
      resubmitJobId: resubmit !== null && resubmit > 0 ? resubmit : null,
      exitCode: numberOrNull("exit_code"),
    };
  });
}

/** The running jobs of a listing on some nodes (pure); `uidOf` gives each owner's uid. */
export function oarRunningJobs(listing: readonly OarJob[], nodes: readonly string[], defaultSizeMb: number | null, uidOf: (owner: string) => number | null): RunningJob[] {
  const wanted = new Set(nodes);
  return listing
    .filter((job) => job.state === "Running" && job.nodes.some((n) => wanted.has(n)))
    .map((job) => {
      const interactive = job.jobType === "INTERACTIVE";
      return {
        jobId: job.jobId,
        sidecarId: job.jobId,
        name: job.name,
        user: job.owner,
        uid: job.owner === null ? null : uidOf(job.owner),
        nodes: job.nodes,
        startedAtS: job.startTimeS,
        lastCheckpointAtS: null,
        // Sidecars replace this.
        sizeMb: defaultSizeMb,
        sizeSource: defaultSizeMb === null ? ("unknown" as const) : ("assumed" as const),
        cannotSignal: interactive ? "an interactive job (oarsub -I): OAR signals only batch jobs" : null,
        cannotRequeue: interactive ? "an interactive job cannot be resubmitted" : null,
      };
    });
}

/** Still holding its nodes; "Finishing" without an exit code yet is too. */
const STILL_RUNNING = new Set(["Running", "Launching", "toLaunch", "Suspended", "Resuming", "Finishing"]);
/** The exit code an idempotent job gives for "resubmit me" (`oarsub -t idempotent`), as a wait status. */
const IDEMPOTENT_EXIT = 99 << 8;

/** How a signalled job stands (pure). */
export function oarJobState(job: OarJob): JobState {
  if (job.state === "Finishing" && job.exitCode !== null) return endedHow(job);
  if (STILL_RUNNING.has(job.state)) return { ended: false, state: job.state };
  if (job.state === "Terminated" || job.state === "Error") return endedHow(job);
  throw new InputError(`OAR job ${job.jobId} is in the state "${job.state}", not one a signalled job goes through`);
}

function endedHow(job: OarJob): JobState {
  const code = job.exitCode;
  if (code === 0 || code === IDEMPOTENT_EXIT) return { ended: true, saved: true, requeued: false, how: `${job.state}, exit ${code === 0 ? 0 : 99}` };
  if (code === null) return { ended: true, saved: false, requeued: false, how: `${job.state}, no exit code (deleted, or its launch failed)` };
  const signal = code & 0x7f;
  return {
    ended: true,
    saved: false,
    requeued: false,
    how: signal !== 0 ? `${job.state}, killed by signal ${signal}: its script did not trap the checkpoint signal, or died of it` : `${job.state}, exit ${code >> 8}`,
  };
}

const JOB_ID = /^\d+$/;
function checkJobId(jobId: string): string {
  if (!JOB_ID.test(jobId)) throw new InputError(`"${jobId}" is not an OAR job id`);
  return jobId;
}

/** A user's uid from the system's user database (LDAP included), null when unknown. */
function lookUpUid(user: string): Promise<number | null> {
  return new Promise((resolve) => {
    execFile("id", ["-u", "--", user], { encoding: "utf8", timeout: 10_000 }, (error, stdout) => resolve(error === null && /^\d+\s*$/.test(stdout) ? Number(stdout) : null));
  });
}

export function oarAdapter(options: { commandTimeoutMs: number }): ResourceManager {
  const run = (command: string, args: string[]) => runSchedulerCommand("oar", command, args, { timeoutMs: options.commandTimeoutMs });
  const one = async (jobId: string) => {
    const jobs = parseOarstat(await run("oarstat", ["-fJ", "-j", checkJobId(jobId)]));
    if (jobs.length !== 1 || jobs[0]!.jobId !== jobId) throw new InputError(`oarstat -fJ -j ${jobId} gave ${jobs.length} job(s), not exactly job ${jobId}: its state cannot be known`);
    return jobs[0]!;
  };
  return {
    name: "oar",
    async knownNodes() {
      return [...new Set((await run("oarnodes", ["-l"])).split("\n").map((l) => l.trim()).filter(Boolean))];
    },
    async reservationNodes(name) {
      throw new InputError(`OAR has no named reservations of nodes like Slurm's; give --nodes (got --reservation ${name})`);
    },
    async runningJobs({ nodes, defaultSizeMb }: JobsQuery) {
      const listing = parseOarstat(await run("oarstat", ["-J", "--sql", "state = 'Running'"]));
      const uids = new Map<string, number | null>();
      for (const owner of new Set(listing.map((job) => job.owner).filter((o) => o !== null))) uids.set(owner, await lookUpUid(owner));
      return { jobs: oarRunningJobs(listing, nodes, defaultSizeMb, (owner) => uids.get(owner) ?? null), warnings: [] };
    },
    async signalCheckpoint(jobId, signal) {
      await run("oardel", signal === null ? ["--checkpoint", checkJobId(jobId)] : ["-s", signal, checkJobId(jobId)]);
    },
    async jobState(jobId) {
      return oarJobState(await one(jobId));
    },
    async requeue(jobId) {
      const copy = parseOarstat(await run("oarstat", ["-J", "--sql", `resubmit_job_id = ${Number(checkJobId(jobId))}`]))[0];
      if (copy !== undefined) return `OAR resubmitted it itself as job ${copy.jobId} (idempotent, exit 99)`;
      const text = await run("oarsub", ["--resubmit", jobId]);
      const id = /OAR_JOB_ID=(\d+)/.exec(text)?.[1];
      if (id === undefined) throw new InputError(`oarsub --resubmit ${jobId} printed no new job id: ${text.trim().split("\n").slice(-2).join(" ").slice(0, 300)}`);
      return `resubmitted as job ${id}`;
    },
  };
}
