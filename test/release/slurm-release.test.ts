/**
 * `ckpt release` against a real Slurm (Debian 12's 22.05), started by test/cluster/slurm.sh:
 * an array with one task per node, a multi-node job, a heterogeneous job, jobs that may not
 * be requeued, jobs that do not trap the signal and an allocation without a batch script —
 * each released and checked for exactly which jobs got which signal (each job's script
 * records every signal it receives) and how each ended; --watch on what it is told to act
 * on; the log of a hook killed mid-release. Each test cancels what it submitted and waits
 * until it is gone (no job process outlives the test). Needs root (the daemons do); fails,
 * not skips, when Slurm cannot be started.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { takeReleaseLock } from "../../pipeline/release/release-lock";
import { runCli } from "../cli-io";
import { clusterUp, sh, waitFor } from "../cluster/live";
import { constantModel } from "../schedule/models";

const dir = mkdtempSync(join(tmpdir(), "ckpt-release-slurm-"));
chmodSync(dir, 0o755);
const markers = join(dir, "markers");
const lock = join(dir, "release.lock");
const model = join(dir, "model.json");
/** Every job, allocation or array this file submitted: cancelled after each test. */
const submitted: string[] = [];
// Slurm's MiB in the plan's MB.
const MB_PER_MIB = 1.048576;

/** sbatch as root; returns the job id (a heterogeneous job's or an array's own). */
const sbatch = (...args: string[]) => {
  const id = sh("sbatch", ["--parsable", "-o", "/dev/null", ...args]).split(";")[0]!;
  submitted.push(id);
  return id;
};
/** scontrol's one-line record of a job (its first record: an array task's, a het job's leader's when given `<id>+0`). */
const show = (id: string) => sh("scontrol", ["-o", "show", "job", id]).split("\n")[0]!;
const field = (record: string, key: string) => new RegExp(`(?:^|\\s)${key}=(\\S*)`).exec(record)?.[1];
const stateOf = (id: string) => field(show(id), "JobState");
/** The signals each job's script received, by the id the hook gives it ("812", "812_3"): ["USR2 restart=0", …]. */
const received = (): Record<string, string[]> =>
  Object.fromEntries(readdirSync(markers).map((name) => [name, readFileSync(join(markers, name), "utf8").trim().split("\n")]));
const running = (ids: string[]) => waitFor(`jobs ${ids.join(", ")} to run`, () => ids.every((id) => stateOf(id) === "RUNNING"), 120);
const release = (...args: string[]) => runCli(["release", "--rm", "slurm", "--model", model, "--lock", lock, "--poll-ms", "100", ...args]);
const readLog = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line));
const outcomes = (path: string) => Object.fromEntries(readLog(path).at(-1).jobs.map((j: { jobId: string; outcome: string; requeued: boolean }) => [j.jobId, [j.outcome, j.requeued]]));

beforeAll(async () => {
  clusterUp("slurm");
  mkdirSync(markers);
  // The job's wrapper: records each signal it gets; on USR2 "checkpoints" and exits 0.
  const record = `id=\${SLURM_ARRAY_JOB_ID:+\${SLURM_ARRAY_JOB_ID}_\${SLURM_ARRAY_TASK_ID}}; id=\${id:-$SLURM_JOB_ID}; echo "$1 restart=\${SLURM_RESTART_COUNT:-0}" >> ${markers}/$id`;
  writeFileSync(join(dir, "job.sh"), `#!/bin/bash\nrecord() { ${record}; }\nfor s in USR1 HUP INT TERM; do trap "record $s" $s; done\ntrap 'record USR2; exit 0' USR2\nwhile true; do sleep 0.2; done\n`);
  // A job that does not trap the signal: USR2's default action ends it.
  writeFileSync(join(dir, "notrap.sh"), "#!/bin/bash\nwhile true; do sleep 0.2; done\n");
  // A job whose checkpoint takes long: it records USR2 and goes on (for the interrupted hook).
  writeFileSync(join(dir, "slow.sh"), `#!/bin/bash\nrecord() { ${record}; }\ntrap 'record USR2' USR2\nwhile true; do sleep 0.2; done\n`);
  for (const script of ["job.sh", "notrap.sh", "slow.sh"]) chmodSync(join(dir, script), 0o755);
  // 100 MB/s whatever the load.
  writeFileSync(model, JSON.stringify(constantModel(100, "100 MB/s")));
}, 900_000);

