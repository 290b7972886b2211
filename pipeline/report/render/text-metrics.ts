/**
 * Real text widths for vega without node-canvas.
 *
 * Without a canvas, vega estimates a string's width as 0.8 × length × font size, which
 * misplaces axis titles and legends and lets long labels overflow the SVG. This replaces
 * vega's `textMetrics.width` with the advance width of the shaped string (kerning
 * included) in the font we embed, DejaVu Sans, regular or bold by the item's weight, so the
 * layout vega computes is the one resvg, the PDF and a browser with that font draw.
 */
import * as fontkit from "fontkit";
import * as vega from "vega";
import { fontFiles } from "./fonts";

type TextItem = { fontSize?: number | string; fontWeight?: string | number; limit?: number };

let installed = false;
let measure: ((text: string, fontSize: number, bold: boolean) => number) | undefined;

/**
 * The width (px = pt) of `text` set in DejaVu Sans at `fontSize`: the advance width of the
 * shaped string, kerning included, as vega lays it out once installTextMetrics ran.
 */
export function textWidth(text: string, fontSize: number, bold = false): number {
  if (measure === undefined) {
    const files = fontFiles();
    const regular = openFont(files.regular);
    const boldFont = openFont(files.bold);
    const cache = new Map<string, number>();
    measure = (value, size, isBold) => {
      const key = `${isBold ? "b" : "r"}${value}`;
      let em = cache.get(key);
      if (em === undefined) {
        const font = isBold ? boldFont : regular;
        em = font.layout(value).advanceWidth / font.unitsPerEm;
        cache.set(key, em);
      }
      return size * em;
    };
  }
  return measure(text, fontSize, bold);
}

/** Install the font-metric text measure into vega (idempotent, process-wide). */
export function installTextMetrics(): void {
  if (installed) return;
  const metrics = (vega as unknown as { textMetrics: { width: (item: TextItem, text: unknown) => number } }).textMetrics;
  metrics.width = (item, text) => {
    const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
    const value = text == null ? "" : String(text).trim();
    if (size <= 0 || value === "") return 0;
    return textWidth(value, size, isBoldWeight(item.fontWeight));
  };
  installed = true;
}

function isBoldWeight(weight: string | number | undefined): boolean {
  if (weight === undefined) return false;
  if (typeof weight === "number") return weight >= 600;
  return weight === "bold" || weight === "bolder" || Number(weight) >= 600;
}

function openFont(path: string): fontkit.Font {
  const font = fontkit.openSync(path);
  if (!("layout" in font)) throw new Error(`${path} is a font collection; expected a single TrueType font`);
  return font;
}
