/**
 * Observed against predicted bandwidth, with the identity line: points on the line are
 * predicted exactly. Series differ by colour and shape; held-out validation points (e.g.
 * mixed-size runs) are hollow, fit points filled. Both axes start at zero, unless a
 * prediction is negative (a polynomial below its fitted domain): then they are signed and
 * the spec says so (`usermeta.signedAxes`).
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, chartFrame, shapeScale, ZOOM_PARAM } from "./chart-frame";
import type { Figure } from "./figure";
import type { ChartSize } from "./theme";

export interface ObservedPredictedPoint {
  /** Colour group, e.g. a size series "15" or "mixed sizes". */
  series: string;
  /** E.g. "fit point" or "validation run" (hollow when its kind says so). */
  kind: string;
  m: number;
  observedMbPerS: number;
  predictedMbPerS: number;
}

export interface ObservedPredictedInput {
  id: string;
  title: string;
  caption: string;
  seriesTitle: string;
  series: string[];
  /** Series drawn in grey after the coloured ones (e.g. "other sizes", "mixed sizes"). */
  neutralSeries?: string[];
  /** The kinds of points; hollow ones are drawn as outlines (held-out points). */
  kinds: { kind: string; hollow: boolean }[];
  points: ObservedPredictedPoint[];
  size?: ChartSize;
}

export function observedPredictedFigure(input: ObservedPredictedInput): Figure {
  const values = input.points.flatMap((p) => [p.observedMbPerS, p.predictedMbPerS]);
  const low = Math.min(0, ...values);
  const high = Math.max(...values) * 1.04;
  const axis = { domain: [low, high], nice: false, zero: true };
  const legend = { orient: "bottom", direction: "horizontal", columns: 4 };
  const tooltip = [
    { field: "series", title: input.seriesTitle },
    { field: "kind", title: "point" },
    { field: "m", title: "m" },
    { field: "observedMbPerS", title: "observed (MB/s)", format: ".2f" },
    { field: "predictedMbPerS", title: "predicted (MB/s)", format: ".2f" },
  ];
  const encoding = {
    x: { field: "predictedMbPerS", type: "quantitative", title: "predicted bandwidth (MB/s)", scale: axis },
    y: { field: "observedMbPerS", type: "quantitative", title: "observed bandwidth (MB/s)", scale: axis },
    color: { field: "series", type: "nominal", title: input.seriesTitle, scale: categoryScale(input.series, input.neutralSeries ?? []), legend },
    shape: { field: "series", type: "nominal", title: input.seriesTitle, scale: shapeScale(input.series, input.neutralSeries ?? []), legend },
    tooltip,
  };
  const hollow = input.kinds.filter((k) => k.hollow).map((k) => k.kind);
  const byKind = (wantHollow: boolean) => input.points.filter((p) => hollow.includes(p.kind) === wantHollow);
  const spec = {
    ...chartFrame(input.size ?? "column"),
    ...(low < 0 ? { usermeta: { signedAxes: ["x", "y"] } } : {}),
    height: (input.size === "page" ? 180 : 160),
    layer: [
      {
        data: { values: [{ a: low, b: low }, { a: high, b: high }] },
        mark: { type: "line", color: "#444444", strokeDash: [3, 2], strokeWidth: 1 },
        encoding: { x: { field: "a", type: "quantitative", scale: axis }, y: { field: "b", type: "quantitative", scale: axis } },
      },
      { data: { values: byKind(false) }, mark: { type: "point", filled: true, size: 20, opacity: 0.85 }, params: [ZOOM_PARAM], encoding },
      ...(byKind(true).length > 0 ? [{ data: { values: byKind(true) }, mark: { type: "point", filled: false, size: 22, strokeWidth: 1, opacity: 1 }, encoding }] : []),
    ],
  } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption, spec };
}
