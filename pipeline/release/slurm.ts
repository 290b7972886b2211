/**
 * The Slurm adapter of the release hook (docs/science.md §6.3.4).
 *
 * - Jobs from `squeue --json --states=RUNNING --nodelist=…` (every JSON shape since 21.08:
 *   squeue-json.ts; before 24.05.1 squeue prints every job whatever the filters, so they
 *   are applied here too). A job is addressed as Slurm addresses it: an array task as
 *   `<array>_<task>` (a bare array id means every task of the array to scancel and
 *   scontrol), a heterogeneous job by its id (its components are one job: one batch
 *   script, requeued whole), never a step. Sizes from the memory each job was allocated
 *   (MiB, converted to MB).
 * - The checkpoint signal with `scancel --signal=<SIG> --batch` (to the batch shell, which
 *   traps it); how a job stands from `scontrol -o show job` (one record, or the leader's of
 *   a heterogeneous job: anything else is an error), with its exit code, so that "saved"
 *   means "ended with exit 0", not "no longer running"; requeue with `scontrol requeue`,
 *   checked by reading the job back.
 * - For --watch: reservations from `scontrol -o show reservation`, drains and their reasons
 *   from `sinfo`.
 *
 * Every command runs with Slurm's own environment variables removed (SQUEUE_FORMAT,
 * SCANCEL_INTERACTIVE or SLURM_CLUSTERS in root's environment would change what the
 * commands print or do; SLURM_CONF is kept) and times printed as epoch seconds
 * (SLURM_TIME_FORMAT=%s), whatever the environment the hook is started from.
 */
import { constants } from "node:os";
import { InputError } from "../shared/errors";
import { compressHostlist, expandHostlist } from "./hostlist";
import type { RunningJob } from "./release-plan";
import type { DrainingNode, UpcomingReservation } from "./release-triggers";
import type { JobsQuery, JobState, ResourceManager } from "./resource-manager";
import { runSchedulerCommand } from "./scheduler-command";
import { parseSqueueJson, type SqueueJob } from "./squeue-json";

/** Slurm counts memory in MiB; the bandwidth model and ScheduleCkpt count MB (10^6 bytes). */
export const MB_PER_MIB = 1.048576;

/** The environment Slurm's commands run in: theirs removed, times as epoch seconds. */
export function slurmEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (key === "SLURM_CONF" || !/^(SLURM|SQUEUE|SINFO|SCONTROL|SCANCEL|SACCT|SBATCH|SALLOC|SRUN)_/.test(key)) clean[key] = value;
  }
  return { ...clean, SLURM_TIME_FORMAT: "%s", TZ: "UTC", LC_ALL: "C" };
}

/** A job id the hook may pass to scancel or scontrol: a job, or an array task; never a step ("12.0") or anything else. */
const JOB_ID = /^\d+(_\d+)?$/;

function checkJobId(jobId: string): string {
  if (!JOB_ID.test(jobId)) throw new InputError(`"${jobId}" is not a Slurm job id the hook addresses (a job "812" or an array task "812_3")`);
  return jobId;
}

/** The running jobs of a listing on some nodes, one per job as the hook addresses it (pure). */
export function runningJobsOf(records: readonly SqueueJob[], nodes: readonly string[], defaultSizeMb: number | null): RunningJob[] {
  const wanted = new Set(nodes);
  const units = new Map<string, SqueueJob[]>();
  for (const record of records) {
    const key = record.hetJobId !== null ? `het ${record.hetJobId}` : `job ${record.jobId}`;
    units.set(key, [...(units.get(key) ?? []), record]);
  }
  const jobs: RunningJob[] = [];
  for (const components of units.values()) {
    components.sort((a, b) => (a.hetJobOffset ?? 0) - (b.hetJobOffset ?? 0));
    const leader = components[0]!;
    if (!isRunning(leader.state)) continue;
    const jobNodes = [...new Set(components.flatMap((c) => c.nodes))];
    if (!jobNodes.some((node) => wanted.has(node))) continue;
    const mib = components.map(memoryMib);
    const totalMib = mib.every((m) => m !== null) ? (mib as number[]).reduce((s, m) => s + m, 0) : null;
    const sizeMb = totalMib === null ? defaultSizeMb : totalMib * MB_PER_MIB;
    jobs.push({
      jobId: leader.hetJobId !== null ? String(leader.hetJobId) : leader.arrayJobId !== null && leader.arrayTaskId !== null ? `${leader.arrayJobId}_${leader.arrayTaskId}` : String(leader.jobId),
      sidecarId: String(leader.jobId),
      name: leader.name,
      user: leader.userName,
      uid: leader.userId,
      nodes: jobNodes,
      startedAtS: leader.startTimeS,
      lastCheckpointAtS: null,
      sizeMb,
      sizeSource: totalMib !== null ? "requested" : sizeMb !== null ? "assumed" : "unknown",
      cannotSignal: leader.batch === false ? "not a batch job (salloc or srun): it has no batch script to trap the signal" : null,
      cannotRequeue: leader.batch === false ? "not a batch job" : leader.requeue === false ? "it may not be requeued (submitted with --no-requeue, or the cluster's JobRequeue=0)" : null,
    });
  }
  return jobs;
}

