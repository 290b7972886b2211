/**
 * The executor's bookkeeping, on a scheduler kept in memory (a script of what each job
 * does, by call, not by time): every signalled job ends in exactly one outcome, said. The
 * executor against the real schedulers is in slurm-release.test.ts and oar-release.test.ts.
 *
 * The clock is vitest's fake one: the executor's sleeps and Date.now move together, by
 * exactly what it waits, so a deadline of 0.5 s is met at 0.5 s on any machine.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { everyJobSaved, executeRelease as executeOnRealClock, type ReleaseEvent } from "../../pipeline/release/release-executor";
import type { PlannedJob, ReleasePlan } from "../../pipeline/release/release-plan";
import type { JobState, ResourceManager } from "../../pipeline/release/resource-manager";

const planned = (jobId: string, wave: number, startS: number, finishS: number, extra: Partial<PlannedJob> = {}): PlannedJob => ({
  jobId,
  name: null,
  user: null,
  nodes: ["n1"],
  releasedNodes: ["n1"],
  sizeMb: 100,
  sizeSource: "requested",
  unsavedS: 100,
  decision: "checkpoint",
  reason: null,
  cannotRequeue: null,
  wave,
  startS,
  finishS,
  ...extra,
});
const plan = (deadlineS: number, jobs: PlannedJob[]): ReleasePlan => ({
  schema: "ckpt-lab/release-plan@2",
  rm: "memory",
  nowS: Date.now() / 1000,
  deadlineS,
  model: "test",
  k0: 1,
  nodes: ["n1"],
  jobs,
  savedS: 0,
  lostS: 0,
  confidence: "mean",
  missProbability: null,
  warnings: [],
});

/** A scheduler in memory: each job's answers to jobState, one per call (the last repeats); requeue answers. */
function memoryScheduler(script: Record<string, (JobState | Error)[]>, requeue: Record<string, string | Error> = {}) {
  const calls: string[] = [];
  const rm: ResourceManager = {
    name: "slurm",
    knownNodes: async () => ["n1"],
    reservationNodes: async () => [],
    runningJobs: async () => ({ jobs: [], warnings: [] }),
    async signalCheckpoint(jobId, signal) {
      calls.push(`signal ${jobId} ${signal}`);
      const first = script[jobId]?.[0];
      if (first instanceof Error && first.message.startsWith("signal:")) throw first;
    },
    async jobState(jobId) {
      calls.push(`state ${jobId}`);
      const answers = script[jobId]!.filter((a) => !(a instanceof Error && a.message.startsWith("signal:")));
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      script[jobId] = answers;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    async requeue(jobId) {
      calls.push(`requeue ${jobId}`);
      const answer = requeue[jobId] ?? "requeued";
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { rm, calls };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
});
afterEach(() => vi.useRealTimers());

/** The executor with its waits passed on the fake clock, in order, until it is done. */
async function executeRelease(...args: Parameters<typeof executeOnRealClock>): ReturnType<typeof executeOnRealClock> {
  const run = executeOnRealClock(...args);
  await vi.runAllTimersAsync();
  return run;
}

const running: JobState = { ended: false, state: "RUNNING" };
const saved: JobState = { ended: true, saved: true, requeued: false, how: "COMPLETED, exit 0" };

describe("the release executor", () => {
  it("keeps a job whose state could not be read in the wait list, and requeues it once it has ended", async () => {
    const { rm, calls } = memoryScheduler({ a: [new Error("squeue: slurm_load_jobs error: Socket timed out"), running, saved] });
    const events: ReleaseEvent[] = [];
    const log = await executeRelease(plan(60, [planned("a", 1, 0, 1)]), rm, { signal: "USR2", pollMs: 10, onEvent: (e) => events.push(e) });
    expect(calls).toEqual(["signal a USR2", "state a", "state a", "state a", "requeue a"]);
    expect(events.map((e) => e.event)).toEqual(["signalled", "state-unknown", "ended", "requeued"]);
    expect(log.jobs[0]).toMatchObject({ outcome: "saved", requeued: true, how: "saved (COMPLETED, exit 0); requeued: requeued" });
    expect(everyJobSaved(log)).toBe(true);
  });

  it("does not signal a job whose checkpoint no longer fits before the deadline", async () => {
    const { rm, calls } = memoryScheduler({ late: [running] });
    // Its checkpoint needs 5 s; the deadline is 1 s away.
    const log = await executeRelease(plan(1, [planned("late", 1, 0, 5)]), rm, { signal: "USR2", pollMs: 10 });
    expect(calls).toEqual([]);
    expect(log.jobs[0]).toMatchObject({ outcome: "not-signalled", signalledAtS: null, how: "not signalled: too little time left (its checkpoint needs 5.0 s, 1.0 s remained)" });
    expect(everyJobSaved(log)).toBe(false);
  });

  it("polls once at the deadline, so that a job ending after the last regular poll is requeued", async () => {
    const deadlineS = 0.5;
    const startedS = Date.now() / 1000;
    // Still running until the deadline, ended from then on; regular polls every 60 s would never see it.
    const atDeadline = (): JobState => (Date.now() / 1000 - startedS >= deadlineS ? saved : running);
    const { rm } = memoryScheduler({});
    rm.jobState = async () => atDeadline();
    const log = await executeRelease(plan(deadlineS, [planned("a", 1, 0, 0.1)]), rm, { signal: "USR2", pollMs: 60_000 });
    expect(log.jobs[0]).toMatchObject({ outcome: "saved", requeued: true, endedAtS: deadlineS });
  });

  it("says still running at the deadline", async () => {
    const { rm } = memoryScheduler({ a: [running] });
    const log = await executeRelease(plan(0.25, [planned("a", 1, 0, 0.1)]), rm, { signal: "USR2", pollMs: 20 });
    expect(log.jobs[0]).toMatchObject({ outcome: "still-running", how: "signalled, still running at the deadline" });
    expect(log.events.map((e) => e.event)).toEqual(["signalled", "still-running"]);
  });

  it("tells saved from not saved, requeues both, and says a refused requeue", async () => {
    const killed: JobState = { ended: true, saved: false, requeued: false, how: "FAILED, killed by signal 12 (USR2)" };
    const { rm } = memoryScheduler({ ok: [saved], dead: [killed], refused: [saved] }, { refused: new Error("scontrol requeue refused: Requested operation is presently disabled") });
    const log = await executeRelease(plan(60, [planned("ok", 1, 0, 1), planned("dead", 1, 0, 1, { nodes: ["n2"] }), planned("refused", 1, 0, 1, { nodes: ["n3"] })]), rm, { signal: null, pollMs: 10 });
    expect(log.jobs.map((j) => [j.jobId, j.outcome, j.requeued])).toEqual([
      ["ok", "saved", true],
      ["dead", "not-saved", true],
      ["refused", "saved-not-requeued", false],
    ]);
    expect(log.jobs[2]!.how).toBe("saved (COMPLETED, exit 0); requeue refused: scontrol requeue refused: Requested operation is presently disabled");
    expect(everyJobSaved(log)).toBe(false);
  });

  it("does not requeue a job that may not be, nor one that requeued itself", async () => {
    const itself: JobState = { ended: true, saved: true, requeued: true, how: "PENDING, Restarts=1" };
    const { rm, calls } = memoryScheduler({ norequeue: [saved], itself: [itself] });
    const log = await executeRelease(plan(60, [planned("norequeue", 1, 0, 1, { cannotRequeue: "it may not be requeued (submitted with --no-requeue)" }), planned("itself", 1, 0, 1, { nodes: ["n2"] })]), rm, { signal: "USR2", pollMs: 10 });
    expect(calls.filter((c) => c.startsWith("requeue"))).toEqual([]);
    expect(log.jobs.map((j) => [j.outcome, j.requeued, j.how])).toEqual([
      ["saved", false, "saved (COMPLETED, exit 0); not requeued: it may not be requeued (submitted with --no-requeue)"],
      ["saved", true, "ended after the signal and was queued again already (PENDING, Restarts=1)"],
    ]);
    expect(everyJobSaved(log)).toBe(true);
  });

  it("says a failed signal, and the jobs the plan did not choose", async () => {
    const { rm } = memoryScheduler({ a: [new Error("signal: scancel: Invalid job id specified")] });
    const log = await executeRelease(plan(60, [planned("a", 1, 0, 1), planned("b", 2, null as unknown as number, null as unknown as number, { decision: "lose", reason: "not chosen by ScheduleCkpt: no time left for it within T", wave: 2, startS: null, finishS: null })]), rm, {
      signal: "USR2",
      pollMs: 10,
    });
    expect(log.jobs.map((j) => [j.outcome, j.how])).toEqual([
      ["not-signalled", "not signalled: the signal failed: signal: scancel: Invalid job id specified"],
      ["not-chosen", "not checkpointed: not chosen by ScheduleCkpt: no time left for it within T"],
    ]);
  });

  it("tries a failed signal again while the checkpoint fits, and a failed requeue without requeueing twice", async () => {
    const { rm, calls } = memoryScheduler({});
    let signalFailures = 2;
    rm.signalCheckpoint = async (jobId) => {
      calls.push(`signal ${jobId}`);
      if (signalFailures-- > 0) throw new Error("scancel: error: Unable to contact slurm controller");
    };
    // The first requeue did requeue the job but its answer was lost: read back, it is queued.
    let requeued = false;
    rm.jobState = async () => (requeued ? { ended: true, saved: true, requeued: true, how: "PENDING, Restarts=1" } : saved);
    rm.requeue = async (jobId) => {
      calls.push(`requeue ${jobId}`);
      requeued = true;
      throw new Error("scontrol: error: Socket timed out on send/recv operation");
    };
    const log = await executeRelease(plan(60, [planned("a", 1, 0, 1)]), rm, { signal: "USR2", pollMs: 10 });
    expect(calls).toEqual(["signal a", "signal a", "signal a", "requeue a"]);
    expect(log.events.map((e) => e.event)).toEqual(["signal-failed", "signal-failed", "signalled", "ended", "requeue-failed", "requeued"]);
    expect(log.jobs[0]).toMatchObject({ outcome: "saved", requeued: true, how: "saved (COMPLETED, exit 0); requeued: queued again (PENDING, Restarts=1)" });
  });

  it("starts a wave when the previous one has ended, not before", async () => {
    const { rm, calls } = memoryScheduler({ first: [running, saved], second: [saved] });
    await executeRelease(plan(60, [planned("first", 1, 0, 1), planned("second", 2, 1, 2)]), rm, { signal: "USR2", pollMs: 10 });
    expect(calls).toEqual(["signal first USR2", "state first", "state first", "requeue first", "signal second USR2", "state second", "requeue second"]);
  });
});
