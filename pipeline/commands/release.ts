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
import { booleanFlag, choiceFlag, numberFlag, optionalStringFlag, stringFlag, type CommandIo, type LegacyCommand, type ParsedArgs } from "../shared/command";
import { InputError, UsageError } from "../shared/errors";
import { formatTable } from "../shared/format-table";
import { checkInputPath } from "../shared/path-checks";
import { expandHostlist } from "../release/hostlist";
import { oar } from "../release/oar";
import { executeRelease } from "../release/release-executor";
import { planRelease, type ReleasePlan } from "../release/release-plan";
import type { ResourceManager } from "../release/resource-manager";
import { applySidecar } from "../release/sidecar";
import { slurm } from "../release/slurm";

const help = `ckpt release — which running jobs to checkpoint before nodes are taken back (ScheduleCkpt as the scheduler's hook, [Y-thesis] ch. 6)

Usage:
  ckpt release --rm slurm|oar (--deadline S | --release-at TIME) (--nodes LIST | --reservation NAME)
               --model paper|model.json [--k0 K] [--dry-run] [--json] [--log FILE]

Lists the jobs running on the nodes from the scheduler itself (squeue --json, oarstat -J),
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
\`exec ./job.sh\` or a script with -S.

Options:
  --rm slurm|oar        the batch scheduler
  --deadline S          T: seconds until the nodes are taken back (> 0)
  --release-at TIME     or the release time (ISO 8601, e.g. 2026-11-25T08:00:00Z, or epoch s)
  --nodes LIST          the nodes to release: a comma list or a Slurm host list (n[1-3],m7)
  --reservation NAME    (Slurm) the nodes of a reservation
  --model M             "paper" (the published bw model) or a model file from ckpt fit
  --k0 K, --criterion p|density, --estimator static|fluid    as ckpt schedule
  --sidecar-dir DIR     read <DIR>/<job id>.json written by each job: {"sizeMb": …,
                        "lastCheckpointAt": epoch s}; sizes from it are "sidecar" (measured
                        by the job), others "requested" (the memory the job was allocated)
  --default-size-mb MB  size of a job whose memory is unknown (OAR knows none), said as
                        "assumed"; without it such a job is an error
  --signal SIG          the checkpoint signal (default USR2)
  --dry-run             print the plan only
  --json                the plan (and with action, the log) as JSON
  --log FILE            write the log of the action (JSON) to FILE, atomically
  --poll-ms N           how often to look at signalled jobs (default 250)

Examples:
  ckpt release --rm slurm --nodes 'n[1-8]' --deadline 600 --model reports/artifacts/model.json --dry-run
  ckpt release --rm slurm --reservation maint --release-at 2026-11-25T08:00:00Z --model paper --log release.json
  ckpt release --rm oar --nodes node1,node2 --deadline 300 --model paper --sidecar-dir ~/ckpt/sidecars`;

export const command: LegacyCommand = {
  name: "release",
  help,
  options: {
    rm: { type: "string" },
    deadline: { type: "string" },
    "release-at": { type: "string" },
    nodes: { type: "string" },
    reservation: { type: "string" },
    model: { type: "string" },
    k0: { type: "string" },
    criterion: { type: "string" },
    estimator: { type: "string" },
    "sidecar-dir": { type: "string" },
    "default-size-mb": { type: "string" },
    signal: { type: "string" },
    "dry-run": { type: "boolean" },
    json: { type: "boolean" },
    log: { type: "string" },
    "poll-ms": { type: "string" },
  },
  run,
};

const ADAPTERS: Record<string, ResourceManager> = { slurm, oar };

