/**
 * `ckpt release`: ScheduleCkpt as the batch scheduler's release hook ([Y-thesis] ch. 6;
 * docs/science.md §6.3): which running jobs to checkpoint, in which waves, before nodes are
 * taken back within T seconds — planned from the scheduler's own job list, then (without
 * --dry-run) carried out by signalling, waiting and requeueing, one hook at a time, with
 * each action appended to the log as it happens. Thin: flags and files here, the planner,
 * executor and adapters in pipeline/release.
 */
import { loadModel } from "../fit/load-model";
import { CRITERIA, ESTIMATOR_NAMES, SCHEDULE_DEFAULTS, parseConfidence, predictiveQuantile, resolveConfidence } from "../schedule";
import { hasPredictive } from "../fit/predictive-bandwidth";
import { resolveScheduleOptions } from "../schedule/schedule-options";
import { defineCommand, type CommandIo } from "../command-line/command";
import { InputError, UsageError } from "../shared/errors";
import { formatTable } from "../shared/format-table";
import { checkInputPath } from "../shared/path-checks";
import { checkpointSignal } from "../release/checkpoint-signal";
import { compressHostlist, expandHostlist } from "../release/hostlist";
import { oarAdapter } from "../release/oar";
import { everyJobSaved, executeRelease, type ReleaseLog } from "../release/release-executor";
import { DEFAULT_LOCK, takeReleaseLock } from "../release/release-lock";
import { openReleaseLog, type ReleaseLogWriter } from "../release/release-log";
import { planRelease, type ReleaseConfidence, type ReleasePlan } from "../release/release-plan";
import { dueReleases, newTriggerState, type TriggerFilter } from "../release/release-triggers";
import type { ResourceManager } from "../release/resource-manager";
import { applySidecar } from "../release/sidecar";
import { slurmAdapter } from "../release/slurm";

/** The exit status of a release that ran but did not save every job of the nodes. */
export const SOME_JOB_NOT_SAVED = 3;

