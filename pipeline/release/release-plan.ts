/**
 * The release planner ([Y-thesis] ch. 6; docs/science.md §6.3.2), pure: a snapshot of the
 * jobs running on the nodes that must be handed back within T seconds → which jobs to
 * checkpoint, in which waves, when, and what is lost. Each job is an application of
 * ScheduleCkpt: p = the computation it has not saved (now − max(start, last checkpoint)),
 * s = its checkpoint size (its memory); jobs sharing a node are checkpointed by waves
 * (docs/science.md §4.6).
 *
 * Decisions the sources leave open:
 * - A job spanning several nodes writes its image from each of them: it is one application
 *   of its total size, planned on every node it holds, so no other job on any of those
 *   nodes checkpoints in the same wave. Waves are assigned in list order, each job to the
 *   first wave where none of its nodes is taken (with one node per job: the j-th job of a
 *   node in wave j, as `wavesOf` does). The model counts applications, not processes: said
 *   in the plan's warnings.
 * - A job that cannot be signalled (not a batch job; OAR: interactive) or whose size is
 *   unknown is not given to ScheduleCkpt: it is lost, and the plan says why.
 * - A job with no start time and no last checkpoint has an unknown p: it counts as 0 s
 *   (never as "since 1970"), with a warning.
 *
 * - With a confidence (`ckpt release --confidence`, the default for a model fitted by this
 *   project), ScheduleCkpt plans on the (1 − confidence)-quantile of the model's predictive
 *   bandwidth, one factor for the whole release (schedule/confident-plan.ts); the plan then
 *   carries its miss probability (whenever the model has a predictive distribution, for a
 *   mean plan too).
 *
 * Times in the plan are seconds from the snapshot.
 */
import { confidentChoice, planMissProbability, type BandwidthQuantile, type Confidence } from "../schedule/confident-plan";
import { evaluateSchedule } from "../schedule/evaluate-schedule";
import type { ScheduleOptions } from "../schedule/schedule-options";
import { InputError } from "../shared/errors";

export type SizeSource = "sidecar" | "requested" | "assumed" | "unknown";

export interface RunningJob {
  /** The job as the scheduler addresses it: "812", an array task "812_3", a heterogeneous job "815" (all its components). */
  jobId: string;
  /** The id the job's own wrapper knows ($SLURM_JOB_ID, $OAR_JOB_ID): its sidecar is `<sidecarId>.json`. */
  sidecarId: string;
  name: string | null;
  user: string | null;
  /** The job owner's uid (sidecars must be theirs); null when unknown. */
  uid: number | null;
  nodes: string[];
  /** When the current execution started (epoch s); null when the scheduler gives none. */
  startedAtS: number | null;
  /** The job's last checkpoint (epoch s), from its sidecar; null when unknown. */
  lastCheckpointAtS: number | null;
  /** MB (10^6 bytes); null when unknown. */
  sizeMb: number | null;
  /** Where the size comes from: the job's sidecar (measured by the job), the memory it was allocated, --default-size-mb, or nowhere. */
  sizeSource: SizeSource;
  /** Why the hook cannot signal it (null: it can). */
  cannotSignal: string | null;
  /** Why it will not be requeued after its checkpoint (null: it will). */
  cannotRequeue: string | null;
}

export interface ReleaseSnapshot {
  /** The resource manager the jobs come from. */
  rm: string;
  nowS: number;
  /** T: seconds until the nodes are taken back. */
  deadlineS: number;
  nodes: string[];
  jobs: RunningJob[];
  /** What the scheduler or the sidecars warned about. */
  warnings?: string[];
}

export interface PlannedJob {
  jobId: string;
  name: string | null;
  user: string | null;
  /** Every node it holds, and those of them being released. */
  nodes: string[];
  releasedNodes: string[];
  sizeMb: number | null;
  sizeSource: SizeSource;
  /** p: computation not saved, s. */
  unsavedS: number;
  decision: "checkpoint" | "lose";
  /** Why it is lost (null when it is checkpointed). */
  reason: string | null;
  /** Why it will not be requeued after its checkpoint (null: it will). */
  cannotRequeue: string | null;
  /** Its wave (null when not given to ScheduleCkpt). */
  wave: number | null;
  /** Planned start and end of its checkpoint, s from the snapshot (null when not checkpointed). */
  startS: number | null;
  finishS: number | null;
}

export interface ReleasePlan {
  schema: "ckpt-lab/release-plan@2";
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
  /** The confidence planned at, or "mean" (the papers' plan on the model's mean). */
  confidence: Confidence;
  /**
   * P(a job the plan checkpoints does not end by T) under the model's predictive
   * distribution, one factor per release (schedule/confident-plan.ts); null when the model
   * has none (the published one).
   */
  missProbability: number | null;
  warnings: string[];
}

/** How to plan: at a confidence on the model's predictive quantiles, or on the mean (quantile still given when the model has one, for the miss probability). */
export interface ReleaseConfidence {
  confidence: Confidence;
  quantile: BandwidthQuantile | null;
}

/**
 * Waves for jobs that may span several nodes: each job, in order, goes to the first wave
 * in which none of its nodes is taken yet. Returns the 0-based wave of each job.
 */
export function wavesBySharedNodes(jobs: readonly { nodes: readonly string[] }[]): number[] {
  const taken: Set<string>[] = [];
  return jobs.map((job) => {
    let wave = 0;
    while (taken[wave] !== undefined && job.nodes.some((node) => taken[wave]!.has(node))) wave++;
    const nodes = (taken[wave] ??= new Set());
    for (const node of job.nodes) nodes.add(node);
    return wave;
  });
}

