import { describe, expect, it } from "vitest";
import { PAPER_MODEL, type BandwidthModel } from "../../pipeline/fit/model";
import { modelReproductionRows } from "../../pipeline/reproduce/model-reproduction-rows";
import { TABLE_4_1_PEAKS, VALIDATION_DATASETS } from "../../pipeline/ingest/published-azur-data";
import { cite, compareWithPublished, papersOf, verdictCounts } from "../../pipeline/reproduce/reproduction";
import { reproductionTable } from "../../pipeline/report/reproduction/reproduction-table";
import { expectClose } from "../helpers";

const base = { id: "x", quantity: "q", source: "[Y11] Table 1", unit: "MB/s", how: "h" };

describe("verdicts", () => {
  it("match means equal at the printed precision: 31.20 is matched by 31.204, not by 31.21", () => {
    // [Y11] Table 1 prints D1's measured peak as 31.20 (two decimals).
    expect(compareWithPublished({ ...base, paper: 31.2, printed: "31.20", ours: 31.204 }).verdict).toBe("match");
    expect(compareWithPublished({ ...base, paper: 31.2, printed: "31.20", ours: 31.21 }).verdict).toBe("differs");
    // Daly prints 117 min; 116.69 rounds to it.
    expect(compareWithPublished({ ...base, paper: 117, ours: 116.69 }).verdict).toBe("match");
    expect(() => compareWithPublished({ ...base, paper: 31.2, printed: "31.25", ours: 31.2 })).toThrow(/printed "31.25" is not the value 31.2/);
  });

  it("close within the stated tolerance, differs outside it, saying by how much", () => {
    const tolerance = { relative: 0.05, rationale: "r" };
    expect(compareWithPublished({ ...base, paper: 100, ours: 104.9, tolerance }).verdict).toBe("close");
    const differs = compareWithPublished({ ...base, paper: 100, ours: 106, tolerance, whenDiffers: "known cause." });
    expect(differs.verdict).toBe("differs");
    expect(differs.reason).toMatch(/^known cause: ours − paper = \+6 \(\+6 %\); tolerance ±5/);
    expect(compareWithPublished({ ...base, paper: 9, ours: 10, tolerance: { absolute: 1, rationale: "r" } }).verdict).toBe("close");
    expect(compareWithPublished({ ...base, paper: 9, ours: 11, tolerance: { absolute: 1, rationale: "r" } }).verdict).toBe("differs");
    // Without a tolerance only a match passes.
    expect(compareWithPublished({ ...base, paper: 9, ours: 10 }).verdict).toBe("differs");
  });

  it("an approximate input is at best close, even when equal", () => {
    const row = compareWithPublished({ ...base, paper: 16, ours: 16, approximate: "a rate known as a range", tolerance: { absolute: 2, rationale: "r" } });
    expect(row.verdict).toBe("close");
    expect(row.reason).toMatch(/^a rate known as a range: /);
  });

  it("an erratum keeps the printed value as the compared one and shows the corrected value and the evidence", () => {
    const row = compareWithPublished({ ...base, paper: 297, ours: 294, erratum: { corrected: 294, evidence: "no 4 of p = 26…75 save 297" } });
    expect(row).toMatchObject({ verdict: "erratum", paper: 297, printed: "297", corrected: 294 });
    expect(row.reason).toBe("no 4 of p = 26…75 save 297; against the corrected value: ours − corrected = +0 (+0 %)");
  });

  it("never calls a missing value a match, and says why a number is not recomputable", () => {
    expect(compareWithPublished({ ...base, paper: 1, ours: null, tolerance: { absolute: 100, rationale: "r" } }).verdict).toBe("differs");
    const row = compareWithPublished({ ...base, paper: 4.02, ours: 9, tolerance: { relative: 1, rationale: "r" }, notRecomputable: "raw data unpublished" });
    expect(row.verdict).toBe("not recomputable");
    expect(row.reason).toBe("raw data unpublished");
  });

  it("names the papers a source cites", () => {
    expect(papersOf(`${cite("[Y11]", "Table 1")}; ${cite("[Y-thesis]", "Table 4.2", "D1", "measured ī")}`)).toEqual(["[Y11]", "[Y-thesis]"]);
    expect(cite("[Y-thesis]", "Table 7.2", "400 MB", "CTNYS")).toBe("[Y-thesis] Table 7.2, row 400 MB, column CTNYS");
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
    const counts = verdictCounts(rows);
    // None of these rows is a self-check: every one is among the findings.
    expect(table.caption).toContain(`${rows.length} findings (${counts.match} match, ${counts.close} close, ${counts.differs} differs, ${counts.erratum} erratum, ${counts["not recomputable"]} not recomputable)`);
    expect(counts["not recomputable"]).toBe(1); // E_global: computed on unpublished raw measurements
  });
});
