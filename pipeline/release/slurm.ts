/**
 * The Slurm adapter of the release hook (docs/science.md §6.3.4): jobs from `squeue --json`
 * (Slurm ≥ 21.08's openapi plugin; 22.05 tested), sizes from the memory each job was
 * allocated (`job_resources.allocated_nodes[].memory_allocated`, MB), the checkpoint signal
 * with `scancel --signal=<SIG> --batch` (to the batch shell, which traps it), requeue with
 * `scontrol requeue`; for --watch, reservations from `scontrol -o show reservation` (times
 * in the local time zone of this process, as scontrol prints them) and drains from sinfo.
 */
import { InputError } from "../shared/errors";
import { expandHostlist } from "./hostlist";
import type { RunningJob } from "./release-plan";
import type { UpcomingReservation } from "./release-triggers";
import { schedulerCommand, schedulerCommandAsync, type JobsQuery, type ResourceManager } from "./resource-manager";

interface SqueueJob {
  job_id: number;
  name?: string;
  user_name?: string;
  job_state: string;
  nodes?: string;
  start_time?: number;
  memory_per_node?: number | null;
  memory_per_cpu?: number | null;
  cpus?: number;
  node_count?: number;
  job_resources?: { allocated_nodes?: { nodename: string; memory_allocated?: number }[] };
}

function squeue(args: string[]): SqueueJob[] {
  const text = schedulerCommand("slurm", "squeue", ["--json", ...args]);
  try {
    return (JSON.parse(text) as { jobs: SqueueJob[] }).jobs ?? [];
  } catch {
    throw new InputError(`squeue --json printed no JSON (this hook needs Slurm ≥ 21.08 with its openapi plugin): ${text.slice(0, 200)}`);
  }
}

/** Allocated memory (MB) of a job: per node as allocated, else as requested. */
function allocatedMb(job: SqueueJob): number | null {
  const perNode = job.job_resources?.allocated_nodes?.map((n) => n.memory_allocated ?? 0) ?? [];
  const total = perNode.reduce((s, m) => s + m, 0);
  if (total > 0) return total;
  if (job.memory_per_node) return job.memory_per_node * (job.node_count ?? 1);
  if (job.memory_per_cpu) return job.memory_per_cpu * (job.cpus ?? 1);
  return null;
}

/** One line of `scontrol -o show reservation` (key=value fields; "No reservations in the system" when none). */
export function parseReservationLine(line: string): UpcomingReservation | null {
  const field = (key: string) => new RegExp(`(?:^|\\s)${key}=(\\S*)`).exec(line)?.[1];
  const name = field("ReservationName");
  if (name === undefined) return null;
  const start = field("StartTime");
  const startS = start === undefined ? NaN : Date.parse(start) / 1000;
  if (!Number.isFinite(startS)) throw new InputError(`scontrol show reservation: reservation ${name} has no readable StartTime (${start})`);
  const nodes = field("Nodes");
  return { name, startS, nodes: nodes === undefined || nodes === "(null)" ? [] : expandHostlist(nodes), active: field("State") === "ACTIVE" };
}

export const slurm: ResourceManager = {
  name: "slurm",
  knownNodes() {
    return schedulerCommand("slurm", "sinfo", ["-h", "-N", "-o", "%N"]).split("\n").map((l) => l.trim()).filter(Boolean);
  },
  reservationNodes(name) {
    const text = schedulerCommand("slurm", "scontrol", ["show", "reservation", name]);
    const nodes = /\bNodes=(\S+)/.exec(text)?.[1];
    if (nodes === undefined || nodes === "(null)") throw new InputError(`the reservation "${name}" has no nodes (scontrol show reservation ${name})`);
    return expandHostlist(nodes);
  },
  runningJobs({ nodes, defaultSizeMb }: JobsQuery): RunningJob[] {
    const wanted = new Set(nodes);
    return squeue(["--states=RUNNING"])
      .filter((job) => job.job_state === "RUNNING" && expandHostlist(job.nodes ?? "").some((n) => wanted.has(n)))
      .map((job) => {
        const memory = allocatedMb(job);
        if (memory === null && defaultSizeMb === null) {
          throw new InputError(`job ${job.job_id}: Slurm knows no memory for it; give --default-size-mb (what to assume) or have the job write its sidecar`);
        }
        return {
          jobId: String(job.job_id),
          name: job.name ?? null,
          user: job.user_name ?? null,
          nodes: expandHostlist(job.nodes ?? ""),
          startedAtS: job.start_time ?? 0,
          lastCheckpointAtS: null,
          sizeMb: memory ?? defaultSizeMb!,
          sizeSource: memory === null ? "assumed" : "requested",
        };
      });
  },
  takeovers() {
    const reservations = schedulerCommand("slurm", "scontrol", ["-o", "show", "reservation"]).split("\n").map(parseReservationLine).filter((r) => r !== null);
    const draining = schedulerCommand("slurm", "sinfo", ["-h", "-N", "-o", "%N %T"])
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter(([node, state]) => node && state !== undefined && /^draining|\+drain/i.test(state))
      .map(([node]) => node!);
    return { reservations, draining: [...new Set(draining)] };
  },
  async signalCheckpoint(jobId, signal) {
    await schedulerCommandAsync("slurm", "scancel", [`--signal=${signal}`, "--batch", jobId]);
  },
  isRunning(jobId) {
    const state = schedulerCommand("slurm", "squeue", ["-h", "-t", "all", "-j", jobId, "-o", "%T"]).trim();
    return state === "RUNNING" || state === "COMPLETING" || state === "CONFIGURING";
  },
  requeue(jobId) {
    schedulerCommand("slurm", "scontrol", ["requeue", jobId]);
    return "scontrol requeue";
  },
};
