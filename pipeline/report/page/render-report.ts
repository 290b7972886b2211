/**
 * Report content → the files of `reports/`: for every figure its Vega-Lite spec (checked
 * against the schema first), SVG, PNG at 2× and PDF; for every table CSV and LaTeX; the
 * reproduction rows as JSON; and `index.html`. Returns the files as bytes (the caller
 * writes them), in a stable order, with no timestamp anywhere.
 */
import { reproductionMarkdown } from "../reproduction/reproduction-summary";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../shared/atomic-write";
import { sha256OfBytes } from "../../shared/hash";
import type { Figure } from "../figures/figure";
import type { ReportContent } from "./report-content";
import { reportHtml, type ReportPageInputs } from "./report-html";
import { paperTex } from "./paper-tex";
import { tablePageHtml } from "./table-page-html";
import { renderPdf } from "../render/render-pdf";
import { renderPng } from "../render/render-png";
import { naturalPaperWidth, renderAtPaperWidth } from "../render/fit-to-width";
import type { PaperWidth } from "../figures/theme";
import { tableToCsv } from "../tables/table-to-csv";
import { latexTableFiles } from "../tables/table-to-latex";
import { assertValidVegaLiteSpec } from "../figures/validate-spec";

export interface ReportFile {
  /** Relative to the report folder, with "/" separators. */
  path: string;
  content: Uint8Array | string;
  /** Holds measured durations, which differ between runs (see Stage.volatileOutputs). */
  volatile?: boolean;
}

export type ReportProvenance = Omit<ReportPageInputs, "content" | "runtime">;

export interface RenderReportOptions {
  /** Called after each figure with its id and the renderers' warnings (progress on long renders). */
  onFigure?: (id: string, index: number, total: number, warnings: string[]) => void;
  /**
   * Keep each figure's SVG, PNG and PDF in `dir`, keyed by the hash of its spec, title and
   * `salt` (the renderer's code): a figure whose spec did not change is not rendered again,
   * even by `--force`. Entries this run did not use are removed.
   */
  cache?: { dir: string; salt: string };
  /**
   * The paper width every figure is fitted to, axes and legends included: one column
   * (3.5 in), both (7.16 in), or "auto", each at the width its kind of chart was drawn for
   * (one chart a column, several panels both).
   */
  figureWidth?: FigureWidth;
}

export type FigureWidth = PaperWidth | "auto";

/** Vega's word for a scale whose data are empty: such a figure would be drawn on nothing. */
const EMPTY_DOMAIN = /Infinite extent/;

/**
 * Every file of the report, and the content as drawn: a figure whose rendering finds an
 * empty data domain (vega's "Infinite extent") is not written; its section says so instead.
 */
export async function renderReport(
  content: ReportContent,
  provenance: ReportProvenance,
  options: RenderReportOptions = {},
): Promise<{ files: ReportFile[]; content: ReportContent }> {
  const files: ReportFile[] = [];
  const figures = content.sections.flatMap((s) => s.figures);
  const tables = content.sections.flatMap((s) => s.tables);
  assertUniqueIds(figures.map((f) => f.id), "figure");
  assertUniqueIds(tables.map((t) => t.id), "table");
  const empty = new Set<string>();
  const cache = options.cache ? openFigureCache(options.cache.dir, options.cache.salt) : null;
  const fitted = new Map<string, Figure>();
  const paperWidths = new Map<string, PaperWidth>();
  for (const [index, figure] of figures.entries()) {
    const paperWidth = options.figureWidth === undefined || options.figureWidth === "auto" ? naturalPaperWidth(figure.spec) : options.figureWidth;
    paperWidths.set(figure.id, paperWidth);
    // Volatile figures draw measured times: new data every run, nothing to reuse.
    const rendered = cache && !figure.volatile ? await cache.render(figure, paperWidth) : await renderFigure(figure, paperWidth);
    if (rendered.warnings.some((warning) => EMPTY_DOMAIN.test(warning))) empty.add(figure.id);
    else files.push(...rendered.files);
    fitted.set(figure.id, { ...figure, spec: rendered.spec });
    options.onFigure?.(figure.id, index + 1, figures.length, rendered.warnings);
  }
  const drawn: ReportContent = {
    ...content,
    sections: content.sections.map((section) => ({
      ...section,
      // The page draws each figure's spec as fitted to its paper width, as its files are.
      figures: section.figures.filter((figure) => !empty.has(figure.id)).map((figure) => fitted.get(figure.id)!),
      notes: [
        ...section.notes,
        ...section.figures.filter((figure) => empty.has(figure.id)).map((figure) => `“${figure.title}” is not drawn: on these data one of its layers is empty.`),
      ],
    })),
  };
  cache?.prune();
  for (const table of tables) {
    files.push({ path: `tables/${table.id}.csv`, content: tableToCsv(table) }, ...latexTableFiles(table).map((tex) => ({ path: `tables/${tex.name}`, content: tex.content })));
  }
  for (const table of tables.filter((t) => t.page !== undefined)) files.push({ path: table.page!, content: tablePageHtml(table, content.title) });
  files.push({ path: "paper/figures-and-tables.tex", content: paperTex(drawn, paperWidths) });
  files.push({ path: "reproduction.json", content: `${JSON.stringify(content.reproduction, null, 2)}\n` });
  files.push({ path: "reproduction.md", content: reproductionMarkdown(content.reproduction, "this report's reproduction.json") });
  files.push({ path: "index.html", content: reportHtml({ content: drawn, runtime: loadRuntime(), ...provenance }) });
  return { files, content: drawn };
}

