/**
 * Checkpoint placements on a job's failure-free time line, one row per policy (the DP
 * placer, Young, Daly, none): the slices as alternating grey bars, each checkpoint as a
 * coloured bar of its cost after the slice it follows, marked by a tick so that a
 * checkpoint of one minute stays visible on a job of many hours ([BTW10], [BKT]; docs/science.md §5).
 */
import type { TopLevelSpec } from "vega-lite";
import { chartFrame, paddedDomain } from "./chart-frame";
import type { Figure } from "./figure";
import { CATEGORY_PALETTE, type ChartSize } from "./theme";

export interface TimelineBar {
  policy: string;
  /** "slice" or "checkpoint". */
  kind: "slice" | "checkpoint";
  /** 1-based slice index (the slice itself, or the slice the checkpoint follows). */
  slice: number;
  startHours: number;
  endHours: number;
}

export interface PlacementTimelineInput {
  id: string;
  title: string;
  caption: string;
  policies: string[];
  bars: TimelineBar[];
  size?: ChartSize;
}

export function placementTimelineFigure(input: PlacementTimelineInput): Figure {
  const rowHeight = 16;
  const bars = input.bars.map((b) => ({ ...b, shade: b.kind === "slice" ? (b.slice % 2 === 0 ? "even slice" : "odd slice") : "checkpoint" }));
  const y = { field: "policy", type: "nominal" as const, title: null, sort: input.policies };
  // Room after the job's end, so that its last checkpoint's tick is drawn whole.
  const x = {
    field: "startHours",
    type: "quantitative" as const,
    title: "failure-free time line of the job (h)",
    scale: { domain: [0, paddedDomain(input.bars.map((b) => b.endHours), { nonNegative: true, fraction: 0.02 })[1]], nice: false },
  };
  const color = {
    field: "shade",
    type: "nominal" as const,
    title: null,
    // Three levels of grey in print too: CIE L* 88, 71 and 54.
    scale: { domain: ["odd slice", "even slice", "checkpoint"], range: ["#DDDDDD", "#ADADAD", CATEGORY_PALETTE[1]] },
    legend: { orient: "bottom" as const, direction: "horizontal" as const },
  };
  const tooltip = [
    { field: "policy", title: "policy" },
    { field: "kind", title: "what" },
    { field: "slice", title: "slice" },
    { field: "startHours", title: "from (h)", format: ".3f" },
    { field: "endHours", title: "to (h)", format: ".3f" },
  ];
  const spec = {
    ...chartFrame(input.size ?? "page"),
    height: rowHeight * input.policies.length,
    data: { values: bars },
    layer: [
      {
        mark: { type: "bar", height: rowHeight - 4 },
        params: [{ name: "zoom", select: { type: "interval", encodings: ["x"] }, bind: "scales" }],
        encoding: { x, x2: { field: "endHours" }, y, color, tooltip },
      },
      {
        transform: [{ filter: "datum.kind === 'checkpoint'" }],
        mark: { type: "tick", orient: "vertical", thickness: 2, size: rowHeight - 2 },
        encoding: { x, y, color, tooltip },
      },
    ],
  } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption, spec };
}
