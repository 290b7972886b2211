/**
 * The report as one self-contained HTML page (`reports/index.html`): it works offline and
 * from file:// because the vega and vega-lite runtimes are inlined (no CDN), and each
 * figure's Vega-Lite spec is embedded as JSON and rendered in the page with vega's View
 * API (SVG renderer, tooltips on hover, drag/wheel zoom where the spec binds its scales).
 * The static SVG/PNG/PDF files sit next to it and are linked from each figure; without
 * JavaScript the page shows the SVG.
 *
 * vega-embed is not used (it is not a dependency): the ~40 lines of the page's script do
 * the part of it we need, with a small tooltip of their own.
 */
import type { Figure } from "../figures/figure";
import type { ReportContent, ReportSection, SummaryItem } from "./report-content";
import type { Table } from "../tables/table";
import { CHART_SIZES, MIN_DISPLAY_WIDTH_PX } from "../figures/theme";
import { escapeHtml, tableToHtml } from "../tables/table-to-html";
import { latexTableFiles } from "../tables/table-to-latex";

export interface ReportPageInputs {
  content: ReportContent;
  /** Minified runtimes, inlined as they are. */
  runtime: { vega: string; vegaLite: string };
  /** Inputs of the run (artifact or file name → sha256), shown in the provenance section. */
  inputs: { name: string; sha256: string; volatile?: true }[];
  /** The parameters of the run, shown as JSON. */
  parameters: unknown;
  toolVersion: string;
  /** Stages the report was built from, in data-flow order. */
  stages: string[];
}

export function reportHtml(page: ReportPageInputs): string {
  const { content } = page;
  const nav = content.sections.map((s) => `<a href="#${attr(s.id)}">${text(s.title)}</a>`).join(" · ");
  return [
    ...pageHead(content.title, STYLE),
    "<body>",
    "<header>",
    `<h1>${text(content.title)}</h1>`,
    `<p class="meta">ckpt-lab ${text(page.toolVersion)} · stages: ${text(page.stages.join(" → "))} · every file listed with its hash in <a href="manifest.json">manifest.json</a></p>`,
    `<nav><a href="#summary">Summary</a> · ${nav} · <a href="#provenance">Provenance</a></nav>`,
    "</header>",
    "<main>",
    summaryHtml(content.summary),
    ...content.sections.map(sectionHtml),
    provenanceHtml(page),
    "</main>",
    '<div id="tooltip" role="tooltip" hidden></div>',
    `<script>${inlineScript(page.runtime.vega)}</script>`,
    `<script>${inlineScript(page.runtime.vegaLite)}</script>`,
    `<script>${PAGE_SCRIPT}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** The start of a page of the report, up to its <body>: its title and style. */
export function pageHead(title: string, style: string): string[] {
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${text(title)}</title>`,
    `<style>${style}</style>`,
    "</head>",
  ];
}

function summaryHtml(items: readonly SummaryItem[]): string {
  return [
    '<section id="summary">',
    "<h2>Summary</h2>",
    `<dl class="summary">${items.map((item) => `<dt>${text(item.label)}</dt><dd>${text(item.text)}</dd>`).join("\n")}</dl>`,
    "</section>",
  ].join("\n");
}

function sectionHtml(section: ReportSection): string {
  return [
    `<section id="${attr(section.id)}">`,
    `<h2>${text(section.title)}</h2>`,
    `<p>${text(section.intro)}</p>`,
    ...section.notes.map((note) => `<p class="note">${text(note)}</p>`),
    section.figures.length > 0 ? `<div class="figures">${section.figures.map(figureHtml).join("\n")}</div>` : "",
    ...section.tables.map(tableHtml),
    ...(section.lists ?? []).map(
      (list) => `<details class="list" open><summary>${text(list.heading)}</summary><ul>${list.items.map((item) => `<li>${text(item)}</li>`).join("\n")}</ul></details>`,
    ),
    "</section>",
  ].join("\n");
}

