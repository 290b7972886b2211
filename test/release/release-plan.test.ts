import { describe, expect, it } from "vitest";
import { planRelease, wavesBySharedNodes, type RunningJob } from "../../pipeline/release/release-plan";
import { resolveScheduleOptions } from "../../pipeline/schedule";
import { constantModel } from "../schedule/models";
import { lognormalReading } from "../schedule/lognormal-reading";

const job = (jobId: string, nodes: string[], sizeMb: number | null, startedAtS: number | null, extra: Partial<RunningJob> = {}): RunningJob => ({
  jobId,
  sidecarId: jobId,
  name: null,
  user: null,
  uid: null,
  nodes,
  startedAtS,
  lastCheckpointAtS: null,
  sizeMb,
  sizeSource: sizeMb === null ? "unknown" : "requested",
  cannotSignal: null,
  cannotRequeue: null,
  ...extra,
});
// 100 MB/s whatever the load: a 300 MB checkpoint takes 3 s alone, as long beside others.
const options = (deadlineS: number) => resolveScheduleOptions({ model: constantModel(100), deadlineS });

describe("the release planner", () => {
  it("takes p from the start or the last checkpoint, plans waves per node, and says what is lost", () => {
    // Wave 1 (n1's 300 MB and n2's 200 MB) ends at 5 s (500 MB at 100 MB/s), wave 2 would need 5 s more.
    const plan = planRelease(
      { rm: "slurm", nowS: 1000, deadlineS: 7, nodes: ["n1", "n2"], jobs: [job("1", ["n1"], 300, 400), job("2", ["n1"], 500, 100), job("3", ["n2"], 200, 0, { lastCheckpointAtS: 900 })] },
      options(7),
    );
    expect(plan.jobs.map((j) => [j.jobId, j.unsavedS, j.wave, j.decision])).toEqual([
      ["1", 600, 1, "checkpoint"],
      ["2", 900, 2, "lose"],
      ["3", 100, 1, "checkpoint"],
    ]);
    expect(plan.jobs[1]!.reason).toMatch(/not chosen by ScheduleCkpt/);
    expect(plan.jobs[0]!.finishS).toBeCloseTo(5, 9);
    expect([plan.savedS, plan.lostS]).toEqual([700, 900]);
  });

  it("plans a job on several nodes on all of them: no other job on any of its nodes checkpoints in its wave", () => {
    // The issue's case: a job on n[0-1] released at n1 was placed "on n0", so n1's other job went in the same wave.
    const plan = planRelease({ rm: "slurm", nowS: 1000, deadlineS: 600, nodes: ["n1"], jobs: [job("wide", ["n0", "n1"], 400, 0), job("narrow", ["n1"], 300, 0)] }, options(600));
    expect(plan.jobs.map((j) => [j.jobId, j.nodes, j.releasedNodes, j.wave, j.decision])).toEqual([
      ["wide", ["n0", "n1"], ["n1"], 1, "checkpoint"],
      ["narrow", ["n1"], ["n1"], 2, "checkpoint"],
    ]);
    // Wave 2 starts when wave 1 has ended: 400 MB at 100 MB/s.
    expect(plan.jobs[1]!.startS).toBeCloseTo(4, 9);
    expect(plan.warnings).toContain("job wide runs on 2 nodes: planned as one application of its total size, checkpointing on all of them at once");
  });

  it("gives each job the first wave where none of its nodes is taken, in list order", () => {
    expect(wavesBySharedNodes([{ nodes: ["a"] }, { nodes: ["a"] }, { nodes: ["b"] }, { nodes: ["a", "b"] }, { nodes: ["c"] }])).toEqual([0, 1, 0, 2, 0]);
    // One node per job: the j-th job of a node in wave j, as the schedule stage's wavesOf.
    expect(wavesBySharedNodes([{ nodes: ["x"] }, { nodes: ["y"] }, { nodes: ["x"] }, { nodes: ["x"] }])).toEqual([0, 0, 1, 2]);
  });

  it("loses, with the reason, the jobs it cannot signal or whose size is unknown, and plans the others", () => {
    const plan = planRelease(
      {
        rm: "slurm",
        nowS: 1000,
        deadlineS: 600,
        nodes: ["n1"],
        jobs: [job("alloc", ["n1"], 100, 0, { cannotSignal: "not a batch job (salloc or srun): it has no batch script to trap the signal" }), job("unknown", ["n1"], null, 0), job("ok", ["n1"], 100, 0)],
      },
      options(600),
    );
    expect(plan.jobs.map((j) => [j.jobId, j.decision, j.wave, j.reason])).toEqual([
      ["alloc", "lose", null, "cannot be signalled: not a batch job (salloc or srun): it has no batch script to trap the signal"],
      ["unknown", "lose", null, "its size is unknown: no usable sidecar, no memory known to the scheduler, and no --default-size-mb"],
      // Alone in ScheduleCkpt, so in the first wave though it is the third job of n1.
      ["ok", "checkpoint", 1, null],
    ]);
    expect(plan.lostS).toBe(2000);
  });

  it("counts an unknown start as 0 s unsaved, with a warning, never as 'since 1970'", () => {
    const plan = planRelease({ rm: "slurm", nowS: 1.8e9, deadlineS: 600, nodes: ["n1"], jobs: [job("nostart", ["n1"], 100, null), job("known", ["n1"], 100, 1.8e9 - 50)] }, options(600));
    expect(plan.jobs.map((j) => [j.jobId, j.unsavedS])).toEqual([
      ["nostart", 0],
      ["known", 50],
    ]);
    expect(plan.warnings).toContain("job nostart: the scheduler gives no start time and it has no last checkpoint: its unsaved time is unknown, counted as 0 s");
    // Its sidecar's last checkpoint is enough.
    const withCheckpoint = planRelease({ rm: "slurm", nowS: 1.8e9, deadlineS: 600, nodes: ["n1"], jobs: [job("x", ["n1"], 100, null, { lastCheckpointAtS: 1.8e9 - 20 })] }, options(600));
    expect(withCheckpoint.jobs[0]!.unsavedS).toBe(20);
  });

  it("says so when no job runs, and refuses a deadline that has passed", () => {
    expect(planRelease({ rm: "slurm", nowS: 0, deadlineS: 10, nodes: ["n1"], jobs: [] }, options(10)).warnings).toEqual(["no job runs on these nodes: nothing to checkpoint"]);
    expect(() => planRelease({ rm: "slurm", nowS: 0, deadlineS: 0, nodes: [], jobs: [] }, options(1))).toThrow(/deadline must be in the future/);
  });
});

