/**
 * The model's surface bw(m, V) as a heatmap over (m, V), with the box the model was fitted
 * on and measured points on top. Cells where the polynomial gives no usable bandwidth
 * (≤ 0, docs/science.md §3.2) are grey: that is where the quadratic says "collapse", not a measurement.
 * Outside the fitted box the surface is veiled (and labelled "extrapolated" where there is
 * room): there the model says what its form says, not what was measured.
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
  const cells = input.cells.map((c) => ({
    ...c,
    m0: c.m - input.mStep / 2,
    m1: c.m + input.mStep * 0.6,
    v0: c.vGb - input.vStepGb / 2,
    v1: c.vGb + input.vStepGb * 0.6,
    feasible: c.bwMbPerS > 0,
  }));
  const maxBw = Math.max(0, ...cells.map((c) => c.bwMbPerS));
  const xMax = Math.max(...input.cells.map((c) => c.m + input.mStep / 2));
  const yMax = Math.max(...input.cells.map((c) => c.vGb + input.vStepGb / 2));
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
  // The veil over everything outside the fitted box: four rectangles that frame the dashed box
  // (one per cell would overlap, and the overlaps would show as darker seams). Drawn before
  // the grey cells, which stay as they are.
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
  if (infeasible.length > 0) {
    layers.push({
      data: { values: infeasible },
      mark: { type: "rect", strokeWidth: 0, fill: MISSING_COLOR, clip },
      encoding: { x, x2: { field: "m1" }, y, y2: { field: "v1" }, tooltip: cellTooltip },
    });
  }
  // Name the grey region where it is, at the centroid of its cells, when it is large enough
  // to hold the words (otherwise the caption says what grey means).
  if (infeasible.length >= 0.2 * cells.length) {
    const centroid = {
      m: infeasible.reduce((s, c) => s + c.m, 0) / infeasible.length,
      vGb: infeasible.reduce((s, c) => s + c.vGb, 0) / infeasible.length,
    };
    layers.push({
      data: { values: [{ m0: centroid.m, v0: centroid.vGb, text: "bw ≤ 0: no usable value" }] },
      mark: { type: "text", fontSize: 7.5, color: "#222222" },
      encoding: { x, y, text: { field: "text" } },
    });
  } else if (xMax - d.mMax >= 0.25 * xMax) {
    // Otherwise the veiled strip right of the box says what it is, when it is wide enough.
    layers.push({
      data: { values: [{ m0: (d.mMax + xMax) / 2, v0: yMax / 2, text: "extrapolated" }] },
      mark: { type: "text", fontSize: 7.5, color: "#222222" },
      encoding: { x, y, text: { field: "text" } },
    });
  }
  layers.push({
    data: { values: [{ m0: d.mMin, m1: d.mMax, v0: d.vGbMin, v1: d.vGbMax }] },
    mark: { type: "rect", fillOpacity: 0, stroke: "white", strokeWidth: 1.2, strokeDash: [4, 2] },
    encoding: { x, x2: { field: "m1" }, y, y2: { field: "v1" } },
  });
  layers.push({
    data: { values: [{ m0: d.mMin + 0.3, v0: d.vGbMin, text: "fitted domain" }] },
    mark: { type: "text", fontSize: 7.5, color: "white", align: "left", baseline: "bottom", dy: -3 },
    encoding: { x, y, text: { field: "text" } },
  });
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
