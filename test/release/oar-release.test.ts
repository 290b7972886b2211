/**
 * `ckpt release` against a real OAR 2.5 (Debian 12's), started by test/cluster/oar.sh: an
 * array with one task per node, a job on both nodes, sizes from the jobs' sidecars (one of
 * them a FIFO, which must not hang the hook), a job that does not trap the signal, an
 * interactive job (OAR can neither signal nor resubmit it) and --signal honoured — each
 * released and checked for exactly which jobs got which signal (each job's script records
 * every signal it receives) and how each ended. Each test deletes what it submitted (and
 * the copies the hook resubmitted) and waits until OAR has ended them. Needs root; fails,
 * not skips, when OAR cannot be started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { asUser, chownToUser, clusterUp, JOB_USER, removeDir, sh, userWorkDir, waitFor } from "../cluster/live";
import { constantModel } from "../schedule/models";

let dir = "";
/** The hook's own files (its lock, its logs): root's, not in the job user's folder. */
const hookDir = mkdtempSync(join(tmpdir(), "ckpt-release-oar-"));
let markers = "";
let sidecars = "";
/** Every job this file submitted; the hook's resubmitted copies are found from them. */
const submitted: string[] = [];
/** Interactive sessions this file started (their process groups). */
const sessions: ChildProcess[] = [];

const state = (id: string) => /^\d+: (\w+)/.exec(sh("oarstat", ["-s", "-j", id]))?.[1] ?? "";
const current = () => JSON.parse(sh("oarstat", ["-J"]) || "{}") as Record<string, { resubmit_job_id: number; assigned_network_address: string[] }>;
/** A batch job as the job user: `name` says what its sidecar holds ("s300": 300 MB, "fifo": a FIFO, other: none). */
function submit(name: string, resources: string, script = "job.sh", property?: string): string {
  const text = asUser("oarsub", ["-n", name, ...(property ? ["-p", property] : []), "-l", `${resources},walltime=0:10:00`, "-S", join(dir, script)], dir);
  const ids = [...text.matchAll(/OAR_JOB_ID=(\d+)/g)].map((m) => m[1]!);
  submitted.push(...ids);
  return ids[0]!;
}
const onNode = (node: string) => `network_address='${node}'`;
const running = (ids: string[]) => waitFor(`jobs ${ids.join(", ")} to run`, () => ids.every((id) => state(id) === "Running"), 180);
/** The signals each job's script received, by job id. */
const received = (): Record<string, string[]> => Object.fromEntries(readdirSync(markers).map((name) => [name, readFileSync(join(markers, name), "utf8").trim().split("\n")]));
const readLog = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line));
const outcomes = (path: string) => Object.fromEntries(readLog(path).at(-1).jobs.map((j: { jobId: string; outcome: string; requeued: boolean }) => [j.jobId, [j.outcome, j.requeued]]));
/** The copies OAR or the hook queued of a job. */
const copiesOf = (id: string) => Object.entries(current()).filter(([, job]) => String(job.resubmit_job_id) === id).map(([copy]) => copy);
const release = (...args: string[]) => runCli(["release", "--rm", "oar", "--model", join(dir, "model.json"), "--lock", join(hookDir, "release.lock"), "--sidecar-dir", sidecars, "--poll-ms", "200", ...args]);

beforeAll(() => {
  clusterUp("oar", { OAR_CPUSET: "1" });
  dir = userWorkDir("oar-release-");
  markers = join(dir, "markers");
  sidecars = join(dir, "sidecars");
  mkdirSync(markers);
  mkdirSync(sidecars);
  // The job's wrapper: writes its sidecar (from its name), records every signal it gets, and
  // "checkpoints" and exits 0 on its checkpoint signal (USR2; USR1 for job-usr1.sh). OAR
  // signals the first process of the job: the script itself, submitted with -S.
  const common = `record() { echo "$1" >> ${markers}/$OAR_JOB_ID; }
case "$OAR_JOB_NAME" in s[0-9]*) echo "{\\"sizeMb\\": \${OAR_JOB_NAME#s}}" > ${sidecars}/$OAR_JOB_ID.json ;; fifo) mkfifo ${sidecars}/$OAR_JOB_ID.json ;; esac`;
  const loop = "while true; do sleep 0.2; done";
  writeFileSync(join(dir, "job.sh"), `#!/bin/bash\n${common}\nfor s in USR1 HUP INT TERM; do trap "record $s" $s; done\ntrap 'record USR2; exit 0' USR2\n${loop}\n`);
  writeFileSync(join(dir, "job-usr1.sh"), `#!/bin/bash\n${common}\nfor s in USR2 HUP INT TERM; do trap "record $s" $s; done\ntrap 'record USR1; exit 0' USR1\n${loop}\n`);
  // A job that traps nothing: the signal's default action ends it.
  writeFileSync(join(dir, "notrap.sh"), `#!/bin/bash\n${common}\n${loop}\n`);
  for (const script of ["job.sh", "job-usr1.sh", "notrap.sh"]) chmodSync(join(dir, script), 0o755);
  // 20 MB/s whatever the load (OAR takes seconds to signal a job and to see it end).
  writeFileSync(join(dir, "model.json"), JSON.stringify(constantModel(20, "20 MB/s")));
  chownToUser(dir);
}, 900_000);