describe("the release planner at a confidence", () => {
  // 100 MB/s on average, each release within a lognormal spread of 10 % (a stand-in predictive distribution).
  const model = constantModel(100);
  const quantile = lognormalReading(model, 0.1);
  // Three jobs on three nodes, 300 MB each: 9 s together at the mean; T = 9.5 s.
  const jobs = [job("a", ["n1"], 300, 0), job("b", ["n2"], 300, 100), job("c", ["n3"], 300, 200)];
  const snapshot = { rm: "slurm", nowS: 1000, deadlineS: 9.5, nodes: ["n1", "n2", "n3"], jobs };

  it("plans on the quantile: gives up a job the mean plan would start, and says the plan's miss probability", () => {
    const mean = planRelease(snapshot, options(9.5), { confidence: "mean", quantile });
    const confident = planRelease(snapshot, options(9.5), { confidence: 0.95, quantile });
    expect(mean.jobs.filter((j) => j.decision === "checkpoint").length).toBe(3);
    expect(confident.jobs.filter((j) => j.decision === "checkpoint").length).toBe(2);
    expect(confident.confidence).toBe(0.95);
    // Two jobs, 600 MB: they end by 9.5 s unless the release runs below 63.2 MB/s, e^(0.1 z) < 0.632, z < −4.6: P ≈ 2e-6.
    expect(confident.missProbability!).toBeLessThanOrEqual(1e-5);
    // The mean plan needs ≥ 900 MB / 9.5 s = 94.7 MB/s: P(e^(0.1 Z) < 0.947) = scipy.stats.norm.cdf(10 · ln(900 / 950)) = 0.294367.
    expect(mean.missProbability!).toBeCloseTo(0.294367, 4);
  });

  it("without a predictive distribution: a mean plan, no miss probability", () => {
    const plan = planRelease(snapshot, options(9.5));
    expect([plan.confidence, plan.missProbability]).toEqual(["mean", null]);
    expect(() => planRelease(snapshot, options(9.5), { confidence: 0.95, quantile: null })).toThrow(/needs the model's predictive quantiles/);
  });
});
