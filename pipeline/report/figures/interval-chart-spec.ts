/**
 * A quantity with its 95 % confidence interval per group, next to the published value:
 * e.g. the CTNYS share of ScheduleCkpt by k0 (x) and criterion (colour), one panel per
 * family, over many seeds ([Y11] Tables 4–9). Our means are filled symbols (one shape per
 * group, so that groups stay apart in greyscale) with interval bars; the published values
 * (one instance each) are hollow diamonds at the same place. Intervals are cut at the
 * quantity's bounds (`bounds`, interval-bounds.ts), and the caption says so when one is.
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, paddedDomain, referenceLegend, shapeScale, themeFrame } from "./chart-frame";
import type { Figure } from "./figure";
import { clippedText, clipToBounds, type QuantityBounds } from "./interval-bounds";
import { CHART_SIZES } from "./theme";

export interface IntervalPoint {
  panel: string;
  /** Position on x (a category, e.g. "k0 = 1"). */
  x: string;
  /** Colour group (e.g. the criterion). */
  group: string;
  mean: number;
  low: number | null;
  high: number | null;
  /** Number of instances behind the mean. */
  n: number;
  /** The published value at the same place, if any. */
  published: number | null;
}

export interface IntervalChartInput {
  id: string;
  title: string;
  caption: string;
  panelTitle: string;
  xTitle: string;
  yTitle: string;
  groupTitle: string;
  panels: string[];
  xValues: string[];
  groups: string[];
  points: IntervalPoint[];
  /** How the published marks are named in the legend, e.g. "published ([Y11] Tables 4–9)" (no published layer when no point has a value). */
  publishedLabel: string;
  yFormat?: string;
  /** What the quantity cannot leave (e.g. ≥ 0): intervals are cut there and the caption says so. */
  bounds?: QuantityBounds;
}

export function intervalChartFigure(input: IntervalChartInput): Figure {
  const panelWidth = Math.floor((CHART_SIZES.page.width - 20 * (input.panels.length - 1)) / input.panels.length);
  const bounds = input.bounds ?? {};
  const { points, clipped } = clipToBounds(input.points, bounds);
  const legend = { orient: "bottom" as const, direction: "horizontal" as const };
  const color = { field: "group", type: "nominal" as const, title: input.groupTitle, scale: categoryScale(input.groups), legend };
  const shape = { field: "group", type: "nominal" as const, title: input.groupTitle, scale: shapeScale(input.groups), legend };
  const yValues = points.flatMap((p) => [p.mean, p.low ?? p.mean, p.high ?? p.mean, ...(p.published === null ? [] : [p.published])]);
  const nonNegative = bounds.low !== undefined && bounds.low >= 0;
  const yScale = { zero: false, domain: paddedDomain(yValues, { nonNegative, ...(bounds.high !== undefined ? { upper: bounds.high } : {}) }), nice: true };
  const x = { field: "x", type: "nominal" as const, title: input.xTitle, sort: input.xValues, axis: { labelAngle: 0 } };
  const xOffset = { field: "group", type: "nominal" as const, sort: input.groups, scale: { paddingOuter: 0.3 } };
  const format = input.yFormat ?? ".3f";
  const tooltip = [
    { field: "panel", title: input.panelTitle },
    { field: "x", title: input.xTitle },
    { field: "group", title: input.groupTitle },
    { field: "mean", title: "mean", format },
    { field: "low", title: "95 % CI low", format },
    { field: "high", title: "95 % CI high", format },
    { field: "n", title: "instances" },
    { field: "published", title: "published", format },
  ];
  const spec = {
    ...themeFrame(),
    data: { values: points },
    // The panel labels name themselves ("family A"): no header title above them.
    facet: { column: { field: "panel", type: "nominal", title: null, sort: input.panels, header: { labelFontSize: 8 } } },
    spec: {
      width: panelWidth,
      height: 150,
      layer: [
        {
          mark: { type: "rule", strokeWidth: 1.2 },
          encoding: { x, xOffset, y: { field: "low", type: "quantitative", title: input.yTitle, scale: yScale }, y2: { field: "high" }, color },
        },
        { mark: { type: "point", filled: true, size: 34, opacity: 1 }, encoding: { x, xOffset, y: { field: "mean", type: "quantitative" }, color, shape, tooltip } },
        ...(input.points.some((p) => p.published !== null) ? [{
          transform: [{ filter: "datum.published != null" }, { calculate: JSON.stringify(input.publishedLabel), as: "what" }],
          mark: { type: "point", shape: "diamond", filled: false, strokeWidth: 1.3, opacity: 1 },
          encoding: {
            x,
            xOffset,
            y: { field: "published", type: "quantitative" },
            color,
            ...referenceLegend(46),
            tooltip,
          },
        }] : []),
      ],
    },
    resolve: { scale: { y: "shared" } },
  } as unknown as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption + clippedText(clipped, points.length, bounds), spec };
}