export const command = defineCommand({
  name: "release",
  title: "which running jobs to checkpoint before nodes are taken back (ScheduleCkpt as the scheduler's hook, [Y-thesis] ch. 6)",
  usage: [
    "ckpt release --rm slurm|oar (--deadline S | --release-at TIME) (--nodes LIST | --reservation NAME) --model paper|model.json [--k0 K] [--dry-run] [--json] [--log FILE]",
    "ckpt release --rm slurm --watch --deadline S [--reservation-flag FLAG] [--drain-reason REGEX] [--nodes LIST] --model … [--poll-s S] [--triggers N]",
  ],
  description: `Lists the jobs running on the nodes from the scheduler itself (squeue --json, oarstat -J),
takes each job's checkpoint size from its memory (or its sidecar) and its unsaved computation
from its start (or its last checkpoint), runs ScheduleCkpt with the cluster's bandwidth model,
and prints the plan: which jobs, in which waves (jobs sharing a node checkpoint one at a time;
a job on several nodes holds them all), the planned start and end of each checkpoint, and what
is lost and why. Without --dry-run it acts, wave by wave: signals each chosen job at its
planned time if its checkpoint still fits (Slurm: scancel --signal=SIG --batch on the job or
array task; OAR: oardel --checkpoint), waits until it has ended or the deadline, and requeues
it (scontrol requeue; oarsub --resubmit) so it restarts from its image. Each action is
appended to --log as it happens; the hook ends by saying how each job ended.

Jobs: the job's batch script must trap the signal, checkpoint, and exit 0 (see
docs/release.md); a job that ends otherwise is "not saved". OAR sends the signal to the first
process of the job: submit \`exec ./job.sh\` or a script with -S.`,
  options: {
    rm: { kind: "choice", choices: ["slurm", "oar"], required: true, help: "the batch scheduler to ask" },
    deadline: { kind: "string", value: "S", help: "T: seconds until the nodes are taken back (> 0)" },
    "release-at": { kind: "string", value: "TIME", help: "or the release time (ISO 8601, e.g. 2026-11-25T08:00:00Z, or epoch s)" },
    nodes: { kind: "string", value: "LIST", help: "the nodes to release: a comma list or a Slurm host list (n[1-3],m7)" },
    reservation: { kind: "string", value: "NAME", help: "(Slurm) the nodes of a reservation" },
    model: { kind: "string", required: true, value: "paper|<file>", help: "\"paper\" (the published bw model) or a model file from ckpt fit" },
    confidence: {
      kind: "string",
      value: "<p|mean>",
      defaultText: "0.95 for a model fitted by ckpt fit, mean for the published model",
      help: "plan so that every job checkpointed ends by T with probability ≥ p under the model's predictive distribution (one factor for the whole release; as ckpt schedule), and give the plan's miss probability in the plan, the log and --json; mean: the papers' plan on the model's mean",
    },
    k0: { kind: "integer", min: 0, default: SCHEDULE_DEFAULTS.k0, help: "as ckpt schedule" },
    criterion: { kind: "choice", choices: CRITERIA, default: SCHEDULE_DEFAULTS.criterion, help: "as ckpt schedule" },
    estimator: { kind: "choice", choices: ESTIMATOR_NAMES, default: SCHEDULE_DEFAULTS.estimator, help: "as ckpt schedule" },
    "sidecar-dir": {
      kind: "string",
      value: "DIR",
      help: "read <DIR>/<job id>.json written by each job: {\"sizeMb\": …, \"lastCheckpointAt\": epoch s}; only a regular file of the job's own user, ≤ 64 KiB, is read (a bad one is a warning for that job)",
    },
    "default-size-mb": { kind: "string", value: "MB", help: "size of a job whose memory is unknown (OAR knows none), said as \"assumed\"; without it such a job is lost, said in the plan" },
    signal: { kind: "string", value: "SIG", defaultText: "USR2 on Slurm; on OAR the job's own (oarsub --signal)", help: "the checkpoint signal (not KILL or STOP: a job cannot trap them)" },
    "dry-run": { kind: "flag", help: "print the plan only (takes no lock, changes nothing)" },
    json: { kind: "flag", help: "the plan (and with action, the log) as JSON" },
    log: { kind: "string", value: "FILE", help: "append each action to FILE as it happens, one JSON object per line, synced (created if missing; never through a symbolic link). The log is a trace: `ckpt ingest FILE` reads each wave that saved as a run, and `ckpt fit --check model.json FILE` says whether the model still holds" },
    lock: { kind: "string", value: "FILE", default: DEFAULT_LOCK, help: "the lock that keeps two hooks from acting at once" },
    "command-timeout-s": { kind: "number", value: "S", default: 60, help: "stop a scheduler command that has not answered after S s" },
    "poll-ms": { kind: "number", value: "N", default: 250, help: "how often to look at signalled jobs, ms (≥ 10)" },
    watch: {
      kind: "flag",
      help: "(Slurm) stay and act by itself on the reservations and drains it is told to (--reservation-flag, --drain-reason): a reservation that starts on nodes within T (--deadline) is released by its start; drained nodes within T of when the drain was seen. Each once, the soonest first; --nodes limits the watch to those nodes",
    },
    "reservation-flag": { kind: "string", value: "FLAG", help: "(--watch) act on reservations with this flag, e.g. MAINT" },
    "drain-reason": { kind: "string", value: "REGEX", help: "(--watch) act on drains whose reason matches REGEX, e.g. '^ckpt-release' or 'maint'" },
    "poll-s": { kind: "number", value: "S", default: 10, help: "(--watch) how often to ask the scheduler, s (longer after failures, up to 60 s)" },
    triggers: { kind: "integer", min: 1, value: "N", defaultText: "run until interrupted", help: "(--watch) stop after N releases" },
  },
  notes: `Exit codes: 0 every job running on the nodes was saved (checkpointed, ended with exit 0, and
requeued unless it may not be), or --dry-run; 1 bad input or a scheduler that could not be
read (nothing was signalled unless the log says so); 2 usage error; ${SOME_JOB_NOT_SAVED} the release ran but
some job was not saved (not chosen, not signalled in time, failed, still running at the
deadline, or its requeue refused: the outcome table and the log say which and why).

Examples:
  ckpt release --rm slurm --nodes 'n[1-8]' --deadline 600 --model reports/artifacts/model.json --dry-run
  ckpt release --rm slurm --reservation maint --release-at 2026-11-25T08:00:00Z --model paper --log /var/log/ckpt-release.jsonl
  ckpt release --rm oar --nodes node1,node2 --deadline 300 --model paper --sidecar-dir /var/spool/ckpt-sidecars --default-size-mb 2000
  ckpt release --rm slurm --watch --deadline 900 --reservation-flag MAINT --drain-reason '^release' --model model.json --log /var/log/ckpt-release.jsonl`,
  run: ({ values }, io) => run(values as ReleaseOptions, io),
});