function figureHtml(figure: Figure): string {
  const base = `figures/${figure.id}`;
  if (figure.volatile) {
    // Measured durations change from run to run: the page links the figure's files instead
    // of embedding its data, so that the page itself stays byte-identical.
    return [
      `<figure id="figure-${attr(figure.id)}" class="static-figure">`,
      `<div class="chart"><img src="${attr(base)}.svg" alt="${attr(figure.title)}"></div>`,
      `<figcaption><strong>${text(figure.title)}.</strong> ${text(figure.caption)}`,
      `<span class="files"><a href="${attr(base)}.svg">SVG</a> <a href="${attr(base)}.png">PNG</a> <a href="${attr(base)}.pdf">PDF</a> <a href="${attr(base)}.vl.json">Vega-Lite</a></span></figcaption>`,
      "</figure>",
    ].join("\n");
  }
  return [
    `<figure id="figure-${attr(figure.id)}" class="chart-figure${isWide(figure) ? " wide" : ""}" data-spec="spec-${attr(figure.id)}">`,
    `<div class="chart" aria-label="${attr(figure.title)}"><noscript><img src="${attr(base)}.svg" alt="${attr(figure.title)}"></noscript></div>`,
    `<figcaption><strong>${text(figure.title)}.</strong> ${text(figure.caption)}`,
    `<span class="files"><a href="${attr(base)}.svg">SVG</a> <a href="${attr(base)}.png">PNG</a> <a href="${attr(base)}.pdf">PDF</a> <a href="${attr(base)}.vl.json">Vega-Lite</a></span></figcaption>`,
    `<script type="application/json" id="spec-${attr(figure.id)}">${jsonInScript(figure.spec)}</script>`,
    "</figure>",
  ].join("\n");
}

/** Figures spanning both paper columns (fitted to a page's width, or facets and side by side) take a whole row of the grid. */
function isWide(figure: Figure): boolean {
  const spec = figure.spec as { width?: unknown; facet?: unknown; hconcat?: unknown; usermeta?: { paperWidth?: string } };
  if (spec.usermeta?.paperWidth !== undefined) return spec.usermeta.paperWidth === "page";
  return spec.facet !== undefined || spec.hconcat !== undefined || (typeof spec.width === "number" && spec.width > CHART_SIZES.column.width);
}

/** Links to a table's CSV and LaTeX (a table in parts: a link per part). */
export function tableFileLinks(table: Table): string {
  const latex = latexTableFiles(table).map((f) => f.name);
  const names = latex.length === 1 ? [["LaTeX", latex[0]!]] : latex.map((name, i) => [i === 0 ? `LaTeX part ${i + 1}` : `${i + 1}`, name]);
  return `<span class="files"><a href="tables/${attr(table.id)}.csv">CSV</a> ${names.map(([label, name]) => `<a href="tables/${attr(name!)}">${text(label!)}</a>`).join(" ")}</span>`;
}

function tableHtml(table: Table): string {
  if (table.page !== undefined) {
    return [
      `<div class="table" id="table-${attr(table.id)}">`,
      `<h3>${text(table.title)}</h3>`,
      `<p class="caption">On a page of its own, every row with its cells wrapped: <a href="${attr(table.page)}">${text(table.page)}</a> (${table.rows.length} rows). ` +
        `${tableFileLinks(table)}</p>`,
      "</div>",
    ].join("\n");
  }
  return [
    `<div class="table" id="table-${attr(table.id)}">`,
    `<h3>${text(table.title)}</h3>`,
    `<p class="caption">${text(table.caption)} ${tableFileLinks(table)}</p>`,
    `<div class="scroll">${tableToHtml(table)}</div>`,
    "</div>",
  ].join("\n");
}

function provenanceHtml(page: ReportPageInputs): string {
  const rows = page.inputs
    .map((i) => `<tr><td>${text(i.name)}</td><td class="hash">${i.volatile ? "measured durations: differs from run to run" : text(i.sha256)}</td></tr>`)
    .join("\n");
  return [
    '<section id="provenance">',
    "<h2>Provenance</h2>",
    "<p>The inputs this report was built from, by content hash, and the parameters of the run. Same inputs and parameters give the same bytes.</p>",
    `<div class="scroll"><table><thead><tr><th>input</th><th>sha256</th></tr></thead><tbody>${rows}</tbody></table></div>`,
    `<pre>${text(JSON.stringify(page.parameters, null, 2))}</pre>`,
    "</section>",
  ].join("\n");
}

const text = escapeHtml;
const attr = escapeHtml;

/**
 * JSON inside <script>: every `<`, `>` and `&` as a \u escape, so no `</script`, `<!--` or
 * `<script` from the data can end the element or change how the parser reads it, and the
 * line separators U+2028/2029 escaped too. JSON.parse reads the escapes back unchanged.
 */
export function jsonInScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A library inlined in <script>: without its source-map comment (there is no map next to the page). */
function inlineScript(source: string): string {
  return source.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, "").replace(/<\/script/gi, "<\\/script");
}

