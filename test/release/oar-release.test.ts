/**
 * `ckpt release` against a real OAR (issue #15), started by test/cluster/oar.sh: OAR knows
 * no memory per job, so each job's wrapper writes its sidecar (its size, "sidecar" in the
 * plan) and a job without one gets --default-size-mb ("assumed", with a warning) or an
 * error saying so; acting signals exactly the chosen jobs with oardel --checkpoint (each job
 * script traps USR2 and writes a marker), resubmits them, and the log matches the plan.
 * Needs root; fails, not skips, when OAR cannot be started.
 */
import { readdirSync, readFileSync, writeFileSync, chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { asUser, chownToUser, clusterUp, removeDir, sh, userWorkDir, waitFor } from "../cluster/live";
import { constantModel } from "../schedule/models";

let dir = "";
const jobIds: string[] = [];
const state = (id: string) => /^\d+: (\w+)/.exec(sh("oarstat", ["-s", "-j", id]))?.[1] ?? "";
const unfinished = () => JSON.parse(sh("oarstat", ["-J"]) || "{}") as Record<string, { resubmit_job_id: number }>;

/** A job of `sizeMb` (its sidecar says so; null: it writes none) pinned to a node, submitted as the job user. */
function submit(sizeMb: number | null, node: string): string {
  const text = asUser("oarsub", ["-n", `size${sizeMb ?? "-unknown"}`, "-p", `network_address='${node}'`, "-l", "/core=1,walltime=0:10:00", "-S", join(dir, "job.sh")], dir);
  const id = /OAR_JOB_ID=(\d+)/.exec(text)![1]!;
  jobIds.push(id);
  return id;
}

beforeAll(async () => {
  clusterUp("oar", { OAR_CPUSET: "1" });
  dir = userWorkDir("oar-release-");
  mkdirSync(join(dir, "sidecars"));
  mkdirSync(join(dir, "markers"));
  // The job's wrapper: writes its sidecar (size from its name), and on USR2 "checkpoints"
  // (a marker named by its job id) and exits. OAR signals the first process of the job:
  // the script itself, submitted with -S.
  writeFileSync(
    join(dir, "job.sh"),
    `#!/bin/bash\nsize=\${OAR_JOB_NAME#size}\n[ "$size" = -unknown ] || echo "{\\"sizeMb\\": $size}" > ${dir}/sidecars/$OAR_JOB_ID.json\ntrap 'date +%s.%N > ${dir}/markers/$OAR_JOB_ID; exit 0' USR2\nwhile true; do sleep 0.2; done\n`,
  );
  chmodSync(join(dir, "job.sh"), 0o755);
  chownToUser(dir);
  for (const [size, node] of [[300, "oarnode1"], [500, "oarnode1"], [200, "oarnode2"]] as const) submit(size, node);
  await waitFor("the three jobs to run and write their sidecars", () => jobIds.every((id) => state(id) === "Running") && readdirSync(join(dir, "sidecars")).length === 3, 60);
}, 900_000);

afterAll(() => {
  const ids = [...jobIds, ...Object.keys(unfinished())];
  if (ids.length > 0) sh("bash", ["-c", `oardel ${ids.join(" ")} >/dev/null 2>&1; true`]);
  removeDir(dir);
});

describe("ckpt release --rm oar", () => {
  const model = () => {
    const path = join(dir, "model.json");
    // 20 MB/s whatever the load: wave 1 (oarnode1's 300 MB job and oarnode2's 200 MB job)
    // takes 25 s, the 500 MB job 25 s more, past T = 30 s. (Slower than the Slurm test's
    // model: OAR takes seconds to signal a job and to see it end.)
    writeFileSync(path, JSON.stringify(constantModel(20, "20 MB/s")));
    return path;
  };
  const base = () => ["release", "--rm", "oar", "--nodes", "oarnode1,oarnode2", "--model", model(), "--sidecar-dir", join(dir, "sidecars")];

  it("--dry-run --json lists each job with its size from its sidecar, its unsaved time and the decision", async () => {
    const run = await runCli([...base(), "--deadline", "30", "--dry-run", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan.jobs.map((j: { jobId: string; node: string; sizeMb: number; sizeSource: string }) => [j.jobId, j.node, j.sizeMb, j.sizeSource])).toEqual([
      [jobIds[0], "oarnode1", 300, "sidecar"],
      [jobIds[1], "oarnode1", 500, "sidecar"],
      [jobIds[2], "oarnode2", 200, "sidecar"],
    ]);
    for (const job of plan.jobs) expect(job.unsavedS).toBeGreaterThanOrEqual(0);
    expect(plan.jobs.map((j: { decision: string; wave: number }) => [j.decision, j.wave])).toEqual([
      ["checkpoint", 1],
      ["lose", 2],
      ["checkpoint", 1],
    ]);
  });

  it("says what it assumed for a job without a sidecar, and refuses without --default-size-mb", async () => {
    const unknown = submit(null, "oarnode2");
    await waitFor(`job ${unknown} to run`, () => state(unknown) === "Running", 60);
    expect(await runCli([...base(), "--deadline", "7", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(new RegExp(`job ${unknown}: oar knows no memory for it and it wrote no sidecar; give --default-size-mb`)) });
    const run = await runCli([...base(), "--deadline", "7", "--dry-run", "--json", "--default-size-mb", "50"]);
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan.jobs.find((j: { jobId: string }) => j.jobId === unknown)).toMatchObject({ sizeMb: 50, sizeSource: "assumed" });
    expect(plan.warnings).toContain(`job ${unknown}: memory unknown, assumed 50 MB (--default-size-mb)`);
    sh("oardel", [unknown]);
    await waitFor(`job ${unknown} to end`, () => ["Terminated", "Error"].includes(state(unknown)), 60);
  }, 120_000);

  it("signals exactly the chosen jobs, resubmits them once, and logs what the plan said", async () => {
    const logPath = join(dir, "log.json");
    const run = await runCli([...base(), "--deadline", "30", "--log", logPath, "--poll-ms", "200"]);
    expect(run.code, run.stderr).toBe(0);
    const log = JSON.parse(readFileSync(logPath, "utf8"));
    const chosen = log.plan.jobs.filter((j: { decision: string }) => j.decision === "checkpoint").map((j: { jobId: string }) => j.jobId);
    expect(chosen).toEqual([jobIds[0], jobIds[2]]);
    expect(readdirSync(join(dir, "markers")).sort()).toEqual([...chosen].sort());
    expect(log.jobs.map((j: { jobId: string; outcome: string; requeued: boolean }) => [j.jobId, j.outcome, j.requeued])).toEqual([
      [jobIds[0], "saved", true],
      [jobIds[1], "lost", false],
      [jobIds[2], "saved", true],
    ]);
    // Each saved job has exactly one copy queued by the hook; the lost one runs on.
    const copies = Object.values(unfinished()).map((job) => String(job.resubmit_job_id));
    expect(copies.filter((id) => id === jobIds[0])).toHaveLength(1);
    expect(copies.filter((id) => id === jobIds[2])).toHaveLength(1);
    expect(state(jobIds[1]!)).toBe("Running");
    expect(log.events.filter((e: { event: string }) => e.event === "requeued").map((e: { detail: string }) => e.detail)).toEqual([expect.stringMatching(/^resubmitted as job \d+$/), expect.stringMatching(/^resubmitted as job \d+$/)]);
  }, 90_000);

  it("refuses unknown nodes and a missing scheduler", async () => {
    expect(await runCli(["release", "--rm", "oar", "--nodes", "oarnode9", "--model", model(), "--deadline", "7", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/oar knows no node oarnode9; its nodes are oarnode1, oarnode2/) });
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      expect(await runCli([...base(), "--deadline", "7", "--dry-run"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/oarnodes not found: is OAR installed here/) });
    } finally {
      process.env.PATH = path;
    }
  });
});
