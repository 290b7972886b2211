/**
 * SVG → PNG with resvg (a Rust rasteriser shipped as an npm binary: no canvas, no system
 * library). System fonts are not loaded: the DejaVu files are given explicitly, so the
 * pixels are the same on every machine.
 *
 * Size: figures are laid out for a paper column (≈ 240 pt, theme.ts) but shown at least
 * `MIN_DISPLAY_WIDTH_PX` wide — the report page scales them up to it, notebooks display
 * them at it — and the PNG has twice the pixels of that display width (2×, sharp on
 * high-density screens and projected slides).
 */
import { Resvg } from "@resvg/resvg-js";
import { FONT_FAMILY, MIN_DISPLAY_WIDTH_PX } from "../figures/theme";
import { fontFiles } from "./fonts";

/** The width (CSS px) a figure `svgWidth` px wide is shown at. */
export function displayWidthPx(svgWidth: number): number {
  return Math.max(svgWidth, MIN_DISPLAY_WIDTH_PX);
}

/** The PNG of an SVG `svgWidth` px wide, at 2× its display width. */
export function renderPng(svg: string, svgWidth: number): Buffer {
  const files = fontFiles();
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: (2 * displayWidthPx(svgWidth)) / svgWidth },
    background: "white",
    font: { loadSystemFonts: false, fontFiles: [files.regular, files.bold], defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
  });
  return resvg.render().asPng();
}
