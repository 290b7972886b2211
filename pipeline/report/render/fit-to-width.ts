/**
 * A figure at the width of a paper's column or of both columns, axes and legends included,
 * so that it goes into the paper at its own size and its 8–10 pt text stays 8–10 pt.
 *
 * Vega-Lite sizes plot areas, not figures, and lays out axes, headers and legends around
 * them; only rendering says how wide the whole is. So the spec is rendered, the space its
 * axes and legends take is read off (rendered width − plot widths), the plot widths are
 * scaled to what is left of the paper width, and the spec is rendered again (twice at most
 * more, for tick labels that change with the width). The same spec gives the same bytes.
 *
 * What has to change with the width is done here, once for every figure, not by each
 * builder:
 *
 * - panels: a row of facet panels wraps into several rows when they would be narrower than
 *   their data need (`columns`), and figures side by side are stacked at column width;
 * - text: facet headers, axis titles, legend labels and titles and panel titles longer
 *   than the room they have are broken into lines at spaces (measured with the font the
 *   figure is set in), instead of running into their neighbours or being cut with "…".
 */
import type { TopLevelSpec } from "vega-lite";
import { FONT_SIZES, PAPER_WIDTH_PT, type PaperWidth } from "../figures/theme";
import { renderSvg, type RenderedSvg } from "./render-svg";
import { textWidth } from "./text-metrics";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** How far under its paper width a figure may come out (vega rounds its size to whole px). */
const WIDTH_TOLERANCE_PT = 3;
/** Width a panel needs per category it draws side by side (an x band × its offset groups). */
const PANEL_PT_PER_BAND = 7;
const MIN_PANEL_PT = 90;
/** Room the y axis of a facet row takes (labels and title), used before anything is rendered. */
const AXIS_ALLOWANCE_PT = 50;
/** A legend entry's symbol and the gap to its label. */
const LEGEND_SYMBOL_PT = 22;

/** The paper width a spec was drawn for: several panels span both columns, one chart fits one. */
export function naturalPaperWidth(spec: TopLevelSpec): PaperWidth {
  const s = spec as Json;
  return s.facet !== undefined || s.hconcat !== undefined || (typeof s.width === "number" && s.width > 300) ? "page" : "column";
}

export interface FittedFigure {
  spec: TopLevelSpec;
  rendered: RenderedSvg;
}

/**
 * The spec laid out for `paperWidth` and rendered. Its `usermeta.paperWidthPt` records the
 * width it was fitted to; a renderer's warning says so if it could not be met.
 */
export async function renderAtPaperWidth(spec: TopLevelSpec, paperWidth: PaperWidth): Promise<FittedFigure> {
  const widthPt = PAPER_WIDTH_PT[paperWidth];
  const arranged = arrange(structuredClone(spec) as Json, widthPt);
  const basePlot = plotWidth(arranged);
  let factor = 1;
  let best: FittedFigure | undefined;
  let last: FittedFigure | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    const candidate = wrapTexts(scaleWidths(structuredClone(arranged), factor), widthPt);
    candidate.usermeta = { ...(candidate.usermeta ?? {}), paperWidth, paperWidthPt: widthPt };
    const rendered = await renderSvg(candidate as TopLevelSpec);
    last = { spec: candidate as TopLevelSpec, rendered };
    if (rendered.width <= widthPt && (best === undefined || rendered.width > best.rendered.width)) best = last;
    if (rendered.width <= widthPt && rendered.width >= widthPt - WIDTH_TOLERANCE_PT) break;
    const plot = plotWidth(candidate);
    const overhead = rendered.width - plot;
    const next = (widthPt - overhead - 0.5) / basePlot;
    if (!(next > 0) || Math.abs(next - factor) < 1e-6) break;
    factor = next;
  }
  if (best !== undefined) return best;
  last!.rendered.warnings.push(`the figure is ${last!.rendered.width} pt wide, wider than the ${widthPt.toFixed(1)} pt of a paper ${paperWidth}`);
  return last!;
}

/** Distinct values of `field` in the spec's inline data (top level and layers), in order of appearance. */
function fieldValues(spec: Json, field: string): string[] {
  const seen = new Set<string>();
  const visit = (node: Json | undefined) => {
    if (!node || typeof node !== "object") return;
    for (const row of (node.data?.values ?? []) as Json[]) if (row[field] !== undefined && row[field] !== null) seen.add(String(row[field]));
    for (const child of [...(node.layer ?? []), ...(node.hconcat ?? []), ...(node.vconcat ?? [])]) visit(child);
    if (node.spec) visit(node.spec);
  };
  visit(spec);
  return [...seen];
}

