/**
 * The summary of accepted runs (pipeline/ingest/summarise-runs.ts) and the bandwidth
 * definition a run carries (bandwidth-definition.ts), on values computed by hand.
 */
import { describe, expect, it } from "vitest";
import { expectClose } from "../helpers";
import { meanAndSampleSd, summariseRuns, summariseRunTable } from "../../pipeline/ingest/summarise-runs";
import { RunTable } from "../../pipeline/ingest/run-table";
import { bandwidthDefinitionOf, countBandwidthDefinitions } from "../../pipeline/ingest/bandwidth-definition";
import type { RunObservation } from "../../pipeline/ingest/observations";

describe("meanAndSampleSd", () => {
  it("is the mean and the n − 1 deviation of a textbook sample", () => {
    // {2, 4, 4, 4, 5, 5, 7, 9}: mean 40 / 8 = 5, squared deviations 9+1+1+1+0+0+4+16 = 32, sd √(32 / 7).
    const { mean, sd } = meanAndSampleSd([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(mean).toBe(5);
    expectClose(sd, Math.sqrt(32 / 7), 1e-15);
    // Two values: mean 2, sd √((1 + 1) / 1) = √2.
    expect(meanAndSampleSd([1, 3])).toEqual({ mean: 2, sd: Math.SQRT2 });
    expect(meanAndSampleSd([7])).toEqual({ mean: 7, sd: 0 });
    // A large mean, a small spread: 1e6 + 0.1 and 1e6 + 0.7 differ by 0.6, sd 0.6 / √2 (to the
    // decimals' rounding, ~1e-10); the deviations squared, not v² − mean², keep that.
    expectClose(meanAndSampleSd([1e6 + 0.1, 1e6 + 0.7]).sd, 0.6 / Math.SQRT2, 1e-9);
  });

  it("scales by the largest magnitude, also for negative values whose sum overflows", () => {
    // −1.5e308 twice: the sum is −Infinity; scaled by 1.5e308 the values are −1, −1: mean −1, sd 0.
    expect(meanAndSampleSd([-1.5e308, -1.5e308])).toEqual({ mean: -1.5e308, sd: 0 });
    // 1e308 and −1e308: the sum is finite (0) but (1e308 − 0)² overflows; scaled: {1, −1}, mean 0, sd √2.
    const { mean, sd } = meanAndSampleSd([1e308, -1e308]);
    expect(mean).toBe(0);
    expect(sd / (Math.SQRT2 * 1e308)).toBeCloseTo(1, 14);
  });
});

const run = (runId: string, m: number, sizeMb: number | null, bw: number, attributes?: Record<string, string>): RunObservation => ({
  runId,
  m,
  vGb: sizeMb === null ? 1 : (m * sizeMb) / 1000,
  aggregatedBwMbPerS: bw,
  uniformSizeMb: sizeMb,
  ...(attributes === undefined ? {} : { attributes }),
});

describe("summariseRuns", () => {
  it("orders points by m, takes the largest mean as the peak, and keeps the mixed-size runs apart", () => {
    const runs = [run("1", 4, 20, 30), run("2", 1, 20, 10), run("3", 2, 20, 40), run("4", 2, 20, 20), run("5", 3, 5, 8), run("6", 2, null, 99), run("7", 1, null, 1)];
    const observations = summariseRuns(runs);
    // Size 20: m = 1 {10}, m = 2 {40, 20} mean 30 sd √((100 + 100) / 1) = √200, m = 4 {30}; the peak
    // is the first largest mean, m = 2 (30 at m = 4 ties it and comes later). Size 5: m = 3 {8}.
    expect(observations.series.map((s) => [s.sizeMb, s.points.map((p) => [p.m, p.vGb, p.count, p.meanBwMbPerS]), s.peak])).toEqual([
      [5, [[3, 0.015, 1, 8]], { m: 3, bwMbPerS: 8 }],
      [20, [[1, 0.02, 1, 10], [2, 0.04, 2, 30], [4, 0.08, 1, 30]], { m: 2, bwMbPerS: 30 }],
    ]);
    expectClose(observations.series[1]!.points[1]!.sdBwMbPerS, Math.sqrt(200), 1e-15);
    expect(observations.series[1]!.points.every((p) => p.sizeMb === 20)).toBe(true);
    expect(observations.validationRuns.map((r) => r.runId)).toEqual(["6", "7"]);
    expect(observations.runs).toEqual(runs);
    expect(observations.runs).not.toBe(runs);
    expect("groupBy" in observations).toBe(false);
    expect("group" in observations.series[0]!).toBe(false);
  });

  it("groups by two attributes, a missing one as null, groups in order of their values", () => {
    const runs = [
      run("1", 1, 10, 5, { cluster: "b", disk: "ssd" }),
      run("2", 1, 10, 7, { cluster: "a", disk: "ssd" }),
      run("3", 1, 10, 9, { cluster: "a", disk: "hdd" }),
      run("4", 1, 10, 11, { cluster: "a" }),
      run("5", 1, 20, 13, { cluster: "a", disk: "hdd" }),
      run("6", 2, 10, 15, { cluster: "a", disk: "hdd" }),
    ];
    const grouped = summariseRuns(runs, { groupBy: ["cluster", "disk"] });
    expect(grouped.groupBy).toEqual(["cluster", "disk"]);
    // By hand: order by cluster, then disk (null as ""), then size.
    expect(grouped.series.map((s) => [s.group, s.sizeMb, s.points.map((p) => [p.m, p.meanBwMbPerS])])).toEqual([
      [{ cluster: "a", disk: null }, 10, [[1, 11]]],
      [{ cluster: "a", disk: "hdd" }, 10, [[1, 9], [2, 15]]],
      [{ cluster: "a", disk: "hdd" }, 20, [[1, 13]]],
      [{ cluster: "a", disk: "ssd" }, 10, [[1, 7]]],
      [{ cluster: "b", disk: "ssd" }, 10, [[1, 5]]],
    ]);
  });

  it("puts a run without the attribute (null) before every value, even one sorting before letters", () => {
    const grouped = summariseRuns([run("1", 1, 10, 5, { cluster: "0" }), run("2", 1, 10, 7)], { groupBy: ["cluster"] });
    expect(grouped.series.map((s) => s.group)).toEqual([{ cluster: null }, { cluster: "0" }]);
  });

  it("gives the same series from a run table's columns", () => {
    const table = new RunTable();
    table.sources.push("t.csv");
    table.attributeSets.push({ cluster: "x" });
    const enc = (s: string) => Buffer.from(s);
    table.append(enc("1"), 1, 10, 6, 10, 0, 0);
    table.append(enc("2"), 1, 10, 8, 10, 0, -1);
    table.append(enc("3"), 2, 15, 3, null, 0, -1);
    table.append(enc("4"), 2, 20, 14, 10, 0, 0);
    const pooled = summariseRunTable(table);
    // Pooled: size 10, m = 1 {6, 8} mean 7, m = 2 {14}; run 3 (index 2) mixes sizes.
    expect(pooled.validationRuns).toEqual([2]);
    expect(pooled.series.map((s) => [s.sizeMb, s.points.map((p) => [p.m, p.count, p.meanBwMbPerS]), s.peak])).toEqual([[10, [[1, 2, 7], [2, 1, 14]], { m: 2, bwMbPerS: 14 }]]);
    const grouped = summariseRunTable(table, { groupBy: ["cluster"] });
    expect(grouped.series.map((s) => [s.group, s.points.map((p) => [p.m, p.meanBwMbPerS])])).toEqual([
      [{ cluster: null }, [[1, 8]]],
      [{ cluster: "x" }, [[1, 6], [2, 14]]],
    ]);
  });
});

describe("the bandwidth definition of a run", () => {
  it("is bytes over wall time only when the run says so, the papers' sum otherwise", () => {
    expect(bandwidthDefinitionOf({})).toBe("sum-of-writers");
    expect(bandwidthDefinitionOf({ attributes: { cluster: "azur" } })).toBe("sum-of-writers");
    expect(bandwidthDefinitionOf({ attributes: { bandwidth_definition: "bytes-over-wall-time" } })).toBe("bytes-over-wall-time");
    expect(bandwidthDefinitionOf({ attributes: { bandwidth_definition: "sum-of-writers" } })).toBe("sum-of-writers");
    expect(bandwidthDefinitionOf({ attributes: { bandwidth_definition: "something else" } })).toBe("sum-of-writers");
  });

  it("is counted per definition, a definition no run has left out", () => {
    const wall = { attributes: { bandwidth_definition: "bytes-over-wall-time" } };
    expect(countBandwidthDefinitions([{}, wall, {}, wall, wall])).toEqual({ "sum-of-writers": 2, "bytes-over-wall-time": 3 });
    expect(countBandwidthDefinitions([{}, {}])).toEqual({ "sum-of-writers": 2 });
    expect(countBandwidthDefinitions([])).toEqual({});
  });
});
