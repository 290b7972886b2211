/**
 * Vega-Lite spec → SVG, in Node, without node-canvas (RECIPES: vega's headless View with
 * the "none" renderer). Text is measured with the embedded font's metrics
 * (text-metrics.ts) and vega's id counters are reset first, so the same spec gives the
 * same bytes every time. Warnings of the Vega-Lite compiler and of vega are returned, not
 * printed, so callers decide (tests require none).
 */
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { installTextMetrics } from "./text-metrics";

export interface RenderedSvg {
  svg: string;
  /** The SVG's size in pixels (= PDF points). */
  width: number;
  height: number;
  warnings: string[];
}

/**
 * Headless views cannot attach the zoom/pan listeners interactive specs declare on
 * `window`; vega says so for every such figure. That is expected here, not a problem.
 */
const EXPECTED_HEADLESS_WARNING = /^Can not resolve event source: window$/;

/** Compile a Vega-Lite spec to a Vega spec, collecting the compiler's warnings. */
export function compileToVega(spec: TopLevelSpec, warnings: string[] = []): vega.Spec {
  return compile(spec, { logger: collectingLogger(warnings) as never }).spec as vega.Spec;
}

export async function renderSvg(spec: TopLevelSpec): Promise<RenderedSvg> {
  installTextMetrics();
  // Clip-path and gradient ids come from module-level counters; restart them per figure.
  (vega as unknown as { resetSVGDefIds(): void }).resetSVGDefIds();
  const warnings: string[] = [];
  const vegaSpec = compileToVega(spec, warnings);
  const view = new vega.View(vega.parse(vegaSpec), { renderer: "none", logger: collectingLogger(warnings) as never });
  try {
    const svg = await view.toSVG();
    return { svg, ...svgSize(svg), warnings };
  } finally {
    view.finalize();
  }
}

/** A vega / vega-lite logger that keeps warnings and errors in `sink` instead of printing. */
function collectingLogger(sink: string[]) {
  let level = vega.Warn;
  const logger = {
    level(value?: number) {
      if (value === undefined) return level;
      level = value;
      return logger;
    },
    error(...args: unknown[]) {
      sink.push(`error: ${args.map(String).join(" ")}`);
      return logger;
    },
    warn(...args: unknown[]) {
      const message = args.map(String).join(" ");
      if (!EXPECTED_HEADLESS_WARNING.test(message)) sink.push(message);
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger;
}

function svgSize(svg: string): { width: number; height: number } {
  const open = /^<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  const width = Number(/\bwidth="([\d.]+)"/.exec(open)?.[1]);
  const height = Number(/\bheight="([\d.]+)"/.exec(open)?.[1]);
  if (!(width > 0 && height > 0)) throw new Error(`vega produced an SVG without a size: ${open}`);
  return { width, height };
}