afterEach(async () => {
  for (const session of sessions.splice(0)) if (session.pid !== undefined) sh("bash", ["-c", `kill -- -${session.pid} 2>/dev/null; true`]);
  // What the test submitted, and every copy queued of it (copies of copies too).
  const ids = new Set(submitted.splice(0));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [copy, job] of Object.entries(current())) {
      if (ids.has(String(job.resubmit_job_id)) && !ids.has(copy)) {
        ids.add(copy);
        grew = true;
      }
    }
  }
  if (ids.size > 0) sh("bash", ["-c", `oardel ${[...ids].join(" ")} >/dev/null 2>&1; true`]);
  await waitFor(`jobs ${[...ids].join(", ")} to end`, () => [...ids].every((id) => ["Terminated", "Error", ""].includes(state(id))), 180);
  for (const folder of [markers, sidecars]) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
  }
  chownToUser(dir);
}, 300_000);

afterAll(() => {
  removeDir(dir);
  removeDir(hookDir);
});

describe("ckpt release --rm oar", () => {
  it("signals only the array task on the released node, and resubmits it once", async () => {
    // One task per node; oarsub --array prints every task's id.
    const text = asUser("oarsub", ["-n", "s100", "--array", "2", "-l", "/nodes=1,walltime=0:10:00", "-S", join(dir, "job.sh")], dir);
    const tasks = [...text.matchAll(/OAR_JOB_ID=(\d+)/g)].map((m) => m[1]!);
    submitted.push(...tasks);
    await running(tasks);
    const byNode = Object.fromEntries(tasks.map((id) => [current()[id]!.assigned_network_address[0]!, id]));
    const log = join(hookDir, "array.jsonl");
    const run = await release("--nodes", "oarnode2", "--deadline", "120", "--log", log);
    expect(run.code, run.stderr).toBe(0);
    expect(readLog(log)[0].plan.jobs.map((j: { jobId: string; sizeMb: number; sizeSource: string }) => [j.jobId, j.sizeMb, j.sizeSource])).toEqual([[byNode.oarnode2, 100, "sidecar"]]);
    expect(received()).toEqual({ [byNode.oarnode2!]: ["USR2"] });
    expect(outcomes(log)).toEqual({ [byNode.oarnode2!]: ["saved", true] });
    expect(copiesOf(byNode.oarnode2!)).toHaveLength(1);
    expect(state(byNode.oarnode1!)).toBe("Running");
  }, 600_000);

  it("plans a job on both nodes in its own wave, takes sizes from sidecars, and is not hung by a FIFO sidecar", async () => {
    const wide = submit("s300", "/nodes=2/core=1");
    const narrow = submit("s200", "/core=1", "job.sh", onNode("oarnode2"));
    const fifo = submit("fifo", "/core=1", "job.sh", onNode("oarnode1"));
    await running([wide, narrow, fifo]);
    await waitFor("the sidecars to be written", () => [wide, narrow, fifo].every((id) => existsSync(join(sidecars, `${id}.json`))), 60);
    const log = join(hookDir, "waves.jsonl");
    const run = await release("--nodes", "oarnode1,oarnode2", "--deadline", "120", "--default-size-mb", "50", "--log", log);
    expect(run.code, run.stderr).toBe(0);
    const plan = readLog(log)[0].plan;
    expect(plan.jobs.map((j: { jobId: string; sizeMb: number; sizeSource: string; wave: number }) => [j.jobId, j.sizeMb, j.sizeSource, j.wave])).toEqual([
      [wide, 300, "sidecar", 1],
      [narrow, 200, "sidecar", 2],
      [fifo, 50, "assumed", 2],
    ]);
    expect(plan.warnings).toContain(`job ${fifo}: its sidecar ${join(sidecars, `${fifo}.json`)} is not a regular file (a FIFO): ignored, the scheduler's values are used`);
    expect(received()).toEqual({ [wide]: ["USR2"], [narrow]: ["USR2"], [fifo]: ["USR2"] });
    expect(outcomes(log)).toEqual({ [wide]: ["saved", true], [narrow]: ["saved", true], [fifo]: ["saved", true] });
    // Wave 2 was signalled once the job on both nodes had ended.
    const events = readLog(log).filter((l) => l.type === "event");
    const at = (jobId: string, event: string) => events.find((e) => e.jobId === jobId && e.event === event).atS;
    for (const later of [narrow, fifo]) expect(at(later, "signalled")).toBeGreaterThanOrEqual(at(wide, "ended"));
    for (const id of [wide, narrow, fifo]) expect(copiesOf(id)).toHaveLength(1);
  }, 600_000);

  it("honours --signal, says a job killed by the signal it does not trap, and never signals an interactive job; exit 3", async () => {
    const usr1 = submit("s100", "/core=1", "job-usr1.sh", onNode("oarnode1"));
    const notrap = submit("s100", "/core=1", "notrap.sh", onNode("oarnode1"));
    // An interactive job (oarsub -I, given a terminal by script(1)), in its own process group.
    const session = spawn("runuser", ["-u", JOB_USER, "--", "bash", "-c", `cd ${dir} && sleep 600 | script -qfec "oarsub -I -p \\"network_address='oarnode2'\\" -l /core=1,walltime=0:10:00" /dev/null`], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, PWD: dir },
    });
    sessions.push(session);
    let output = "";
    session.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitFor("the interactive job's id", () => /OAR_JOB_ID=\d+/.test(output), 120);
    const interactive = /OAR_JOB_ID=(\d+)/.exec(output)![1]!;
    submitted.push(interactive);
    await running([usr1, notrap, interactive]);
    const log = join(hookDir, "ends.jsonl");
    const run = await release("--nodes", "oarnode1,oarnode2", "--deadline", "120", "--default-size-mb", "50", "--signal", "USR1", "--log", log);
    expect(run.code, run.stderr).toBe(3);
    const jobs = Object.fromEntries(readLog(log).at(-1).jobs.map((j: { jobId: string; outcome: string; requeued: boolean; how: string }) => [j.jobId, [j.outcome, j.requeued, j.how]]));
    expect(jobs).toEqual({
      [usr1]: ["saved", true, expect.stringMatching(/^saved \((Terminated|Finishing), exit 0\); requeued: resubmitted as job \d+$/)],
      [notrap]: ["not-saved", true, expect.stringMatching(/^not saved \((Terminated|Finishing), killed by signal 10: its script did not trap the checkpoint signal, or died of it\); requeued: resubmitted as job \d+$/)],
      [interactive]: ["not-chosen", false, "not checkpointed: cannot be signalled: an interactive job (oarsub -I): OAR signals only batch jobs"],
    });
    expect(received()).toEqual({ [usr1]: ["USR1"] });
    expect(state(interactive)).toBe("Running");
  }, 600_000);

  it("refuses unknown nodes, named reservations and a missing scheduler", async () => {
    expect(await release("--nodes", "oarnode9", "--deadline", "7", "--dry-run")).toMatchObject({ code: 1, stderr: expect.stringMatching(/oar knows no node oarnode9; its nodes are oarnode1, oarnode2/) });
    expect(await release("--reservation", "maint", "--deadline", "7", "--dry-run")).toMatchObject({ code: 1, stderr: expect.stringMatching(/OAR has no named reservations of nodes like Slurm's; give --nodes/) });
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      expect(await release("--nodes", "oarnode1", "--deadline", "7", "--dry-run")).toMatchObject({ code: 1, stderr: expect.stringMatching(/oarnodes not found: is OAR installed here/) });
    } finally {
      process.env.PATH = path;
    }
  });
});
