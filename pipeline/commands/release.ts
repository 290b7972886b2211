/**
 * `ckpt release`: ScheduleCkpt as the batch scheduler's release hook ([Y-thesis] ch. 6;
 * docs/science.md §6.3): which running jobs to checkpoint, in which waves, before nodes are
 * taken back within T seconds — planned from the scheduler's own job list, then (without
 * --dry-run) carried out by signalling, waiting and requeueing. Thin: flags and files here,
 * the planner and executor in pipeline/release.
 */
import { loadModel } from "../fit/load-model";
import { CRITERIA, ESTIMATOR_NAMES, SCHEDULE_DEFAULTS } from "../schedule";
import { resolveScheduleOptions } from "../schedule/schedule-options";
import { writeJsonAtomic } from "../shared/atomic-write";
import { defineCommand, type CommandIo } from "../shared/command";
import { InputError, UsageError } from "../shared/errors";
import { formatTable } from "../shared/format-table";
import { checkInputPath } from "../shared/path-checks";
import { expandHostlist } from "../release/hostlist";
import { oar } from "../release/oar";
import { executeRelease } from "../release/release-executor";
import { planRelease, type ReleasePlan } from "../release/release-plan";
import { dueReleases, newTriggerState } from "../release/release-triggers";
import type { ResourceManager } from "../release/resource-manager";
import { applySidecar } from "../release/sidecar";
import { slurm } from "../release/slurm";

export const command = defineCommand({
  name: "release",
  title: "which running jobs to checkpoint before nodes are taken back (ScheduleCkpt as the scheduler's hook, [Y-thesis] ch. 6)",
  usage: [
    "ckpt release --rm slurm|oar (--deadline S | --release-at TIME) (--nodes LIST | --reservation NAME) --model paper|model.json [--k0 K] [--dry-run] [--json] [--log FILE]",
    "ckpt release --rm slurm --watch --deadline S [--nodes LIST] --model … [--poll-s S] [--triggers N]",
  ],
  description: `Lists the jobs running on the nodes from the scheduler itself (squeue --json, oarstat -J),
takes each job's checkpoint size from its memory and its unsaved computation from its start
(or its last checkpoint), runs ScheduleCkpt with the cluster's bandwidth model, and prints
the plan: which jobs, in which waves (jobs sharing a node checkpoint one at a time), the
planned start and end of each checkpoint, and what is lost. Without --dry-run it acts, wave
by wave: signals each chosen job at its planned time (Slurm: scancel --signal=SIG --batch;
OAR: oardel --checkpoint), waits until it has stopped (its wrapper saved and exited) or the
deadline, requeues it (scontrol requeue; oarsub --resubmit) so it restarts from its image,
and logs what happened next to the plan.

Jobs: the job's batch script must trap the signal, checkpoint, and exit (see
docs/release.md). OAR sends the signal to the first process of the job: submit
\`exec ./job.sh\` or a script with -S.`,
  options: {
    rm: { kind: "choice", choices: ["slurm", "oar"], required: true, help: "the batch scheduler to ask" },
    deadline: { kind: "string", value: "S", help: "T: seconds until the nodes are taken back (> 0)" },
    "release-at": { kind: "string", value: "TIME", help: "or the release time (ISO 8601, e.g. 2026-11-25T08:00:00Z, or epoch s)" },
    nodes: { kind: "string", value: "LIST", help: "the nodes to release: a comma list or a Slurm host list (n[1-3],m7)" },
    reservation: { kind: "string", value: "NAME", help: "(Slurm) the nodes of a reservation" },
    model: { kind: "string", required: true, value: "paper|<file>", help: "\"paper\" (the published bw model) or a model file from ckpt fit" },
    k0: { kind: "integer", min: 0, default: SCHEDULE_DEFAULTS.k0, help: "as ckpt schedule" },
    criterion: { kind: "choice", choices: CRITERIA, default: SCHEDULE_DEFAULTS.criterion, help: "as ckpt schedule" },
    estimator: { kind: "choice", choices: ESTIMATOR_NAMES, default: SCHEDULE_DEFAULTS.estimator, help: "as ckpt schedule" },
    "sidecar-dir": { kind: "string", value: "DIR", help: "read <DIR>/<job id>.json written by each job: {\"sizeMb\": …, \"lastCheckpointAt\": epoch s}; sizes from it are \"sidecar\" (measured by the job), others \"requested\" (the memory the job was allocated)" },
    "default-size-mb": { kind: "string", value: "MB", help: "size of a job whose memory is unknown (OAR knows none), said as \"assumed\"; without it such a job is an error" },
    signal: { kind: "string", value: "SIG", default: "USR2", help: "the checkpoint signal" },
    "dry-run": { kind: "flag", help: "print the plan only" },
    json: { kind: "flag", help: "the plan (and with action, the log) as JSON" },
    log: { kind: "string", value: "FILE", help: "write the log of the action (JSON) to FILE, atomically" },
    "poll-ms": { kind: "number", value: "N", default: 250, help: "how often to look at signalled jobs, ms (≥ 10)" },
    watch: { kind: "flag", help: "(Slurm) stay and act by itself: when a reservation will start on nodes within T (--deadline), release them by its start; when nodes are drained, release them within T of when the drain was seen. Each reservation or drain once; --nodes limits the watch to those nodes. With --log FILE, release n writes FILE-n.json" },
    "poll-s": { kind: "number", value: "S", default: 10, help: "(--watch) how often to ask the scheduler, s" },
    triggers: { kind: "integer", min: 1, value: "N", defaultText: "run until interrupted", help: "(--watch) stop after N releases" },
  },
  notes: `Examples:
  ckpt release --rm slurm --nodes 'n[1-8]' --deadline 600 --model reports/artifacts/model.json --dry-run
  ckpt release --rm slurm --reservation maint --release-at 2026-11-25T08:00:00Z --model paper --log release.json
  ckpt release --rm oar --nodes node1,node2 --deadline 300 --model paper --sidecar-dir ~/ckpt/sidecars
  ckpt release --rm slurm --watch --deadline 900 --model model.json --log /var/log/ckpt-release.json`,
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
  k0: number;
  criterion: (typeof CRITERIA)[number];
  estimator: (typeof ESTIMATOR_NAMES)[number];
  "sidecar-dir"?: string;
  "default-size-mb"?: string;
  signal: string;
  "dry-run": boolean;
  json: boolean;
  log?: string;
  "poll-ms": number;
  watch: boolean;
  "poll-s": number;
  triggers?: number;
}

const ADAPTERS: Record<string, ResourceManager> = { slurm, oar };

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
  sidecarDir: string | null;
  defaultSizeMb: number | null;
  dryRun: boolean;
  json: boolean;
  signal: string;
  pollMs: number;
  logPath: string | null;
  io: CommandIo;
}