/** The options as `run` reads them (their grammar checked by the table). */
interface ReleaseOptions {
  rm: "slurm" | "oar";
  deadline?: string;
  "release-at"?: string;
  nodes?: string;
  reservation?: string;
  model: string;
  confidence?: string;
  k0: number;
  criterion: (typeof CRITERIA)[number];
  estimator: (typeof ESTIMATOR_NAMES)[number];
  "sidecar-dir"?: string;
  "default-size-mb"?: string;
  signal?: string;
  "dry-run": boolean;
  json: boolean;
  log?: string;
  lock: string;
  "command-timeout-s": number;
  "poll-ms": number;
  watch: boolean;
  "reservation-flag"?: string;
  "drain-reason"?: string;
  "poll-s": number;
  triggers?: number;
}

function deadlineFrom(values: ReleaseOptions, nowS: number, watch: boolean): number {
  const deadline = values.deadline;
  const releaseAt = values["release-at"];
  if (watch && (deadline === undefined || releaseAt !== undefined)) throw new UsageError("--watch takes --deadline S (the T before a reservation or drain takes the nodes), not --release-at");
  if ((deadline === undefined) === (releaseAt === undefined)) throw new UsageError("give the deadline as --deadline S (seconds from now) or --release-at TIME, one of them");
  if (deadline !== undefined) {
    const seconds = Number(deadline);
    if (!(seconds > 0 && Number.isFinite(seconds))) throw new InputError(`--deadline expects seconds > 0 until the nodes are taken back, got "${deadline}"`);
    return seconds;
  }
  const at = /^\d+(\.\d+)?$/.test(releaseAt!) ? Number(releaseAt) : Date.parse(releaseAt!) / 1000;
  if (!Number.isFinite(at)) throw new InputError(`--release-at expects an ISO 8601 time (2026-11-25T08:00:00Z) or epoch seconds, got "${releaseAt}"`);
  if (at <= nowS) throw new InputError(`the release time ${new Date(at * 1000).toISOString()} has passed (now ${new Date(nowS * 1000).toISOString()}): nothing can be checkpointed before it`);
  return at - nowS;
}

/** What every release of one invocation shares. */
interface ReleaseContext {
  rm: ResourceManager;
  options: ReturnType<typeof resolveScheduleOptions>;
  planning: ReleaseConfidence;
  sidecarDir: string | null;
  defaultSizeMb: number | null;
  dryRun: boolean;
  json: boolean;
  signal: string | null;
  pollMs: number;
  log: ReleaseLogWriter | null;
  io: CommandIo;
}

