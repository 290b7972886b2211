/**
 * What every spec starts with: the Vega-Lite v5 schema URL, the theme, the size of a
 * column or page figure. Builders spread it and add their data and marks.
 */
import type { Config } from "vega-lite";
import { CATEGORY_PALETTE, CHART_SIZES, THEME_CONFIG, VEGA_LITE_SCHEMA_URL, type ChartSize } from "./theme";

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

/** Drag to pan, wheel to zoom, double-click to reset (interactive pages only; no effect on SVG). */
export const ZOOM_PARAM = { name: "zoom", select: "interval", bind: "scales" } as const;
