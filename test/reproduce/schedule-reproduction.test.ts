/**
 * The ScheduleCkpt rows of [Y11] Tables 4–9, the per-paper summary and docs/reproduction.md.
 * Published values, as printed in [Y11] Tables 4–9 (docs/science.md §4.5), are written next to
 * what the rows must make of them. (The [Y-thesis] tables: published-table-rows.test.ts.)
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { bktLawReproductionRows } from "../../pipeline/reproduce/bkt-rows";
import type { ReproductionRow } from "../../pipeline/reproduce/reproduction";
import { REPRODUCTION_DOC_PATH, reproductionDoc } from "../../pipeline/commands/reproduction-doc";
import { reproductionMarkdown, reproductionSummary } from "../../pipeline/report/reproduction/reproduction-summary";
import { scheduleReproductionRows } from "../../pipeline/reproduce/schedule-reproduction-rows";
import { publishedTableRows } from "../../pipeline/reproduce/published-table-rows";
import { PUBLISHED_DIR, readPublishedTables } from "../../pipeline/reproduce/published-tables";
import { runCampaign } from "../../pipeline/schedule";

let rows: ReproductionRow[];
const row = (id: string) => {
  const found = rows.find((r) => r.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return found;
};

beforeAll(() => {
  const campaign = runCampaign({
    model: PAPER_MODEL, domain: "refuse", estimator: "static", parts: ["A", "B", "C", "identical", "waves"], seeds: 20, firstSeed: 1,
    k0s: [0, 1, 2], criteria: ["p", "density"], exact: null, scalingNs: [], scalingSeeds: 1,
  });
  const published = readPublishedTables(PUBLISHED_DIR);
  rows = [...scheduleReproductionRows(campaign), ...publishedTableRows(published, PAPER_MODEL, { modelLabel: "published model", bandwidthRelative: 0.05 }, campaign)];
});

describe("[Y11] Tables 4–9 against themselves", () => {
  it("recomputes every RCTNYS as Σ p − CTNYS and finds the three rows that break the identity", () => {
    // Family A's Σ p is 10204 (4842 + 5362 in Table 4, k0 = 0, and two more rows); B's 29547, C's 42796 in every row.
    expect(row("schedule/A/p/k0=0/rctnys")).toMatchObject({ printed: "5362", ours: 5362, verdict: "match", selfCheck: true });
    expect(row("schedule/C/density/k0=2/rctnys")).toMatchObject({ printed: "14062", ours: 42796 - 28734, verdict: "match" });
    // Table 4, k0 = 1: 6218 + 3996 = 10214 ≠ 10204.
    expect(row("schedule/A/p/k0=1/rctnys")).toMatchObject({ paper: 3996, corrected: 3986, verdict: "erratum" });
    expect(row("schedule/A/p/k0=1/rctnys").reason).toContain("CTNYS + RCTNYS = 10214, not the family's Σ p = 10204");
    // Table 5, k0 = 1 and 2: RCTNYS printed equal to CTNYS (6947, 7135), docs/science.md §4.5's copy error.
    expect(row("schedule/A/density/k0=1/rctnys")).toMatchObject({ paper: 6947, corrected: 10204 - 6947, verdict: "erratum" });
    expect(row("schedule/A/density/k0=2/rctnys")).toMatchObject({ paper: 7135, corrected: 10204 - 7135, verdict: "erratum" });
    const rctnys = rows.filter((r) => r.id.startsWith("schedule/") && r.id.endsWith("/rctnys") && !r.id.includes("waves") && !r.id.includes("identical"));
    expect(rctnys).toHaveLength(18);
    expect(rctnys.filter((r) => r.verdict === "erratum")).toHaveLength(3);
  });

  it("keeps the printed share as the compared one, with the corrected share beside an erratum", () => {
    expect(row("schedule/A/density/k0=1/share")).toMatchObject({ printed: "0.5000", corrected: Math.round((6947 / 10204) * 1e4) / 1e4, verdict: "erratum" });
    expect(row("schedule/B/p/k0=1/share")).toMatchObject({ printed: (21633 / 29547).toFixed(4), corrected: null });
    expect(["close", "differs"]).toContain(row("schedule/B/p/k0=1/share").verdict);
  });

  it("cannot recompute the printed scheduling times, and says why", () => {
    expect(row("schedule/C/p/k0=2/scheduler-time")).toMatchObject({ paper: 269430, ours: null, verdict: "not recomputable" });
  });

  it("compares each instance's Σ p with the stated p law: B and C were not drawn from it", () => {
    // B: 50 draws from [300, 1800] have Σ p = 52500 ± 3064 (sd); the printed 29547 is 7.5 sd below.
    expect(row("schedule/B/total-p")).toMatchObject({ paper: 29547, ours: 52500, verdict: "differs" });
    expect(row("schedule/B/total-p").reason).toMatch(/^7\.5 sd/);
    expect(row("schedule/A/total-p")).toMatchObject({ paper: 10204, ours: 8250, verdict: "close" });
  });
});

describe("[BKT] §I against its Table I (RB11)", () => {
  it("median availability 0.72 h matches 'about 1 hour'; mean unavailability 3.93 h (μ as means) differs from 'about 4.5 hours'", () => {
    const [median, unavailability] = bktLawReproductionRows();
    // median of Weibull(0.431, 1.682 h) = 1.682 · (ln 2)^(1/0.431)
    expect(median!.ours).toBeCloseTo(1.682 * Math.log(2) ** (1 / 0.431), 3);
    expect(median!.verdict).toBe("match");
    expect(unavailability!).toMatchObject({ ours: 3.93, verdict: "differs" });
    // The paper against its own text: self-checks, not counted as reproduced results.
    expect(median!.selfCheck && unavailability!.selfCheck).toBe(true);
  });
});

describe("the per-paper summary", () => {
  it("counts each paper's rows by verdict and lists the open ones and what is not compared, with why", () => {
    const summary = reproductionSummary(rows);
    const y11 = summary.find((s) => s.paper === "[Y11]")!;
    const mine = rows.filter((r) => r.papers.includes("[Y11]"));
    expect(y11.findings).toBe(mine.filter((r) => !r.selfCheck).length);
    expect(y11.selfChecks).toBe(mine.filter((r) => r.selfCheck).length);
    expect(Object.values(y11.counts).reduce((a, b) => a + b, 0)).toBe(y11.findings);
    expect(Object.values(y11.selfCheckCounts).reduce((a, b) => a + b, 0)).toBe(y11.selfChecks);
    expect(y11.open.every((r) => r.verdict === "differs" || r.verdict === "erratum")).toBe(true);
    const thesis = summary.find((s) => s.paper === "[Y-thesis]")!;
    // Every table of the thesis is transcribed and compared; [BTW10] has nothing to recompute, [BKT]'s tables are settings.
    expect(thesis.notCompared).toEqual([]);
    expect(summary.find((s) => s.paper === "[BTW10]")!.notCompared[0]!.why).toMatch(/no worked example, no table and no numerical experiment/);
    expect(summary.find((s) => s.paper === "[BKT]")!.notCompared.map((n) => n.where)).toEqual(["Tables I and II"]);
    const page = reproductionMarkdown(rows, "a test");
    expect(page).toContain("| [Y11] | " + y11.findings + " | " + y11.counts.match + " | ");
    expect(page).toContain("`schedule/identical/400MB/ctnys` (erratum)");
  });

  it("docs/reproduction.md is what a default pipeline's rows say (regenerate it with `npm run docs`)", async () => {
    const committed = readFileSync(REPRODUCTION_DOC_PATH, "utf8");
    if (committed !== (await reproductionDoc())) expect.fail(`${REPRODUCTION_DOC_PATH} is out of date with the reproduction table: run \`npm run docs\` and commit it`);
  }, 120_000);
});
