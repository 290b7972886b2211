/**
 * The harness and the simulator on a real OAR (issue #15), started by test/cluster/oar.sh:
 * the script `ckpt harness batch --scheduler oar` writes runs a two-point sweep on two nodes
 * and produces its trace, reaching the nodes with oarsh (the cpuset job manager on, as on
 * Grid5000) and with ssh when oarsh cannot be used (the manager off); a job the scheduler
 * kills in the middle of its sweep and resubmits resumes it, each run done exactly once; a
 * simulation sweep runs as an OAR array and merges to the same bytes as one process. Jobs
 * are submitted as the job user, as OAR wants. Needs root; fails, not skips, without OAR.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../pipeline/shared/version";
import { ARRAY_SWEEP_SPEC, expectMergeAsOneProcess, asUser, chownToUser, ckptForUser, clusterUp, expectEachRunOnce, removeDir, RESUMED_SWEEP, sh, userWorkDir, waitFor } from "./live";

let dir = "";
let ckpt: string[] = [];
const submitted: string[] = [];

const state = (id: string) => /^\d+: (\w+)/.exec(sh("oarstat", ["-s", "-j", id]))?.[1] ?? "";
const ended = (id: string) => ["Terminated", "Error"].includes(state(id));

/** Submits as the job user; the job ids (an array's one per task). */
function oarsub(args: string[]): string[] {
  const ids = [...asUser("oarsub", args, dir).matchAll(/OAR_JOB_ID=(\d+)/g)].map((m) => m[1]!);
  submitted.push(...ids);
  return ids;
}

/** Writes a sweep file and its harness batch script (as the job user), and returns the sweep folder. */
async function harnessBatch(name: string, sweep: object): Promise<string> {
  const sweepPath = join(dir, `${name}.json`);
  writeFileSync(sweepPath, JSON.stringify({ name, backend: "emulate", dir: join(dir, `target-${name}`), ...sweep }));
  chownToUser(sweepPath);
  const out = join(dir, `${name}-out`);
  asUser(ckpt[0]!, [...ckpt.slice(1), "harness", "batch", sweepPath, "--scheduler", "oar", "--out", out, "--nodes", "2", "--walltime", "0:05:00"], dir);
  return out;
}

const traceRows = (out: string) => readFileSync(join(out, "trace.csv"), "utf8").trim().split("\n").slice(1);

beforeAll(() => {
  clusterUp("oar", { OAR_CPUSET: "1" });
  sh(process.execPath, [join(projectRoot(), "bin/build.js")]);
  dir = userWorkDir("oar-jobs-");
  ckpt = ckptForUser();
}, 900_000);

afterAll(() => {
  const running = submitted.filter((id) => !ended(id));
  if (running.length > 0) sh("oardel", running);
  removeDir(dir);
});

describe("ckpt harness batch --scheduler oar on a live OAR", () => {
  it("runs a two-point sweep on two nodes reached with oarsh (cpuset job manager on)", async () => {
    const out = await harnessBatch("two", { m: [1, 2], sizeMb: [2], repetitions: 1 });
    const [job] = oarsub(["-S", join(out, "job.oar.sh")]) as [string];
    await waitFor(`job ${job}`, () => ended(job));
    expect(sh("oarstat", ["-fj", job])).toMatch(/exit_code = 0 /);
    expect(readFileSync(join(out, `oar-${job}.stderr`), "utf8")).not.toMatch(/oarsh cannot reach/);
    const rows = traceRows(out);
    expect(rows).toHaveLength(1 + 2); // the m = 1 run's row, the m = 2 run's two rows
    expect(new Set(rows.map((row) => row.split(",")[1]))).toEqual(new Set(["oarnode1", "oarnode2"]));
  }, 180_000);

  it("resumes a sweep the scheduler killed and resubmitted, each run done exactly once", async () => {
    const out = await harnessBatch("long", RESUMED_SWEEP);
    const [job] = oarsub(["-S", join(out, "job.oar.sh")]) as [string];
    const done = () => {
      try {
        return readdirSync(join(out, "state")).filter((f) => readFileSync(join(out, "state", f), "utf8").includes('"done"')).length;
      } catch {
        return 0;
      }
    };
    await waitFor("two runs done", () => done() >= 2);
    // The scheduler takes the job back (as at its walltime or a preemption)…
    sh("oardel", [job]);
    await waitFor(`job ${job} to be killed`, () => ended(job), 60);
    expect(done()).toBeLessThan(6);
    // …and it is resubmitted (as OAR does with an idempotent job, or its user does).
    const copy = /OAR_JOB_ID=(\d+)/.exec(sh("oarsub", ["--resubmit", job]))![1]!;
    submitted.push(copy);
    await waitFor(`the resubmitted job ${copy}`, () => ended(copy));
    expect(sh("oarstat", ["-fj", copy])).toMatch(new RegExp(`resubmit_job_id = ${job}\\b`));
    expectEachRunOnce(traceRows(out));
  }, 240_000);
});

describe("ckpt simulate batch --scheduler oar: a sweep as an OAR array", () => {
  it("runs one shard per line of the parameter file and merges to the same bytes as one process", async () => {
    const spec = join(dir, "grid.json");
    writeFileSync(spec, JSON.stringify(ARRAY_SWEEP_SPEC));
    chownToUser(spec);
    const arrayOut = join(dir, "array-out");
    asUser(ckpt[0]!, [...ckpt.slice(1), "simulate", "batch", spec, "--scheduler", "oar", "--out", arrayOut, "--tasks", "3", "--walltime", "0:05:00"], dir);
    expect(readFileSync(join(arrayOut, "shards.txt"), "utf8")).toBe("0/3\n1/3\n2/3\n");
    const tasks = oarsub(["-S", join(arrayOut, "sweep.oar.sh")]);
    expect(tasks).toHaveLength(3);
    await waitFor("the array's three tasks", () => tasks.every(ended));
    for (const task of tasks) expect(sh("oarstat", ["-fj", task])).toMatch(/exit_code = 0 /);
    await expectMergeAsOneProcess(spec, arrayOut, dir);
  }, 180_000);
});

describe("where oarsh cannot be used (OAR's cpuset job manager off)", () => {
  afterAll(() => clusterUp("oar", { OAR_CPUSET: "1" }), 120_000);

  it("the harness script says so and reaches the nodes with ssh", async () => {
    clusterUp("oar", { OAR_CPUSET: "0" });
    const out = await harnessBatch("no-oarsh", { m: [1, 2], sizeMb: [2], repetitions: 1 });
    const [job] = oarsub(["-S", join(out, "job.oar.sh")]) as [string];
    await waitFor(`job ${job}`, () => ended(job));
    expect(sh("oarstat", ["-fj", job])).toMatch(/exit_code = 0 /);
    expect(readFileSync(join(out, `oar-${job}.stderr`), "utf8")).toMatch(/oarsh cannot reach oarnode\d \(is the cpuset job manager off\?\): reaching the nodes with ssh/);
    expect(new Set(traceRows(out).map((row) => row.split(",")[1]))).toEqual(new Set(["oarnode1", "oarnode2"]));
  }, 180_000);
});