/** Bands a panel draws side by side: the x categories times their offset groups (1 for a continuous x). */
function bandsPerPanel(spec: Json): number {
  let bands = 1;
  const visit = (node: Json | undefined) => {
    if (!node) return;
    const e = node.encoding ?? {};
    if (e.x?.field && (e.x.type === "nominal" || e.x.type === "ordinal")) {
      const offsets = e.xOffset?.field ? fieldValues(spec, e.xOffset.field).length : 1;
      bands = Math.max(bands, fieldValues(spec, e.x.field).length * offsets);
    }
    for (const layer of node.layer ?? []) visit(layer);
  };
  visit(spec.spec);
  return bands;
}

/** Room the y axis of a facet row takes: its category labels when it has them, else a usual number axis. */
function axisAllowance(spec: Json): number {
  let allowance = AXIS_ALLOWANCE_PT;
  const visit = (node: Json | undefined) => {
    if (!node) return;
    const y = node.encoding?.y as Json | undefined;
    if (y?.field && (y.type === "nominal" || y.type === "ordinal")) {
      const labels = Math.max(0, ...fieldValues(spec, y.field).map((v) => textWidth(v, FONT_SIZES.label)));
      allowance = Math.max(allowance, labels + 12 + (y.title ? FONT_SIZES.axisTitle + 6 : 0));
    }
    for (const layer of node.layer ?? []) visit(layer);
  };
  visit(spec.spec);
  return allowance;
}

/** Panels in rows that fit the width; figures side by side stacked at column width. */
function arrange(spec: Json, widthPt: number): Json {
  if (spec.hconcat && widthPt < PAPER_WIDTH_PT.page) {
    const { hconcat, ...rest } = spec;
    return { ...rest, vconcat: hconcat };
  }
  const column = spec.facet?.column as Json | undefined;
  if (column && spec.facet.row === undefined) {
    const panels = fieldValues(spec, column.field).length;
    const needed = Math.max(MIN_PANEL_PT, bandsPerPanel(spec) * PANEL_PT_PER_BAND);
    const axis = axisAllowance(spec);
    const columns = Math.max(1, Math.min(panels, Math.floor((widthPt - axis) / needed)));
    const { facet: _facet, ...rest } = spec;
    const panelWidth = Math.floor((widthPt - axis) / columns) - 12;
    return { ...rest, facet: column, columns, spec: { ...spec.spec, width: panelWidth } };
  }
  return spec;
}

/** The plot widths of the widest row of views: what scaling the widths changes. */
function plotWidth(spec: Json): number {
  if (spec.facet) {
    const panels = spec.facet.field ? fieldValues(spec, spec.facet.field).length : 1;
    return Math.min(panels, spec.columns ?? panels) * plotWidth(spec.spec);
  }
  if (spec.hconcat) return (spec.hconcat as Json[]).reduce((sum, part) => sum + plotWidth(part), 0);
  if (spec.vconcat) return Math.max(...(spec.vconcat as Json[]).map(plotWidth));
  return typeof spec.width === "number" ? spec.width : 0;
}

function scaleWidths(spec: Json, factor: number): Json {
  if (typeof spec.width === "number") spec.width = Math.max(40, Math.floor(spec.width * factor));
  if (spec.spec) scaleWidths(spec.spec, factor);
  for (const part of [...(spec.hconcat ?? []), ...(spec.vconcat ?? [])]) scaleWidths(part, factor);
  return spec;
}

/** `text` broken at spaces into lines no wider than `maxPt`; a word longer than that keeps a line of its own. */
export function wrapText(text: string, maxPt: number, fontSize: number, bold = false): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (line !== "" && textWidth(candidate, fontSize, bold) > maxPt) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  lines.push(line);
  return lines;
}

/** A title as one string, or its lines when it is wider than `maxPt`. */
function wrappedTitle(title: unknown, maxPt: number, fontSize: number): unknown {
  if (typeof title !== "string") return title;
  const lines = wrapText(title, maxPt, fontSize);
  return lines.length > 1 ? lines : title;
}

/**
 * A Vega expression giving each value's lines where it is too long (a lookup in an object
 * literal), the value itself otherwise; undefined when nothing needs breaking.
 */
function wrappedLabelExpr(values: string[], maxPt: number, fontSize: number, variable: "datum.value" | "datum.label"): string | undefined {
  const broken: Record<string, string[]> = {};
  for (const value of values) {
    const lines = wrapText(value, maxPt, fontSize);
    if (lines.length > 1) broken[value] = lines;
  }
  if (Object.keys(broken).length === 0) return undefined;
  return `(${JSON.stringify(broken)})[${variable}] || ${variable}`;
}

const LEGEND_CHANNELS = ["color", "fill", "stroke", "shape", "strokeDash", "size", "opacity"] as const;

/** Horizontal gap between legend columns (vega's default `columnPadding`). */
const LEGEND_COLUMN_GAP_PT = 10;

/**
 * Every text that must fit a width, broken into lines where it does not; legends in as many
 * columns as fit under their plots (vega anchors a bottom legend at the plot's left edge,
 * so a legend wider than the plots it is under widens the figure).
 */
