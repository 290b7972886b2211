import { describe, expect, it } from "vitest";
import { desktopGridJobs } from "../../pipeline/place/desktop-grid-workload";
import { createLaw, type LawSpec } from "../../pipeline/place/laws";
import { solveBatch } from "../../pipeline/place/solve-batch";
import { solveDp } from "../../pipeline/place/solve-dp";

const BKT_AVAILABILITY: LawSpec = { kind: "weibull", shape: 0.431, scaleSeconds: 1.682 * 3600 }; // [BKT] Table I
const options = { alpha: 1, beta: 0, objective: "paper" as const, quantumSeconds: 60 };

describe("batch of jobs", () => {
  it("draws the [BKT] Table II workload reproducibly", () => {
    const jobs = desktopGridJobs({ jobs: 200, seed: 1 });
    expect(desktopGridJobs({ jobs: 200, seed: 1 })).toEqual(jobs);
    for (const job of jobs) {
      expect(job.slicesSeconds.length).toBeGreaterThanOrEqual(1);
      expect(job.slicesSeconds.length).toBeLessThanOrEqual(50);
      for (const p of job.slicesSeconds) expect(p >= 3600 && p < 18000).toBe(true);
      for (const c of job.costsSeconds) expect(c > 5 && c <= 512).toBe(true); // 10 Mb / 2 Mb/s .. 512 Mb / 1 Mb/s
    }
  });

  it("gives the same results on two worker threads as in this thread, in job order", async () => {
    const jobs = desktopGridJobs({ jobs: 40, seed: 2, maxSlices: 12 });
    const progress: number[] = [];
    const parallel = await solveBatch(jobs, BKT_AVAILABILITY, { ...options, threads: 2, chunkSize: 7, onProgress: (n) => progress.push(n) });
    const law = createLaw(BKT_AVAILABILITY);
    expect(parallel.threads).toBe(2);
    expect(progress[progress.length - 1]).toBe(40);
    parallel.results.forEach((result, i) => {
      const direct = solveDp(jobs[i]!, law, options);
      expect(result.checkpoints).toEqual(direct.checkpoints);
      expect(result.expectedWaste).toBe(direct.expectedWaste);
    });
  });

  it("names the job that cannot be solved", async () => {
    const jobs = [{ slicesSeconds: [10], costsSeconds: [1] }, { slicesSeconds: [10, 10], costsSeconds: [1e9, 1] }];
    await expect(solveBatch(jobs, BKT_AVAILABILITY, { ...options, quantumSeconds: 1, threads: 2 })).rejects.toThrow(/batch job 2: .*the DP would need/);
    await expect(solveBatch(jobs, BKT_AVAILABILITY, { ...options, quantumSeconds: 1, threads: 1 })).rejects.toThrow(/batch job 2: .*the DP would need/);
  });
});
