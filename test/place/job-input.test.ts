import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { costsFromSizes } from "../../pipeline/place/costs-from-sizes";
import { validateJob } from "../../pipeline/place/job";
import { parseSlicesCsv } from "../../pipeline/place/parse-slices-csv";
import { describeRounding, quantizeCosts } from "../../pipeline/place/quantize-costs";
import { expectClose } from "../helpers";

describe("slices CSV", () => {
  it("reads p,c and p,size_mb, ignoring other columns", () => {
    expect(parseSlicesCsv("# a job\nslice,p,c\na,3600,60\nb,7200,90\n", "job.csv")).toEqual({
      slicesSeconds: [3600, 7200],
      costsSeconds: [60, 90],
      ignoredColumns: ["slice"],
    });
    expect(parseSlicesCsv("size_mb,p\n100,10\n", "job.csv")).toEqual({ slicesSeconds: [10], sizesMb: [100], ignoredColumns: [] });
  });

  it("reads a file with a byte-order mark, CRLF line ends and trailing blank lines as the same job, lines counted alike", () => {
    const plain = parseSlicesCsv("p,c\n3600,60\n7200,90\n", "job.csv");
    expect(parseSlicesCsv("\uFEFFp,c\r\n3600,60\r\n7200,90\r\n\r\n\r\n", "job.csv")).toEqual(plain);
    expect(parseSlicesCsv("\uFEFFc,p\n60,3600\n90,7200\n\n", "job.csv")).toEqual(plain);
    expect(() => parseSlicesCsv("\uFEFFp,c\r\n3600,60\r\n-1,90\r\n", "job.csv")).toThrow(/^job\.csv:3: p = -1/);
  });

  it("refuses bad input with file:line and how to fix it", () => {
    expect(() => parseSlicesCsv("", "job.csv")).toThrow(/job.csv: empty, the job has no slices/);
    expect(() => parseSlicesCsv("p,c\n", "job.csv")).toThrow(/a header but no slices/);
    expect(() => parseSlicesCsv("p,c\n10,1\n0,1\n", "job.csv")).toThrow(/^job.csv:3: p = 0; slice durations must be > 0 seconds/);
    expect(() => parseSlicesCsv("p,c\n10,-1\n", "job.csv")).toThrow(/^job.csv:2: c = -1; c must be ≥ 0/);
    expect(() => parseSlicesCsv("p,c\n10,abc\n", "job.csv")).toThrow(/job.csv:2: c = "abc" is not a number/);
    expect(() => parseSlicesCsv("p,c,size_mb\n1,2,3\n", "job.csv")).toThrow(/both "c" and "size_mb"/);
    expect(() => parseSlicesCsv("duration,c\n1,2\n", "job.csv")).toThrow(/no "p" column/);
    expect(() => parseSlicesCsv("p,c\n1,2,3\n", "job.csv")).toThrow(/not readable as CSV/);
  });

  it("validates jobs built in code", () => {
    expect(() => validateJob({ slicesSeconds: [], costsSeconds: [] })).toThrow(/no slices/);
    expect(() => validateJob({ slicesSeconds: [1, -2], costsSeconds: [0, 0] })).toThrow(/slice 2 has duration -2/);
    expect(() => validateJob({ slicesSeconds: [1], costsSeconds: [-1] })).toThrow(/checkpoint cost -1/);
  });
});

describe("costs", () => {
  it("rounds costs to the quantum and says how", () => {
    const q = quantizeCosts([60, 89, 91, 0.1 + 0.2, 120], 60);
    expect(q.costsQuanta).toEqual([1, 1, 2, 0, 2]);
    expect(q.roundedCount).toBe(3);
    expectClose(q.maxRoundingSeconds, 29, 1e-12); // 89 → 60 and 91 → 120
    expect(describeRounding(q)).toMatch(/3 checkpoint cost\(s\) are not multiples of the 60 s quantum; rounded to the nearest multiple \(largest change 29 s\)/);
    expect(quantizeCosts([61], 60, "up").costsQuanta).toEqual([2]);
    expect(describeRounding(quantizeCosts([0.3], 0.1))).toBeNull(); // 0.3 / 0.1 = 2.9999999999999996: a multiple
    expect(() => quantizeCosts([1], 0)).toThrow(/quantum/);
  });

  it("turns sizes into seconds through the bandwidth model, shared equally by m nodes", () => {
    // m = 4 nodes of 100 MB: V = 0.4 GB, bw = a·16·0.16 + b·16 + c·0.16 + d·4 + e (docs/science.md §3.2's
    // coefficients), a node gets bw/4 MB/s, so c = 100 / (bw/4) + 2 s latency.
    const bw = -0.0155 * 16 * 0.16 - 0.169435 * 16 + 0.0004 * 0.16 + 5.027318 * 4 + 3.753154;
    const { costsSeconds, warnings } = costsFromSizes([100, 0], { model: PAPER_MODEL, nodes: 4, latencySeconds: 2 });
    expectClose(costsSeconds[0]!, 100 / (bw / 4) + 2, 1e-12);
    expect(costsSeconds[1]).toBe(2);
    expect(warnings).toEqual([]);
  });

  it("refuses sizes for which the model gives no usable bandwidth, and flags extrapolation", () => {
    expect(() => costsFromSizes([300], { model: PAPER_MODEL, nodes: 70, latencySeconds: 0 })).toThrow(
      /slice 1: the bandwidth model "paper" gives bw\(m=70, V=21 GB\) = -?[\d.e+-]+ MB\/s, not a usable bandwidth/,
    );
    const { warnings } = costsFromSizes([5000], { model: PAPER_MODEL, nodes: 1, latencySeconds: 0 });
    expect(warnings[0]).toMatch(/outside the model's fitted domain/);
    expect(() => costsFromSizes([1], { model: PAPER_MODEL, nodes: 0, latencySeconds: 0 })).toThrow(/--nodes must be an integer ≥ 1/);
  });
});