export interface RenderedFigure {
  files: ReportFile[];
  /** The spec as fitted to its paper width (the one its files show). */
  spec: Figure["spec"];
  warnings: string[];
}

/**
 * The four files of one figure fitted to a paper width (its spec checked against the
 * schema before and after fitting), and the renderers' warnings.
 */
export async function renderFigure(figure: Figure, paperWidth: PaperWidth = naturalPaperWidth(figure.spec)): Promise<RenderedFigure> {
  assertValidVegaLiteSpec(figure.spec, `figure "${figure.id}"`);
  const { spec, rendered } = await renderAtPaperWidth(figure.spec, paperWidth);
  assertValidVegaLiteSpec(spec, `figure "${figure.id}" at ${paperWidth} width`);
  const base = `figures/${figure.id}`;
  const volatile = figure.volatile ? { volatile: true } : {};
  const files: ReportFile[] = [
    { path: `${base}.vl.json`, content: `${JSON.stringify(spec, null, 2)}\n`, ...volatile },
    { path: `${base}.svg`, content: rendered.svg, ...volatile },
    { path: `${base}.png`, content: renderPng(rendered.svg, rendered.width), ...volatile },
    { path: `${base}.pdf`, content: await renderPdf(rendered.svg, rendered, { title: figure.title }), ...volatile },
  ];
  return { files, spec, warnings: rendered.warnings };
}

/** Rendered figures on disk by the hash of what determines their bytes. */
function openFigureCache(dir: string, salt: string) {
  const used = new Set<string>();
  const formats = ["svg", "png", "pdf"] as const;
  return {
    async render(figure: Figure, paperWidth: PaperWidth): Promise<RenderedFigure> {
      const key = sha256OfBytes(`${salt}\n${figure.id}\n${figure.title}\n${paperWidth}\n${JSON.stringify(figure.spec)}`);
      used.add(key);
      const meta = join(dir, `${key}.json`);
      const base = `figures/${figure.id}`;
      if (existsSync(meta)) {
        const { warnings, spec } = JSON.parse(readFileSync(meta, "utf8")) as { warnings: string[]; spec: Figure["spec"] };
        return {
          files: [
            { path: `${base}.vl.json`, content: `${JSON.stringify(spec, null, 2)}\n` },
            ...formats.map((format) => ({ path: `${base}.${format}`, content: readFileSync(join(dir, `${key}.${format}`)) })),
          ],
          spec,
          warnings,
        };
      }
      const rendered = await renderFigure(figure, paperWidth);
      for (const format of formats) writeFileAtomic(join(dir, `${key}.${format}`), rendered.files.find((f) => f.path === `${base}.${format}`)!.content);
      writeFileAtomic(meta, JSON.stringify({ id: figure.id, warnings: rendered.warnings, spec: rendered.spec }));
      return rendered;
    },
    prune(): void {
      if (!existsSync(dir)) return;
      for (const name of readdirSync(dir)) if (!used.has(name.split(".")[0]!)) rmSync(join(dir, name), { force: true });
    },
  };
}

function loadRuntime(): ReportPageInputs["runtime"] {
  return {
    vega: readFileSync(require.resolve("vega/build/vega.min.js"), "utf8"),
    vegaLite: readFileSync(require.resolve("vega-lite/build/vega-lite.min.js"), "utf8"),
  };
}

function assertUniqueIds(ids: string[], kind: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new Error(`two ${kind}s have the id "${id}"; ids name output files and must be unique`);
    if (!/^[a-z0-9][a-z0-9.-]*$/.test(id)) throw new Error(`${kind} id "${id}" must be kebab-case (a-z, 0-9, "-", ".")`);
    seen.add(id);
  }
}
