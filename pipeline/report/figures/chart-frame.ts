/**
 * What every spec starts with: the Vega-Lite v5 schema URL, the theme, the size of a
 * column or page figure. Builders spread it and add their data and marks.
 */
import type { Config } from "vega-lite";
import { CATEGORY_DASHES, CATEGORY_PALETTE, CATEGORY_SHAPES, CHART_SIZES, THEME_CONFIG, VEGA_LITE_SCHEMA_URL, type ChartSize } from "./theme";

export interface ChartFrame {
  $schema: string;
  config: Config;
  width: number;
  height: number;
  title?: string;
}

/** Schema and theme only, for compositions (facet, concat) whose parts carry their own sizes. */
export function themeFrame(): { $schema: string; config: Config } {
  return { $schema: VEGA_LITE_SCHEMA_URL, config: THEME_CONFIG };
}

export function chartFrame(size: ChartSize, title?: string): ChartFrame {
  return {
    $schema: VEGA_LITE_SCHEMA_URL,
    config: THEME_CONFIG,
    width: CHART_SIZES[size].width,
    height: CHART_SIZES[size].height,
    ...(title !== undefined ? { title } : {}),
  };
}

/**
 * A categorical colour scale over `domain` in palette order (explicit, so every figure
 * agrees), then `neutral` categories (e.g. "other sizes") in greys that no palette colour
 * is confused with.
 */
export function categoryScale(
  domain: readonly (string | number)[],
  neutral: readonly string[] = [],
): { domain: (string | number)[]; range: string[] } {
  const greys = ["#888888", "#BBBBBB", "#555555"];
  return {
    domain: [...domain, ...neutral],
    range: [...domain.map((_, i) => CATEGORY_PALETTE[i % CATEGORY_PALETTE.length]!), ...neutral.map((_, i) => greys[i % greys.length]!)],
  };
}

/**
 * The shapes of `domain` in palette order, then of the `neutral` categories, so that points
 * of different categories differ in greyscale print as well as in colour. Used on the same
 * field as `categoryScale`, vega draws one legend with both.
 */
export function shapeScale(domain: readonly (string | number)[], neutral: readonly string[] = []): { domain: (string | number)[]; range: string[] } {
  const all = [...domain, ...neutral];
  return { domain: all, range: all.map((_, i) => CATEGORY_SHAPES[i % CATEGORY_SHAPES.length]!) };
}

/** The dashes of `domain` in palette order (solid first), for lines that must stay apart in greyscale. */
export function dashScale(domain: readonly (string | number)[]): { domain: (string | number)[]; range: number[][] } {
  return { domain: [...domain], range: domain.map((_, i) => [...CATEGORY_DASHES[i % CATEGORY_DASHES.length]!]) };
}

/**
 * A position scale's domain around `values` with 4 % of their range spare at each end, so
 * that marks at the extremes are drawn whole inside the frame; a non-negative quantity's
 * domain never starts below zero (vega's own `padding` would take it there), nor a
 * bounded one (a share) past its `upper` bound.
 */
export function paddedDomain(values: readonly number[], options: { nonNegative: boolean; fraction?: number; upper?: number }): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [0, 1];
  const low = Math.min(...finite);
  const high = Math.max(...finite);
  const pad = (high - low || Math.abs(high) || 1) * (options.fraction ?? 0.04);
  return [options.nonNegative ? Math.max(0, low - pad) : low - pad, options.upper !== undefined ? Math.min(options.upper, high + pad) : high + pad];
}

/**
 * The legend of reference marks (published values: hollow diamonds of their group's colour,
 * the rows' field `what` naming them), on the size channel: the shape channel is the
 * groups', and one shape scale cannot hold both without giving every panel a legend.
 */
export function referenceLegend(size: number): { size: object } {
  return {
    size: {
      field: "what",
      // Ordinal (vega-lite warns of size on a nominal field), one size for every entry.
      type: "ordinal",
      title: null,
      scale: { range: [size, size] },
      legend: { orient: "bottom", symbolType: "diamond", symbolFillColor: "white", symbolStrokeColor: "#555555", symbolStrokeWidth: 1.3 },
    },
  };
}

/** Drag to pan, wheel to zoom, double-click to reset (interactive pages only; no effect on SVG). */
export const ZOOM_PARAM = { name: "zoom", select: "interval", bind: "scales" } as const;
