/**
 * Lines of a measured quantity against a numeric x, one per group, optionally on log
 * scales, with reference points (published values) as hollow diamonds: e.g. scheduler time
 * against the number of applications n, one line per k0, log y ([Y11] Tables 4–9 times
 * next to ours). Groups differ by colour, point shape and dash, so that they stay apart in
 * greyscale print.
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, chartFrame, dashScale, paddedDomain, referenceLegend, shapeScale, ZOOM_PARAM } from "./chart-frame";
import type { Figure } from "./figure";
import type { ChartSize } from "./theme";

export interface SeriesLinePoint {
  group: string;
  x: number;
  y: number;
  /** Spread shown as a band, e.g. the interquartile range (optional). */
  low?: number;
  high?: number;
}

export interface ReferencePoint {
  group: string;
  x: number;
  y: number;
  label: string;
}

export interface SeriesLinesInput {
  id: string;
  title: string;
  caption: string;
  xTitle: string;
  yTitle: string;
  groupTitle: string;
  groups: string[];
  points: SeriesLinePoint[];
  references?: ReferencePoint[];
  referenceLabel?: string;
  logX?: boolean;
  /** Linear x with 4 % spare at each end: points drawn at the data's first and last x (not only lines) stay whole inside the frame. */
  padX?: boolean;
  logY?: boolean;
  yFormat?: string;
  size?: ChartSize;
}

export function seriesLinesFigure(input: SeriesLinesInput): Figure {
  const legend = { orient: "bottom" as const, direction: "horizontal" as const };
  const color = { field: "group", type: "nominal" as const, title: input.groupTitle, scale: categoryScale(input.groups), legend };
  const shape = { field: "group", type: "nominal" as const, title: input.groupTitle, scale: shapeScale(input.groups), legend };
  const dash = { field: "group", type: "nominal" as const, title: input.groupTitle, scale: dashScale(input.groups), legend };
  // Log axes: a few labelled powers (1k, 10k…), not every minor tick; a margin on x so
  // that points at the ends are not cut by the frame.
  const logAxis = { tickCount: 5, format: "~s", grid: true };
  const xs = [...input.points.map((p) => p.x), ...(input.references ?? []).map((r) => r.x)];
  const x = {
    field: "x",
    type: "quantitative" as const,
    title: input.xTitle,
    scale: input.logX
      ? { type: "log" as const, nice: false, domain: [Math.min(...xs) / 1.15, Math.max(...xs) * 1.15] }
      : input.padX
        ? { zero: false, nice: false, domain: paddedDomain(xs, { nonNegative: true }) }
        : { zero: false },
    ...(input.logX ? { axis: logAxis } : {}),
  };
  const ys = [...input.points.flatMap((p) => [p.y, p.low ?? p.y, p.high ?? p.y]), ...(input.references ?? []).map((r) => r.y)].filter((y) => y > 0);
  // Room around the data on a log axis too (a factor 1.3), so that no point at an end is cut.
  const yScale = input.logY ? { type: "log" as const, domain: [Math.min(...ys) / 1.3, Math.max(...ys) * 1.3] } : { zero: true };
  const format = input.yFormat ?? ".3~g";
  const layers: object[] = [];
  if (input.points.some((p) => p.low !== undefined && p.high !== undefined)) {
    layers.push({
      data: { values: input.points.filter((p) => p.low !== undefined && p.high !== undefined) },
      mark: { type: "area", opacity: 0.18 },
      // The lines' own colour legend: a band layer without one (legend: null) makes Vega-Lite drop the legend of every layer.
      encoding: { x, y: { field: "low", type: "quantitative", scale: yScale }, y2: { field: "high" }, color },
    });
  }
  layers.push({
    data: { values: input.points },
    mark: { type: "line" },
    params: [ZOOM_PARAM],
    encoding: {
      x,
      y: { field: "y", type: "quantitative", title: input.yTitle, scale: yScale, ...(input.logY ? { axis: logAxis } : {}) },
      color,
      strokeDash: dash,
    },
  });
  layers.push({
    data: { values: input.points },
    mark: { type: "point", filled: true, size: 22, opacity: 1 },
    encoding: {
      x,
      y: { field: "y", type: "quantitative" },
      color,
      shape,
      tooltip: [
        { field: "group", title: input.groupTitle },
        { field: "x", title: input.xTitle },
        { field: "y", title: input.yTitle, format },
      ],
    },
  });
  if (input.references && input.references.length > 0) {
    layers.push({
      data: { values: input.references.map((r) => ({ ...r, what: input.referenceLabel ?? "published" })) },
      mark: { type: "point", shape: "diamond", filled: false, strokeWidth: 1.3, opacity: 1 },
      encoding: {
        x,
        y: { field: "y", type: "quantitative", scale: yScale },
        color,
        ...referenceLegend(46),
        tooltip: [
          { field: "label", title: "published" },
          { field: "x", title: input.xTitle },
          { field: "y", title: input.yTitle, format },
        ],
      },
    });
  }
  const spec = { ...chartFrame(input.size ?? "column"), layer: layers } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption, spec };
}
