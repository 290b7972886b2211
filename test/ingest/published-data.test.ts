/**
 * The published numbers the stages also use as data in code are those transcribed in
 * data/published/*.csv: Table 4.1's and D1–D3's (ingest, fit), and the [Y-thesis] Tables 7.2,
 * 7.9 and 7.10 the campaign prints beside its results (schedule).
 */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { TABLE_4_1_PEAKS, VALIDATION_DATASETS } from "../../pipeline/ingest/published-azur-data";
import { PUBLISHED_IDENTICAL_SIZES, PUBLISHED_WAVES } from "../../pipeline/schedule/published-values";

const read = (path: string) => parse(readFileSync(path), { columns: true }) as Record<string, string>[];

describe("data/published", () => {
  it("table-4-1-peaks.csv holds [Y-thesis] Table 4.1", () => {
    expect(read("data/published/table-4-1-peaks.csv").map((r) => ({ sizeMb: +r.size_mb!, peakM: +r.peak_m!, peakBwMbPerS: +r.peak_bw_mb_per_s! }))).toEqual(TABLE_4_1_PEAKS);
    // spot check against docs/science.md §3.1 as printed
    expect(TABLE_4_1_PEAKS[6]).toEqual({ sizeMb: 684, peakM: 5, peakBwMbPerS: 20.45 });
  });

  it("y11-section-6-2-datasets.csv and the measured columns of y11-table-1.csv hold D1–D3 as the code does", () => {
    const blocks = read("data/published/y11-section-6-2-datasets.csv");
    const peaks = read("data/published/y11-table-1.csv");
    expect(
      VALIDATION_DATASETS.map((d) => ({
        name: d.name,
        sizesMb: blocks.filter((b) => b.dataset === d.name).map((b) => +b.size_mb!),
        measuredPeak: peaks
          .filter((p) => p.dataset === d.name)
          // the digits as printed are kept where the number drops some ("31.20")
          .map((p) => ({
            m: +p.peak_m_measured!,
            bwMbPerS: +p.peak_bw_mb_per_s_measured!,
            ...(String(+p.peak_bw_mb_per_s_measured!) !== p.peak_bw_mb_per_s_measured ? { bwPrinted: p.peak_bw_mb_per_s_measured } : {}),
          }))[0],
      })),
    ).toEqual(VALIDATION_DATASETS);
    expect(VALIDATION_DATASETS[0]!.sizesMb.slice(0, 3)).toEqual([105, 451, 135]); // docs/science.md §3.4: D1 = 105, 451, 135, …
    expect(VALIDATION_DATASETS.map((d) => d.measuredPeak)).toEqual([
      { m: 9, bwMbPerS: 31.2, bwPrinted: "31.20" },
      { m: 11, bwMbPerS: 34.03 },
      { m: 8, bwMbPerS: 28.77 },
    ]);
  });

  it("[Y-thesis] Table 4.2 prints every cell of [Y11] Table 1", () => {
    expect(read("data/published/thesis-table-4-2.csv")).toEqual(read("data/published/y11-table-1.csv"));
  });

  it("the campaign's published identical-size counts and waves are [Y-thesis] Tables 7.2, 7.9 and 7.10", () => {
    expect(read("data/published/thesis-table-7-2.csv").map((r) => ({ sizeMb: +r.app_size_mb!, checkpointed: +r.n_checkpointed!, ctnys: +r.ctnys_s! }))).toEqual(PUBLISHED_IDENTICAL_SIZES);
    const waves = ["thesis-table-7-9.csv", "thesis-table-7-10.csv"].map((f) => read(`data/published/${f}`)[0]!);
    expect(waves.map((r) => ({ ctnys: +r.ctnys_s!, rctnys: +r.rctnys_s!, schedulerMicros: +r.sched_time_us! }))).toEqual(
      PUBLISHED_WAVES.map(({ ctnys, rctnys, schedulerMicros }) => ({ ctnys, rctnys, schedulerMicros })),
    );
    // [Y-thesis] Table 7.9 is criterion p: 27084 / 13132 / 92104 µs (docs/science.md §4.6).
    expect(waves[0]).toMatchObject({ criterion: "p", ctnys_s: "27084", rctnys_s: "13132", sched_time_us: "92104" });
  });
});
