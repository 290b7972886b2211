/**
 * Show figures and tables in a notebook (tslab kernel).
 *
 * A figure is sent as one display with several representations, and each front end picks
 * the richest it knows: JupyterLab renders the Vega-Lite v5 spec interactively (it has no
 * v6 renderer, hence v5 here); every other front end, and a plain `jupyter nbconvert --to
 * html`, shows the PNG (displayed at least 480 px wide by its width metadata, with twice
 * those pixels); a terminal the text. No SVG: nbconvert prefers it to PNG, and nbconvert
 * 6.x's HTML exporter strips inline SVG down to its text, which left empty boxes. tslab's public `display` sends one
 * MIME type per output, which would show the chart several times in JupyterLab, so the
 * bundle goes through tslab's own display channel.
 */
import type { TopLevelSpec } from "vega-lite";
import type { Figure } from "../figures/figure";
import { displayWidthPx, renderPng } from "./render-png";
import { naturalPaperWidth, renderAtPaperWidth } from "./fit-to-width";
import { columnHeader, formatCell, type Table } from "../tables/table";
import { tableToHtml } from "../tables/table-to-html";
import { assertValidVegaLiteSpec } from "../figures/validate-spec";

export const VEGA_LITE_MIME = "application/vnd.vegalite.v5+json";

export type MimeBundle = Record<string, unknown>;

/**
 * The representations of a figure (Vega-Lite v5 spec, PNG, a line of text) and the PNG's
 * display width; the figure fitted to its paper width, as the report draws it.
 */
export async function figureMimeBundle(figure: Figure | TopLevelSpec): Promise<{ data: MimeBundle; metadata: Record<string, unknown> }> {
  const given = isFigure(figure) ? figure.spec : figure;
  assertValidVegaLiteSpec(given, isFigure(figure) ? `figure "${figure.id}"` : "spec");
  const { spec, rendered } = await renderAtPaperWidth(given, naturalPaperWidth(given));
  const { svg, width } = rendered;
  return {
    data: {
      [VEGA_LITE_MIME]: spec,
      "image/png": renderPng(svg, width).toString("base64"),
      "text/plain": isFigure(figure) ? `${figure.title}. ${figure.caption}` : "Vega-Lite chart",
    },
    metadata: { "image/png": { width: Math.round(displayWidthPx(width)) } },
  };
}

/** The representations of a table: HTML and aligned text. */
export function tableMimeBundle(table: Table): MimeBundle {
  return {
    "text/html": `<p><strong>${table.title}.</strong> ${table.caption}</p>${tableToHtml(table)}`,
    "text/plain": tableAsText(table),
  };
}

/**
 * Display a figure or a table in the running tslab notebook.
 * @example await report.display(report.modelFigures(fit.PAPER_MODEL, { idPrefix: "m", modelLabel: "model" })[0])
 */
export async function display(item: Figure | TopLevelSpec | Table): Promise<void> {
  if (isTable(item)) sendDisplayData(tableMimeBundle(item), {});
  else {
    const { data, metadata } = await figureMimeBundle(item);
    sendDisplayData(data, metadata);
  }
}

type DisplayWriter = (message: { data: MimeBundle; metadata: object; transient: object }, update: boolean) => void;

function sendDisplayData(data: MimeBundle, metadata: Record<string, unknown>): void {
  let writer: DisplayWriter | null = null;
  try {
    // tslab 1.0.22 keeps the current cell's display writer here (what its public `display` calls).
    writer = (require("tslab/dist/jupyter") as { lastWriteDisplayData: DisplayWriter | null }).lastWriteDisplayData;
  } catch {
    writer = null;
  }
  if (writer === null) {
    throw new Error("display() shows figures in a notebook run by the tslab kernel; elsewhere, render files with renderFigure()");
  }
  writer({ data, metadata, transient: {} }, false);
}

function tableAsText(table: Table): string {
  const cells = [table.columns.map(columnHeader), ...table.rows.map((r) => table.columns.map((c) => formatCell(r[c.key], c)))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => [...row[i]!].length)));
  return [table.title, ...cells.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd())].join("\n");
}

function isFigure(item: unknown): item is Figure {
  return typeof item === "object" && item !== null && "spec" in item && "id" in item;
}

function isTable(item: unknown): item is Table {
  return typeof item === "object" && item !== null && "columns" in item && "rows" in item;
}
