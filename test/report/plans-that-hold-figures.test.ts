/**
 * The report's plans-that-hold section, drawn from a schedule stage artifact: the band figure
 * and the replay figure are valid Vega-Lite that render without warnings (a band layer once
 * hid every legend), the table puts the mean and confident plans side by side with their miss
 * probabilities and replayed misses as the artifact gives them, and a report without the
 * artifact (the published model: null) has no such section.
 */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { plansThatHoldFigures } from "../../pipeline/report/figures/plans-that-hold-figures";
import { checkVegaLiteSpec } from "../../pipeline/report/figures/validate-spec";
import { buildReportContent } from "../../pipeline/report/page/report-content";
import { renderSvg } from "../../pipeline/report/render/render-svg";
import type { PlansThatHold } from "../../pipeline/schedule/plans-that-hold";

const band = (sizeMb: number, scale: number) => ({
  sizeMb,
  points: [1, 2, 4, 8].map((m) => ({ m, vGb: (m * sizeMb) / 1000, meanMbPerS: 10 * scale * Math.sqrt(m), lowerMbPerS: 9 * scale * Math.sqrt(m), upperMbPerS: 11 * scale * Math.sqrt(m) })),
});
const artifact: PlansThatHold = {
  schema: "ckpt-lab/plans-that-hold@1",
  level: 0.95,
  confidence: 0.95,
  band: [band(16, 1), band(64, 1.1), band(256, 1.2)],
  plans: {
    deadlineS: 10,
    apps: 8,
    mean: { plan: "mean", started: 7, plannedCtnysS: 8196, missProbability: 0.42 },
    confident: { plan: 0.95, started: 6, plannedCtnysS: 7532, missProbability: 0.05 },
    workGivenUpS: 664,
    workGivenUpShare: 664 / 8196,
  },
  replay: { folds: 3, mean: { plan: "mean", replays: 3, misses: 2, missRate: 2 / 3 }, confident: { plan: 0.95, replays: 3, misses: 0, missRate: 0 }, workGivenUpShare: 0.08, coverage: 0.9, heldOutRuns: 120 },
};

describe("plans-that-hold figures", () => {
  const drawn = plansThatHoldFigures(artifact, "model fitted to nfs");

  it.each(drawn.figures.map((f) => [f.id, f] as const))("%s is valid Vega-Lite and renders without warnings", async (_id, figure) => {
    expect(checkVegaLiteSpec(figure.spec).errors).toEqual([]);
    const rendered = await renderSvg(figure.spec);
    expect(rendered.warnings).toEqual([]);
  });

  it("draws the smallest and largest sizes' bands, and the table as the artifact gives it", () => {
    expect(drawn.figures.map((f) => f.id)).toEqual(["prediction-band", "replay-miss-rates"]);
    const bandValues = JSON.stringify(drawn.figures[0]!.spec);
    expect(bandValues).toContain("v = 16 MB");
    expect(bandValues).toContain("v = 256 MB");
    expect(bandValues).not.toContain("v = 64 MB");
    expect(drawn.tables[0]!.rows).toEqual([
      { plan: "mean plan", started: 7, planned: 8196, miss: 0.42, replayMisses: "2 of 3" },
      { plan: "confident plan (0.95)", started: 6, planned: 7532, miss: 0.05, replayMisses: "0 of 3" },
    ]);
    expect(drawn.notes[0]).toBe("The confidence gives up 664 s of the mean plan's 8196 s (8.1 %).");
  });

  it("says when nothing could be replayed, and a report without the artifact has no section", () => {
    const none = plansThatHoldFigures({ ...artifact, replay: { notApplicable: "no replay: some (m, v) cell was measured once" } }, "fitted model");
    expect(none.figures.map((f) => f.id)).toEqual(["prediction-band"]);
    expect(none.tables[0]!.rows.map((r) => r.replayMisses)).toEqual([null, null]);
    expect(none.notes).toContain("no replay: some (m, v) cell was measured once.");
    const sections = (plansThatHold: PlansThatHold | null) => buildReportContent({ paperModel: PAPER_MODEL, plansThatHold }).sections.map((s) => s.id);
    expect(sections(null)).not.toContain("plans-that-hold");
    expect(sections(artifact)).toContain("plans-that-hold");
  });
});
