/**
 * Observed against predicted bandwidth, with the identity line: points on the line are
 * predicted exactly. Fit points and held-out validation points (e.g. mixed-size runs) are
 * told apart by shape.
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, chartFrame, ZOOM_PARAM } from "./chart-frame";
import type { Figure } from "./figure";
import type { ChartSize } from "./theme";

export interface ObservedPredictedPoint {
  /** Colour group, e.g. a size series "15" or "mixed sizes". */
  series: string;
  /** Shape group, e.g. "fit point" or "validation run". */
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
  kinds: { kind: string; shape: string }[];
  points: ObservedPredictedPoint[];
  size?: ChartSize;
}

export function observedPredictedFigure(input: ObservedPredictedInput): Figure {
  const values = input.points.flatMap((p) => [p.observedMbPerS, p.predictedMbPerS]);
  const low = Math.min(0, ...values);
  const high = Math.max(...values) * 1.04;
  const axis = { domain: [low, high], nice: false, zero: true };
  const spec = {
    ...chartFrame(input.size ?? "column"),
    height: (input.size === "page" ? 180 : 160),
    layer: [
      {
        data: { values: [{ a: low, b: low }, { a: high, b: high }] },
        mark: { type: "line", color: "#444444", strokeDash: [3, 2], strokeWidth: 1 },
        encoding: { x: { field: "a", type: "quantitative", scale: axis }, y: { field: "b", type: "quantitative", scale: axis } },
      },
      {
        data: { values: input.points },
        mark: { type: "point", filled: true, size: 20, opacity: 0.85 },
        params: [ZOOM_PARAM],
        encoding: {
          x: { field: "predictedMbPerS", type: "quantitative", title: "predicted bandwidth (MB/s)", scale: axis },
          y: { field: "observedMbPerS", type: "quantitative", title: "observed bandwidth (MB/s)", scale: axis },
          color: {
            field: "series",
            type: "nominal",
            title: input.seriesTitle,
            scale: categoryScale(input.series, input.neutralSeries ?? []),
            legend: { orient: "bottom", direction: "horizontal", columns: 4 },
          },
          shape: {
            field: "kind",
            type: "nominal",
            title: null,
            scale: { domain: input.kinds.map((k) => k.kind), range: input.kinds.map((k) => k.shape) },
            legend: { orient: "bottom", direction: "vertical" },
          },
          tooltip: [
            { field: "series", title: input.seriesTitle },
            { field: "kind", title: "point" },
            { field: "m", title: "m" },
            { field: "observedMbPerS", title: "observed (MB/s)", format: ".2f" },
            { field: "predictedMbPerS", title: "predicted (MB/s)", format: ".2f" },
          ],
        },
      },
    ],
  } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption, spec };
}
