/** The published inputs in data/published/*.csv are the numbers of docs/science.md §3.1 / §3.4, as in the code. */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { TABLE_4_1_PEAKS, VALIDATION_DATASETS } from "../../pipeline/ingest/published-azur-data";

const read = (path: string) => parse(readFileSync(path), { columns: true }) as Record<string, string>[];

describe("data/published", () => {
  it("table-4-1-peaks.csv holds [Y-thesis] Table 4.1", () => {
    expect(read("data/published/table-4-1-peaks.csv").map((r) => ({ sizeMb: +r.size_mb!, peakM: +r.peak_m!, peakBwMbPerS: +r.peak_bw_mb_per_s! }))).toEqual(TABLE_4_1_PEAKS);
    // spot check against docs/science.md §3.1 as printed
    expect(TABLE_4_1_PEAKS[6]).toEqual({ sizeMb: 684, peakM: 5, peakBwMbPerS: 20.45 });
  });

  it("validation-datasets.csv and validation-measured-peaks.csv hold D1–D3 of [Y11] Table 1 / [Y-thesis] Table 4.2", () => {
    const blocks = read("data/published/validation-datasets.csv");
    const peaks = read("data/published/validation-measured-peaks.csv");
    expect(
      VALIDATION_DATASETS.map((d) => ({
        name: d.name,
        sizesMb: blocks.filter((b) => b.dataset === d.name).map((b) => +b.size_mb!),
        measuredPeak: peaks
          .filter((p) => p.dataset === d.name)
          // the digits as printed are kept where the number drops some ("31.20")
          .map((p) => ({ m: +p.peak_m!, bwMbPerS: +p.peak_bw_mb_per_s!, ...(String(+p.peak_bw_mb_per_s!) !== p.peak_bw_mb_per_s ? { bwPrinted: p.peak_bw_mb_per_s } : {}) }))[0],
      })),
    ).toEqual(VALIDATION_DATASETS);
    expect(VALIDATION_DATASETS[0]!.sizesMb.slice(0, 3)).toEqual([105, 451, 135]); // docs/science.md §3.4: D1 = 105, 451, 135, …
    expect(VALIDATION_DATASETS.map((d) => d.measuredPeak)).toEqual([
      { m: 9, bwMbPerS: 31.2, bwPrinted: "31.20" },
      { m: 11, bwMbPerS: 34.03 },
      { m: 8, bwMbPerS: 28.77 },
    ]);
  });
});
