import * as fontkit from "fontkit";
import * as vega from "vega";
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { fontFiles } from "../../pipeline/report/render/fonts";
import { modelFigures } from "../../pipeline/report/figures/model-figures";
import { renderPdf } from "../../pipeline/report/render/render-pdf";
import { renderPng } from "../../pipeline/report/render/render-png";
import { renderSvg } from "../../pipeline/report/render/render-svg";
import { installTextMetrics, textWidth } from "../../pipeline/report/render/text-metrics";
import { naturalPaperWidth, renderAtPaperWidth, wrapText } from "../../pipeline/report/render/fit-to-width";
import { PAPER_WIDTH_PT } from "../../pipeline/report/figures/theme";
import { builderFigures } from "./fixtures/builder-figures";
import { expectClose } from "../helpers";

const figure = modelFigures(PAPER_MODEL, { idPrefix: "t", modelLabel: "published model" })[2]!;

describe("rendering", () => {
  it("measures text with the font's advance widths instead of vega's 0.8·size·length estimate", () => {
    installTextMetrics();
    const font = fontkit.openSync(fontFiles().regular) as fontkit.Font;
    const bold = fontkit.openSync(fontFiles().bold) as fontkit.Font;
    const measure = (vega as unknown as { textMetrics: { width(item: object, text: string): number } }).textMetrics.width;
    // Reference: fontkit's shaped advance width of the same string, scaled to 10 px.
    expectClose(measure({ fontSize: 10 }, "bandwidth (MB/s)"), (font.layout("bandwidth (MB/s)").advanceWidth / font.unitsPerEm) * 10, 1e-12);
    expectClose(measure({ fontSize: 10, fontWeight: "bold" }, "Peaks"), (bold.layout("Peaks").advanceWidth / bold.unitsPerEm) * 10, 1e-12);
    expect(measure({ fontSize: 10, fontWeight: "bold" }, "Peaks")).toBeGreaterThan(measure({ fontSize: 10 }, "Peaks"));
    // "iiii" is much narrower than the estimate, "MMMM" wider: the estimate would misplace both.
    expect(measure({ fontSize: 10 }, "iiii")).toBeLessThan(0.8 * 10 * 4 * 0.5);
    expect(measure({ fontSize: 10 }, "MMMM")).toBeGreaterThan(0.8 * 10 * 4);
  });

  it("gives the same SVG, PNG and PDF bytes on every render", async () => {
    const a = await renderSvg(figure.spec);
    const b = await renderSvg(figure.spec);
    expect(b.svg).toBe(a.svg);
    expect(Buffer.compare(renderPng(a.svg, a.width), renderPng(b.svg, b.width))).toBe(0);
    expect(Buffer.compare(await renderPdf(a.svg, a), await renderPdf(b.svg, b))).toBe(0);
  });

  it("renders the PNG at twice its display width, which is at least 480 px", async () => {
    const { svg, width, height } = await renderSvg(figure.spec);
    expect(width).toBeLessThan(480); // a paper-column figure, shown scaled up to 480 px
    const png = renderPng(svg, width);
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    // IHDR: width and height, big-endian, at bytes 16 and 20; the aspect ratio kept.
    expect(png.readUInt32BE(16)).toBe(960);
    expect(png.readUInt32BE(20)).toBe(Math.round((height * 960) / width));
    // A figure wider than 480 px keeps its own width, at 2×.
    const wide = await renderSvg({ ...figure.spec, width: 600 } as typeof figure.spec);
    expect(renderPng(wide.svg, wide.width).readUInt32BE(16)).toBe(Math.round(2 * wide.width));
  });

  it("writes a PDF page the size of the figure with DejaVu Sans embedded and no creation time", async () => {
    const rendered = await renderSvg(figure.spec);
    const pdf = (await renderPdf(rendered.svg, rendered)).toString("latin1");
    expect(pdf.startsWith("%PDF-")).toBe(true);
    expect(pdf).toMatch(new RegExp(`/MediaBox \\[0 0 ${rendered.width} ${rendered.height}\\]`));
    expect(pdf).toMatch(/\/FontName \/[A-Z]{6}\+DejaVuSans\b/);
    expect(pdf).toMatch(/\/FontFile2/);
    expect(pdf).not.toMatch(/\/BaseFont \/Helvetica/);
    expect(pdf).toContain("(D:19700101000000Z)");
  });

  it("scales the PDF page to a requested width, keeping the aspect ratio", async () => {
    const rendered = await renderSvg(figure.spec);
    const pdf = (await renderPdf(rendered.svg, rendered, { widthPt: 2 * rendered.width })).toString("latin1");
    expect(pdf).toMatch(new RegExp(`/MediaBox \\[0 0 ${2 * rendered.width} ${2 * rendered.height}\\]`));
  });

  it("fits a figure to a paper column (3.5 in) or both (7.16 in), axes and legends included, to within 3 pt", async () => {
    for (const built of [figure, ...builderFigures().filter((f) => ["share", "waste", "gantt"].includes(f.id))]) {
      for (const width of ["column", "page"] as const) {
        const { spec, rendered } = await renderAtPaperWidth(built.spec, width);
        expect(rendered.width, `${built.id} at ${width}`).toBeLessThanOrEqual(PAPER_WIDTH_PT[width]);
        expect(rendered.width, `${built.id} at ${width}`).toBeGreaterThanOrEqual(PAPER_WIDTH_PT[width] - 3);
        expect(rendered.warnings).toEqual([]);
        expect((spec as { usermeta?: { paperWidthPt?: number } }).usermeta?.paperWidthPt).toBe(PAPER_WIDTH_PT[width]);
      }
    }
    expect(naturalPaperWidth(figure.spec)).toBe("column");
    expect(naturalPaperWidth(builderFigures().find((f) => f.id === "share")!.spec)).toBe("page");
  }, 120_000);

  it("breaks text into lines no wider than asked, at spaces, a long word on a line of its own", () => {
    const lines = wrapText("complete objective (docs/science.md §5.3)", 80, 8);
    expect(lines.join(" ")).toBe("complete objective (docs/science.md §5.3)");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line, 8) <= 80 || !line.includes(" ")).toBe(true);
    expect(wrapText("short", 80, 8)).toEqual(["short"]);
  });
});
