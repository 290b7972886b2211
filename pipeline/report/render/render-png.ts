/**
 * SVG → PNG at 2× with resvg (a Rust rasteriser shipped as an npm binary: no canvas, no
 * system library). System fonts are not loaded: the DejaVu files are given explicitly, so
 * the pixels are the same on every machine.
 */
import { Resvg } from "@resvg/resvg-js";
import { FONT_FAMILY } from "../figures/theme";
import { fontFiles } from "./fonts";

export function renderPng(svg: string, zoom = 2): Buffer {
  const files = fontFiles();
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: zoom },
    background: "white",
    font: { loadSystemFonts: false, fontFiles: [files.regular, files.bold], defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
  });
  return resvg.render().asPng();
}