/** Running, and past configuring (its nodes booted, its script started). */
const isRunning = (state: readonly string[]) => state[0] === "RUNNING" && !state.includes("CONFIGURING") && !state.includes("COMPLETING");

function memoryMib(job: SqueueJob): number | null {
  if (job.allocatedMib !== null) return job.allocatedMib;
  if (job.memoryPerNodeMib !== null && Number.isFinite(job.memoryPerNodeMib)) return job.memoryPerNodeMib * (job.nodeCount ?? 1);
  if (job.memoryPerCpuMib !== null && Number.isFinite(job.memoryPerCpuMib)) return job.memoryPerCpuMib * (job.cpus ?? 1);
  return null;
}

/** The het job ids of a listing whose components are not all in it (squeue ≥ 24.05.1 filters components by node). */
function incompleteHetJobs(records: readonly SqueueJob[]): number[] {
  const seen = new Map<number, { count: number; expected: number }>();
  for (const record of records) {
    if (record.hetJobId === null) continue;
    const entry = seen.get(record.hetJobId) ?? { count: 0, expected: record.hetJobIdSet === null ? 0 : expandHostlist(`x[${record.hetJobIdSet}]`).length };
    entry.count += 1;
    seen.set(record.hetJobId, entry);
  }
  return [...seen].filter(([, { count, expected }]) => count < expected).map(([id]) => id);
}

/** One record of `scontrol -o show job` (one line each). */
export interface ScontrolJobRecord {
  jobId: string;
  arrayJobId: string | null;
  arrayTaskId: string | null;
  hetJobId: string | null;
  hetJobOffset: string | null;
  state: string;
  /** "status:signal", e.g. "0:0", "0:12" (killed by signal 12). */
  exitCode: string;
  restarts: number;
}

export function parseScontrolJobs(text: string): ScontrolJobRecord[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("JobId="))
    .map((line) => {
      const field = (key: string) => new RegExp(`(?:^|\\s)${key}=(\\S*)`).exec(line)?.[1] ?? null;
      return {
        jobId: field("JobId")!,
        arrayJobId: field("ArrayJobId"),
        arrayTaskId: field("ArrayTaskId"),
        hetJobId: field("HetJobId"),
        hetJobOffset: field("HetJobOffset"),
        state: field("JobState") ?? "",
        exitCode: field("ExitCode") ?? "",
        restarts: Number(field("Restarts") ?? 0),
      };
    });
}

/** The one record that is `jobId` (an array task's, a het job's leader's); anything else is an error. */
export function recordOf(jobId: string, records: readonly ScontrolJobRecord[]): ScontrolJobRecord {
  const [arrayId, taskId] = jobId.split("_");
  // A heterogeneous job prints one record per component, all with its id: the leader (offset 0) has the batch script.
  const heterogeneous = taskId === undefined && records.length > 0 && records.every((r) => r.hetJobId === jobId);
  const matching = records.filter((r) =>
    taskId !== undefined ? r.arrayJobId === arrayId && r.arrayTaskId === taskId : heterogeneous ? r.hetJobOffset === "0" : r.jobId === jobId && r.hetJobId === null,
  );
  if (matching.length !== 1 || (!heterogeneous && records.length !== 1)) {
    throw new InputError(`scontrol show job ${jobId} gave ${records.length} record(s) (${records.map((r) => r.jobId).join(", ") || "none"}), not exactly the one of job ${jobId}: its state cannot be known`);
  }
  return matching[0]!;
}