const STYLE = `
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, sans-serif; font-size: 14px; line-height: 1.45; color: #111; margin: 0; background: #fafafa; }
header, main { max-width: 1180px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 12px; }
h1 { font-size: 22px; margin: 8px 0; }
h2 { font-size: 18px; border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 28px; }
h3 { font-size: 15px; margin: 18px 0 4px; }
.meta, .caption, figcaption { color: #333; font-size: 12.5px; }
nav { font-size: 13px; margin-bottom: 8px; }
a { color: #0057a0; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px; align-items: start; }
figure { background: white; border: 1px solid #ddd; border-radius: 4px; margin: 0; padding: 12px; }
figure.wide { grid-column: 1 / -1; }
/* Specs are sized for a paper column (≈ 260 pt); on the page they are scaled to the card, at least 480 px wide. */
.chart { min-height: 120px; overflow-x: auto; }
.chart svg, .chart img { display: block; width: 100%; min-width: ${MIN_DISPLAY_WIDTH_PX}px; height: auto; }
figure.wide .chart svg, figure.wide .chart img { max-width: 960px; }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; background: white; border: 1px solid #ddd; border-radius: 4px; padding: 12px 16px; margin: 0; }
dl.summary dt { font-weight: bold; }
dl.summary dd { margin: 0; }
p.note { background: #fff8e1; border-left: 4px solid #e0a800; padding: 6px 10px; font-size: 13px; }
.chart .error { color: #b00020; white-space: pre-wrap; font-size: 12px; }
.files a { margin-left: 6px; font-size: 12px; }
.scroll { overflow-x: auto; background: white; border: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 12.5px; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
th { background: #f1f1f1; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.hash { font-family: "DejaVu Sans Mono", monospace; font-size: 11px; }
td.verdict { font-weight: bold; white-space: nowrap; }
td.verdict.match { color: #006644; }
td.verdict.close { color: #3d7a00; }
td.verdict.differs { color: #b34700; }
td.verdict.erratum { color: #7a3d99; }
td.verdict.not-recomputable { color: #555; }
details.list { margin: 10px 0; background: white; border: 1px solid #ddd; border-radius: 4px; padding: 6px 12px; }
details.list summary { font-weight: bold; cursor: pointer; }
details.list li { margin: 3px 0; font-size: 13px; }
pre { background: white; border: 1px solid #ddd; padding: 8px; font-size: 12px; overflow-x: auto; }
#tooltip { position: fixed; z-index: 10; pointer-events: none; background: rgba(255,255,255,0.96); border: 1px solid #999; border-radius: 3px; padding: 4px 6px; font-size: 12px; box-shadow: 0 1px 4px rgba(0,0,0,0.2); }
#tooltip th { background: none; padding: 0 8px 0 0; border: 0; color: #555; font-weight: normal; }
#tooltip td { padding: 0; border: 0; }
`;

/** Renders every [data-spec] figure with vega's View; reports failures in the page and the console. */
const PAGE_SCRIPT = `
(function () {
  "use strict";
  var tip = document.getElementById("tooltip");
  function escapeHtml(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function tooltip(handler, event, item, value) {
    if (value == null || value === "") { tip.hidden = true; return; }
    var rows = typeof value === "object"
      ? Object.keys(value).map(function (k) { return "<tr><th>" + escapeHtml(k) + "</th><td>" + escapeHtml(value[k]) + "</td></tr>"; }).join("")
      : "<tr><td>" + escapeHtml(value) + "</td></tr>";
    tip.innerHTML = "<table>" + rows + "</table>";
    tip.hidden = false;
    var x = event.clientX + 14, y = event.clientY + 14, w = tip.offsetWidth, h = tip.offsetHeight;
    tip.style.left = Math.min(x, window.innerWidth - w - 4) + "px";
    tip.style.top = (y + h > window.innerHeight ? event.clientY - h - 8 : y) + "px";
  }
  var figures = document.querySelectorAll("[data-spec]");
  var pending = figures.length;
  function done() { pending -= 1; if (pending === 0) document.body.setAttribute("data-charts-rendered", "true"); }
  Array.prototype.forEach.call(figures, function (figure) {
    var container = figure.querySelector(".chart");
    function fail(error) {
      console.error("figure " + figure.id + ": " + (error && error.stack || error));
      container.innerHTML = '<p class="error">This figure could not be drawn: ' + escapeHtml(error && error.message || error) + "</p>";
      figure.setAttribute("data-render-error", "true");
      done();
    }
    try {
      var spec = JSON.parse(document.getElementById(figure.getAttribute("data-spec")).textContent);
      var view = new vega.View(vega.parse(vegaLite.compile(spec).spec), {
        renderer: "svg", container: container, hover: true, tooltip: tooltip, logLevel: vega.Warn
      });
      view.runAsync().then(function () { figure.setAttribute("data-rendered", "true"); done(); }, fail);
    } catch (error) { fail(error); }
  });
  if (figures.length === 0) document.body.setAttribute("data-charts-rendered", "true");
})();
`;
