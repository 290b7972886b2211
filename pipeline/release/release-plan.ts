/**
 * The release planner ([Y-thesis] ch. 6; docs/science.md §6.3.2), pure: a snapshot of the
 * jobs running on the nodes that must be handed back within T seconds → which jobs to
 * checkpoint, in which waves, when, and what is lost. Each job is an application of
 * ScheduleCkpt: p = the computation it has not saved (now − max(start, last checkpoint)),
 * s = its checkpoint size (its memory); jobs sharing a node are checkpointed by waves
 * (docs/science.md §4.6).
 *
 * Decisions: a job spanning several nodes is one application on its first node, of its
 * total size (the model counts applications, not processes: a limitation, reported in the
 * plan's warnings). Times in the plan are seconds from the snapshot.
 */
import { evaluateSchedule } from "../schedule/evaluate-schedule";
import type { ScheduleOptions } from "../schedule/schedule-options";
import { InputError } from "../shared/errors";

export type SizeSource = "sidecar" | "requested" | "assumed";

export interface RunningJob {
  jobId: string;
  name: string | null;
  user: string | null;
  nodes: string[];
  /** When the current execution started (epoch s). */
  startedAtS: number;
  /** The job's last checkpoint (epoch s), from its sidecar; null when unknown. */
  lastCheckpointAtS: number | null;
  sizeMb: number;
  /** Where the size comes from: the job's sidecar (measured by the job), the memory it requested, or --default-size-mb. */
  sizeSource: SizeSource;
}

export interface ReleaseSnapshot {
  /** The resource manager the jobs come from. */
  rm: string;
  nowS: number;
  /** T: seconds until the nodes are taken back. */
  deadlineS: number;
  nodes: string[];
  jobs: RunningJob[];
}

export interface PlannedJob {
  jobId: string;
  name: string | null;
  node: string;
  nodes: string[];
  sizeMb: number;
  sizeSource: SizeSource;
  /** p: computation not saved, s. */
  unsavedS: number;
  decision: "checkpoint" | "lose";
  wave: number;
  /** Planned start and end of its checkpoint, s from the snapshot (null when not checkpointed). */
  startS: number | null;
  finishS: number | null;
}

export interface ReleasePlan {
  schema: "ckpt-lab/release-plan@1";
  rm: string;
  nowS: number;
  deadlineS: number;
  model: string;
  k0: number;
  nodes: string[];
  jobs: PlannedJob[];
  /** Σ p of the jobs checkpointed (saved) and of the others (lost), s. */
  savedS: number;
  lostS: number;
  warnings: string[];
}

export function planRelease(snapshot: ReleaseSnapshot, options: ScheduleOptions): ReleasePlan {
  if (!(snapshot.deadlineS > 0)) throw new InputError(`the deadline must be in the future (T > 0 s), got T = ${snapshot.deadlineS} s`);
  const warnings: string[] = [];
  for (const job of snapshot.jobs) {
    if (job.nodes.length > 1) warnings.push(`job ${job.jobId} runs on ${job.nodes.length} nodes: planned as one application of its total size on ${job.nodes[0]}`);
    if (job.sizeSource === "assumed") warnings.push(`job ${job.jobId}: memory unknown, assumed ${job.sizeMb} MB (--default-size-mb)`);
  }
  const unsaved = (job: RunningJob) => Math.max(0, snapshot.nowS - Math.max(job.startedAtS, job.lastCheckpointAtS ?? -Infinity));
  if (snapshot.jobs.length === 0) {
    return { schema: "ckpt-lab/release-plan@1", rm: snapshot.rm, nowS: snapshot.nowS, deadlineS: snapshot.deadlineS, model: options.model.name, k0: options.k0, nodes: snapshot.nodes, jobs: [], savedS: 0, lostS: 0, warnings: [...warnings, "no job runs on these nodes: nothing to checkpoint"] };
  }
  const apps = snapshot.jobs.map((job) => ({ id: job.jobId, pS: unsaved(job), sizeMb: job.sizeMb, node: job.nodes[0]! }));
  const report = evaluateSchedule(apps, { ...options, deadlineS: snapshot.deadlineS, record: false });
  warnings.push(...report.warnings);
  const jobs: PlannedJob[] = snapshot.jobs.map((job, index) => {
    const outcome = report.apps[index]!;
    return {
      jobId: job.jobId,
      name: job.name,
      node: job.nodes[0]!,
      nodes: job.nodes,
      sizeMb: job.sizeMb,
      sizeSource: job.sizeSource,
      unsavedS: apps[index]!.pS,
      decision: outcome.checkpointed ? "checkpoint" : "lose",
      wave: outcome.wave ?? 1,
      startS: outcome.checkpointed ? outcome.start : null,
      finishS: outcome.checkpointed ? outcome.finish : null,
    };
  });
  return {
    schema: "ckpt-lab/release-plan@1",
    rm: snapshot.rm,
    nowS: snapshot.nowS,
    deadlineS: snapshot.deadlineS,
    model: options.model.name,
    k0: options.k0,
    nodes: snapshot.nodes,
    jobs,
    savedS: report.ctnys,
    lostS: report.rctnys,
    warnings,
  };
}
