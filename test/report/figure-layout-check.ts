/**
 * Every figure of a report as a reader sees it: each SVG the report wrote is opened in
 * headless Chromium (Debian's /usr/bin/chromium driven by playwright-core) with the font
 * it was laid out with (DejaVu Sans from npm, inlined as a data: URL so that no system font
 * takes its place), and its drawn DOM is measured (getBoundingClientRect of every text and
 * mark, after transforms):
 *
 * - no text overlaps another text (axis labels, titles, headers, legends, annotations),
 *   nor touches one beside it on the same line (two tick labels read as one number,
 *   "160180"), and no annotation lies on a data point;
 * - nothing is drawn outside the figure's box (the SVG's width × height), and the figure
 *   is no wider than the paper width it was fitted to (`usermeta.paperWidthPt`);
 * - no data mark crosses the frame of its plot (where vega clips, such a mark is cut; where
 *   it does not, it is drawn over the axes; a point vega does not clip may stand on the
 *   frame at a bound, its centre inside);
 * - no axis of a non-negative quantity extends below zero (the axis's scale domain, which
 *   vega writes into its aria-label; a figure whose quantity can be negative says so in its
 *   spec's `usermeta.signedAxes`);
 * - every text is at least 8 pt at the figure's size (1 SVG px = 1 PDF pt);
 * - the entries of every symbol legend stay distinct in greyscale (by shape, filled or
 *   hollow, dash, or a clear difference in lightness).
 *
 * Observable Plot's snapshot tests and matplotlib's image comparisons are the habit this
 * follows: a figure's defect is a test failure, found in the drawn figure, not in its spec.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { chromium, type Page } from "playwright-core";
import { fontFiles } from "../../pipeline/report/render/fonts";
import { CHROMIUM_PATH } from "./browser-check";

export type LayoutProblemKind = "text-overlap" | "text-touch" | "outside-figure" | "crosses-frame" | "below-zero" | "small-text" | "greyscale" | "wider-than-paper";

export interface LayoutProblem {
  /** The SVG, relative to the report folder. */
  figure: string;
  kind: LayoutProblemKind;
  detail: string;
}

export interface FigureMeasure {
  figure: string;
  width: number;
  height: number;
  texts: number;
  marks: number;
  axes: number;
}

export interface LayoutCheck {
  figures: FigureMeasure[];
  problems: LayoutProblem[];
}

/** Smallest text a figure may carry, in pt at its own size. */
export const MIN_FONT_PT = 8;

/** Tolerances, in px (= pt): anti-aliasing and the half-pixel offsets vega adds to crisp lines. */
const OVERLAP_PX = 1;
/** Texts side by side on one line closer than this (px = pt, a quarter of an 8 pt space's em) read as one. */
const TEXT_GAP_PX = 2;
const OUTSIDE_PX = 0.75;
/** Marks this small are symbols (points), placed by their centre. */
const SYMBOL_PX = 12;
/** Two greys a reader tells apart in print: CIE L* 15 apart (of 100). */
const GREY_DELTA_L = 15;

/** Every SVG under `reportDir`, in a stable order. */
export function reportSvgs(reportDir: string): string[] {
  return readdirSync(reportDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".svg"))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !relative(reportDir, path).split(/[\\/]/).some((part) => part.startsWith(".")))
    .sort();
}

/**
 * What the figure's Vega-Lite spec next to its SVG says of it: the axes whose quantity can
 * be negative ("x", "y") and the paper width it was fitted to.
 */
function figureMeta(svgPath: string): FigureMeta {
  const spec = svgPath.replace(/\.svg$/, ".vl.json");
  if (!existsSync(spec)) return { signed: [], paperWidth: null };
  const usermeta = (JSON.parse(readFileSync(spec, "utf8")) as { usermeta?: { signedAxes?: string[]; paperWidthPt?: number } }).usermeta;
  return { signed: usermeta?.signedAxes ?? [], paperWidth: usermeta?.paperWidthPt ?? null };
}

interface FigureMeta {
  signed: string[];
  paperWidth: number | null;
}

