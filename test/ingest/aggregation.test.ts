/**
 * Aggregation (docs/science.md §3.1) on a hand-computed example: per-process bw = ckpt_mb / (end_s −
 * start_s), run bw = Σ, V = Σ size_mb / 1000, series per (m, v) with count, mean, sample sd
 * and the peak; mixed sizes as validation runs.
 */
import { describe, expect, it } from "vitest";
import { expectClose } from "../helpers";
import { ingestCanonicalTexts } from "../../pipeline/ingest/ingest-files";
import { summariseRuns } from "../../pipeline/ingest/summarise-runs";
import type { RunObservation } from "../../pipeline/ingest/observations";

const TRACE = `run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster,repetition
a,n1,2,100,100,0,10,azur,1
a,n2,2,100,100,0,20,azur,1
b,n1,2,100,100,0,10,azur,2
b,n2,2,100,100,5,15,azur,2
c,n1,1,100,50,0,5,azur,1
d,n1,3,100,100,0,12.5,azur,1
d,n2,3,100,100,0,12.5,azur,1
d,n3,3,100,100,0,12.5,azur,1
e,n1,2,50,40,0,8,azur,1
e,n2,2,200,210,0,21,azur,1
`;

describe("aggregation of a hand-computed example", () => {
  it("computes runs, series, peaks and validation runs", async () => {
    const { observations, counts } = await ingestCanonicalTexts([{ name: "t.csv", text: TRACE }]);
    expect(counts).toEqual({ read: 10, accepted: 10, rejected: 0 });
    // By hand: a = 100/10 + 100/20 = 15; b = 10 + 10 = 20; c = 50/5 = 10; d = 3 · 100/12.5 = 24;
    // e = 40/8 + 210/21 = 5 + 10 = 15 (mixed sizes 50 and 200 MB, V = 0.25 GB).
    expect(observations.runs.map((r) => [r.runId, r.m, r.vGb, r.aggregatedBwMbPerS, r.uniformSizeMb])).toEqual([
      ["a", 2, 0.2, 15, 100],
      ["b", 2, 0.2, 20, 100],
      ["c", 1, 0.1, 10, 100],
      ["d", 3, 0.3, 24, 100],
      ["e", 2, 0.25, 15, null],
    ]);
    // cluster is the same in every row of every run; repetition too within a run.
    expect(observations.runs[1]!.attributes).toEqual({ cluster: "azur", repetition: "2" });
    expect(observations.validationRuns.map((r) => r.runId)).toEqual(["e"]);

    expect(observations.series).toHaveLength(1);
    const [series] = observations.series;
    expect(series!.sizeMb).toBe(100);
    expect(series!.points.map((p) => [p.m, p.vGb, p.count, p.meanBwMbPerS])).toEqual([
      [1, 0.1, 1, 10],
      [2, 0.2, 2, 17.5],
      [3, 0.3, 1, 24],
    ]);
    expect(series!.points[0]!.sdBwMbPerS).toBe(0);
    // Sample sd of {15, 20}: sqrt(((15 − 17.5)² + (20 − 17.5)²) / (2 − 1)) = sqrt(12.5).
    expectClose(series!.points[1]!.sdBwMbPerS, Math.sqrt(12.5), 1e-15);
    expect(series!.peak).toEqual({ m: 3, bwMbPerS: 24 });
  });

  it("keeps an extra column as a run attribute only when all the run's rows agree on it", async () => {
    const { observations } = await ingestCanonicalTexts([
      {
        name: "t.csv",
        text: "run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster,slot\nr,n1,2,1,1,0,1,azur,1\nr,n2,2,1,1,0,1,azur,2\n",
      },
    ]);
    expect(observations.runs[0]!.attributes).toEqual({ cluster: "azur" });
  });
});

describe("summariseRuns", () => {
  const run = (runId: string, m: number, sizeMb: number | null, bw: number, cluster?: string): RunObservation => ({
    runId,
    m,
    vGb: sizeMb === null ? 1 : (m * sizeMb) / 1000,
    aggregatedBwMbPerS: bw,
    uniformSizeMb: sizeMb,
    ...(cluster === undefined ? {} : { attributes: { cluster } }),
  });

  it("gives a finite mean and sd for finite bandwidths whose squares or sum overflow (found by npm run fuzz)", () => {
    // Reference: the same statistics in exact arithmetic, by hand: mean (a + b)/2, sd |a − b|/√2.
    const a = 1.8961503816218355e154;
    const point = summariseRuns([run("1", 3, 15, a), run("2", 3, 15, 15)]).series[0]!.points[0]!;
    expect(point.meanBwMbPerS).toBeCloseTo((a + 15) / 2, -140);
    expect(point.sdBwMbPerS / ((a - 15) / Math.SQRT2)).toBeCloseTo(1, 12);
    const top = summariseRuns([run("1", 1, 15, 1.5e308), run("2", 1, 15, 1.5e308), run("3", 1, 15, 1.5e308)]).series[0]!.points[0]!;
    expect(top).toMatchObject({ meanBwMbPerS: 1.5e308, sdBwMbPerS: 0 });
  });

  it("takes the smallest m on a tie for the peak, and orders series by size", () => {
    const observations = summariseRuns([run("1", 2, 46, 9), run("2", 1, 15, 5), run("3", 3, 15, 9), run("4", 2, 15, 9)]);
    expect(observations.series.map((s) => [s.sizeMb, s.peak])).toEqual([
      [15, { m: 2, bwMbPerS: 9 }],
      [46, { m: 2, bwMbPerS: 9 }],
    ]);
  });

  it("separates series by the attributes named in groupBy", () => {
    const runs = [run("1", 1, 15, 5, "azur"), run("2", 1, 15, 7, "orsay"), run("3", 2, 15, 9, "azur"), run("4", 1, 15, 6)];
    const grouped = summariseRuns(runs, { groupBy: ["cluster"] });
    expect(grouped.groupBy).toEqual(["cluster"]);
    expect(grouped.series.map((s) => [s.group, s.points.map((p) => [p.m, p.meanBwMbPerS])])).toEqual([
      [{ cluster: null }, [[1, 6]]],
      [{ cluster: "azur" }, [[1, 5], [2, 9]]],
      [{ cluster: "orsay" }, [[1, 7]]],
    ]);
    const pooled = summariseRuns(runs);
    expect(pooled.series).toHaveLength(1);
    expect(pooled.series[0]!.points[0]).toMatchObject({ m: 1, count: 3, meanBwMbPerS: 6 });
    expect(pooled.series[0]!.group).toBeUndefined();
  });
});
