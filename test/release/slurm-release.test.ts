/**
 * `ckpt release` against a real Slurm (issue #15), started by test/cluster/slurm.sh: jobs
 * submitted with known memory sizes are listed with their size, unsaved time and decision;
 * acting signals exactly the chosen jobs (each batch script traps the signal and writes a
 * marker), requeues them, and the log matches the plan. Needs root (the daemons do); fails,
 * not skips, when Slurm cannot be started.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { clusterUp, sh, waitFor } from "../cluster/live";
import { constantModel } from "../schedule/models";

const dir = mkdtempSync(join(tmpdir(), "ckpt-release-slurm-"));
chmodSync(dir, 0o755);
const markers = join(dir, "markers");
const jobIds: string[] = [];
const state = (id: string) => sh("squeue", ["-h", "-t", "all", "-j", id, "-o", "%T"]);
const submit = (mem: string, node: string) => {
  const id = sh("sbatch", ["--parsable", "--requeue", `--mem=${mem}`, "-w", node, "-o", "/dev/null", "-J", `ckpt-release-${mem}`, join(dir, "job.sh")]);
  jobIds.push(id);
  return id;
};

beforeAll(async () => {
  clusterUp("slurm");
  mkdirSync(markers);
  // The job's wrapper: on USR2 it "checkpoints" (writes a marker named by its job id) and exits.
  const job = join(dir, "job.sh");
  writeFileSync(job, `#!/bin/bash\ntrap 'echo "$(date +%s.%N)" > ${markers}/$SLURM_JOB_ID; exit 0' USR2\nwhile true; do sleep 0.2; done\n`);
  chmodSync(job, 0o755);
  for (const [mem, node] of [["300", "n1"], ["500", "n1"], ["200", "n2"], ["100", "n3"]]) submit(mem!, node!);
  await waitFor("the four jobs to run", () => jobIds.every((id) => state(id) === "RUNNING"), 60);
}, 900_000);

afterAll(() => {
  if (jobIds.length > 0) execFileSync("scancel", jobIds);
  execFileSync("bash", ["-c", "scontrol delete reservation=ckpt-maint; scontrol update nodename=n4 state=resume"], { stdio: "ignore" });
  rmSync(dir, { recursive: true, force: true });
});

describe("ckpt release --rm slurm", () => {
  const model = join(dir, "model.json");
  // 100 MB/s whatever the load: wave 1 (n1's 300 MB job and n2's 200 MB job) takes 5 s, n1's second job 5 s more.
  writeFileSync(model, JSON.stringify(constantModel(100, "100 MB/s")));
  const base = ["release", "--rm", "slurm", "--nodes", "n[1-2]", "--model", model];

  it("--dry-run --json lists each job on the nodes with its size, unsaved time and decision", async () => {
    const run = await runCli([...base, "--deadline", "7", "--dry-run", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan.jobs.map((j: { jobId: string; sizeMb: number; sizeSource: string; node: string }) => [j.jobId, j.node, j.sizeMb, j.sizeSource])).toEqual([
      [jobIds[0], "n1", 300, "requested"],
      [jobIds[1], "n1", 500, "requested"],
      [jobIds[2], "n2", 200, "requested"],
    ]);
    for (const job of plan.jobs) expect(job.unsavedS).toBeGreaterThanOrEqual(0);
    expect(plan.jobs.map((j: { decision: string; wave: number }) => [j.decision, j.wave])).toEqual([
      ["checkpoint", 1],
      ["lose", 2],
      ["checkpoint", 1],
    ]);
  });

  it("signals exactly the chosen jobs, requeues them, and logs what the plan said", async () => {
    const logPath = join(dir, "log.json");
    const run = await runCli([...base, "--deadline", "7", "--log", logPath, "--poll-ms", "100"]);
    expect(run.code, run.stderr).toBe(0);
    const log = JSON.parse(readFileSync(logPath, "utf8"));
    const chosen = log.plan.jobs.filter((j: { decision: string }) => j.decision === "checkpoint").map((j: { jobId: string }) => j.jobId);
    expect(chosen).toEqual([jobIds[0], jobIds[2]]);
    expect(readdirSync(markers).sort()).toEqual([...chosen].sort());
    expect(log.jobs.map((j: { jobId: string; outcome: string; requeued: boolean }) => [j.jobId, j.outcome, j.requeued])).toEqual([
      [jobIds[0], "saved", true],
      [jobIds[1], "lost", false],
      [jobIds[2], "saved", true],
    ]);
    // Requeued jobs wait to start again from their image; the others run on.
    expect(state(jobIds[0]!)).toBe("PENDING");
    expect(state(jobIds[2]!)).toBe("PENDING");
    expect(state(jobIds[1]!)).toBe("RUNNING");
    expect(state(jobIds[3]!)).toBe("RUNNING");
    expect(sh("scontrol", ["show", "job", jobIds[0]!])).toMatch(/Restarts=1/);
  }, 60_000);

  it("refuses unknown nodes, a release time that has passed, and a missing scheduler", async () => {
    expect(await runCli([...base.slice(0, 4), "n9", "--model", model, "--deadline", "7", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/slurm knows no node n9; its nodes are n1, n2, n3, n4/) });
    expect(await runCli([...base, "--release-at", "2001-01-01T00:00:00Z", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/the release time 2001-01-01T00:00:00\.000Z has passed/) });
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      expect(await runCli([...base, "--deadline", "7", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/sinfo not found: is Slurm installed here/) });
    } finally {
      process.env.PATH = path;
    }
    expect(existsSync(join(dir, "log.json"))).toBe(true);
  });

  it("--watch releases the nodes of a maintenance reservation before it starts, and drained nodes within T", async () => {
    // n3 runs the 100 MB job since the start; a 200 MB job goes to n4, which is then drained.
    const onN4 = submit("200", "n4");
    await waitFor("the job on n4 to run", () => state(onN4) === "RUNNING", 60);
    sh("scontrol", ["create", "reservation", "reservationname=ckpt-maint", "starttime=now+8", "duration=5", "nodes=n3", "flags=maint,ignore_jobs", "users=root"]);
    sh("scontrol", ["update", "nodename=n4", "state=drain", "reason=ckpt-lab-test"]);
    const logPath = join(dir, "watch.json");
    const run = await runCli(["release", "--rm", "slurm", "--watch", "--deadline", "30", "--poll-s", "1", "--triggers", "2", "--model", model, "--log", logPath, "--poll-ms", "100"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/reservation ckpt-maint starts at .*: releasing n3 within [1-8] s/);
    expect(run.stderr).toMatch(/drain of n4 seen at .*: releasing n4 within 30 s/);
    const logs = [1, 2].map((n) => JSON.parse(readFileSync(join(dir, `watch-${n}.json`), "utf8")));
    const released = Object.fromEntries(logs.map((log) => [log.plan.nodes.join(","), log.jobs.map((j: { jobId: string; outcome: string }) => [j.jobId, j.outcome])]));
    expect(released).toEqual({ n3: [[jobIds[3], "saved"]], n4: [[onN4, "saved"]] });
    expect(readdirSync(markers)).toEqual(expect.arrayContaining([jobIds[3], onN4]));
  }, 90_000);
});