export async function checkFigureLayouts(reportDir: string): Promise<LayoutCheck> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: install Debian's chromium (test/ensure-system-packages.sh) or set CHROMIUM_PATH`);
  }
  const svgs = reportSvgs(reportDir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1200 } });
    // A bound for a loaded machine, not a measure (see browser-check.ts).
    page.setDefaultTimeout(180_000);
    await page.setContent(hostPage());
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const figures: FigureMeasure[] = [];
    const problems: LayoutProblem[] = [];
    for (const svgPath of svgs) {
      const figure = relative(reportDir, svgPath).split(/[\\/]/).join("/");
      const measured = await measureFigure(page, readFileSync(svgPath, "utf8"), figureMeta(svgPath));
      figures.push({ figure, ...measured.measure });
      problems.push(...measured.problems.map((p) => ({ figure, ...p })));
    }
    return { figures, problems };
  } finally {
    await browser.close();
  }
}

function hostPage(): string {
  const files = fontFiles();
  const face = (path: string, weight: string) =>
    `@font-face { font-family: "DejaVu Sans"; font-weight: ${weight}; src: url(data:font/ttf;base64,${readFileSync(path).toString("base64")}) format("truetype"); }`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${face(files.regular, "normal")} ${face(files.bold, "bold")}
    body { margin: 0; } #host { position: absolute; left: 0; top: 0; }</style>
    <script>/* tsx and vitest compile with esbuild's keepNames, whose __name helper the page lacks */ window.__name = (f) => f;</script></head>
    <body><div id="host"><svg><text font-family="DejaVu Sans">x</text><text font-family="DejaVu Sans" font-weight="bold">x</text></svg></div></body></html>`;
}

type Measured = { measure: Omit<FigureMeasure, "figure">; problems: Omit<LayoutProblem, "figure">[] };

/** One figure, measured in the page (the function runs in Chromium: it sees only its arguments). */
function measureFigure(page: Page, svg: string, meta: FigureMeta): Promise<Measured> {
  return page.evaluate(
    ({ svg, signed, limits }) => {
      const host = document.getElementById("host")!;
      host.innerHTML = svg;
      const root = host.querySelector("svg")!;
      const box = root.getBoundingClientRect();
      const problems: { kind: LayoutProblemKind; detail: string }[] = [];
      const round = (x: number) => Math.round(x * 10) / 10;
      const where = (r: DOMRect) => `[${round(r.left - box.left)}, ${round(r.top - box.top)}, ${round(r.width)} × ${round(r.height)}]`;

      const hidden = (el: Element): boolean => {
        for (let e: Element | null = el; e && e !== root; e = e.parentElement) {
          const style = getComputedStyle(e);
          if (style.display === "none" || style.visibility === "hidden" || Number(style.opacity) === 0) return true;
        }
        return false;
      };
      const roleOf = (el: Element): string => {
        for (let e: Element | null = el; e && e !== root; e = e.parentElement) {
          const role = [...e.classList].find((c) => c.startsWith("role-"));
          if (role) return role;
        }
        return "role-unknown";
      };
      const label = (el: Element) => `${roleOf(el).replace("role-", "")} "${(el.textContent ?? "").trim().slice(0, 60)}"`;

      // Texts: size, overlap, inside the figure.
      const texts = [...root.querySelectorAll("text")].filter((t) => !hidden(t) && (t.textContent ?? "").trim() !== "");
      const textBoxes = texts.map((t) => ({ el: t, rect: t.getBoundingClientRect() }));
      for (const { el, rect } of textBoxes) {
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < limits.minFont - 1e-9) problems.push({ kind: "small-text", detail: `${label(el)} is ${size} pt (at least ${limits.minFont})` });
      }
      for (let i = 0; i < textBoxes.length; i++) {
        for (let j = i + 1; j < textBoxes.length; j++) {
          const a = textBoxes[i]!.rect;
          const b = textBoxes[j]!.rect;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > limits.overlap && h > limits.overlap) {
            problems.push({ kind: "text-overlap", detail: `${label(textBoxes[i]!.el)} ${where(a)} overlaps ${label(textBoxes[j]!.el)} ${where(b)}` });
          } else if (h > Math.min(a.height, b.height) / 2 && -w < limits.textGap) {
            // On one line (mostly the same rows of pixels), and nearer than a gap: not overlapping, touching.
            problems.push({ kind: "text-touch", detail: `${label(textBoxes[i]!.el)} ${where(a)} touches ${label(textBoxes[j]!.el)} ${where(b)} (${round(-w)} px apart, at least ${limits.textGap})` });
          }
        }
      }
      const outside = (r: DOMRect, frame: { left: number; top: number; right: number; bottom: number }, tolerance: number) =>
        r.left < frame.left - tolerance || r.top < frame.top - tolerance || r.right > frame.right + tolerance || r.bottom > frame.bottom + tolerance;

      // Everything drawn, inside the figure's box.
      const drawn = [...root.querySelectorAll("path, line, rect, text, circle, image")].filter(
        (el) => !el.closest("defs, clipPath") && !el.classList.contains("background") && !el.classList.contains("foreground") && !hidden(el),
      );
      for (const el of drawn) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        // The white page rect is the figure's box itself.
        if (el.parentElement === root) continue;
        if (outside(r, box, limits.outside)) problems.push({ kind: "outside-figure", detail: `${label(el)} ${where(r)} leaves the figure's box ${round(box.width)} × ${round(box.height)}` });
      }

      // Data marks, inside the frame of their plot.
      const markItems = drawn.filter((el) => roleOf(el) === "role-mark");
      for (const el of markItems) {
        const markGroup = el.closest("g[class*='role-mark']")!;
        // The frame is the item of the enclosing view (a unit view, a facet cell, a layer's
        // path group): the <g> holding a background path, one per item of a group mark.
        let item: Element | null = markGroup.parentElement;
        const isView = (g: Element) =>
          !!g.parentElement && g.parentElement.classList.contains("mark-group") && (g.parentElement.classList.contains("role-scope") || g.parentElement.classList.contains("role-frame")) && !!g.querySelector(":scope > path.background");
        while (item && item !== root && !isView(item)) item = item.parentElement;
        const background = item && item !== root ? item.querySelector(":scope > path.background") : null;
        if (!background) continue;
        const frame = background.getBoundingClientRect();
        if (frame.width === 0 || frame.height === 0) continue;
        const r = el.getBoundingClientRect();
        const stroke = parseFloat(el.getAttribute("stroke-width") ?? "0") || 0;
        const clipped = markGroup.hasAttribute("clip-path") || !!markGroup.closest("[clip-path]");
        // A symbol vega does not clip may stand on the frame (a point at a bound: a bandwidth
        // of 0) as long as its centre is inside; anything else must lie within the frame.
        const symbol = !clipped && r.width <= limits.symbolPx && r.height <= limits.symbolPx;
        const centre = new DOMRect(r.x + r.width / 2, r.y + r.height / 2, 0, 0);
        if (outside(symbol ? centre : r, frame, limits.outside + stroke / 2)) {
          problems.push({
            kind: "crosses-frame",
            detail: `${label(el)} ${el.getAttribute("aria-label")?.slice(0, 80) ?? el.tagName} ${where(r)} ${clipped ? "is cut by" : "is drawn over"} its frame ${where(frame)}`,
          });
        }
      }

      // Annotations (text marks in a plot) clear of the data points.
      const symbols = markItems.filter((el) => el.closest("g[class*='role-mark']")!.classList.contains("mark-symbol")).map((el) => el.getBoundingClientRect());
      for (const el of markItems.filter((item) => item.tagName === "text")) {
        const r = el.getBoundingClientRect();
        const hit = symbols.find((s) => Math.min(r.right, s.right) - Math.max(r.left, s.left) > limits.overlap && Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top) > limits.overlap);
        if (hit) problems.push({ kind: "text-overlap", detail: `annotation "${el.textContent}" ${where(r)} lies on a data point ${where(hit)}` });
      }

      if (limits.paperWidth !== null && box.width > limits.paperWidth + 1e-6) {
        problems.push({ kind: "wider-than-paper", detail: `${round(box.width)} pt wide, more than the ${round(limits.paperWidth)} pt it was fitted to` });
      }

      // Axes of non-negative quantities start at zero or above.
      const axes = [...root.querySelectorAll("[aria-roledescription='axis']")];
      const parseNumber = (text: string): number => {
        const t = text.trim().replace(/\u2212/g, "-").replace(/,/g, "");
        const m = /^(-?[\d.]+(?:e[-+]?\d+)?)([kMGµmn]?)$/.exec(t);
        if (!m) return NaN;
        const scale: Record<string, number> = { "": 1, k: 1e3, M: 1e6, G: 1e9, m: 1e-3, "µ": 1e-6, n: 1e-9 };
        return Number(m[1]) * scale[m[2]!]!;
      };
      for (const axis of axes) {
        const aria = axis.getAttribute("aria-label") ?? "";
        const range = /values from (.+) to (.+)$/.exec(aria);
        if (!range) continue;
        const orient = aria.startsWith("X-axis") ? "x" : aria.startsWith("Y-axis") ? "y" : "?";
        const low = parseNumber(range[1]!);
        if (low < 0 && !signed.includes(orient)) problems.push({ kind: "below-zero", detail: `${aria}: a non-negative quantity's axis extends below zero` });
      }

      // Symbol legends distinct in greyscale.
      const lightness = (color: string | null): number | null => {
        if (!color || color === "none" || color === "transparent") return null;
        const probe = document.createElement("span");
        probe.style.color = color;
        document.body.appendChild(probe);
        const rgb = getComputedStyle(probe).color.match(/[\d.]+/g)!.map(Number);
        probe.remove();
        const linear = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        const y = 0.2126 * linear(rgb[0]!) + 0.7152 * linear(rgb[1]!) + 0.0722 * linear(rgb[2]!);
        return y > 216 / 24389 ? 116 * Math.cbrt(y) - 16 : (24389 / 27) * y;
      };
      for (const legend of root.querySelectorAll(".role-legend")) {
        const symbols = [...legend.querySelectorAll(".role-legend-symbol path")].filter((p) => !hidden(p));
        const entries = symbols.map((p) => {
          const filled = p.getAttribute("fill") !== null && p.getAttribute("fill") !== "none" && p.getAttribute("fill") !== "transparent";
          return {
            label: (p.parentElement?.parentElement?.querySelector(".role-legend-label text")?.textContent ?? "").trim(),
            shape: (p.getAttribute("d") ?? "").replace(/[\d.]+/g, (n) => String(Math.round(Number(n)))),
            filled,
            dash: p.getAttribute("stroke-dasharray") ?? "",
            grey: lightness(filled ? p.getAttribute("fill") : p.getAttribute("stroke")),
          };
        });
        for (let i = 0; i < entries.length; i++) {
          for (let j = i + 1; j < entries.length; j++) {
            const a = entries[i]!;
            const b = entries[j]!;
            const apart = a.shape !== b.shape || a.filled !== b.filled || a.dash !== b.dash || (a.grey !== null && b.grey !== null && Math.abs(a.grey - b.grey) >= limits.greyDelta);
            if (!apart) problems.push({ kind: "greyscale", detail: `legend entries "${a.label}" and "${b.label}" differ only by a colour of nearly the same grey (L* ${round(a.grey ?? 0)} vs ${round(b.grey ?? 0)})` });
          }
        }
      }
      return { measure: { width: box.width, height: box.height, texts: texts.length, marks: markItems.length, axes: axes.length }, problems };
    },
    { svg, signed: meta.signed, limits: { minFont: MIN_FONT_PT, overlap: OVERLAP_PX, textGap: TEXT_GAP_PX, outside: OUTSIDE_PX, greyDelta: GREY_DELTA_L, symbolPx: SYMBOL_PX, paperWidth: meta.paperWidth } },
  );
}

/** A readable list of problems, one per line, for a test's failure message. */
export function formatProblems(problems: readonly LayoutProblem[]): string {
  return problems.map((p) => `${p.figure}: ${p.kind}: ${p.detail}`).join("\n");
}