async function run(values: ReleaseOptions, io: CommandIo): Promise<number> {
  const rm = ADAPTERS[values.rm]!;
  const watch = values.watch;
  const nowS = Date.now() / 1000;
  const deadlineS = deadlineFrom(values, nowS, watch);
  const nodesFlag = values.nodes;
  const reservation = values.reservation;
  if (watch ? reservation !== undefined : (nodesFlag === undefined) === (reservation === undefined)) {
    throw new UsageError(watch ? "--watch finds the reservations by itself: give --nodes LIST to watch only those nodes, or nothing for all" : "give the nodes to release as --nodes LIST or --reservation NAME, one of them");
  }
  const model = loadModel(values.model);
  const options = resolveScheduleOptions({ model, deadlineS, k0: values.k0, criterion: values.criterion, estimator: values.estimator });
  const sidecarDir = values["sidecar-dir"] ?? null;
  if (sidecarDir !== null) checkInputPath(sidecarDir, { kind: "directory", what: "sidecar folder", flag: "--sidecar-dir" });
  const defaultSizeText = values["default-size-mb"];
  const defaultSizeMb = defaultSizeText === undefined ? null : Number(defaultSizeText);
  if (defaultSizeMb !== null && !(defaultSizeMb > 0 && Number.isFinite(defaultSizeMb))) throw new InputError(`--default-size-mb expects MB > 0, got "${defaultSizeText}"`);
  const pollMs = values["poll-ms"];
  if (!(pollMs >= 10)) throw new InputError(`--poll-ms expects at least 10 ms, got ${pollMs}`);
  const context: ReleaseContext = {
    rm,
    options,
    sidecarDir,
    defaultSizeMb,
    dryRun: values["dry-run"],
    json: values.json,
    signal: values.signal,
    pollMs,
    logPath: values.log ?? null,
    io,
  };
  const nodes = nodesFlag !== undefined ? expandHostlist(nodesFlag) : reservation !== undefined ? rm.reservationNodes(reservation) : null;
  if (nodes !== null) checkKnownNodes(rm, nodes);
  if (!watch) return releaseNodes(context, nodes!, nowS, deadlineS, context.logPath);
  return watchTakeovers(context, nodes, deadlineS, values["poll-s"], values.triggers ?? Infinity);
}

function checkKnownNodes(rm: ResourceManager, nodes: string[]): void {
  const known = new Set(rm.knownNodes());
  const unknown = nodes.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new InputError(`${rm.name} knows no node ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", …" : ""}; its nodes are ${[...known].slice(0, 20).join(", ")}${known.size > 20 ? ", …" : ""}`);
  }
}

