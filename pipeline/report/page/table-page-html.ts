/**
 * A table on a page of its own (e.g. `reproduction.html`, next to `index.html`): for a
 * table too long and too wide to read inside the report. Its cells wrap — the page's width
 * is shared among the columns in proportion to how much text they hold — so that it reads
 * in a window without scrolling sideways. Static HTML, no script, works from file://.
 */
import type { Table } from "../tables/table";
import { columnHeader, formatCell } from "../tables/table";
import { escapeHtml, tableToHtml } from "../tables/table-to-html";
import { pageHead, tableFileLinks } from "./report-html";

/** The page of `table`, titled and linked back to the report it belongs to. */
export function tablePageHtml(table: Table, reportTitle: string): string {
  const text = escapeHtml;
  return [
    ...pageHead(`${table.title} — ${reportTitle}`, STYLE),
    "<body>",
    "<main>",
    `<p class="back"><a href="index.html">← ${text(reportTitle)}</a></p>`,
    `<h1>${text(table.title)}</h1>`,
    `<p class="caption">${text(table.caption)} ${table.rows.length} rows. ${tableFileLinks(table)}</p>`,
    tableToHtml(table).replace("<table>", `<table class="wrapped">${colgroup(table)}`),
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** Column widths in proportion to the square root of each column's mean text length (header included), at least 6 % (a header word's width). */
function colgroup(table: Table): string {
  const weights = table.columns.map((c) => {
    const lengths = [columnHeader(c), ...table.rows.map((r) => formatCell(r[c.key], c))].map((cell) => [...cell].length);
    return Math.sqrt(lengths.reduce((a, b) => a + b, 0) / lengths.length);
  });
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => Math.max(6, (100 * w) / total));
  const scale = 100 / shares.reduce((a, b) => a + b, 0);
  return `<colgroup>${shares.map((share) => `<col style="width:${(share * scale).toFixed(1)}%">`).join("")}</colgroup>`;
}

const STYLE = `
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, sans-serif; font-size: 13px; line-height: 1.4; color: #111; margin: 0; background: #fafafa; }
main { max-width: 1360px; margin: 0 auto; padding: 8px 16px 24px; }
h1 { font-size: 20px; margin: 8px 0; }
.caption { color: #333; font-size: 12.5px; }
.files a { margin-left: 6px; font-size: 12px; }
a { color: #0057a0; }
table.wrapped { table-layout: fixed; width: 100%; border-collapse: collapse; background: white; border: 1px solid #ddd; font-size: 12px; }
th, td { padding: 3px 6px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f1f1f1; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.verdict { font-weight: bold; }
td.verdict.match { color: #006644; }
td.verdict.close { color: #3d7a00; }
td.verdict.differs { color: #b34700; }
td.verdict.erratum { color: #7a3d99; }
td.verdict.not-recomputable { color: #555; }
`;
