/**
 * The synthetic Azur campaign: deterministic, shaped as documented (vertex at Table 4.1's
 * peaks, one process at 5.3–6 MB/s, collapse after the peak), and the committed file is
 * exactly what `ckpt synth` with its defaults writes.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expectClose } from "../helpers";
import { ingestCanonicalTexts } from "../../pipeline/ingest/ingest-files";
import { TABLE_4_1_PEAKS, VALIDATION_DATASETS } from "../../pipeline/ingest/published-azur-data";
import {
  SYNTHETIC_HEADER,
  interpolatedPeak,
  singleProcessBandwidth,
  syntheticAzurBandwidth,
  syntheticAzurRows,
  syntheticRowToCsv,
  type SyntheticAzurOptions,
} from "../../pipeline/ingest/synthetic-azur";

const csv = (options: SyntheticAzurOptions) => [SYNTHETIC_HEADER, ...[...syntheticAzurRows(options)].map(syntheticRowToCsv)].join("\n") + "\n";
const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

describe("the generating curve", () => {
  it.each(TABLE_4_1_PEAKS)("has its vertex at Table 4.1's peak for $sizeMb MB", ({ sizeMb, peakM, peakBwMbPerS }) => {
    expectClose(syntheticAzurBandwidth(peakM, sizeMb), peakBwMbPerS, 1e-12);
    expect(syntheticAzurBandwidth(peakM - 1, sizeMb)).toBeLessThan(peakBwMbPerS);
    expect(syntheticAzurBandwidth(peakM + 1, sizeMb)).toBeLessThan(peakBwMbPerS);
    // one process alone: 5.3–6 MB/s (docs/science.md §4.5)
    const single = syntheticAzurBandwidth(1, sizeMb);
    expect(single).toBeGreaterThanOrEqual(5.3);
    expect(single).toBeLessThanOrEqual(6);
    // rises to the peak, falls after it
    for (let m = 2; m <= peakM; m++) expect(syntheticAzurBandwidth(m, sizeMb)).toBeGreaterThan(syntheticAzurBandwidth(m - 1, sizeMb));
    for (let m = peakM + 1; m <= 30; m++) expect(syntheticAzurBandwidth(m, sizeMb)).toBeLessThan(syntheticAzurBandwidth(m - 1, sizeMb));
  });

  it("interpolates the peak between Table 4.1's sizes and holds it outside them", () => {
    expect(singleProcessBandwidth(15)).toBe(6);
    expect(singleProcessBandwidth(684)).toBe(5.3);
    expect(interpolatedPeak(10)).toEqual({ m: 18, bwMbPerS: 38.34 });
    expect(interpolatedPeak(1000)).toEqual({ m: 5, bwMbPerS: 20.45 });
    const between = interpolatedPeak(Math.sqrt(76 * 114)); // halfway in ln v between 76 and 114 MB
    expectClose(between.m, 11, 1e-12);
    expectClose(between.bwMbPerS, (36.74 + 36.52) / 2, 1e-12);
  });
});

describe("the synthetic campaign", () => {
  it("is deterministic: the same seed gives the same bytes, another seed other bytes", () => {
    const options = { seed: 7, repetitions: 2, maxM: 6 };
    expect(csv(options)).toBe(csv(options));
    expect(csv({ ...options, seed: 8 })).not.toBe(csv(options));
  });

  it("the committed data/traces/synthetic-azur.csv is what `ckpt synth` writes with its defaults", () => {
    expect(sha256(readFileSync("data/traces/synthetic-azur.csv"))).toBe(sha256(csv({ seed: 1, repetitions: 20 })));
  });

  it("has the documented shape: every run complete, peaks near Table 4.1's, a noisier collapse after them", async () => {
    const text = csv({ seed: 1, repetitions: 20 });
    const { counts, observations } = await ingestCanonicalTexts([{ name: "synthetic-azur.csv", text }], { groupBy: ["dataset"] });
    // 7 sizes × Σ_{m=1..30} m × 20 + 3 data sets × Σ_{i=1..12} i × 20
    expect(counts).toEqual({ read: 7 * 465 * 20 + 3 * 78 * 20, accepted: 69780, rejected: 0 });
    const uniform = observations.series.filter((s) => s.group!.dataset === "uniform");
    expect(uniform.map((s) => s.sizeMb)).toEqual(TABLE_4_1_PEAKS.map((p) => p.sizeMb));
    for (const series of uniform) {
      const published = TABLE_4_1_PEAKS.find((p) => p.sizeMb === series.sizeMb)!;
      expect(series.points).toHaveLength(30);
      expect(series.points.every((p) => p.count === 20)).toBe(true);
      expect(Math.abs(series.peak.m - published.peakM)).toBeLessThanOrEqual(2);
      expect(Math.abs(series.peak.bwMbPerS - published.peakBwMbPerS) / published.peakBwMbPerS).toBeLessThan(0.05);
      const last = series.points[29]!;
      expect(last.meanBwMbPerS).toBeLessThan(0.8 * series.peak.bwMbPerS);
      const first = series.points[0]!;
      expect(last.sdBwMbPerS / last.meanBwMbPerS).toBeGreaterThan(2 * (first.sdBwMbPerS / first.meanBwMbPerS));
    }
    const validation = observations.validationRuns;
    expect(new Set(validation.map((r) => r.attributes!.dataset))).toEqual(new Set(VALIDATION_DATASETS.map((d) => d.name)));
    // the D1 run with the first 9 blocks: V = (105+451+135+241+329+172+211+281+117) / 1000
    expectClose(validation.find((r) => r.runId === "D1-i09-r01")!.vGb, 2.042, 1e-12);
  });
});
