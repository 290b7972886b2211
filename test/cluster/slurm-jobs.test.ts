/**
 * The harness and the simulator on a real Slurm (issue #15), started by
 * test/cluster/slurm.sh: the script `ckpt harness batch --scheduler slurm` writes runs a
 * two-point sweep through srun and produces its trace; a job requeued in the middle of its
 * sweep resumes it, each run done exactly once; a simulation sweep runs as a job array and
 * merges to the same bytes as one process. Needs root; fails, not skips, without Slurm.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../pipeline/shared/version";
import { runCli } from "../cli-io";
import { ARRAY_SWEEP_SPEC, expectMergeAsOneProcess, clusterUp, expectEachRunOnce, RESUMED_SWEEP, sh, waitFor } from "./live";

const root = projectRoot();
const dir = mkdtempSync(join(tmpdir(), "ckpt-slurm-jobs-"));
chmodSync(dir, 0o755);
const submitted: string[] = [];
const state = (id: string) => sh("squeue", ["-h", "-t", "all", "-j", id, "-o", "%T"]).split("\n");

function sbatch(script: string): string {
  const id = sh("sbatch", ["--parsable", script]).split(";")[0]!;
  submitted.push(id);
  return id;
}

const finished = (id: string) => state(id).every((s) => s === "COMPLETED" || s === "FAILED" || s === "CANCELLED" || s === "TIMEOUT" || s === "");

beforeAll(() => {
  clusterUp("slurm");
  // Job scripts run node from the built library.
  sh(process.execPath, [join(root, "bin/build.js")]);
}, 900_000);

afterAll(() => {
  if (submitted.length > 0) execFileSync("scancel", submitted);
  rmSync(dir, { recursive: true, force: true });
});

describe("ckpt harness batch --scheduler slurm on a live Slurm", () => {
  it("runs a two-point sweep through srun and produces its trace", async () => {
    const sweep = join(dir, "two.json");
    writeFileSync(sweep, JSON.stringify({ name: "two", backend: "emulate", dir: join(dir, "target-two"), m: [1, 2], sizeMb: [2], repetitions: 1 }));
    const out = join(dir, "two-out");
    const batch = await runCli(["harness", "batch", sweep, "--scheduler", "slurm", "--out", out, "--nodes", "2", "--walltime", "0:05:00"]);
    expect(batch.code, batch.stderr).toBe(0);
    const job = sbatch(join(out, "job.slurm.sh"));
    await waitFor(`job ${job}`, () => finished(job));
    expect(state(job)).toEqual(["COMPLETED"]);
    const trace = readFileSync(join(out, "trace.csv"), "utf8").trim().split("\n");
    expect(trace).toHaveLength(1 + 1 + 2); // header, the m = 1 run's row, the m = 2 run's two rows
    // The processes ran on the reserved nodes, through srun.
    expect(new Set(trace.slice(1).map((row) => row.split(",")[1]))).toEqual(new Set(readFileSync(join(out, "nodes.txt"), "utf8").trim().split("\n")));
  }, 180_000);

  it("resumes a sweep requeued by the scheduler, each run done exactly once", async () => {
    const sweep = join(dir, "long.json");
    writeFileSync(sweep, JSON.stringify({ name: "long", backend: "emulate", dir: join(dir, "target-long"), ...RESUMED_SWEEP }));
    const out = join(dir, "long-out");
    expect((await runCli(["harness", "batch", sweep, "--scheduler", "slurm", "--out", out, "--nodes", "2", "--walltime", "0:05:00"])).code).toBe(0);
    const job = sbatch(join(out, "job.slurm.sh"));
    const done = () => readdirSync(join(out, "state")).filter((f) => readFileSync(join(out, "state", f), "utf8").includes('"done"')).length;
    await waitFor("two runs done", () => { try { return done() >= 2; } catch { return false; } });
    // The scheduler takes the job back and queues it again (as after a node failure or preemption).
    sh("scontrol", ["requeue", job]);
    await waitFor("the requeue", () => state(job)[0] === "PENDING", 30);
    // Not at once: a batch job restarted in the second its previous run's credential was
    // revoked is killed by slurmd ("Job credential revoked") instead of started.
    sh("scontrol", ["update", `JobId=${job}`, "StartTime=now+3"]);
    await waitFor(`job ${job} to finish after its restart`, () => finished(job));
    expect(state(job)).toEqual(["COMPLETED"]);
    expect(sh("scontrol", ["show", "job", job])).toMatch(/Restarts=1/);
    expectEachRunOnce(readFileSync(join(out, "trace.csv"), "utf8").trim().split("\n").slice(1));
  }, 240_000);
});

describe("ckpt simulate batch --scheduler slurm: a sweep as a job array", () => {
  it("runs the shards as array tasks and merges to the same bytes as one process", async () => {
    const spec = join(dir, "grid.json");
    writeFileSync(spec, JSON.stringify(ARRAY_SWEEP_SPEC));
    const arrayOut = join(dir, "array-out");
    const batch = await runCli(["simulate", "batch", spec, "--scheduler", "slurm", "--out", arrayOut, "--tasks", "3", "--walltime", "0:05:00"]);
    expect(batch.code, batch.stderr).toBe(0);
    const job = sbatch(join(arrayOut, "sweep.slurm.sh"));
    await waitFor(`array ${job}`, () => finished(job));
    expect(state(job)).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);
    await expectMergeAsOneProcess(spec, arrayOut, dir);
  }, 180_000);
});
