/**
 * The figure layout check (figure-layout-check.ts) on reports of clusters unlike Azur — the
 * seeded `collapse` and `saturate` shapes of `ckpt synth`, one report fitted to a paper
 * page, one to a paper column — and on figures made to fail it, so that the check is seen
 * to find each defect it is for. The column report is also read in a 1400 px window: the
 * summary, a figure per section, the model cards and the reproduction's summary fit
 * without scrolling sideways, and pdfLaTeX compiles its paper/figures-and-tables.tex.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TopLevelSpec } from "vega-lite";
import { afterAll, describe, expect, it } from "vitest";
import { syntheticClusterCsv, type ClusterShapeName } from "../../pipeline/ingest/synthetic-cluster";
import { renderSvg } from "../../pipeline/report/render/render-svg";
import { chartFrame, themeFrame } from "../../pipeline/report/figures/chart-frame";
import { projectRoot } from "../../pipeline/shared/version";
import { runCli } from "../cli-io";
import { checkPageFit } from "./browser-check";
import { checkFigureLayouts, formatProblems, type LayoutProblemKind } from "./figure-layout-check";
import { compilePaper } from "./paper-check";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

async function clusterReport(shape: ClusterShapeName, figureWidth: "column" | "page"): Promise<string> {
  const dir = tempDir(`ckpt-layout-${shape}-`);
  const trace = join(dir, `${shape}.csv`);
  writeFileSync(trace, syntheticClusterCsv({ shape, seed: 1, repetitions: 4 }));
  const out = join(dir, "report");
  const run = await runCli(["pipeline", "--traces", trace, "--cluster", `${shape}-cluster`, "--out", out, "--param", "schedule.model=fitted", "--param", "place.simulations=2000", "--param", `report.figureWidth=${figureWidth}`]);
  expect(run.code, run.stderr).toBe(0);
  return out;
}

describe("figures of generated clusters, in Chromium", () => {
  it("a small NFS that collapses (ckpt synth --shape collapse), every figure at a page's width: no layout problem", async () => {
    const out = await clusterReport("collapse", "page");
    const check = await checkFigureLayouts(out);
    // A cluster's report: its measured curves, its model, Azur once, ScheduleCkpt, the DP placer, the servers compared.
    expect(check.figures.length).toBeGreaterThanOrEqual(18);
    expect(check.problems, formatProblems(check.problems)).toEqual([]);
    for (const figure of check.figures) expect(figure.width, figure.figure).toBeGreaterThanOrEqual(515.52 - 3);
  }, 600_000);

  it("a parallel file system that saturates (--shape saturate), every figure at a column's width: no layout problem; the page fits 1400 px; its LaTeX compiles", async () => {
    const out = await clusterReport("saturate", "column");
    const check = await checkFigureLayouts(out);
    expect(check.problems, formatProblems(check.problems)).toEqual([]);
    for (const figure of check.figures) expect(figure.width, figure.figure).toBeLessThanOrEqual(252);
    const screenshots = join(projectRoot(), "test-results", "screenshots");
    mkdirSync(screenshots, { recursive: true });
    const fit = await checkPageFit(join(out, "index.html"), 1400, screenshots, "column");
    // A cluster's report (no --with reproduction): its own model card; the reproduction summary is the default report's (browser.test.ts).
    expect(fit.parts).toEqual(expect.arrayContaining(["summary", "model card table-fitted-model-card"]));
    expect(fit.parts.filter((p) => p.startsWith("figure ")).length).toBeGreaterThanOrEqual(5);
    expect(fit.overflowing).toEqual([]);
    expect(fit.scrollWidth).toBeLessThanOrEqual(1400);
    const latex = compilePaper(out);
    expect(latex.errors).toEqual([]);
    expect(latex.status).toBe(0);
  }, 600_000);
});

describe("the layout check finds what it is for", () => {
  /** Render specs as a report's figures/ folder would hold them. */
  async function figuresOf(specs: Record<string, object>): Promise<string> {
    const dir = tempDir("ckpt-layout-defects-");
    mkdirSync(join(dir, "figures"));
    for (const [id, spec] of Object.entries(specs)) {
      writeFileSync(join(dir, "figures", `${id}.svg`), (await renderSvg(spec as TopLevelSpec)).svg);
      writeFileSync(join(dir, "figures", `${id}.vl.json`), JSON.stringify(spec));
    }
    return dir;
  }
  const frame = chartFrame("column");
  const points = [{ x: 0, y: 5, low: -3, high: 13, c: "a" }, { x: 10, y: 8, low: 2, high: 14, c: "b" }];

  it("reports each defect of figures drawn wrong, by kind", async () => {
    const dir = await figuresOf({
      // Two long facet headers over narrow panels (the place-*-waste defect).
      headers: {
        ...themeFrame(),
        data: { values: points.map((p, i) => ({ ...p, panel: `a long facet header number ${i} that runs over` })) },
        facet: { column: { field: "panel", title: null } },
        spec: { width: 60, height: 60, mark: "point", encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } } },
      },
      // An interval below zero on a non-negative axis (the [BKT] makespan defect), and marks cut by the frame.
      negative: {
        ...frame,
        data: { values: points },
        layer: [
          { mark: "rule", encoding: { x: { field: "x", type: "quantitative", scale: { domain: [0, 10], nice: false } }, y: { field: "low", type: "quantitative", title: "makespan (h)" }, y2: { field: "high" } } },
          { mark: { type: "point", clip: true, size: 80 }, encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } } },
        ],
      },
      // 7 pt text, and a legend whose entries differ only by colours of the same grey.
      small: {
        ...frame,
        data: { values: points },
        mark: { type: "point", filled: true },
        encoding: {
          x: { field: "x", type: "quantitative", axis: { labelFontSize: 7 } },
          y: { field: "y", type: "quantitative" },
          color: { field: "c", type: "nominal", scale: { range: ["#0072B2", "#D55E00"] } },
        },
      },
      // Two tick labels side by side without a gap (the "160180" of the schedule's Gantt chart):
      // 8 pt digits are 5.1 pt wide, so labels 16 pt apart (1 pt per unit) leave 0.7 pt between them.
      touching: {
        ...frame,
        width: 200,
        data: { values: points },
        mark: "point",
        encoding: { x: { field: "x", type: "quantitative", scale: { domain: [0, 200], nice: false }, axis: { values: [0, 100, 150, 166] } }, y: { field: "y", type: "quantitative" } },
      },
      // Wider than the paper column it says it was fitted to.
      wide: { ...frame, width: 400, usermeta: { paperWidthPt: 252 }, data: { values: points }, mark: "point", encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } } },
    });
    const check = await checkFigureLayouts(dir);
    const kinds = (figure: string) => new Set(check.problems.filter((p) => p.figure === `figures/${figure}.svg`).map((p) => p.kind));
    expect(kinds("headers")).toEqual(new Set<LayoutProblemKind>(["text-overlap"]));
    expect(kinds("negative")).toEqual(new Set<LayoutProblemKind>(["below-zero", "crosses-frame"]));
    expect(kinds("small")).toEqual(new Set<LayoutProblemKind>(["small-text", "greyscale"]));
    expect(kinds("wide")).toEqual(new Set<LayoutProblemKind>(["wider-than-paper"]));
    expect(kinds("touching")).toEqual(new Set<LayoutProblemKind>(["text-touch"]));
  }, 300_000);

  it("accepts a signed axis its spec declares, and the same figures drawn right", async () => {
    const dir = await figuresOf({
      signed: { ...frame, usermeta: { signedAxes: ["y"] }, data: { values: points }, mark: "rule", encoding: { x: { field: "x", type: "quantitative" }, y: { field: "low", type: "quantitative", title: "residual (MB/s)" }, y2: { field: "high" } } },
      shapes: {
        ...frame,
        data: { values: points },
        mark: { type: "point", filled: true },
        encoding: {
          x: { field: "x", type: "quantitative", scale: { domain: [0, 11] } },
          y: { field: "y", type: "quantitative", scale: { domain: [0, 10] } },
          color: { field: "c", type: "nominal", scale: { range: ["#0072B2", "#D55E00"] } },
          shape: { field: "c", type: "nominal", scale: { range: ["circle", "square"] } },
        },
      },
    });
    const check = await checkFigureLayouts(dir);
    expect(check.problems, formatProblems(check.problems)).toEqual([]);
  }, 300_000);
});