afterEach(async () => {
  // Cancel what the test submitted, and wait until Slurm has ended it (its processes with it).
  const ids = submitted.splice(0);
  if (ids.length > 0) sh("bash", ["-c", `scancel ${ids.join(" ")} 2>/dev/null; true`]);
  await waitFor(`jobs ${ids.join(", ")} to end`, () => sh("bash", ["-c", `squeue -h -t PD,R,CG,S,CF -o %A -j ${ids.join(",")} 2>/dev/null; true`]) === "", 120);
  rmSync(markers, { recursive: true, force: true });
  mkdirSync(markers);
}, 180_000);

afterAll(() => {
  sh("bash", ["-c", "scontrol delete reservation=ckpt-maint 2>/dev/null; scontrol update nodename=n2,n4 state=resume 2>/dev/null; true"]);
  rmSync(dir, { recursive: true, force: true });
});

describe("ckpt release --rm slurm", () => {
  it("signals only the array task on the released node, addressed <array>_<task>, even the one that carries the array's id", async () => {
    // One task per node (--exclusive). Releasing the node of the task whose job id is the array's own
    // once signalled all four tasks: a bare array id means every task to scancel.
    const array = sbatch("--requeue", "--array=1-4", "--exclusive", "--mem=100", join(dir, "job.sh"));
    const tasks = [1, 2, 3, 4].map((k) => `${array}_${k}`);
    await running(tasks);
    const rows = sh("squeue", ["-h", "-j", array, "-o", "%i %A %N"]).split("\n").map((line) => line.trim().split(/\s+/));
    const [carrier, , node] = rows.find(([, jobId]) => jobId === array)!;
    const log = join(dir, "array.jsonl");
    const run = await release("--nodes", node!, "--deadline", "60", "--log", log);
    expect(run.code, run.stderr).toBe(0);
    expect(readLog(log)[0].plan.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([carrier]);
    // Exactly the carrier got exactly one USR2; the three other tasks got nothing and run on.
    expect(received()).toEqual({ [carrier!]: ["USR2 restart=0"] });
    expect(outcomes(log)).toEqual({ [carrier!]: ["saved", true] });
    expect(field(show(carrier!), "Restarts")).toBe("1");
    for (const task of tasks.filter((t) => t !== carrier)) expect([task, stateOf(task), field(show(task), "Restarts")]).toEqual([task, "RUNNING", "0"]);
  }, 240_000);

  it("plans a multi-node job on all its nodes (not in the wave of a job sharing one), and a heterogeneous job as one job", async () => {
    const wide = sbatch("--requeue", "-N", "2", "-w", "n[1-2]", "--mem=200", "-J", "wide", join(dir, "job.sh"));
    const narrow = sbatch("--requeue", "-w", "n2", "--mem=300", "-J", "narrow", join(dir, "job.sh"));
    const het = sbatch("--requeue", "-J", "het", "--mem=150", "-w", "n3", ":", "--mem=250", "-w", "n4", join(dir, "job.sh"));
    await running([wide, narrow, `${het}+0`, `${het}+1`]);
    const dry = await release("--nodes", "n2,n4", "--deadline", "120", "--dry-run", "--json");
    expect(dry.code, dry.stderr).toBe(0);
    const planned = Object.fromEntries(
      JSON.parse(dry.stdout).jobs.map((j: { jobId: string; nodes: string[]; sizeMb: number; wave: number; decision: string }) => [j.jobId, [j.nodes, j.sizeMb, j.wave, j.decision]]),
    );
    // Sizes: the memory allocated on each node, MiB → MB. The two jobs of n2 in two waves (in squeue's order), the het job in the first.
    const [first, second] = planned[wide][2] === 1 ? [wide, narrow] : [narrow, wide];
    expect(planned).toEqual({
      [wide]: [["n1", "n2"], 400 * MB_PER_MIB, first === wide ? 1 : 2, "checkpoint"],
      [narrow]: [["n2"], 300 * MB_PER_MIB, first === narrow ? 1 : 2, "checkpoint"],
      [het]: [["n3", "n4"], 400 * MB_PER_MIB, 1, "checkpoint"],
    });

    const log = join(dir, "waves.jsonl");
    const run = await release("--nodes", "n2,n4", "--deadline", "120", "--log", log);
    expect(run.code, run.stderr).toBe(0);
    expect(received()).toEqual({ [wide]: ["USR2 restart=0"], [narrow]: ["USR2 restart=0"], [het]: ["USR2 restart=0"] });
    expect(outcomes(log)).toEqual({ [wide]: ["saved", true], [narrow]: ["saved", true], [het]: ["saved", true] });
    // The second job of n2 was signalled after the first had ended: never two checkpoints on n2 at once.
    const events = readLog(log).filter((l) => l.type === "event");
    const at = (jobId: string, event: string) => events.find((e) => e.jobId === jobId && e.event === event).atS;
    expect(at(second, "signalled")).toBeGreaterThanOrEqual(at(first, "ended"));
    // The heterogeneous job was requeued whole: both components.
    for (const component of [`${het}+0`, `${het}+1`]) expect(field(show(component), "Restarts")).toBe("1");
  }, 240_000);

  it("says how each job ended: saved but not requeued (--no-requeue), killed by the signal it does not trap, never signalled (no batch script); exit 3", async () => {
    const keep = sbatch("--no-requeue", "-w", "n3", "--mem=100", "-J", "norequeue", join(dir, "job.sh"));
    const notrap = sbatch("--requeue", "-w", "n3", "--mem=100", "-J", "notrap", join(dir, "notrap.sh"));
    // An allocation with no shell and no batch script (salloc --no-shell): nothing could trap a signal.
    const granted = sh("bash", ["-c", "salloc --no-shell -N1 -w n4 --mem=100 -J alloc 2>&1"]);
    const alloc = /Granted job allocation (\d+)/.exec(granted)?.[1];
    expect(alloc, granted).toBeDefined();
    submitted.push(alloc!);
    await running([keep, notrap, alloc!]);
    const log = join(dir, "ends.jsonl");
    const run = await release("--nodes", "n3,n4", "--deadline", "120", "--log", log);
    expect(run.code, run.stderr).toBe(3);
    const jobs = Object.fromEntries(readLog(log).at(-1).jobs.map((j: { jobId: string; outcome: string; requeued: boolean; how: string }) => [j.jobId, [j.outcome, j.requeued, j.how]]));
    expect(jobs).toEqual({
      [keep]: ["saved", false, "saved (COMPLETED, exit 0); not requeued: it may not be requeued (submitted with --no-requeue, or the cluster's JobRequeue=0)"],
      [notrap]: ["not-saved", true, expect.stringMatching(/^not saved \(FAILED, killed by signal 12 \(USR2\): its batch script did not trap the checkpoint signal, or died of it\); requeued: scontrol requeue: (PENDING|RUNNING|REQUEUED)/)],
      [alloc!]: ["not-chosen", false, "not checkpointed: cannot be signalled: not a batch job (salloc or srun): it has no batch script to trap the signal"],
    });
    expect(received()).toEqual({ [keep]: ["USR2 restart=0"] });
    expect([stateOf(keep), field(show(keep), "Restarts")]).toEqual(["COMPLETED", "0"]);
    expect(field(show(notrap), "Restarts")).toBe("1");
    expect(stateOf(alloc!)).toBe("RUNNING");
    expect(run.stdout).toMatch(/done in .* s: 1 saved, 1 not-saved, 1 not-chosen/);
  }, 240_000);

  it("--watch acts on the reservation flagged MAINT and the drain whose reason it is told, the soonest first, whatever SLURM_TIME_FORMAT says", async () => {
    const onN3 = sbatch("--requeue", "-w", "n3", "--mem=100", join(dir, "job.sh"));
    const onN4 = sbatch("--requeue", "-w", "n4", "--mem=200", join(dir, "job.sh"));
    const onN2 = sbatch("--requeue", "-w", "n2", "--mem=100", join(dir, "job.sh"));
    await running([onN3, onN4, onN2]);
    sh("scontrol", ["create", "reservation", "reservationname=ckpt-maint", "starttime=now+25", "duration=5", "nodes=n3", "flags=maint,ignore_jobs", "users=root"]);
    sh("scontrol", ["update", "nodename=n4", "state=drain", "reason=ckpt-release test"]);
    // An ordinary drain (let the jobs finish): not a release.
    sh("scontrol", ["update", "nodename=n2", "state=drain", "reason=bad DIMM"]);
    const log = join(dir, "watch.jsonl");
    // In root's environment this would make scontrol print StartTime=04:30:51; the hook fixes the format.
    process.env.SLURM_TIME_FORMAT = "relative";
    let run;
    try {
      run = await release("--watch", "--deadline", "60", "--reservation-flag", "MAINT", "--drain-reason", "^ckpt-release", "--poll-s", "1", "--triggers", "2", "--log", log);
    } finally {
      delete process.env.SLURM_TIME_FORMAT;
      sh("bash", ["-c", "scontrol delete reservation=ckpt-maint; scontrol update nodename=n2,n4 state=resume; true"]);
    }
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/reservation ckpt-maint \(MAINT\) starts at .*: releasing n3 within \d+ s/);
    expect(run.stderr).toMatch(/drain of n4 \("ckpt-release test"\) seen at .*: releasing n4 within (5\d|60) s/);
    // The reservation (due in ≤ 25 s) before the drain (due in 60 s).
    const plans = readLog(log).filter((l) => l.type === "plan");
    expect(plans.map((p) => [p.release, p.plan.nodes])).toEqual([
      [1, ["n3"]],
      [2, ["n4"]],
    ]);
    expect(received()).toEqual({ [onN3]: ["USR2 restart=0"], [onN4]: ["USR2 restart=0"] });
    expect(stateOf(onN2)).toBe("RUNNING");
  }, 240_000);

  it("leaves in its log every signal sent when it is killed mid-release", async () => {
    // A job whose checkpoint does not end: the hook waits for it until it is killed.
    const slow = sbatch("--requeue", "-w", "n1", "--mem=100", join(dir, "slow.sh"));
    await running([slow]);
    const log = join(dir, "killed.jsonl");
    const hook = spawn(process.execPath, ["--import", "tsx", join(__dirname, "../harness/ckpt-from-source.ts"), "release", "--rm", "slurm", "--model", model, "--lock", lock, "--nodes", "n1", "--deadline", "300", "--log", log], {
      stdio: "ignore",
    });
    try {
      await waitFor("the hook to log its signal", () => existsSync(log) && readFileSync(log, "utf8").includes('"event":"signalled"'), 120);
    } finally {
      hook.kill("SIGKILL");
    }
    await new Promise((resolve) => hook.once("exit", resolve));
    const lines = readLog(log);
    expect(lines.map((l) => (l.type === "event" ? `${l.jobId} ${l.event}` : l.type))).toEqual(["plan", `${slow} signalled`]);
    // The signal the log names did reach the job (its trap runs once its current sleep ends).
    await waitFor("the job's trap to record the signal", () => existsSync(join(markers, slow)), 60);
    expect(received()).toEqual({ [slow]: ["USR2 restart=0"] });
    // Its lock went with it: the next hook can act.
    takeReleaseLock(lock).release();
  }, 240_000);

  it("refuses unknown nodes, an empty node list, a release time that has passed, a missing scheduler, and a second hook", async () => {
    const base = ["release", "--rm", "slurm", "--model", model, "--lock", lock];
    expect(await runCli([...base, "--nodes", "n9", "--deadline", "7", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/slurm knows no node n9; its nodes are n1, n2, n3, n4/) });
    expect(await runCli([...base, "--nodes", ",", "--deadline", "7", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/--nodes "," names no node/) });
    expect(await runCli([...base, "--nodes", "n1", "--release-at", "2001-01-01T00:00:00Z", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/the release time 2001-01-01T00:00:00\.000Z has passed/) });
    expect(await runCli([...base, "--nodes", "n1", "--deadline", "7", "--signal", "KILL"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/SIGKILL cannot be trapped/) });
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      expect(await runCli([...base, "--nodes", "n1", "--deadline", "7", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/sinfo not found: is Slurm installed here/) });
    } finally {
      process.env.PATH = path;
    }
    const other = takeReleaseLock(lock);
    try {
      expect(await runCli([...base, "--nodes", "n1", "--deadline", "7"])).toMatchObject({ code: 1, stderr: expect.stringContaining(`another release hook holds the lock ${lock} (pid ${process.pid})`) });
    } finally {
      other.release();
    }
  });
});
