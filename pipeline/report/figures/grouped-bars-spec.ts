/**
 * Grouped bars: a value per category (x) and strategy (colour, side by side), e.g. the
 * number of applications checkpointed per application size by ScheduleCkpt, sequential
 * greedy, all in parallel and as measured ([Y-thesis] Table 7.2), or the CTNYS share per
 * family and strategy. Optional interval bars.
 *
 * Each bar carries a marker of its group's shape at its value: the groups stay apart in
 * greyscale print (the legend shows the shapes), and a bar of value 0 — "all in parallel"
 * saves nothing — is seen as a marker on the axis instead of looking missing.
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, chartFrame, paddedDomain, shapeScale } from "./chart-frame";
import type { Figure } from "./figure";
import { clippedText, clipToBounds, NON_NEGATIVE, type QuantityBounds } from "./interval-bounds";
import type { ChartSize } from "./theme";

export interface GroupedBar {
  x: string;
  group: string;
  value: number;
  low?: number | null;
  high?: number | null;
}

export interface GroupedBarsInput {
  id: string;
  title: string;
  caption: string;
  xTitle: string;
  yTitle: string;
  groupTitle: string;
  xValues: string[];
  groups: string[];
  bars: GroupedBar[];
  yFormat?: string;
  size?: ChartSize;
  /** What the quantity cannot leave (default ≥ 0): intervals are cut there and the caption says so. */
  bounds?: QuantityBounds;
}

export function groupedBarsFigure(input: GroupedBarsInput): Figure {
  const x = { field: "x", type: "nominal" as const, title: input.xTitle, sort: input.xValues, axis: { labelAngle: 0 } };
  const xOffset = { field: "group", type: "nominal" as const, sort: input.groups };
  // Long strategy names in one column keep the figure within a paper column.
  const legend = { orient: "bottom" as const, direction: "horizontal" as const, columns: input.groups.some((g) => g.length > 20) ? 1 : 2 };
  const color = { field: "group", type: "nominal" as const, title: input.groupTitle, scale: categoryScale(input.groups), legend };
  const shape = { field: "group", type: "nominal" as const, title: input.groupTitle, scale: shapeScale(input.groups), legend };
  const format = input.yFormat ?? ".3~g";
  const bounds = input.bounds ?? NON_NEGATIVE;
  const { points: bars, clipped } = clipToBounds(input.bars, bounds);
  const y = {
    field: "value",
    type: "quantitative" as const,
    title: input.yTitle,
    scale: {
      // Bars start at 0, so 0 is in the domain even when every bar has the same value.
      domain: paddedDomain([0, ...bars.flatMap((b) => [b.value, b.high ?? b.value])], { nonNegative: (bounds.low ?? -1) >= 0, ...(bounds.high !== undefined ? { upper: bounds.high } : {}) }),
      nice: true,
    },
  };
  const layers: object[] = [
    {
      data: { values: bars },
      mark: { type: "bar" },
      encoding: {
        x,
        xOffset,
        y,
        color,
        tooltip: [
          { field: "x", title: input.xTitle },
          { field: "group", title: input.groupTitle },
          { field: "value", title: input.yTitle, format },
          { field: "low", title: "95 % CI low", format },
          { field: "high", title: "95 % CI high", format },
        ],
      },
    },
  ];
  const withIntervals = bars.filter((b) => b.low != null && b.high != null);
  if (withIntervals.length > 0) {
    layers.push({
      data: { values: withIntervals },
      mark: { type: "rule", color: "#000000", strokeWidth: 1 },
      encoding: { x, xOffset, y: { field: "low", type: "quantitative" }, y2: { field: "high" } },
    });
  }
  layers.push({
    data: { values: bars },
    mark: { type: "point", filled: true, size: 26, opacity: 1, stroke: "#000000", strokeWidth: 0.6 },
    encoding: { x, xOffset, y: { field: "value", type: "quantitative" }, color, shape },
  });
  const spec = { ...chartFrame(input.size ?? "column"), layer: layers } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption + clippedText(clipped, bars.length, bounds), spec };
}