function wrapTexts(spec: Json, widthPt: number): Json {
  const visitView = (view: Json, box: { width?: number; height?: number }, legendRoomPt: number) => {
    const encodings: Json[] = [view.encoding ?? {}, ...((view.layer ?? []) as Json[]).map((layer) => layer.encoding ?? {})];
    for (const encoding of encodings) {
      if (encoding.x?.title !== undefined && box.width) encoding.x.title = wrappedTitle(encoding.x.title, box.width, FONT_SIZES.axisTitle);
      // Category labels under their bands, broken into lines rather than hidden by vega's label overlap rule.
      if (encoding.x?.field && (encoding.x.type === "nominal" || encoding.x.type === "ordinal") && box.width && encoding.x.axis !== null) {
        const values = Array.isArray(encoding.x.sort) ? (encoding.x.sort as unknown[]).map(String) : fieldValues(spec, encoding.x.field);
        const expr = wrappedLabelExpr(values, box.width / Math.max(1, values.length) - 6, FONT_SIZES.label, "datum.label");
        if (expr !== undefined) encoding.x.axis = { ...(encoding.x.axis ?? {}), labelExpr: expr };
      }
      if (encoding.y?.title !== undefined && box.height) encoding.y.title = wrappedTitle(encoding.y.title, box.height, FONT_SIZES.axisTitle);
      for (const channel of LEGEND_CHANNELS) {
        const definition = encoding[channel] as Json | undefined;
        if (!definition?.field || definition.legend === null || definition.type === "quantitative") continue;
        fitLegend(spec, definition, legendRoomPt);
      }
    }
  };
  const walk = (node: Json, inherited: { width?: number; height?: number }, legendRoomPt: number) => {
    const box = { width: typeof node.width === "number" ? node.width : inherited.width, height: typeof node.height === "number" ? node.height : inherited.height };
    if (node.title && typeof node.title === "object" && typeof node.title.text === "string" && box.width) {
      node.title.text = wrappedTitle(node.title.text, box.width, Number(node.title.fontSize ?? FONT_SIZES.title));
    }
    if (node.facet) {
      const facet = node.facet as Json;
      const inner = node.spec as Json;
      if (facet.field && typeof inner.width === "number") {
        const header = (facet.header ??= {}) as Json;
        const size = Number(header.labelFontSize ?? FONT_SIZES.legendLabel);
        const expr = wrappedLabelExpr(fieldValues(node, facet.field), inner.width, size, "datum.value");
        if (expr !== undefined) header.labelExpr = expr;
        header.labelLimit = 0;
      }
      walk(inner, box, legendRoomPt);
      return;
    }
    for (const part of [...(node.hconcat ?? []), ...(node.vconcat ?? [])]) walk(part, {}, Math.min(widthPt, plotWidth(part)));
    if (node.layer || node.mark) visitView(node, box, legendRoomPt);
    for (const layer of node.layer ?? []) if (layer.layer) walk(layer, box, legendRoomPt);
  };
  const topRoom = spec.facet ? plotWidth(spec) + (Math.min(spec.columns ?? 1, fieldValues(spec, spec.facet.field ?? "").length || 1) - 1) * 20 : plotWidth(spec);
  walk(spec, {}, Math.min(widthPt - 8, Math.max(120, topRoom)));
  return spec;
}

/** A legend's labels broken to the room it has, in as many columns as fit in it. */
function fitLegend(spec: Json, definition: Json, roomPt: number): void {
  const legend = (definition.legend ??= {}) as Json;
  const domain = Array.isArray(definition.scale?.domain) ? (definition.scale.domain as unknown[]).map(String) : fieldValues(spec, definition.field);
  if (domain.length === 0) return;
  const labelRoom = Math.max(60, roomPt - LEGEND_SYMBOL_PT);
  const expr = wrappedLabelExpr(domain, labelRoom, FONT_SIZES.legendLabel, "datum.label");
  if (expr !== undefined) legend.labelExpr = expr;
  legend.labelLimit = Math.ceil(labelRoom) + 1;
  const widest = Math.max(...domain.map((label) => Math.max(...wrapText(label, labelRoom, FONT_SIZES.legendLabel).map((line) => textWidth(line, FONT_SIZES.legendLabel)))));
  const fits = Math.max(1, Math.floor((roomPt + LEGEND_COLUMN_GAP_PT) / (widest + LEGEND_SYMBOL_PT + LEGEND_COLUMN_GAP_PT)));
  const asked = legend.direction === "vertical" ? 1 : Number(legend.columns ?? domain.length);
  legend.columns = Math.min(asked, fits, domain.length);
  if (definition.title !== undefined) definition.title = wrappedTitle(definition.title, roomPt, FONT_SIZES.legendTitle);
}
