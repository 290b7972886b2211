/**
 * Grouped bars: a value per category (x) and strategy (colour, side by side), e.g. the
 * number of applications checkpointed per application size by ScheduleCkpt, sequential
 * greedy, all in parallel and as measured ([Y-thesis] Table 7.2), or the CTNYS share per
 * family and strategy. Optional interval bars.
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, chartFrame } from "./chart-frame";
import type { Figure } from "./figure";
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
}

export function groupedBarsFigure(input: GroupedBarsInput): Figure {
  const x = { field: "x", type: "nominal" as const, title: input.xTitle, sort: input.xValues, axis: { labelAngle: 0 } };
  const xOffset = { field: "group", type: "nominal" as const, sort: input.groups };
  const color = {
    field: "group",
    type: "nominal" as const,
    title: input.groupTitle,
    scale: categoryScale(input.groups),
    // Long strategy names in one column keep the figure within a paper column.
    legend: { orient: "bottom" as const, direction: "horizontal" as const, columns: input.groups.some((g) => g.length > 20) ? 1 : 2 },
  };
  const format = input.yFormat ?? ".3~g";
  const layers: object[] = [
    {
      data: { values: input.bars },
      mark: { type: "bar" },
      encoding: {
        x,
        xOffset,
        y: { field: "value", type: "quantitative", title: input.yTitle },
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
  const withIntervals = input.bars.filter((b) => b.low != null && b.high != null);
  if (withIntervals.length > 0) {
    layers.push({
      data: { values: withIntervals },
      mark: { type: "rule", color: "#000000", strokeWidth: 1 },
      encoding: { x, xOffset, y: { field: "low", type: "quantitative" }, y2: { field: "high" } },
    });
  }
  const spec = { ...chartFrame(input.size ?? "column"), layer: layers } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption, spec };
}
