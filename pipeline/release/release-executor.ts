/**
 * The release executor (docs/science.md §6.3.2), the edge of the hook: it carries out a
 * release plan on the scheduler, wave after wave — signals each selected job at its planned
 * start (relative to its wave's start) if its checkpoint still fits before the deadline,
 * waits until every signalled job of the wave has ended or the deadline passes, requeues
 * the ones that ended so they restart from their image, then starts the next wave.
 *
 * Every signalled job ends in exactly one outcome, said with how: saved (ended with exit 0
 * after the signal) and requeued — or not requeued because the job may not be, or because
 * the scheduler refused (said) —, not saved (it failed, was cancelled, or died of the signal
 * it does not trap; requeued all the same so that the job is not lost), or still running at
 * the deadline (the deadline's poll is made). A job whose state cannot be read for a while
 * stays in the wait list; a signal or a requeue that fails is tried again a few times, with
 * a growing pause (a controller away for seconds must not cost a job), a signal only while
 * its checkpoint still fits. Each action is an event handed to `onEvent` as it happens (the
 * command appends it to the log at once).
 */
import type { PlannedJob, ReleasePlan } from "./release-plan";
import type { JobState, ResourceManager } from "./resource-manager";

export type ReleaseEventKind = "signalled" | "skipped" | "signal-failed" | "ended" | "state-unknown" | "requeued" | "requeue-failed" | "still-running";

export interface ReleaseEvent {
  /** Seconds since the executor started. */
  atS: number;
  jobId: string;
  event: ReleaseEventKind;
  detail?: string;
}

export type JobOutcome =
  /** Signalled, ended saved; requeued, or not requeued because the job may not be (said). */
  | "saved"
  /** Signalled, ended saved, but the scheduler refused to requeue it (said). */
  | "saved-not-requeued"
  /** Signalled, ended without saving (failed, cancelled, killed by the signal: said). */
  | "not-saved"
  /** Signalled, still running at the deadline. */
  | "still-running"
  /** Chosen, but not signalled: too little time left when its turn came, or the signal failed (said). */
  | "not-signalled"
  /** Not chosen by the plan: its unsaved work is lost (the plan says why). */
  | "not-chosen";

export interface JobRecord {
  jobId: string;
  decision: PlannedJob["decision"];
  wave: number | null;
  plannedStartS: number | null;
  signalledAtS: number | null;
  endedAtS: number | null;
  requeued: boolean;
  outcome: JobOutcome;
  /** What happened, in a line. */
  how: string;
}

export interface ReleaseLog {
  schema: "ckpt-lab/release-log@2";
  plan: ReleasePlan;
  startedAtS: number;
  endedAtS: number;
  events: ReleaseEvent[];
  jobs: JobRecord[];
}

export interface ExecuteOptions {
  /** The checkpoint signal (null: the scheduler's default for the job). */
  signal: string | null;
  pollMs?: number;
  onEvent?: (event: ReleaseEvent) => void;
  /** Epoch seconds now (tests). */
  now?: () => number;
  /** State queries run at once (each is a scheduler command). */
  concurrency?: number;
  /** Tries of a signal or a requeue that fails (default 5), paused pollMs, 2 pollMs, … (at most 5 s) apart. */
  tries?: number;
}

// At least 1 ms, as Node's timers wait anyway: a clock that moves only with the timers (a
// test's) then always moves.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(1, ms)));

