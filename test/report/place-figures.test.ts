import { describe, expect, it } from "vitest";
import { createLaw, parseLawString, placeJob, POLICY_NAMES } from "../../pipeline/place";
import { placeFigures } from "../../pipeline/report/figures/place-figures";
import type { ScenarioPlacement } from "../../pipeline/place/scenario-placement";
import { dalyReproductionRows } from "../../pipeline/reproduce/daly-rows";
import { checkVegaLiteSpec } from "../../pipeline/report/figures/validate-spec";
import { buildReportContent } from "../../pipeline/report/page/report-content";
import { PAPER_MODEL } from "../../pipeline/fit/model";

const job = { slicesSeconds: [3600, 7200, 1800, 3600], costsSeconds: [60, 120, 60, 60] };
const law = createLaw(parseLawString("weibull:shape=0.431,scale=1.682,unit=h").spec);
const scenario: ScenarioPlacement = {
  name: "small",
  scenario: { description: "a 4-slice job", slices: "job.csv", law: "weibull:shape=0.431,scale=1.682,unit=h", objective: "paper", nodes: 1, latencySeconds: 0 },
  costSource: "costs from job.csv",
  placement: placeJob(job, law, { policies: POLICY_NAMES, alpha: 1, beta: 0, objective: "paper", quantumSeconds: 60, simulate: { runs: 2000, seed: 1 } }),
};

describe("place figures", () => {
  const { figures, tables } = placeFigures([scenario]);

  it("draws each scenario's time line and waste, as valid Vega-Lite", () => {
    expect(figures.map((f) => f.id)).toEqual(["place-small-timeline", "place-small-waste"]);
    for (const figure of figures) expect(checkVegaLiteSpec(figure.spec).errors).toEqual([]);
    const timeline = JSON.stringify(figures[0]!.spec);
    // Every checkpoint of the DP's schedule is on its row.
    for (const slice of scenario.placement.policies[0]!.checkpoints) expect(timeline).toContain(`"kind":"checkpoint","slice":${slice}`);
  });

  it("tabulates every policy under both objectives, saying whether the Monte Carlo interval covers the analytic value", () => {
    const rows = tables[0]!.rows;
    expect(rows).toHaveLength(scenario.placement.wasteTable.length);
    for (const row of rows) {
      const covered = (row.low as number) <= (row.analytic as number) && (row.analytic as number) <= (row.high as number);
      expect(row.covered).toBe(covered ? "yes" : "no");
    }
  });
});

describe("the report's summary of a placement", () => {
  it("names the failure law with a unit on every time (scale=1.682,unit=h, not scale=6055.2)", () => {
    const item = buildReportContent({ paperModel: PAPER_MODEL, placements: [scenario] }).summary.find((i) => i.label === "DP placer (small)")!;
    expect(item.text).toMatch(/; paper objective, law weibull:shape=0\.431,scale=1\.682,unit=h; checkpoint costs from /);
  });
});

describe("Daly's periods", () => {
  it("match the values printed in Daly's paper (117, 57, 9.1 min) at their printed precision", () => {
    const rows = dalyReproductionRows();
    expect(rows.map((r) => r.paper)).toEqual([117, 57, 9.1]);
    for (const row of rows) expect(row.verdict).toBe("match");
    // Daly's higher-order formula by hand for M = 24 h, C = 5 min: √(2CM)(1 + ⅓√(C/2M) + ⅑ C/2M) − C.
    const c = 300;
    const m = 86400;
    const ratio = c / (2 * m);
    expect(rows[0]!.ours).toBeCloseTo((Math.sqrt(2 * c * m) * (1 + Math.sqrt(ratio) / 3 + ratio / 9) - c) / 60, 3);
  });
});