async function run(values: ReleaseOptions, io: CommandIo): Promise<number> {
  const watch = values.watch;
  const nowS = Date.now() / 1000;
  const deadlineS = deadlineFrom(values, nowS, watch);
  const nodesFlag = values.nodes;
  const reservation = values.reservation;
  if (watch ? reservation !== undefined : (nodesFlag === undefined) === (reservation === undefined)) {
    throw new UsageError(watch ? "--watch finds the reservations by itself: give --nodes LIST to watch only those nodes, or nothing for all" : "give the nodes to release as --nodes LIST or --reservation NAME, one of them");
  }
  const filter = triggerFilter(values);
  if (watch && values.rm !== "slurm") throw new UsageError(`--watch needs a scheduler whose reservations and drains ckpt can read: slurm (not ${values.rm})`);
  const pollS = values["poll-s"];
  if (!(pollS > 0 && pollS <= 3600)) throw new InputError(`--poll-s expects seconds in (0, 3600], got ${pollS}`);
  const timeoutS = values["command-timeout-s"];
  if (!(timeoutS > 0)) throw new InputError(`--command-timeout-s expects seconds > 0, got ${timeoutS}`);
  const rm = (values.rm === "slurm" ? slurmAdapter : oarAdapter)({ commandTimeoutMs: timeoutS * 1000 });
  const model = loadModel(values.model);
  const options = resolveScheduleOptions({ model, deadlineS, k0: values.k0, criterion: values.criterion, estimator: values.estimator });
  const planning: ReleaseConfidence = {
    confidence: resolveConfidence(values.confidence === undefined ? undefined : parseConfidence(values.confidence), model),
    quantile: hasPredictive(model) ? predictiveQuantile(model) : null,
  };
  const sidecarDir = values["sidecar-dir"] ?? null;
  if (sidecarDir !== null) checkInputPath(sidecarDir, { kind: "directory", what: "sidecar folder", flag: "--sidecar-dir" });
  const defaultSizeText = values["default-size-mb"];
  const defaultSizeMb = defaultSizeText === undefined ? null : Number(defaultSizeText);
  if (defaultSizeMb !== null && !(defaultSizeMb > 0 && Number.isFinite(defaultSizeMb))) throw new InputError(`--default-size-mb expects MB > 0, got "${defaultSizeText}"`);
  const pollMs = values["poll-ms"];
  if (!(pollMs >= 10)) throw new InputError(`--poll-ms expects at least 10 ms, got ${pollMs}`);
  const signal = values.signal === undefined ? null : checkpointSignal(values.signal);
  const nodes = nodesFlag !== undefined ? expandHostlist(nodesFlag) : reservation !== undefined ? await rm.reservationNodes(reservation) : null;
  if (nodes !== null && nodes.length === 0) throw new InputError(`--nodes "${nodesFlag}" names no node; give the nodes to release, e.g. n[1-3],m7`);
  if (nodes !== null) await checkKnownNodes(rm, nodes);
  const dryRun = values["dry-run"];
  // Acting takes the lock first, then opens the log: a refused hook writes nothing.
  const lock = dryRun ? null : takeReleaseLock(values.lock);
  let log: ReleaseLogWriter | null = null;
  try {
    log = dryRun || values.log === undefined ? null : openReleaseLog(values.log);
    const context: ReleaseContext = { rm, options, planning, sidecarDir, defaultSizeMb, dryRun, json: values.json, signal, pollMs, log, io };
    if (!watch) return await releaseNodes(context, nodes!, nowS, deadlineS, 1);
    return await watchTakeovers(context, nodes, deadlineS, filter, pollS, values.triggers ?? Infinity);
  } finally {
    log?.close();
    lock?.release();
  }
}

function triggerFilter(values: ReleaseOptions): TriggerFilter {
  const pattern = values["drain-reason"];
  const flag = values["reservation-flag"];
  if (!values.watch) {
    if (pattern !== undefined || flag !== undefined) throw new UsageError("--drain-reason and --reservation-flag say what --watch acts on: give them with --watch");
    return { drainReason: null, reservationFlag: null };
  }
  if (pattern === undefined && flag === undefined) {
    throw new UsageError("--watch acts only on what it is told to: give --reservation-flag FLAG (e.g. MAINT) and/or --drain-reason REGEX (the reason the administrator gives when draining for a release)");
  }
  let drainReason: RegExp | null = null;
  if (pattern !== undefined) {
    try {
      drainReason = new RegExp(pattern);
    } catch (error) {
      throw new InputError(`--drain-reason ${pattern}: not a regular expression (${(error as Error).message})`);
    }
  }
  if (flag !== undefined && !/^[A-Za-z_]+$/.test(flag)) throw new InputError(`--reservation-flag ${flag}: a reservation flag is a word such as MAINT`);
  return { drainReason, reservationFlag: flag ?? null };
}

