/**
 * The OAR adapter of the release hook (docs/science.md §6.3.3): jobs from `oarstat -J`
 * (state "Running", `assigned_network_address`, `startTime`), the checkpoint signal with
 * `oardel --checkpoint` (OAR sends the job's --signal, default SIGUSR2, to the first
 * process of the job: submit `exec ./job.sh` or a script with -S so the job's own shell
 * gets it), requeue with `oarsub --resubmit` (a new job id) — unless OAR has resubmitted it
 * already (an idempotent job that exits 99 after more than 60 s), so that it restarts once.
 * OAR knows no memory per job: sizes come from the jobs' sidecars or --default-size-mb.
 */
import { InputError } from "../shared/errors";
import type { RunningJob } from "./release-plan";
import { schedulerCommand, schedulerCommandAsync, type JobsQuery, type ResourceManager } from "./resource-manager";

interface OarJob {
  Job_Id?: number;
  state: string;
  name?: string | null;
  owner?: string;
  startTime?: number;
  assigned_network_address?: string[];
  resubmit_job_id?: number;
}

function oarstat(args: string[]): Record<string, OarJob> {
  const text = schedulerCommand("oar", "oarstat", ["-J", ...args]);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as Record<string, OarJob>;
  } catch {
    throw new InputError(`oarstat -J printed no JSON: ${text.slice(0, 200)}`);
  }
}

export const oar: ResourceManager = {
  name: "oar",
  knownNodes() {
    const text = schedulerCommand("oar", "oarnodes", ["-J"]);
    const resources = JSON.parse(text) as Record<string, { network_address?: string; host?: string }>;
    return [...new Set(Object.values(resources).map((r) => r.network_address ?? r.host ?? "").filter(Boolean))];
  },
  reservationNodes(name) {
    throw new InputError(`OAR has no named reservations of nodes like Slurm's; give --nodes (got --reservation ${name})`);
  },
  runningJobs({ nodes, defaultSizeMb }: JobsQuery): RunningJob[] {
    const wanted = new Set(nodes);
    return Object.entries(oarstat([]))
      .filter(([, job]) => job.state === "Running" && (job.assigned_network_address ?? []).some((n) => wanted.has(n)))
      .map(([id, job]) => ({
        jobId: id,
        name: job.name ?? null,
        user: job.owner ?? null,
        nodes: job.assigned_network_address ?? [],
        startedAtS: job.startTime ?? 0,
        lastCheckpointAtS: null,
        // Sidecars replace this; without one and without --default-size-mb the caller refuses.
        sizeMb: defaultSizeMb ?? 0,
        sizeSource: "assumed" as const,
      }));
  },
  async signalCheckpoint(jobId) {
    await schedulerCommandAsync("oar", "oardel", ["--checkpoint", jobId]);
  },
  isRunning(jobId) {
    // Finishing: the job's processes have ended and OAR is cleaning its nodes (several
    // seconds); it can be resubmitted already.
    const line = schedulerCommand("oar", "oarstat", ["-s", "-j", jobId]).trim();
    return /:\s*(Running|Launching|toLaunch)\s*$/.test(line);
  },
  requeue(jobId) {
    const copy = Object.entries(oarstat([])).find(([, job]) => String(job.resubmit_job_id ?? 0) === jobId);
    if (copy !== undefined) return `OAR resubmitted it as job ${copy[0]} (idempotent, exit 99)`;
    const text = schedulerCommand("oar", "oarsub", ["--resubmit", jobId]);
    return `resubmitted as job ${/OAR_JOB_ID=(\d+)/.exec(text)?.[1] ?? "?"}`;
  },
};
