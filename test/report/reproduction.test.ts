import { describe, expect, it } from "vitest";
import { PAPER_MODEL, type BandwidthModel } from "../../pipeline/fit/model";
import { modelReproductionRows } from "../../pipeline/report/reproduction/model-reproduction-rows";
import { TABLE_4_1_PEAKS, VALIDATION_DATASETS } from "../../pipeline/ingest/published-azur-data";
import { compareWithPublished, reproductionTable } from "../../pipeline/report/reproduction/reproduction";
import { expectClose } from "../helpers";

const base = { id: "x", quantity: "q", source: "[Y11] Table 1", unit: "MB/s", how: "h" };

describe("verdicts", () => {
  it("matches within the tolerance and differs outside it, saying by how much", () => {
    const tolerance = { relative: 0.05, rationale: "r" };
    expect(compareWithPublished({ ...base, paper: 100, ours: 104.9, tolerance }).verdict).toBe("matches");
    const differs = compareWithPublished({ ...base, paper: 100, ours: 106, tolerance, whenDiffers: "known cause" });
    expect(differs.verdict).toBe("differs");
    expect(differs.reason).toMatch(/^known cause: ours − paper = \+6 \(\+6 %\); tolerance ±5/);
    expect(compareWithPublished({ ...base, paper: 9, ours: 10, tolerance: { absolute: 1, rationale: "r" } }).verdict).toBe("matches");
    expect(compareWithPublished({ ...base, paper: 9, ours: 11, tolerance: { absolute: 1, rationale: "r" } }).verdict).toBe("differs");
  });

  it("never calls a missing value a match, and says when a number is not comparable", () => {
    expect(compareWithPublished({ ...base, paper: 1, ours: null, tolerance: { absolute: 100, rationale: "r" } }).verdict).toBe("differs");
    const row = compareWithPublished({ ...base, paper: 4.02, ours: 9, tolerance: { relative: 1, rationale: "r" }, notComparable: "raw data unpublished" });
    expect(row.verdict).toBe("not comparable");
    expect(row.reason).toBe("raw data unpublished");
  });
});

describe("reproduction rows of the published model", () => {
  const rows = modelReproductionRows(PAPER_MODEL, { modelLabel: "published model" });

  it("covers every published peak: position and bandwidth of each Table 4.1 size and of D1–D3, plus E_global", () => {
    expect(rows).toHaveLength(2 * TABLE_4_1_PEAKS.length + 2 * VALIDATION_DATASETS.length + 1);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const p of TABLE_4_1_PEAKS) {
      expect(rows.find((r) => r.id === `table-4.1/${p.sizeMb}MB/peak-bw`)!.paper).toBe(p.peakBwMbPerS);
    }
  });

  it("computes D1's predicted peak from the coefficients", () => {
    // Independent check by hand: D1's first 9 blocks total 2042 MB, so the peak is
    // bw(9, 2.042) = -0.0155·81·2.042² − 0.169435·81 + 0.0004·2.042² + 5.027318·9 + 3.753154
    // (docs/science.md §3.2, §3.4); bw(8, 1.925) and bw(10, 2.536) are both lower.
    const expected = -0.0155 * 81 * 2.042 ** 2 - 0.169435 * 81 + 0.0004 * 2.042 ** 2 + 5.027318 * 9 + 3.753154;
    expect(rows.find((r) => r.id === "D1/peak-m")!.ours).toBe(9);
    expectClose(rows.find((r) => r.id === "D1/peak-bw")!.ours!, expected, 1e-5);
    expect(rows.find((r) => r.id === "D1/peak-bw")!.paper).toBe(31.2); // measured, [Y11] Table 1
  });

  it("follows the model: a badly wrong model differs on every peak bandwidth", () => {
    // The verdicts are computed from the model, not stored: +1000 MB/s everywhere must fail them all.
    const rowsForShifted = modelReproductionRows({ ...PAPER_MODEL, coefficients: { ...PAPER_MODEL.coefficients, e: 1000 } } as BandwidthModel, {
      modelLabel: "shifted",
    });
    expect(rowsForShifted.filter((r) => r.id.endsWith("peak-bw")).every((r) => r.verdict === "differs")).toBe(true);
  });

  it("becomes a table with the verdict counts in its caption", () => {
    const table = reproductionTable(rows);
    const counts = { matches: 0, differs: 0, "not comparable": 0 };
    for (const r of rows) counts[r.verdict] += 1;
    expect(table.caption).toContain(`${counts.matches} match, ${counts.differs} differ, ${counts["not comparable"]} not comparable`);
    expect(counts["not comparable"]).toBe(1);
  });
});