export function planRelease(snapshot: ReleaseSnapshot, meanOptions: ScheduleOptions, planning: ReleaseConfidence = { confidence: "mean", quantile: null }): ReleasePlan {
  const { confidence, quantile } = planning;
  if (confidence !== "mean" && quantile === null) throw new InputError(`a plan at confidence ${confidence} needs the model's predictive quantiles`);
  let missProbability: number | null = null;
  if (!(snapshot.deadlineS > 0)) throw new InputError(`the deadline must be in the future (T > 0 s), got T = ${snapshot.deadlineS} s`);
  const warnings: string[] = [...(snapshot.warnings ?? [])];
  const released = new Set(snapshot.nodes);
  const unsaved = (job: RunningJob) => {
    const since = Math.max(job.startedAtS ?? -Infinity, job.lastCheckpointAtS ?? -Infinity);
    if (since === -Infinity) {
      warnings.push(`job ${job.jobId}: the scheduler gives no start time and it has no last checkpoint: its unsaved time is unknown, counted as 0 s`);
      return 0;
    }
    return Math.max(0, snapshot.nowS - since);
  };
  const candidates: number[] = [];
  const jobs: PlannedJob[] = snapshot.jobs.map((job, index) => {
    if (job.nodes.length > 1) warnings.push(`job ${job.jobId} runs on ${job.nodes.length} nodes: planned as one application of its total size, checkpointing on all of them at once`);
    if (job.sizeSource === "assumed") warnings.push(`job ${job.jobId}: memory unknown, assumed ${job.sizeMb} MB (--default-size-mb)`);
    const reason =
      job.cannotSignal !== null
        ? `cannot be signalled: ${job.cannotSignal}`
        : job.sizeMb === null
          ? "its size is unknown: no usable sidecar, no memory known to the scheduler, and no --default-size-mb"
          : null;
    if (reason === null) candidates.push(index);
    else warnings.push(`job ${job.jobId} ${reason}: it is lost`);
    return {
      jobId: job.jobId,
      name: job.name,
      user: job.user,
      nodes: job.nodes,
      releasedNodes: job.nodes.filter((node) => released.has(node)),
      sizeMb: job.sizeMb,
      sizeSource: job.sizeSource,
      unsavedS: unsaved(job),
      decision: "lose",
      reason,
      cannotRequeue: job.cannotRequeue,
      wave: null,
      startS: null,
      finishS: null,
    };
  });
  if (snapshot.jobs.length === 0) warnings.push("no job runs on these nodes: nothing to checkpoint");
  if (snapshot.jobs.length === 0 || candidates.length === 0) missProbability = quantile === null ? null : 0;
  if (candidates.length > 0) {
    const apps = candidates.map((index) => ({ id: jobs[index]!.jobId, pS: jobs[index]!.unsavedS, sizeMb: jobs[index]!.sizeMb! }));
    const waveOf = wavesBySharedNodes(candidates.map((index) => jobs[index]!));
    const waves: number[][] = [];
    waveOf.forEach((wave, k) => (waves[wave] ??= []).push(k));
    // Stryker disable next-line BooleanLiteral: a recorded run adds the device's steps, which the plan does not read.
    const atDeadline = { ...meanOptions, deadlineS: snapshot.deadlineS, record: false };
    // At a confidence, the choice of the plan measured its miss probability already.
    const chosen = confidence === "mean" ? null : confidentChoice(apps, atDeadline, quantile!, confidence, waves);
    const planOptions = chosen?.options ?? atDeadline;
    const report = evaluateSchedule(apps, planOptions, { waves });
    warnings.push(...report.warnings);
    if (quantile !== null) {
      const miss = chosen?.plan ?? planMissProbability(apps, planOptions, quantile, waves);
      missProbability = miss.missProbability;
      if (!miss.monotoneOnGrid) warnings.push(`the plan meets T at some quantile of the release's bandwidth and misses it at a faster one: its miss probability ${miss.missProbability.toPrecision(3)} assumes the opposite (${(miss.gridMissShare * 100).toFixed(0)} % of a grid of quantiles miss)`);
    }
    candidates.forEach((index, k) => {
      const outcome = report.apps[k]!;
      const job = jobs[index]!;
      job.wave = waveOf[k]! + 1;
      if (outcome.checkpointed) {
        job.decision = "checkpoint";
        job.startS = outcome.start;
        job.finishS = outcome.finish;
      } else {
        job.reason = outcome.start === null ? "not chosen by ScheduleCkpt: no time left for it within T" : "its checkpoint would not end before T";
      }
    });
  }
  const savedS = jobs.reduce((sum, job) => sum + (job.decision === "checkpoint" ? job.unsavedS : 0), 0);
  const lostS = jobs.reduce((sum, job) => sum + (job.decision === "lose" ? job.unsavedS : 0), 0);
  return {
    schema: "ckpt-lab/release-plan@2",
    rm: snapshot.rm,
    nowS: snapshot.nowS,
    deadlineS: snapshot.deadlineS,
    model: meanOptions.model.name,
    k0: meanOptions.k0,
    nodes: snapshot.nodes,
    jobs,
    savedS,
    lostS,
    confidence,
    missProbability,
    warnings,
  };
}
