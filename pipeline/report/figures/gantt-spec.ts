/**
 * One ScheduleCkpt run against the deadline: a Gantt chart of the checkpoints (one row per
 * started application, from start to finish, coloured by whether it completed before the
 * deadline T), above the checkpoint device's aggregated bandwidth over the same time axis
 * (the steps of the fluid execution). The deadline is a rule on both.
 */
import type { TopLevelSpec } from "vega-lite";
import { themeFrame } from "./chart-frame";
import type { Figure } from "./figure";
import { CATEGORY_PALETTE, CHART_SIZES, FONT_SIZES, type ChartSize } from "./theme";

export interface GanttBar {
  id: string;
  startS: number;
  finishS: number;
  /** "checkpointed" (done by T) or "missed" (finished after T). */
  outcome: "checkpointed" | "missed";
  pS: number;
  sizeMb: number;
}

export interface BandwidthStepPoint {
  fromS: number;
  toS: number;
  m: number;
  bandwidthMbPerS: number;
}

export interface GanttInput {
  id: string;
  title: string;
  caption: string;
  deadlineS: number;
  bars: GanttBar[];
  steps: BandwidthStepPoint[];
  size?: ChartSize;
}

const OUTCOMES = ["checkpointed", "missed"] as const;

export function ganttFigure(input: GanttInput): Figure {
  const size = CHART_SIZES[input.size ?? "column"];
  const xMax = Math.max(input.deadlineS, ...input.bars.map((b) => b.finishS), ...input.steps.map((s) => s.toS));
  // Ticks at least ~45 pt apart: at 20 s steps the deadline's end label was set flush with
  // the frame against the one before it ("160180"); the deadline has its own rule and label.
  const axis = { tickCount: Math.max(2, Math.floor(size.width / 45)) };
  const x = { type: "quantitative" as const, title: "time since the release notice (s)", scale: { domain: [0, xMax], nice: false }, axis };
  const order = [...input.bars].sort((a, b) => a.startS - b.startS || a.finishS - b.finishS || (a.id < b.id ? -1 : 1)).map((b) => b.id);
  const deadline = {
    data: { values: [{ t: input.deadlineS, label: `deadline T = ${input.deadlineS} s` }] },
    mark: { type: "rule", color: "#000000", strokeDash: [4, 2], strokeWidth: 1 },
    encoding: { x: { field: "t", ...x } },
  };
  const barHeight = Math.max(2, Math.min(8, Math.floor(size.height / Math.max(1, order.length))));
  const gantt = {
    width: size.width,
    height: Math.max(60, barHeight * order.length),
    layer: [
      {
        data: { values: input.bars },
        mark: { type: "bar", height: Math.max(1, barHeight - 1) },
        encoding: {
          x: { field: "startS", ...x },
          x2: { field: "finishS" },
          y: { field: "id", type: "ordinal", title: `started checkpoints (${order.length})`, sort: order, axis: { labels: false, ticks: false } },
          color: {
            field: "outcome",
            type: "nominal",
            title: null,
            // Blue and orange: apart in greyscale too (CIE L* 46 and 73).
            scale: { domain: [...OUTCOMES], range: [CATEGORY_PALETTE[0], CATEGORY_PALETTE[4]] },
            legend: { orient: "top", direction: "horizontal" },
          },
          tooltip: [
            { field: "id", title: "application" },
            { field: "startS", title: "start (s)", format: ".1f" },
            { field: "finishS", title: "finish (s)", format: ".1f" },
            { field: "pS", title: "p (s)" },
            { field: "sizeMb", title: "size (MB)" },
            { field: "outcome", title: "outcome" },
          ],
        },
      },
      { ...deadline, encoding: { x: { field: "t", ...x, axis: { ...axis, title: null, labels: false } } } },
      {
        data: deadline.data,
        mark: { type: "text", align: "right", baseline: "top", dx: -3, dy: 2, fontSize: FONT_SIZES.annotation },
        encoding: { x: { field: "t", ...x }, y: { value: 0 }, text: { field: "label" } },
      },
    ],
  };
  const bandwidth = {
    width: size.width,
    height: 70,
    layer: [
      {
        data: { values: input.steps },
        mark: { type: "rect", color: CATEGORY_PALETTE[2], opacity: 0.85 },
        encoding: {
          x: { field: "fromS", ...x },
          x2: { field: "toS" },
          y: { field: "bandwidthMbPerS", type: "quantitative", title: "device (MB/s)" },
          y2: { datum: 0 },
          tooltip: [
            { field: "fromS", title: "from (s)", format: ".1f" },
            { field: "toS", title: "to (s)", format: ".1f" },
            { field: "m", title: "checkpoints running" },
            { field: "bandwidthMbPerS", title: "bandwidth (MB/s)", format: ".2f" },
          ],
        },
      },
      deadline,
    ],
  };
  const spec = {
    ...themeFrame(),
    vconcat: [gantt, bandwidth],
    spacing: 6,
  } as unknown as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption, spec };
}