async function checkKnownNodes(rm: ResourceManager, nodes: string[]): Promise<void> {
  const known = new Set(await rm.knownNodes());
  const unknown = nodes.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new InputError(`${rm.name} knows no node ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", …" : ""}; its nodes are ${[...known].slice(0, 20).join(", ")}${known.size > 20 ? ", …" : ""}`);
  }
}

/** Plan the release of some nodes and, unless --dry-run, carry it out. Returns the exit status. */
async function releaseNodes(context: ReleaseContext, nodes: string[], nowS: number, deadlineS: number, release: number): Promise<number> {
  const { rm, io, json, log } = context;
  const snapshot = await rm.runningJobs({ nodes, defaultSizeMb: context.defaultSizeMb });
  const warnings = [...snapshot.warnings];
  const jobs = snapshot.jobs.map((job) => {
    const read = applySidecar(job, context.sidecarDir, nowS);
    if (read.warning !== null) warnings.push(read.warning);
    return read.job;
  });
  const plan = planRelease({ rm: rm.name, nowS, deadlineS, nodes, jobs, warnings }, { ...context.options, deadlineS }, context.planning);
  if (context.dryRun) {
    io.stdout(json ? JSON.stringify(plan, null, 2) : describePlan(plan));
    return 0;
  }
  if (!json) io.stdout(describePlan(plan));
  const stamp = () => new Date().toISOString();
  log?.append({ type: "plan", release, at: stamp(), plan });
  const result = await executeRelease(plan, rm, {
    signal: context.signal,
    pollMs: context.pollMs,
    onEvent: (e) => {
      log?.append({ type: "event", release, at: stamp(), ...e });
      io.stderr(`${e.atS.toFixed(1).padStart(7)} s  job ${e.jobId}: ${e.event}${e.detail ? ` (${e.detail})` : ""}`);
    },
  });
  const saved = everyJobSaved(result);
  log?.append({ type: "outcome", release, at: stamp(), everyJobSaved: saved, jobs: result.jobs });
  if (json) io.stdout(JSON.stringify(result, null, 2));
  else io.stdout(describeOutcome(result));
  return saved ? 0 : SOME_JOB_NOT_SAVED;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * --watch: poll the scheduler for the reservations and drains it is told to act on, and
 * release their nodes when one is due (release-triggers.ts), each once, the soonest first,
 * each planned with the clock read when its turn comes. A controller that does not answer
 * is asked again, less and less often (up to once a minute), never given up on.
 */
async function watchTakeovers(context: ReleaseContext, watched: string[] | null, deadlineS: number, filter: TriggerFilter, pollS: number, maxTriggers: number): Promise<number> {
  const { rm, io } = context;
  const takeovers = rm.takeovers!.bind(rm);
  const state = newTriggerState();
  const watchedSet = watched === null ? null : new Set(watched);
  const what = [filter.reservationFlag !== null ? `reservations flagged ${filter.reservationFlag.toUpperCase()}` : null, filter.drainReason !== null ? `drains whose reason matches /${filter.drainReason.source}/` : null].filter(Boolean).join(" and ");
  io.stderr(`watching ${watched === null ? "every node" : compressHostlist(watched)} of ${rm.name} every ${pollS} s for ${what} within T = ${deadlineS} s${maxTriggers === Infinity ? " (Ctrl-C to stop)" : ""}`);
  let released = 0;
  let status = 0;
  let failures = 0;
  for (;;) {
    let seen;
    try {
      seen = await takeovers();
      if (failures > 0) io.stderr(`${rm.name} answers again after ${failures} failed poll(s)`);
      failures = 0;
    } catch (error) {
      failures += 1;
      const waitS = Math.min(pollS * 2 ** (failures - 1), Math.max(pollS, 60));
      io.stderr(`warning: cannot read what takes nodes (${(error as Error).message}); asking again in ${waitS} s (failure ${failures} in a row)`);
      await sleep(waitS * 1000);
      continue;
    }
    for (const due of dueReleases(seen, Date.now() / 1000, deadlineS, watchedSet, filter, state)) {
      const nowS = Date.now() / 1000;
      if (due.releaseAtS <= nowS) {
        for (const key of due.keys) state.handled.add(key);
        io.stderr(`warning: ${due.reason}, which has passed: nothing can be checkpointed before it`);
        continue;
      }
      io.stderr(`${due.reason}: releasing ${compressHostlist(due.nodes)} within ${(due.releaseAtS - nowS).toFixed(0)} s`);
      let result: number;
      try {
        result = await releaseNodes(context, due.nodes, nowS, due.releaseAtS - nowS, released + 1);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        // Not marked handled: the next poll tries again while there is time.
        io.stderr(`warning: could not release ${compressHostlist(due.nodes)}: ${error.message}; trying again at the next poll`);
        continue;
      }
      for (const key of due.keys) state.handled.add(key);
      released += 1;
      status = Math.max(status, result);
      if (released >= maxTriggers) return status;
    }
    await sleep(pollS * 1000);
  }
}

function describePlan(plan: ReleasePlan): string {
  const lines = [
    `release plan (${plan.rm}): ${plan.jobs.length} running job(s) on ${plan.nodes.length} node(s), T = ${plan.deadlineS.toFixed(0)} s, model "${plan.model}", k0 = ${plan.k0}`,
    `checkpoint ${plan.jobs.filter((j) => j.decision === "checkpoint").length}: saves ${plan.savedS.toFixed(0)} s of computation, loses ${plan.lostS.toFixed(0)} s`,
    (plan.confidence === "mean" ? "planned on the model's mean bandwidth" : `planned at confidence ${plan.confidence} (the ${((1 - plan.confidence) * 100).toFixed(1)} % quantile of the predictive bandwidth, one factor for the whole release)`) +
      (plan.missProbability === null ? "; the model has no predictive distribution: no miss probability" : `; misses T with probability ${plan.missProbability <= 1e-6 ? "< 0.0001" : (plan.missProbability * 100).toFixed(plan.missProbability < 0.01 ? 2 : 1)} %`),
  ];
  if (plan.jobs.length > 0) {
    lines.push(
      "",
      formatTable(
        ["job", "nodes", "size MB", "size from", "unsaved s", "decision", "wave", "start s", "end s"],
        plan.jobs.map((j) => [
          j.jobId,
          compressHostlist(j.nodes),
          j.sizeMb === null ? "—" : j.sizeMb.toFixed(0),
          j.sizeSource,
          j.unsavedS.toFixed(0),
          j.decision,
          j.wave === null ? "—" : String(j.wave),
          j.startS === null ? "—" : j.startS.toFixed(1),
          j.finishS === null ? "—" : j.finishS.toFixed(1),
        ]),
      ),
    );
  }
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  return lines.join("\n");
}

function describeOutcome(log: ReleaseLog): string {
  const count = (outcome: string) => log.jobs.filter((j) => j.outcome === outcome).length;
  const counts = ["saved", "saved-not-requeued", "not-saved", "still-running", "not-signalled", "not-chosen"].map((o) => [o, count(o)] as const).filter(([, n]) => n > 0);
  return [
    `done in ${(log.endedAtS - log.startedAtS).toFixed(1)} s: ${counts.map(([o, n]) => `${n} ${o}`).join(", ") || "no job"}`,
    ...(log.jobs.length > 0 ? ["", formatTable(["job", "outcome", "how"], log.jobs.map((j) => [j.jobId, j.outcome, j.how]))] : []),
  ].join("\n");
}
