/**
 * Self-checks (rows that check the paper or the project against itself) are labelled
 * `selfCheck`, shown apart and never counted as reproduced results: RD2 (the classroom
 * generator against the 17.42 it is calibrated to), RB10 (the DP against our own brute force),
 * RB11 ([BKT]'s Table I against its own §I). The summary's, the report's and the docs' totals
 * count findings only; the expected counts of the hand-made rows below are counted by hand.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bktLawReproductionRows, bktReproductionRows } from "../../pipeline/reproduce/bkt-rows";
import { das06ReproductionRows } from "../../pipeline/reproduce/das06-rows";
import { compareWithPublished, reproductionCountsText, type ReproductionRow } from "../../pipeline/reproduce/reproduction";
import { openQuestions, reproductionMarkdown, reproductionSummary, reproductionSummaryTable } from "../../pipeline/report/reproduction/reproduction-summary";
import { reproductionTable } from "../../pipeline/report/reproduction/reproduction-table";
import { projectRoot } from "../../pipeline/shared/version";
import { mergeSweep } from "../../pipeline/simulate/sweep/merge-sweep";
import { parseSweepSpec } from "../../pipeline/simulate/sweep/sweep-spec";

const root = projectRoot();

/** The kept grid of data/simulations/ merged as the pipeline merges it (no cell computed). */
function keptGrid(name: string) {
  const spec = parseSweepSpec(readFileSync(join(root, "data/simulations", `${name}.json`), "utf8"), `${name}.json`);
  return mergeSweep(spec, [join(root, "data/simulations", name)]);
}

describe("the rows that check the project or the paper against itself", () => {
  it("RD2 (the generator against its calibration) is a self-check; RD1 and the orderings RD3–RD11 are findings", () => {
    const rows = das06ReproductionRows(keptGrid("das06-paper-grid"));
    const rd2 = rows.filter((r) => r.id.startsWith("das06/rd2/"));
    expect(rd2.map((r) => r.id)).toEqual(["das06/rd2/mean-machines-on", "das06/rd2/closed-constant"]);
    expect(rd2.every((r) => r.selfCheck)).toBe(true);
    const others = rows.filter((r) => !r.id.startsWith("das06/rd2/"));
    expect(others.length).toBeGreaterThan(10);
    expect(others.filter((r) => r.selfCheck)).toEqual([]);
  });

  it("RB10 (the DP against our brute force) and RB11 (Table I against §I) are self-checks", () => {
    // A grid on a trace gives RB10 alone (the paper's trends RB1–RB9 are claims about its laws).
    const rb10 = bktReproductionRows({ groups: [{ parameters: { trace: "t.tab" } }] } as unknown as Parameters<typeof bktReproductionRows>[0]);
    expect(rb10.map((r) => [r.id, r.selfCheck])).toEqual([["bkt/rb10/dp-optimal", true]]);
    expect(bktLawReproductionRows().map((r) => [r.id, r.selfCheck])).toEqual([
      ["bkt/rb11/median-availability", true],
      ["bkt/rb11/mean-unavailability", true],
    ]);
  });

  it("RB1–RB9 of the report's grid are findings", () => {
    const rows = bktReproductionRows(keptGrid("bkt-report-grid")).filter((r) => r.id !== "bkt/rb10/dp-optimal");
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((r) => r.selfCheck)).toEqual([]);
  });
});

/** Five hand-made [Y11] rows: three findings (match, close, differs), two self-checks (match, erratum). */
function handRows(): ReproductionRow[] {
  const base = { quantity: "q", source: "[Y11] Table 1", unit: "s", how: "by hand" };
  return [
    compareWithPublished({ ...base, id: "f-match", paper: 10, ours: 10 }),
    compareWithPublished({ ...base, id: "f-close", paper: 10, ours: 10.8, tolerance: { absolute: 1, rationale: "test" } }),
    compareWithPublished({ ...base, id: "f-differs", paper: 10, ours: 20 }),
    compareWithPublished({ ...base, id: "s-match", paper: 10, ours: 10, selfCheck: true }),
    compareWithPublished({ ...base, id: "s-erratum", paper: 10, ours: 12, erratum: { corrected: 12, evidence: "its own sum" }, selfCheck: true }),
  ];
}