/** Base states of a job still holding its nodes. */
const STILL_RUNNING = new Set(["RUNNING", "COMPLETING", "CONFIGURING", "SUSPENDED", "STOPPED", "SIGNALING", "STAGE_OUT", "RESIZING", "POWER_UP_NODE"]);
/** States of a job queued again. */
const REQUEUED = new Set(["PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "SPECIAL_EXIT"]);
const ENDED = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY"]);

/** A signal's name ("USR2") from its number. */
const signalName = (n: number) => Object.entries(constants.signals).find(([, value]) => value === n)?.[0]?.replace(/^SIG/, "") ?? `signal ${n}`;

/** How a signalled job stands, from its scontrol record (pure). */
export function jobStateOf(record: ScontrolJobRecord): JobState {
  const state = record.state.replace(/\+.*$/, "");
  if (STILL_RUNNING.has(state)) return { ended: false, state };
  if (REQUEUED.has(state)) return { ended: true, saved: true, requeued: true, how: `${state}, Restarts=${record.restarts}` };
  if (!ENDED.has(state)) throw new InputError(`job ${record.jobId} is in the state "${record.state}", which the hook does not know`);
  const [status, signal] = record.exitCode.split(":").map(Number);
  if (state === "COMPLETED" && status === 0) return { ended: true, saved: true, requeued: false, how: "COMPLETED, exit 0" };
  const end = signal ? `killed by signal ${signal} (${signalName(signal)})` : `exit ${status}`;
  return { ended: true, saved: false, requeued: false, how: `${state}, ${end}${signal ? ": its batch script did not trap the checkpoint signal, or died of it" : ""}` };
}

/** One line of `scontrol -o show reservation` (key=value fields; "No reservations in the system" when none). */
export function parseReservationLine(line: string): UpcomingReservation | null {
  const field = (key: string) => new RegExp(`(?:^|\\s)${key}=(\\S*)`).exec(line)?.[1];
  const name = field("ReservationName");
  if (name === undefined) return null;
  const startS = slurmTime(field("StartTime"));
  if (startS === null) throw new InputError(`scontrol show reservation: reservation ${name} has no readable StartTime (${field("StartTime")})`);
  const nodes = field("Nodes");
  const flags = field("Flags");
  return {
    name,
    startS,
    nodes: nodes === undefined || nodes === "(null)" ? [] : expandHostlist(nodes),
    flags: flags === undefined || flags === "(null)" ? [] : flags.split(",").filter(Boolean),
    active: field("State") === "ACTIVE",
  };
}

/** A time as scontrol prints it under SLURM_TIME_FORMAT=%s (epoch s), or its ISO form under TZ=UTC. */
function slurmTime(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(text) ? `${text}Z` : "invalid");
  return Number.isFinite(at) ? at / 1000 : null;
}

/** `sinfo -h -N -o %N|%T|%E`: the draining nodes (running jobs, taking no new ones) and why. */
export function parseDrains(text: string): DrainingNode[] {
  const drains = new Map<string, string>();
  for (const line of text.split("\n")) {
    const [node, state, ...reason] = line.trim().split("|");
    if (!node || state === undefined) continue;
    if (/^draining|\+drain/i.test(state)) drains.set(node, reason.join("|").trim());
  }
  return [...drains].map(([node, reason]) => ({ node, reason }));
}

export function slurmAdapter(options: { commandTimeoutMs: number }): ResourceManager {
  const run = (command: string, args: string[]) => runSchedulerCommand("slurm", command, args, { timeoutMs: options.commandTimeoutMs, env: slurmEnvironment() });
  const stateOf = async (jobId: string) => jobStateOf(recordOf(jobId, parseScontrolJobs(await run("scontrol", ["-o", "show", "job", checkJobId(jobId)]))));
  return {
    name: "slurm",
    async knownNodes() {
      return [...new Set((await run("sinfo", ["-h", "-N", "-o", "%N"])).split("\n").map((l) => l.trim()).filter(Boolean))];
    },
    async reservationNodes(name) {
      const reservation = parseReservationLine((await run("scontrol", ["-o", "show", "reservation", name])).trim());
      if (reservation === null || reservation.nodes.length === 0) throw new InputError(`the reservation "${name}" has no nodes (scontrol show reservation ${name})`);
      return reservation.nodes;
    },
    async runningJobs({ nodes, defaultSizeMb }: JobsQuery) {
      const listing = parseSqueueJson(await run("squeue", ["--json", "--states=RUNNING", `--nodelist=${compressHostlist(nodes)}`]));
      const records = [...listing.jobs];
      for (const hetJobId of incompleteHetJobs(records)) {
        const more = parseSqueueJson(await run("squeue", ["--json", `--jobs=${hetJobId}`])).jobs.filter((job) => job.hetJobId === hetJobId && !records.some((r) => r.jobId === job.jobId));
        records.push(...more);
      }
      return { jobs: runningJobsOf(records, nodes, defaultSizeMb), warnings: listing.warnings };
    },
    async takeovers() {
      const reservations = (await run("scontrol", ["-o", "show", "reservation"])).split("\n").map(parseReservationLine).filter((r) => r !== null);
      const drains = parseDrains(await run("sinfo", ["-h", "-N", "-o", "%N|%T|%E"]));
      return { reservations, drains };
    },
    async signalCheckpoint(jobId, signal) {
      await run("scancel", [`--signal=${signal ?? "USR2"}`, "--batch", checkJobId(jobId)]);
    },
    jobState: stateOf,
    async requeue(jobId) {
      await run("scontrol", ["requeue", checkJobId(jobId)]);
      const after = await stateOf(jobId);
      if (after.ended && after.requeued) return `scontrol requeue: ${after.how}`;
      throw new InputError(`scontrol requeue ${jobId} exited 0 but the job is ${after.ended ? after.how : after.state}, not queued again`);
    },
  };
}