export async function executeRelease(plan: ReleasePlan, rm: ResourceManager, options: ExecuteOptions): Promise<ReleaseLog> {
  const now = options.now ?? (() => Date.now() / 1000);
  const pollMs = options.pollMs ?? 250;
  const concurrency = options.concurrency ?? 8;
  const tries = options.tries ?? 5;
  const pauseMs = (attempt: number) => Math.min(pollMs * 2 ** (attempt - 1), 5000);
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
  const records = new Map<string, JobRecord>(
    plan.jobs.map((job) => [
      job.jobId,
      {
        jobId: job.jobId,
        decision: job.decision,
        wave: job.wave,
        plannedStartS: job.startS,
        signalledAtS: null,
        endedAtS: null,
        requeued: false,
        outcome: job.decision === "checkpoint" ? "not-signalled" : "not-chosen",
        how: job.decision === "checkpoint" ? "not signalled: the deadline passed before its wave" : `not checkpointed: ${job.reason ?? "not chosen"}`,
      },
    ]),
  );
  const planned = new Map(plan.jobs.map((job) => [job.jobId, job]));

  /**
   * Requeue, tried again after a failure; before each new try the job is read back, in case
   * the failed try did requeue it (then it is not requeued twice).
   */
  const requeue = async (jobId: string): Promise<string> => {
    let failure: Error | null = null;
    for (let attempt = 0; attempt < tries; attempt++) {
      if (failure !== null) {
        record(jobId, "requeue-failed", `${failure.message}; trying again`);
        await sleep(pauseMs(attempt));
        try {
          const back = await rm.jobState(jobId);
          if (back.ended && back.requeued) return `queued again (${back.how})`;
        } catch {
          // The requeue itself says what is wrong.
        }
      }
      try {
        return await rm.requeue(jobId);
      } catch (error) {
        failure = error as Error;
      }
    }
    throw failure!;
  };

  /** Signal, tried again after a failure while the job's checkpoint still fits before the deadline. */
  const signal = async (jobId: string, neededS: number): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await rm.signalCheckpoint(jobId, options.signal);
        return;
      } catch (error) {
        if (attempt >= tries || deadlineS - elapsed() - pauseMs(attempt) / 1000 < neededS) throw error;
        record(jobId, "signal-failed", `${(error as Error).message}; trying again`);
        await sleep(pauseMs(attempt));
      }
    }
  };

  /** The end of a signalled job: requeue it unless it may not be or is queued already. */
  const settle = async (jobId: string, state: Extract<JobState, { ended: true }>) => {
    const job = records.get(jobId)!;
    job.endedAtS = record(jobId, "ended", state.how);
    const cannotRequeue = planned.get(jobId)!.cannotRequeue;
    if (state.requeued) {
      job.requeued = true;
      job.outcome = state.saved ? "saved" : "not-saved";
      job.how = `ended after the signal and was queued again already (${state.how})`;
      return;
    }
    if (cannotRequeue !== null) {
      job.outcome = state.saved ? "saved" : "not-saved";
      job.how = `${state.saved ? "saved" : "not saved"} (${state.how}); not requeued: ${cannotRequeue}`;
      return;
    }
    try {
      const how = await requeue(jobId);
      job.requeued = true;
      record(jobId, "requeued", how);
      job.outcome = state.saved ? "saved" : "not-saved";
      job.how = `${state.saved ? "saved" : "not saved"} (${state.how}); requeued: ${how}`;
    } catch (error) {
      record(jobId, "requeue-failed", (error as Error).message);
      job.outcome = state.saved ? "saved-not-requeued" : "not-saved";
      job.how = `${state.saved ? "saved" : "not saved"} (${state.how}); requeue refused: ${(error as Error).message}`;
    }
  };

  /** Poll the signalled jobs until all have ended or the deadline's poll is made. */
  const waitFor = async (waiting: Set<string>) => {
    const lastProblem = new Map<string, string>();
    for (;;) {
      const ids = [...waiting];
      for (let i = 0; i < ids.length; i += concurrency) {
        await Promise.all(
          ids.slice(i, i + concurrency).map(async (jobId) => {
            let state: JobState;
            try {
              state = await rm.jobState(jobId);
            } catch (error) {
              // Said once per distinct problem; the job stays in the wait list.
              const message = (error as Error).message;
              if (lastProblem.get(jobId) !== message) record(jobId, "state-unknown", message);
              lastProblem.set(jobId, message);
              return;
            }
            if (!state.ended) return;
            waiting.delete(jobId);
            await settle(jobId, state);
          }),
        );
      }
      if (waiting.size === 0 || elapsed() >= deadlineS) break;
      // The last sleep ends at the deadline, so that a job ending just before it is seen.
      await sleep(Math.min(pollMs, (deadlineS - elapsed()) * 1000));
    }
    for (const jobId of waiting) {
      record(jobId, "still-running", `at the deadline${lastProblem.has(jobId) ? ` (its state could not be read: ${lastProblem.get(jobId)})` : ""}`);
      const job = records.get(jobId)!;
      job.outcome = "still-running";
      job.how = lastProblem.has(jobId) ? `signalled; its state could not be read up to the deadline: ${lastProblem.get(jobId)}` : "signalled, still running at the deadline";
    }
  };

  const selected = plan.jobs.filter((job) => job.decision === "checkpoint").sort((a, b) => a.wave! - b.wave! || a.startS! - b.startS!);
  const waves = [...new Set(selected.map((job) => job.wave!))];
  for (const wave of waves) {
    if (elapsed() >= deadlineS) break;
    const jobs = selected.filter((job) => job.wave === wave);
    const waveStartS = elapsed();
    const firstPlannedS = jobs[0]!.startS!;
    // Each job at its planned time, without waiting for the signals before it to be delivered.
    const signals: Promise<void>[] = [];
    const waiting = new Set<string>();
    for (const job of jobs) {
      await sleep((waveStartS + (job.startS! - firstPlannedS) - elapsed()) * 1000);
      const leftS = deadlineS - elapsed();
      const neededS = job.finishS! - job.startS!;
      const state = records.get(job.jobId)!;
      if (leftS < neededS) {
        state.how = `not signalled: too little time left (its checkpoint needs ${neededS.toFixed(1)} s, ${Math.max(0, leftS).toFixed(1)} s remained)`;
        record(job.jobId, "skipped", state.how);
        continue;
      }
      signals.push(
        signal(job.jobId, neededS).then(
          () => {
            state.signalledAtS = record(job.jobId, "signalled", options.signal ?? undefined);
            state.how = "signalled";
            waiting.add(job.jobId);
          },
          (error: Error) => {
            state.how = `not signalled: the signal failed: ${error.message}`;
            record(job.jobId, "signal-failed", error.message);
          },
        ),
      );
    }
    await Promise.all(signals);
    await waitFor(waiting);
  }

  return { schema: "ckpt-lab/release-log@2", plan, startedAtS, endedAtS: now(), events, jobs: [...records.values()] };
}

/** Whether every job on the released nodes was saved: the hook's exit status. */
export const everyJobSaved = (log: ReleaseLog): boolean => log.jobs.every((job) => job.outcome === "saved");
