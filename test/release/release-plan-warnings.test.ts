import { describe, expect, it } from "vitest";
import { planRelease, type RunningJob } from "../../pipeline/release/release-plan";
import { resolveScheduleOptions } from "../../pipeline/schedule";
import { constantModel } from "../schedule/models";

const job = (jobId: string, nodes: string[], sizeMb: number | null, extra: Partial<RunningJob> = {}): RunningJob => ({
  jobId,
  sidecarId: jobId,
  name: null,
  user: null,
  uid: null,
  nodes,
  startedAtS: 0,
  lastCheckpointAtS: null,
  sizeMb,
  sizeSource: sizeMb === null ? "unknown" : "requested",
  cannotSignal: null,
  cannotRequeue: null,
  ...extra,
});

describe("the release plan's warnings and reasons, every one of them", () => {
  it("warns of an assumed size and of each lost job, and of nothing else, on one-node jobs", () => {
    // 100 MB/s whatever the load, T = 4 s: a's 300 MB take 3 s (saved), b's 500 MB would take 5 s (lost).
    const options = resolveScheduleOptions({ model: constantModel(100), deadlineS: 4 });
    const plan = planRelease(
      {
        rm: "slurm",
        nowS: 1000,
        deadlineS: 4,
        nodes: ["n1", "n2", "n3"],
        jobs: [job("a", ["n1"], 300, { sizeSource: "assumed" }), job("b", ["n2"], 500), job("c", ["n3"], 100, { cannotSignal: "interactive" })],
      },
      options,
    );
    expect(plan.schema).toBe("ckpt-lab/release-plan@2");
    expect(plan.jobs.map((j) => [j.jobId, j.decision, j.reason])).toEqual([
      ["a", "checkpoint", null],
      ["b", "lose", "not chosen by ScheduleCkpt: no time left for it within T"],
      ["c", "lose", "cannot be signalled: interactive"],
    ]);
    expect(plan.warnings).toEqual(["job a: memory unknown, assumed 300 MB (--default-size-mb)", "job c cannot be signalled: interactive: it is lost"]);
    // Σ p: a saved 1000 s; b and c lost 1000 s each.
    expect([plan.savedS, plan.lostS]).toEqual([1000, 2000]);
  });

  it("puts the scheduler's warnings first, as given", () => {
    const options = resolveScheduleOptions({ model: constantModel(100), deadlineS: 10 });
    const plan = planRelease({ rm: "oar", nowS: 10, deadlineS: 10, nodes: ["n1"], jobs: [job("a", ["n1"], 100)], warnings: ["squeue: job 9 has no nodes"] }, options);
    expect(plan.warnings).toEqual(["squeue: job 9 has no nodes"]);
  });
});