function deadlineFrom(args: ParsedArgs, nowS: number): number {
  const deadline = optionalStringFlag(args, "deadline");
  const releaseAt = optionalStringFlag(args, "release-at");
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

async function run(args: ParsedArgs, io: CommandIo): Promise<number> {
  const rmName = choiceFlag(args, "rm", ["slurm", "oar"] as const, "slurm");
  if (args.values.rm === undefined) throw new UsageError("missing --rm slurm|oar (the batch scheduler to ask)");
  const rm = ADAPTERS[rmName]!;
  const nowS = Date.now() / 1000;
  const deadlineS = deadlineFrom(args, nowS);
  const nodesFlag = optionalStringFlag(args, "nodes");
  const reservation = optionalStringFlag(args, "reservation");
  if ((nodesFlag === undefined) === (reservation === undefined)) throw new UsageError("give the nodes to release as --nodes LIST or --reservation NAME, one of them");
  const model = loadModel(stringFlag(args, "model"));
  const options = resolveScheduleOptions({
    model,
    deadlineS,
    k0: numberFlag(args, "k0", SCHEDULE_DEFAULTS.k0),
    criterion: choiceFlag(args, "criterion", CRITERIA, SCHEDULE_DEFAULTS.criterion),
    estimator: choiceFlag(args, "estimator", ESTIMATOR_NAMES, SCHEDULE_DEFAULTS.estimator),
  });
  const sidecarDir = optionalStringFlag(args, "sidecar-dir") ?? null;
  if (sidecarDir !== null) checkInputPath(sidecarDir, { kind: "directory", what: "sidecar folder", flag: "--sidecar-dir" });
  const defaultSizeText = optionalStringFlag(args, "default-size-mb");
  const defaultSizeMb = defaultSizeText === undefined ? null : Number(defaultSizeText);
  if (defaultSizeMb !== null && !(defaultSizeMb > 0 && Number.isFinite(defaultSizeMb))) throw new InputError(`--default-size-mb expects MB > 0, got "${defaultSizeText}"`);

  const nodes = nodesFlag !== undefined ? expandHostlist(nodesFlag) : rm.reservationNodes(reservation!);
  const known = new Set(rm.knownNodes());
  const unknown = nodes.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new InputError(`${rmName} knows no node ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", …" : ""}; its nodes are ${[...known].slice(0, 20).join(", ")}${known.size > 20 ? ", …" : ""}`);
  }
  const jobs = rm.runningJobs({ nodes, defaultSizeMb }).map((job) => applySidecar(job, sidecarDir));
  for (const job of jobs) {
    if (job.sizeSource === "assumed" && defaultSizeMb === null) {
      throw new InputError(`job ${job.jobId}: ${rmName} knows no memory for it and it wrote no sidecar; give --default-size-mb (what to assume) or --sidecar-dir`);
    }
  }
  const plan = planRelease({ rm: rmName, nowS, deadlineS, nodes, jobs }, options);
  const json = booleanFlag(args, "json");

  if (booleanFlag(args, "dry-run")) {
    io.stdout(json ? JSON.stringify(plan, null, 2) : describePlan(plan));
    return 0;
  }
  if (!json) io.stdout(describePlan(plan));
  const pollMs = numberFlag(args, "poll-ms", 250);
  if (!(pollMs >= 10)) throw new InputError(`--poll-ms expects at least 10 ms, got ${pollMs}`);
  const log = await executeRelease(plan, rm, {
    signal: optionalStringFlag(args, "signal") ?? "USR2",
    pollMs,
    onEvent: (e) => io.stderr(`${e.atS.toFixed(1).padStart(7)} s  job ${e.jobId}: ${e.event}${e.detail ? ` (${e.detail})` : ""}`),
  });
  const logPath = optionalStringFlag(args, "log");
  if (logPath !== undefined) writeJsonAtomic(logPath, log);
  if (json) io.stdout(JSON.stringify(log, null, 2));
  else {
    const count = (o: string) => log.jobs.filter((j) => j.outcome === o).length;
    io.stdout(`done in ${(log.endedAtS - log.startedAtS).toFixed(1)} s: ${count("saved")} saved and requeued, ${count("not-finished")} signalled but not finished by the deadline, ${count("lost")} not checkpointed`);
  }
  return log.events.some((e) => e.event === "error") ? 1 : 0;
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
