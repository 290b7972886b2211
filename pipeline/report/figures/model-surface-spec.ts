/**
 * The model's surface bw(m, V) as a heatmap over (m, V), with the box the model was fitted
 * on and measured points on top. Cells where the polynomial gives no usable bandwidth
 * (≤ 0, docs/science.md §3.2) are grey: that is where the quadratic says "collapse", not a measurement.
 * The grey region and the fitted domain's dashed box are named in the legend, not by words
 * on the plot, where they would lie under the data points or run out of the frame. Outside
 * the fitted box the surface is veiled (the caption says so): there the model says what its
 * form says, not what was measured.
 */
import type { TopLevelSpec } from "vega-lite";
import { chartFrame } from "./chart-frame";
import type { Figure } from "./figure";
import { MISSING_COLOR, SEQUENTIAL_SCHEME, type ChartSize } from "./theme";

export interface SurfaceCell {
  m: number;
  vGb: number;
  /** The polynomial's value (MB/s); ≤ 0 is drawn as infeasible. */
  bwMbPerS: number;
}

export interface SurfacePoint {
  m: number;
  vGb: number;
  bwMbPerS: number;
  /** Legend label, e.g. "measured peak ([Y-thesis] Table 4.1)". */
  origin: string;
  /** Extra tooltip text, e.g. "v = 15 MB". */
  label: string;
}

export interface ModelSurfaceInput {
  id: string;
  title: string;
  caption: string;
  cells: SurfaceCell[];
  /** Grid steps, so cells tile the plane. */
  mStep: number;
  vStepGb: number;
  domain: { mMin: number; mMax: number; vGbMin: number; vGbMax: number };
  points: SurfacePoint[];
  /** Point origins in legend order with their shapes. */
  pointOrigins: { origin: string; shape: string }[];
  /** Area of the point symbols (default 36; smaller for many points). */
  pointSize?: number;
  size?: ChartSize;
}

