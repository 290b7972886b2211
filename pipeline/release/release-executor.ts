/**
 * The release executor (docs/science.md §6.3.2), the edge of the hook: it carries out a
 * release plan on the scheduler, wave after wave — signals each selected job at its planned
 * start (relative to its wave's start), waits until every signalled job of the wave has
 * stopped (its wrapper checkpointed and exited) or the deadline passes, requeues the ones
 * that stopped so they restart from their image, then starts the next wave. Everything it
 * does is an event in the log, next to what the plan said.
 */
import type { PlannedJob, ReleasePlan } from "./release-plan";
import type { ResourceManager } from "./resource-manager";

export type ReleaseEventKind = "signalled" | "stopped" | "requeued" | "error";

export interface ReleaseEvent {
  /** Seconds since the executor started. */
  atS: number;
  jobId: string;
  event: ReleaseEventKind;
  detail?: string;
}

export type JobOutcome =
  /** Signalled, stopped before the deadline, requeued. */
  | "saved"
  /** Signalled but still running at the deadline. */
  | "not-finished"
  /** Not selected by the plan (or its wave started too late): its unsaved work is lost. */
  | "lost";

export interface ReleaseLog {
  schema: "ckpt-lab/release-log@1";
  plan: ReleasePlan;
  startedAtS: number;
  endedAtS: number;
  events: ReleaseEvent[];
  jobs: { jobId: string; decision: PlannedJob["decision"]; wave: number; plannedStartS: number | null; signalledAtS: number | null; stoppedAtS: number | null; requeued: boolean; outcome: JobOutcome }[];
}

export interface ExecuteOptions {
  /** The checkpoint signal (default USR2). */
  signal?: string;
  pollMs?: number;
  onEvent?: (event: ReleaseEvent) => void;
  /** Epoch seconds now (tests). */
  now?: () => number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export async function executeRelease(plan: ReleasePlan, rm: ResourceManager, options: ExecuteOptions = {}): Promise<ReleaseLog> {
  const now = options.now ?? (() => Date.now() / 1000);
  const pollMs = options.pollMs ?? 250;
  const startedAtS = now();
  // The plan was made at plan.nowS: the deadline counts from then.
  const deadlineS = plan.deadlineS - (startedAtS - plan.nowS);
  const elapsed = () => now() - startedAtS;
  const events: ReleaseEvent[] = [];
  const record = (jobId: string, event: ReleaseEventKind, detail?: string) => {
    const entry: ReleaseEvent = { atS: elapsed(), jobId, event, ...(detail !== undefined ? { detail } : {}) };
    events.push(entry);
    options.onEvent?.(entry);
    return entry.atS;
  };
  const state = new Map(plan.jobs.map((job) => [job.jobId, { signalledAtS: null as number | null, stoppedAtS: null as number | null, requeued: false }]));

  const selected = plan.jobs.filter((job) => job.decision === "checkpoint").sort((a, b) => a.wave - b.wave || a.startS! - b.startS!);
  const waves = [...new Set(selected.map((job) => job.wave))];
  for (const wave of waves) {
    if (elapsed() >= deadlineS) break;
    const jobs = selected.filter((job) => job.wave === wave);
    const waveStartS = elapsed();
    const firstPlannedS = jobs[0]!.startS!;
    // Each job at its planned time, without waiting for the signals before it to be delivered.
    const signals: Promise<void>[] = [];
    for (const job of jobs) {
      await sleep((waveStartS + (job.startS! - firstPlannedS) - elapsed()) * 1000);
      if (elapsed() >= deadlineS) break;
      signals.push(
        rm.signalCheckpoint(job.jobId, options.signal ?? "USR2").then(
          () => void (state.get(job.jobId)!.signalledAtS = record(job.jobId, "signalled")),
          (error: Error) => void record(job.jobId, "error", `signal: ${error.message}`),
        ),
      );
    }
    await Promise.all(signals);
    const waiting = new Set(jobs.filter((job) => state.get(job.jobId)!.signalledAtS !== null).map((job) => job.jobId));
    while (waiting.size > 0 && elapsed() < deadlineS) {
      // Every waiting job's state first, then the requeues (each takes a scheduler command).
      const stopped: string[] = [];
      for (const jobId of [...waiting]) {
        try {
          if (rm.isRunning(jobId)) continue;
          state.get(jobId)!.stoppedAtS = record(jobId, "stopped");
          stopped.push(jobId);
        } catch (error) {
          record(jobId, "error", `state: ${(error as Error).message}`);
        }
        waiting.delete(jobId);
      }
      for (const jobId of stopped) {
        try {
          const how = rm.requeue(jobId);
          state.get(jobId)!.requeued = true;
          record(jobId, "requeued", how);
        } catch (error) {
          record(jobId, "error", `requeue: ${(error as Error).message}`);
        }
      }
      if (waiting.size > 0) await sleep(pollMs);
    }
  }

  return {
    schema: "ckpt-lab/release-log@1",
    plan,
    startedAtS,
    endedAtS: now(),
    events,
    jobs: plan.jobs.map((job) => {
      const s = state.get(job.jobId)!;
      const outcome: JobOutcome = s.signalledAtS === null ? "lost" : s.stoppedAtS !== null && s.stoppedAtS <= deadlineS ? "saved" : "not-finished";
      return { jobId: job.jobId, decision: job.decision, wave: job.wave, plannedStartS: job.startS, signalledAtS: s.signalledAtS, stoppedAtS: s.stoppedAtS, requeued: s.requeued, outcome };
    }),
  };
}