describe("the totals count findings only", () => {
  const rows = handRows();

  it("the per-paper summary counts the findings by verdict and the self-checks apart", () => {
    const [y11] = reproductionSummary(rows).filter((s) => s.paper === "[Y11]");
    expect(y11).toMatchObject({
      findings: 3,
      counts: { match: 1, close: 1, differs: 1, erratum: 0, "not recomputable": 0 },
      selfChecks: 2,
      selfCheckCounts: { match: 1, close: 0, differs: 0, erratum: 1, "not recomputable": 0 },
    });
    // Open questions keep the self-check's erratum (the paper contradicting itself), labelled.
    expect(y11!.open.map((r) => r.id)).toEqual(["f-differs", "s-erratum"]);
    const [questions] = openQuestions(rows);
    // By hand: of the 3 findings f-differs is open, of the 2 self-checks s-erratum.
    expect(questions!.heading).toBe("[Y11]: 1 of 3 findings open (differs or erratum), and 1 of 2 self-checks");
    expect(questions!.items[1]).toMatch(/^q \(erratum, self-check; \[Y11\] Table 1\)/);
  });

  it("the summary table, the reproduction table's caption and the Markdown page say the same", () => {
    const table = reproductionSummaryTable(rows);
    expect(table.rows.find((r) => r.paper === "[Y11]")).toMatchObject({ findings: 3, match: 1, close: 1, differs: 1, selfChecks: 2, selfCheckVerdicts: "1 match, 1 erratum" });
    const counts = "3 findings (1 match, 1 close, 1 differs, 0 erratum, 0 not recomputable); 2 self-checks, not counted as reproduced (1 match, 0 close, 0 differs, 1 erratum, 0 not recomputable)";
    expect(reproductionCountsText(rows)).toBe(counts);
    const full = reproductionTable(rows);
    expect(full.caption).toContain(`(${counts})`);
    expect(full.columns.map((c) => c.key)).toContain("selfCheck");
    expect(full.rows.map((r) => r.selfCheck)).toEqual(["no", "no", "no", "yes", "yes"]);
    const page = reproductionMarkdown(rows, "a test");
    expect(page).toContain("| [Y11] | 3 | 1 | 1 | 1 | 0 | 0 | 2 | 1 match, 1 erratum |");
    expect(page).toContain("3 findings compared; match: `f-match`.");
    expect(page).toContain("Self-checks (2, not counted as reproduced):\n\n- match: `s-match`.\n- erratum: `s-erratum`.");
    expect(page).toContain("- `s-erratum` (erratum, self-check): q.");
  });
});

describe("the README's reproduction claims", () => {
  it("count the way docs/reproduction.md does (findings apart from self-checks; that page is checked against the rows by schedule-reproduction.test.ts)", () => {
    const doc = readFileSync(join(root, "docs/reproduction.md"), "utf8");
    const readme = readFileSync(join(root, "README.md"), "utf8").replace(/\s+/g, " ");
    const rowCount = /(\d+) rows; papers named/.exec(doc)![1];
    const [, findings, findingCounts] = /Findings, [^:]*: (\d+) \(([^)]*)\)/.exec(doc)!;
    const [, selfChecks, selfCheckCounts] = /Self-checks, rows that check [^:]*: (\d+) \(([^)]*)\)/.exec(doc)!;
    expect(readme).toContain(`a default run, ${rowCount} rows)`);
    expect(readme).toContain(`${findings} rows compare our own computation with a printed number (${findingCounts})`);
    // The README leaves out the self-checks' zero counts.
    const nonZero = selfCheckCounts!.split(", ").filter((c) => !c.startsWith("0 ")).join(", ");
    expect(readme).toContain(`The other ${selfChecks} are **self-checks**, labelled and counted apart (${nonZero})`);
  });
});