export function modelSurfaceFigure(input: ModelSurfaceInput): Figure {
  // Each cell overlaps its right and upper neighbours (drawn after it) by 10 % of a step: abutting rects leave
  // anti-aliasing seams in the PNG and PDF.
  // (The overlap stops at the plot's edge: a cell past it would be cut by the frame.)
  const xMax = Math.max(...input.cells.map((c) => c.m + input.mStep / 2));
  const yMax = Math.max(...input.cells.map((c) => c.vGb + input.vStepGb / 2));
  const cells = input.cells.map((c) => ({
    ...c,
    m0: c.m - input.mStep / 2,
    m1: Math.min(xMax, c.m + input.mStep * 0.6),
    v0: c.vGb - input.vStepGb / 2,
    v1: Math.min(yMax, c.vGb + input.vStepGb * 0.6),
    feasible: c.bwMbPerS > 0,
  }));
  const maxBw = Math.max(0, ...cells.map((c) => c.bwMbPerS));
  const x = { field: "m0", type: "quantitative" as const, title: "simultaneous checkpoints m (count)", scale: { domain: [0, xMax], nice: false, zero: true } };
  const clip = true;
  const y = { field: "v0", type: "quantitative" as const, title: "aggregated size V (GB)", scale: { domain: [0, yMax], nice: false, zero: true } };
  const cellTooltip = [
    { field: "m", title: "m" },
    { field: "vGb", title: "V (GB)", format: ".2f" },
    { field: "bwMbPerS", title: "bw (MB/s)", format: ".2f" },
  ];
  const infeasible = cells.filter((c) => !c.feasible);
  const layers: object[] = [
    {
      data: { values: cells.filter((c) => c.feasible) },
      mark: { type: "rect", strokeWidth: 0, clip },
      encoding: {
        x,
        x2: { field: "m1" },
        y,
        y2: { field: "v1" },
        color: {
          field: "bwMbPerS",
          type: "quantitative",
          title: "bw (MB/s)",
          scale: { scheme: SEQUENTIAL_SCHEME, domain: [0, niceCeiling(maxBw)] },
          legend: { orient: "bottom", direction: "horizontal", gradientLength: 110 },
        },
        tooltip: cellTooltip,
      },
    },
  ];
  // The veil over everything outside the fitted box: four rectangles that frame it (one per
  // cell would overlap, and the overlaps would show as darker seams). Drawn before the grey
  // cells, which stay as they are.
  const d = input.domain;
  const veil = [
    { m0: d.mMax, m1: xMax, v0: 0, v1: yMax },
    { m0: 0, m1: d.mMin, v0: 0, v1: yMax },
    { m0: d.mMin, m1: d.mMax, v0: d.vGbMax, v1: yMax },
    { m0: d.mMin, m1: d.mMax, v0: 0, v1: d.vGbMin },
  ].filter((r) => r.m1 > r.m0 && r.v1 > r.v0);
  if (veil.length > 0) {
    layers.push({ data: { values: veil }, mark: { type: "rect", strokeWidth: 0, fill: "white", fillOpacity: 0.45, clip }, encoding: { x, x2: { field: "m1" }, y, y2: { field: "v1" } } });
  }
  const legendEntry = (label: string) => ({ orient: "bottom" as const, title: null, values: [label] });
  if (infeasible.length > 0) {
    const label = "bw ≤ 0: no usable value";
    layers.push({
      data: { values: infeasible.map((c) => ({ ...c, what: label })) },
      mark: { type: "rect", strokeWidth: 0, clip },
      encoding: {
        x,
        x2: { field: "m1" },
        y,
        y2: { field: "v1" },
        fill: { field: "what", type: "nominal", scale: { domain: [label], range: [MISSING_COLOR] }, legend: legendEntry(label) },
        tooltip: cellTooltip,
      },
    });
  }
  // The fitted domain: a dashed black box on a white one, visible on every colour of the scale.
  // (Drawn within the grid: a domain wider than the surface drawn ends at the frame.)
  const box = { m0: Math.min(d.mMin, xMax), m1: Math.min(d.mMax, xMax), v0: Math.min(d.vGbMin, yMax), v1: Math.min(d.vGbMax, yMax), what: "fitted domain" };
  layers.push(
    {
      data: { values: [box] },
      mark: { type: "rect", fillOpacity: 0, stroke: "white", strokeWidth: 2.4 },
      encoding: { x, x2: { field: "m1" }, y, y2: { field: "v1" } },
    },
    {
      // A path round the box (a line mark: vega-lite dashes lines by a field, not rects).
      data: { values: [[box.m0, box.v0], [box.m1, box.v0], [box.m1, box.v1], [box.m0, box.v1], [box.m0, box.v0]].map(([m0, v0], k) => ({ m0, v0, k, what: box.what })) },
      mark: { type: "line", color: "black", strokeWidth: 1 },
      encoding: {
        x,
        y,
        order: { field: "k", type: "quantitative" },
        strokeDash: { field: "what", type: "nominal", scale: { domain: [box.what], range: [[4, 2]] }, legend: legendEntry(box.what) },
      },
    },
  );
  if (input.points.length > 0) {
    const origins = input.pointOrigins;
    layers.push({
      data: { values: input.points.map((p) => ({ ...p, m0: p.m, v0: p.vGb })) },
      // filled: false with an explicit fill is what makes Vega-Lite's legend symbol match the mark.
      mark: { type: "point", filled: false, color: "black", fill: "white", fillOpacity: 1, opacity: 1, strokeWidth: 1, size: input.pointSize ?? 36 },
      encoding: {
        x,
        y,
        shape: {
          field: "origin",
          type: "nominal",
          title: null,
          scale: { domain: origins.map((o) => o.origin), range: origins.map((o) => o.shape) },
          legend: { orient: "bottom", direction: "vertical" },
        },
        tooltip: [
          { field: "origin", title: "point" },
          { field: "label", title: "series" },
          { field: "m", title: "m" },
          { field: "vGb", title: "V (GB)", format: ".3f" },
          { field: "bwMbPerS", title: "bw (MB/s)", format: ".2f" },
        ],
      },
    });
  }
  const spec = { ...chartFrame(input.size ?? "column"), layer: layers, resolve: { legend: { shape: "independent" } } } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption, spec };
}

/** The next multiple of 5 (legend ticks read 0, 10, 20…). */
function niceCeiling(value: number): number {
  return Math.max(5, Math.ceil(value / 5) * 5);
}
