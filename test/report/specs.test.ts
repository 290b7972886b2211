import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { buildReportContent } from "../../pipeline/report/page/report-content";
import { renderSvg } from "../../pipeline/report/render/render-svg";
import { checkVegaLiteSpec } from "../../pipeline/report/figures/validate-spec";
import { CATEGORY_PALETTE, FONT_FAMILY } from "../../pipeline/report/figures/theme";
import { builderFigures } from "./fixtures/builder-figures";

const figures = buildReportContent({ paperModel: PAPER_MODEL }).sections.flatMap((s) => s.figures);

describe("report figures", () => {
  it("has figures to check", () => {
    expect(figures.map((f) => f.id)).toEqual(["paper-model-surface", "paper-model-size-curves", "paper-model-datasets"]);
  });

  it.each(figures.map((f) => [f.id, f] as const))("%s is valid Vega-Lite v5 and compiles and renders without warnings", async (_id, figure) => {
    const validation = checkVegaLiteSpec(figure.spec);
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);
    const rendered = await renderSvg(figure.spec);
    expect(rendered.warnings).toEqual([]);
    // Every text is set in the embedded font, and the figure fits a paper column with its legends.
    expect(rendered.svg).toContain(`font-family="${FONT_FAMILY}"`);
    expect(rendered.width).toBeLessThanOrEqual(252); // 3.5 in = one column of a two-column paper, in pt
    expect(figure.caption.length).toBeGreaterThan(40);
  });

  it.each(builderFigures().map((f) => [f.id, f] as const))("builder %s gives a valid spec that renders without warnings", async (_id, figure) => {
    expect(checkVegaLiteSpec(figure.spec).errors).toEqual([]);
    const rendered = await renderSvg(figure.spec);
    expect(rendered.warnings).toEqual([]);
    expect(rendered.width).toBeLessThanOrEqual(520); // at most both columns (7.2 in)
  });

  it("uses the colour-blind-safe palette for categories", () => {
    const curves = figures.find((f) => f.id === "paper-model-size-curves")!;
    const text = JSON.stringify(curves.spec);
    expect(text).toContain(CATEGORY_PALETTE[0]);
    expect(text).toContain(CATEGORY_PALETTE[6]);
  });

  it("rejects an invalid spec with a message that points at the field", () => {
    const result = checkVegaLiteSpec({ data: { values: [] }, mark: "line", encoding: { x: { field: "m", type: "quantitive" } } });
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toMatch(/encoding\/x/);
  });

  it("labels every axis with its unit", () => {
    for (const figure of figures) {
      const titles = [...JSON.stringify(figure.spec).matchAll(/"title":"([^"]+)"/g)].map((m) => m[1]!);
      const axisTitles = titles.filter((t) => /bandwidth|checkpoints|size V|blocks/.test(t));
      expect(axisTitles.length).toBeGreaterThanOrEqual(2);
      for (const title of axisTitles) expect(title).toMatch(/\((MB\/s|count|GB|MB)\)$/);
    }
  });
});
