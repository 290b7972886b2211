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
import { renderPdf } from "../render/render-pdf";
import { renderPng } from "../render/render-png";
import { renderSvg } from "../render/render-svg";
import { tableToCsv } from "../tables/table-to-csv";
import { tableToLatex } from "../tables/table-to-latex";
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
}

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
  for (const [index, figure] of figures.entries()) {
    // Volatile figures draw measured times: new data every run, nothing to reuse.
    const rendered = cache && !figure.volatile ? await cache.render(figure) : await renderFigure(figure);
    if (rendered.warnings.some((warning) => EMPTY_DOMAIN.test(warning))) empty.add(figure.id);
    else files.push(...rendered.files);
    options.onFigure?.(figure.id, index + 1, figures.length, rendered.warnings);
  }
  const drawn: ReportContent = {
    ...content,
    sections: content.sections.map((section) => ({
      ...section,
      figures: section.figures.filter((figure) => !empty.has(figure.id)),
      notes: [
        ...section.notes,
        ...section.figures.filter((figure) => empty.has(figure.id)).map((figure) => `“${figure.title}” is not drawn: on these data one of its layers is empty.`),
      ],
    })),
  };
  cache?.prune();
  for (const table of tables) {
    files.push({ path: `tables/${table.id}.csv`, content: tableToCsv(table) }, { path: `tables/${table.id}.tex`, content: tableToLatex(table) });
  }
  files.push({ path: "reproduction.json", content: `${JSON.stringify(content.reproduction, null, 2)}\n` });
  files.push({ path: "reproduction.md", content: reproductionMarkdown(content.reproduction, "this report's reproduction.json") });
  files.push({ path: "index.html", content: reportHtml({ content: drawn, runtime: loadRuntime(), ...provenance }) });
  return { files, content: drawn };
}

/** The four files of one figure (after checking its spec against the schema), and the renderers' warnings. */
export async function renderFigure(figure: Figure): Promise<{ files: ReportFile[]; warnings: string[] }> {
  assertValidVegaLiteSpec(figure.spec, `figure "${figure.id}"`);
  const rendered = await renderSvg(figure.spec);
  const base = `figures/${figure.id}`;
  const volatile = figure.volatile ? { volatile: true } : {};
  const files: ReportFile[] = [
    { path: `${base}.vl.json`, content: `${JSON.stringify(figure.spec, null, 2)}\n`, ...volatile },
    { path: `${base}.svg`, content: rendered.svg, ...volatile },
    { path: `${base}.png`, content: renderPng(rendered.svg, rendered.width), ...volatile },
    { path: `${base}.pdf`, content: await renderPdf(rendered.svg, rendered, { title: figure.title }), ...volatile },
  ];
  return { files, warnings: rendered.warnings };
}

/** Rendered figures on disk by the hash of what determines their bytes. */
function openFigureCache(dir: string, salt: string) {
  const used = new Set<string>();
  const formats = ["svg", "png", "pdf"] as const;
  return {
    async render(figure: Figure): Promise<{ files: ReportFile[]; warnings: string[] }> {
      const key = sha256OfBytes(`${salt}\n${figure.id}\n${figure.title}\n${JSON.stringify(figure.spec)}`);
      used.add(key);
      const meta = join(dir, `${key}.json`);
      const base = `figures/${figure.id}`;
      if (existsSync(meta)) {
        const { warnings } = JSON.parse(readFileSync(meta, "utf8")) as { warnings: string[] };
        return {
          files: [
            { path: `${base}.vl.json`, content: `${JSON.stringify(figure.spec, null, 2)}\n` },
            ...formats.map((format) => ({ path: `${base}.${format}`, content: readFileSync(join(dir, `${key}.${format}`)) })),
          ],
          warnings,
        };
      }
      const rendered = await renderFigure(figure);
      for (const format of formats) writeFileAtomic(join(dir, `${key}.${format}`), rendered.files.find((f) => f.path === `${base}.${format}`)!.content);
      writeFileAtomic(meta, JSON.stringify({ id: figure.id, warnings: rendered.warnings }));
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
