/**
 * Residuals of a fit against the fitted value (observed − predicted, MB/s): the usual
 * check that a regression's errors have no structure left. One colour and shape per size
 * series; a rule at zero. The residual axis is signed (`usermeta.signedAxes`).
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, chartFrame, shapeScale, ZOOM_PARAM } from "./chart-frame";
import type { Figure } from "./figure";
import type { ChartSize } from "./theme";

export interface ResidualPoint {
  series: string;
  m: number;
  predictedMbPerS: number;
  residualMbPerS: number;
}

export interface ResidualsInput {
  id: string;
  title: string;
  caption: string;
  seriesTitle: string;
  series: string[];
  /** Series drawn in grey after the coloured ones (e.g. "other sizes", "mixed sizes"). */
  neutralSeries?: string[];
  points: ResidualPoint[];
  size?: ChartSize;
}

export function residualsFigure(input: ResidualsInput): Figure {
  const legend = { orient: "bottom", direction: "horizontal", columns: 4 };
  const spec = {
    ...chartFrame(input.size ?? "column"),
    usermeta: { signedAxes: ["y"] },
    layer: [
      { data: { values: [{ zero: 0 }] }, mark: { type: "rule", color: "#444444", strokeDash: [3, 2] }, encoding: { y: { field: "zero", type: "quantitative" } } },
      {
        data: { values: input.points },
        mark: { type: "point", filled: true, size: 18, opacity: 0.85 },
        params: [ZOOM_PARAM],
        encoding: {
          x: { field: "predictedMbPerS", type: "quantitative", title: "fitted bandwidth (MB/s)", scale: { zero: false } },
          y: { field: "residualMbPerS", type: "quantitative", title: "residual, observed − fitted (MB/s)" },
          color: {
            field: "series",
            type: "nominal",
            title: input.seriesTitle,
            scale: categoryScale(input.series, input.neutralSeries ?? []),
            legend,
          },
          shape: { field: "series", type: "nominal", title: input.seriesTitle, scale: shapeScale(input.series, input.neutralSeries ?? []), legend },
          tooltip: [
            { field: "series", title: input.seriesTitle },
            { field: "m", title: "m" },
            { field: "predictedMbPerS", title: "fitted (MB/s)", format: ".2f" },
            { field: "residualMbPerS", title: "residual (MB/s)", format: ".2f" },
          ],
        },
      },
    ],
  } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption, spec };
}