/** Plan the release of some nodes and, unless --dry-run, carry it out. */
async function releaseNodes(context: ReleaseContext, nodes: string[], nowS: number, deadlineS: number, logPath: string | null): Promise<number> {
  const { rm, io, json } = context;
  const jobs = rm.runningJobs({ nodes, defaultSizeMb: context.defaultSizeMb }).map((job) => applySidecar(job, context.sidecarDir));
  for (const job of jobs) {
    if (job.sizeSource === "assumed" && context.defaultSizeMb === null) {
      throw new InputError(`job ${job.jobId}: ${rm.name} knows no memory for it and it wrote no sidecar; give --default-size-mb (what to assume) or --sidecar-dir`);
    }
  }
  const plan = planRelease({ rm: rm.name, nowS, deadlineS, nodes, jobs }, { ...context.options, deadlineS });
  if (context.dryRun) {
    io.stdout(json ? JSON.stringify(plan, null, 2) : describePlan(plan));
    return 0;
  }
  if (!json) io.stdout(describePlan(plan));
  const log = await executeRelease(plan, rm, {
    signal: context.signal,
    pollMs: context.pollMs,
    onEvent: (e) => io.stderr(`${e.atS.toFixed(1).padStart(7)} s  job ${e.jobId}: ${e.event}${e.detail ? ` (${e.detail})` : ""}`),
  });
  if (logPath !== null) writeJsonAtomic(logPath, log);
  if (json) io.stdout(JSON.stringify(log, null, 2));
  else {
    const count = (o: string) => log.jobs.filter((j) => j.outcome === o).length;
    io.stdout(`done in ${(log.endedAtS - log.startedAtS).toFixed(1)} s: ${count("saved")} saved and requeued, ${count("not-finished")} signalled but not finished by the deadline, ${count("lost")} not checkpointed`);
  }
  return log.events.some((e) => e.event === "error") ? 1 : 0;
}

/**
 * --watch: poll the scheduler for reservations and drains that will take nodes running
 * jobs, and release those nodes when one is due (release-triggers.ts), each once.
 */
async function watchTakeovers(context: ReleaseContext, watched: string[] | null, deadlineS: number, pollS: number, maxTriggers: number): Promise<number> {
  const { rm, io } = context;
  if (rm.takeovers === undefined) throw new UsageError(`--watch needs a scheduler whose reservations and drains ckpt can read: slurm (not ${rm.name})`);
  if (!(pollS > 0 && pollS <= 3600)) throw new InputError(`--poll-s expects seconds in (0, 3600], got ${pollS}`);
  const state = newTriggerState();
  const watchedSet = watched === null ? null : new Set(watched);
  io.stderr(`watching ${watched === null ? "every node" : watched.join(", ")} of ${rm.name} every ${pollS} s for reservations and drains within T = ${deadlineS} s${maxTriggers === Infinity ? " (Ctrl-C to stop)" : ""}`);
  let released = 0;
  let status = 0;
  for (;;) {
    const nowS = Date.now() / 1000;
    for (const due of dueReleases(rm.takeovers(), nowS, deadlineS, watchedSet, state)) {
      released += 1;
      for (const key of due.keys) state.handled.add(key);
      io.stderr(`${due.reason}: releasing ${due.nodes.join(", ")} within ${(due.releaseAtS - nowS).toFixed(0)} s`);
      const logPath = context.logPath === null ? null : context.logPath.replace(/(\.json)?$/i, `-${released}$1`);
      if (due.releaseAtS <= nowS) io.stderr(`warning: ${due.reason}, which has passed: nothing can be checkpointed before it`);
      else status = Math.max(status, await releaseNodes(context, due.nodes, nowS, due.releaseAtS - nowS, logPath));
      if (released >= maxTriggers) return status;
    }
    await new Promise((resolve) => setTimeout(resolve, pollS * 1000));
  }
}

function describePlan(plan: ReleasePlan): string {
  const lines = [
    `release plan (${plan.rm}): ${plan.jobs.length} running job(s) on ${plan.nodes.length} node(s), T = ${plan.deadlineS.toFixed(0)} s, model "${plan.model}", k0 = ${plan.k0}`,
    `checkpoint ${plan.jobs.filter((j) => j.decision === "checkpoint").length}: saves ${plan.savedS.toFixed(0)} s of computation, loses ${plan.lostS.toFixed(0)} s`,
  ];
  if (plan.jobs.length > 0) {
    lines.push(
      "",
      formatTable(
        ["job", "node", "size MB", "size from", "unsaved s", "decision", "wave", "start s", "end s"],
        plan.jobs.map((j) => [j.jobId, j.node, j.sizeMb.toFixed(0), j.sizeSource, j.unsavedS.toFixed(0), j.decision, String(j.wave), j.startS === null ? "—" : j.startS.toFixed(1), j.finishS === null ? "—" : j.finishS.toFixed(1)]),
      ),
    );
  }
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  return lines.join("\n");
}
