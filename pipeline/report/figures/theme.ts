/**
 * The one look of every figure: fonts, sizes, palette, axis and legend style.
 *
 * - Sizes are for a two-column paper. Vega's pixels become PDF points one to one (the PDF
 *   page is the SVG's size). Every figure is rendered to the width of one column (3.5 in)
 *   or of both (7.16 in), axes and legends included (render/fit-to-width.ts), so that it
 *   goes into the paper at its own size and its text stays 8–10 pt, the size of a caption.
 * - Font: DejaVu Sans, read from the `dejavu-fonts-ttf` npm package, so that text widths
 *   (see text-metrics.ts), the PNG and the PDF are the same on every machine. It has the
 *   glyphs our titles use (σ, ≈, ≤, ī, µ, →) that PDF's standard Helvetica lacks.
 * - Colour: categories use the Okabe–Ito palette (Okabe & Ito, "Color Universal Design",
 *   2008), distinguishable under the common colour-vision deficiencies, ordered so that the
 *   first colours are the most distinct and the low-contrast yellow comes last; continuous
 *   values use viridis (perceptually uniform, colour-blind safe, prints in grey). Since
 *   several palette colours print as nearly the same grey, categories of points also differ
 *   by shape (CATEGORY_SHAPES) and categories of lines by dash (CATEGORY_DASHES).
 */
import type { Config } from "vega-lite";

export const FONT_FAMILY = "DejaVu Sans";

/** Okabe–Ito: blue, vermillion, bluish green, reddish purple, orange, sky blue, black, yellow. */
export const CATEGORY_PALETTE = [
  "#0072B2",
  "#D55E00",
  "#009E73",
  "#CC79A7",
  "#E69F00",
  "#56B4E9",
  "#000000",
  "#F0E442",
] as const;

/**
 * Point shapes in the palette's order, so that categories stay apart in greyscale print:
 * filled shapes first, the open cross after them (vega's symbol names).
 */
export const CATEGORY_SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "triangle-right", "triangle-left"] as const;

/** Line dashes in the palette's order (solid first): lines that cross or coincide stay apart in greyscale. */
export const CATEGORY_DASHES: readonly (readonly number[])[] = [[1, 0], [6, 3], [2, 2], [8, 2, 2, 2], [4, 2, 1, 2, 1, 2], [1, 3], [10, 3], [3, 3, 8, 3]];

/** Sequential scheme for continuous values (a Vega scheme name). */
export const SEQUENTIAL_SCHEME = "viridis";

/** Colour of "no usable value" cells (e.g. the model predicts bw ≤ 0). */
export const MISSING_COLOR = "#BBBBBB";

/**
 * A figure's width in a two-column paper (IEEE's layout), axes and legends included, in
 * pt (= SVG px): one column, 3.5 in, or both, 7.16 in.
 */
export const PAPER_WIDTH_PT = { column: 3.5 * 72, page: 7.16 * 72 } as const;

export type PaperWidth = keyof typeof PAPER_WIDTH_PT;

/** Plot-area sizes (without axes and legends) a builder starts from, in pixels = PDF points; render/fit-to-width.ts then fits the whole figure to its paper width. */
export const CHART_SIZES = {
  /** One column of a two-column paper. */
  column: { width: 200, height: 140 },
  /** Both columns. */
  page: { width: 390, height: 180 },
} as const;

export type ChartSize = keyof typeof CHART_SIZES;

/** Figures are shown at least this wide (CSS px) on the report page and in notebooks; PNGs have twice the pixels. */
export const MIN_DISPLAY_WIDTH_PX = 480;

/** Text sizes in pt at the figure's paper size: never below 8 (a caption's size). */
export const FONT_SIZES = { title: 10, axisTitle: 9, label: 8, legendTitle: 8, legendLabel: 8, annotation: 8 } as const;

/** The Vega-Lite `config` every spec carries. */
export const THEME_CONFIG: Config = {
  font: FONT_FAMILY,
  background: "white",
  padding: 4,
  view: { stroke: "#888888", strokeWidth: 0.5 },
  title: { fontSize: FONT_SIZES.title, fontWeight: "bold", anchor: "start", offset: 6 },
  axis: {
    labelFontSize: FONT_SIZES.label,
    titleFontSize: FONT_SIZES.axisTitle,
    titleFontWeight: "normal",
    titleColor: "#000000",
    labelColor: "#222222",
    domainColor: "#444444",
    tickColor: "#444444",
    gridColor: "#E4E4E4",
    gridWidth: 0.5,
    labelOverlap: true,
    titlePadding: 4,
  },
  legend: {
    labelFontSize: FONT_SIZES.legendLabel,
    titleFontSize: FONT_SIZES.legendTitle,
    titleFontWeight: "normal",
    symbolSize: 40,
    offset: 10,
    rowPadding: 2,
    padding: 2,
    labelLimit: 220,
    gradientLength: 120,
    gradientThickness: 10,
    // Legends below a plot are stacked in one column, left-aligned, so a figure keeps the
    // width of a paper column (Vega's legend layout; Vega-Lite passes it as an expression).
    // (Vega-Lite's TypeScript type omits `layout`; its JSON schema accepts an ExprRef.)
    ...({ layout: { expr: '{"bottom": {"direction": "vertical", "anchor": "start", "margin": 4}}' } } as object),
  },
  header: { labelFontSize: FONT_SIZES.legendLabel, titleFontSize: FONT_SIZES.axisTitle, titleFontWeight: "normal" },
  text: { fontSize: FONT_SIZES.annotation },
  range: { category: [...CATEGORY_PALETTE], ramp: { scheme: SEQUENTIAL_SCHEME }, heatmap: { scheme: SEQUENTIAL_SCHEME } },
  line: { strokeWidth: 1.5 },
  point: { size: 30, filled: true },
  rule: { strokeWidth: 0.8 },
};

/** Vega-Lite's schema URL for the version we render with (v5: JupyterLab renders v3–v5). */
export const VEGA_LITE_SCHEMA_URL = "https://vega.github.io/schema/vega-lite/v5.json";
