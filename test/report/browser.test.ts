/**
 * The default report as a reader and a paper use it: the page in headless Chromium on
 * file:// (no console error, no request leaving the page, every chart drawn), every figure's
 * drawn layout (figure-layout-check.ts), the figures' PDFs with their fonts embedded
 * (pdffonts), and `paper/figures-and-tables.tex` compiled by pdfLaTeX. Screenshots are kept
 * under test-results/screenshots/ (a CI artifact; tests never write into the user's reports/).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../../pipeline/run";
import { projectRoot } from "../../pipeline/shared/version";
import { checkPageFit, checkReportInBrowser } from "./browser-check";
import { checkFigureLayouts, formatProblems } from "./figure-layout-check";
import { compilePaper, figureFonts } from "./paper-check";

const out = mkdtempSync(join(tmpdir(), "ckpt-report-browser-"));
const screenshots = join(projectRoot(), "test-results", "screenshots");
let manifestPath = "";
beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  manifestPath = (await runPipeline({ out })).manifestPath;
}, 600_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the default report", () => {
  it("draws every figure offline in headless Chromium without console errors", async () => {
    // Figures of measured durations are shown as images (volatile): every other one is drawn by vega.
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { outputs: { path: string; volatile?: true }[] };
    const figureIds = manifest.outputs.filter((o) => o.path.endsWith(".vl.json") && !o.volatile);
    const check = await checkReportInBrowser(join(out, "index.html"), join(screenshots, "index.png"));
    expect(check.consoleErrors).toEqual([]);
    expect(check.allDone).toBe(true);
    expect(check.figures.length).toBe(figureIds.length);
    for (const figure of check.figures) {
      expect(figure, figure.id).toMatchObject({ rendered: true, error: false });
      expect(figure.svgElements, figure.id).toBeGreaterThan(20);
    }
  }, 600_000);

  it("lays out every figure cleanly: no text on text, nothing outside its box or cut by its frame, no axis of a non-negative quantity below 0", async () => {
    const check = await checkFigureLayouts(out);
    expect(check.figures.length).toBeGreaterThanOrEqual(30);
    expect(check.problems, formatProblems(check.problems)).toEqual([]);
    // Every figure is fitted to one column (3.5 in) or both (7.16 in), to within 3 pt.
    for (const figure of check.figures) expect([252, 515.52].some((w) => figure.width <= w && figure.width >= w - 3), `${figure.figure}: ${figure.width} pt`).toBe(true);
  }, 300_000);

  it("embeds the fonts of every figure's PDF", () => {
    const fonts = figureFonts(out);
    expect(new Set(fonts.map((f) => f.file)).size).toBeGreaterThanOrEqual(30);
    expect(fonts.filter((f) => !f.embedded)).toEqual([]);
    expect(fonts.every((f) => /DejaVuSans/.test(f.name))).toBe(true);
  });

  it("writes paper/figures-and-tables.tex, a two-column article with every table file in a float as it is, which pdfLaTeX compiles without an error", () => {
    const tex = readFileSync(join(out, "paper", "figures-and-tables.tex"), "utf8");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { outputs: { path: string }[] };
    expect(tex).toContain("\\documentclass[10pt,twocolumn]{article}");
    // Every figure included, every table file input inside a table or table* float of the article's own.
    for (const o of manifest.outputs.filter((x) => /^figures\/.*\.pdf$/.test(x.path))) expect(tex).toContain(`\\includegraphics{../${o.path}}`);
    const tableFiles = manifest.outputs.filter((x) => /^tables\/.*\.tex$/.test(x.path));
    expect(tableFiles.length).toBeGreaterThan(20);
    for (const o of tableFiles) {
      expect(tex).toMatch(new RegExp(`\\\\begin\\{(table\\*?)\\}\\[[a-z]+\\]\\n  \\\\centering\\n  \\\\small\\n  \\\\input\\{\\.\\./${o.path}\\}\\n  \\\\caption\\{[^\\n]*\\}\\n  \\\\label\\{[^}]*\\}\\n\\\\end\\{\\1\\}`));
      // The file itself: a tabular, no caption or longtable of its own (those stay in its comments).
      const code = readFileSync(join(out, o.path), "utf8").split("\n").filter((line) => !line.startsWith("%")).join("\n");
      expect(code, o.path).toMatch(/^\\begin\{tabularx?\}/);
      expect(code, o.path).not.toMatch(/\\caption|\\label|longtable/);
    }
    const run = compilePaper(out);
    expect(run.errors).toEqual([]);
    expect(run.status).toBe(0);
    expect(run.pages).toBeGreaterThan(10);
  }, 300_000);

  it("shows the reproduction as a summary per paper with its open questions, and every row on reproduction.html, which fits a 1400 px window", async () => {
    const html = readFileSync(join(out, "index.html"), "utf8");
    expect(html).toContain('id="table-reproduction-summary"');
    expect(html).toContain('<a href="reproduction.html">reproduction.html</a>');
    expect(html).toMatch(/<details class="list" open><summary>\[BKT\]: \d+ of \d+ findings open \(differs or erratum\), and \d+ of \d+ self-checks/);
    // The full table is no longer inline: its rows are on their own page.
    const rows = JSON.parse(readFileSync(join(out, "reproduction.json"), "utf8")) as unknown[];
    const page = readFileSync(join(out, "reproduction.html"), "utf8");
    expect(page.match(/<tr>/g)!.length).toBe(rows.length + 1);
    const fit = await checkPageFit(join(out, "reproduction.html"), 1400, screenshots, "reproduction");
    expect(fit.scrollWidth).toBeLessThanOrEqual(1400);
  }, 600_000);
});
