/**
 * Bandwidth curves with their peaks (ī, bw_ī) marked, one colour per series: the papers'
 * curves per application size ([Y-thesis] ch. 4) and the D1–D3 validation curves
 * ([Y11] Table 1). Model curves are lines, one dash per series (curves that coincide, as
 * D1–D3's nearly do, or cross stay apart, in greyscale too); measured means (when given)
 * are hollow points with ±1 standard deviation bars, cut at 0 (a bandwidth is not
 * negative) with the caption saying so; peaks are larger symbols whose shape says where
 * they come from (a model's prediction, a measurement, a published table); measured ones
 * are outlined and drawn last, so a coincident prediction does not hide them. Both axes
 * leave room around the data, so that no mark at an end is cut by the frame. A model curve
 * that leaves its fitted domain keeps its series' dash where the model was fitted and is
 * dotted where it extrapolates (points flagged `extrapolated`), with the word in the legend
 * (docs/science.md §3.2: outside its domain a form says what its algebra says, not what was
 * measured).
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, chartFrame, dashScale, paddedDomain, ZOOM_PARAM } from "./chart-frame";
import type { Figure } from "./figure";
import { clippedText, clipToBounds, NON_NEGATIVE } from "./interval-bounds";
import type { ChartSize } from "./theme";

export interface CurvePoint {
  /** The series' legend label, e.g. "15" (MB) or "D1". */
  series: string;
  m: number;
  bwMbPerS: number;
}

/** A point of a model's curve: outside the model's fitted domain it is an extrapolation. */
export interface ModelCurvePoint extends CurvePoint {
  extrapolated?: boolean;
}

export const WITHIN_DOMAIN = "within the fitted domain";
export const EXTRAPOLATED = "extrapolated";

/**
 * The two line layers that draw `curvePieces` rows (`data` and `transform` added by the
 * caller): within the fitted domain each series keeps its own `seriesEncoding` (its colour
 * and dash, told apart in greyscale); past it every series is dotted, with a legend entry
 * "extrapolated" on a channel of its own (opacity), so the series' dash scale stays theirs.
 */
export function extrapolationLayers(seriesEncoding: Record<string, unknown>, tooltip: object[]): { within: object; extrapolated: object } {
  const { strokeDash, ...rest } = seriesEncoding;
  const detail = { field: "piece", type: "nominal" as const };
  return {
    within: {
      transform: [{ filter: { field: "segment", equal: WITHIN_DOMAIN } }],
      mark: { type: "line", clip: true },
      encoding: { ...rest, strokeDash, detail, tooltip: [...tooltip, { field: "segment", title: "model" }] },
    },
    extrapolated: {
      transform: [{ filter: { field: "segment", equal: EXTRAPOLATED } }],
      mark: { type: "line", clip: true, strokeDash: [2, 2] },
      encoding: {
        ...rest,
        detail,
        opacity: {
          field: "segment",
          // Ordinal: vega-lite warns of opacity on a nominal field.
          type: "ordinal",
          title: null,
          scale: { domain: [EXTRAPOLATED], range: [1] },
          legend: { orient: "bottom", symbolType: "stroke", symbolSize: 300, symbolDash: [2, 2], symbolStrokeColor: "#222222" },
        },
        tooltip: [...tooltip, { field: "segment", title: "model" }],
      },
    },
  };
}

/**
 * A model's curves as line pieces: each series cut where it leaves or enters the fitted
 * domain, the boundary point in both pieces so the line stays whole, each piece named
 * (`piece`) and labelled (`segment`: within the fitted domain, or extrapolated).
 */
export function curvePieces(curves: readonly ModelCurvePoint[]): (CurvePoint & { segment: string; piece: string })[] {
  const rows: (CurvePoint & { segment: string; piece: string })[] = [];
  const bySeries = new Map<string, ModelCurvePoint[]>();
  for (const point of curves) bySeries.set(point.series, [...(bySeries.get(point.series) ?? []), point]);
  for (const [series, points] of bySeries) {
    let piece = 0;
    points.forEach((point, i) => {
      const previous = points[i - 1];
      const segment = point.extrapolated === true ? EXTRAPOLATED : WITHIN_DOMAIN;
      if (previous !== undefined && (previous.extrapolated === true) !== (point.extrapolated === true)) {
        piece += 1;
        // The boundary point starts the new piece too, so the dotted line meets the other.
        rows.push({ series, m: previous.m, bwMbPerS: previous.bwMbPerS, segment, piece: `${series} ${piece}` });
      }
      rows.push({ series, m: point.m, bwMbPerS: point.bwMbPerS, segment, piece: `${series} ${piece}` });
    });
  }
  return rows;
}

export interface MeasuredCurvePoint extends CurvePoint {
  sdBwMbPerS: number;
  count: number;
}

export interface PeakMarker extends CurvePoint {
  /** Legend label of the peak's origin, one of `peakOrigins`. */
  origin: string;
}

export interface PeakOrigin {
  origin: string;
  /** A Vega point shape: "circle", "diamond", "square", "triangle-up"… */
  shape: string;
  /** Drawn with a dark outline (measurements), so it stays visible over a coincident peak. */
  outlined: boolean;
}

export interface PeakCurvesInput {
  id: string;
  title: string;
  caption: string;
  xTitle: string;
  seriesTitle: string;
  /** Series labels in legend order. */
  series: string[];
  /** Model curve points (only usable bandwidths, docs/science.md §3.2); extrapolated ones are dotted. */
  curves: ModelCurvePoint[];
  measured?: MeasuredCurvePoint[];
  peaks: PeakMarker[];
  peakOrigins: PeakOrigin[];
  size?: ChartSize;
}

export const BANDWIDTH_AXIS_TITLE = "aggregated bandwidth (MB/s)";

export function peakCurvesFigure(input: PeakCurvesInput): Figure {
  const color = {
    field: "series",
    type: "nominal" as const,
    title: input.seriesTitle,
    scale: categoryScale(input.series),
    // Line segments in the legend, long enough to show each series' dash.
    legend: { orient: "bottom" as const, direction: "horizontal" as const, columns: 4, symbolType: "stroke", symbolSize: 300, symbolStrokeWidth: 1.5 },
  };
  const measuredBars = clipToBounds(
    (input.measured ?? []).map((p) => ({ ...p, low: p.bwMbPerS - p.sdBwMbPerS, high: p.bwMbPerS + p.sdBwMbPerS })),
    NON_NEGATIVE,
  );
  const all = [...input.curves, ...measuredBars.points, ...input.peaks];
  const xDomain = paddedDomain(all.map((p) => p.m), { nonNegative: true, fraction: 0.03 });
  const yDomain = paddedDomain([0, ...all.map((p) => p.bwMbPerS), ...measuredBars.points.map((p) => p.high)], { nonNegative: true });
  const x = { field: "m", type: "quantitative" as const, title: input.xTitle, scale: { domain: xDomain, nice: false }, axis: { tickMinStep: 1 } };
  const yScale = { domain: yDomain, nice: true };
  const dash = { field: "series", type: "nominal" as const, title: input.seriesTitle, scale: dashScale(input.series), legend: color.legend };
  const tooltip = [
    { field: "series", title: input.seriesTitle },
    { field: "m", title: "m" },
    { field: "bwMbPerS", title: "bandwidth (MB/s)", format: ".2f" },
  ];
  const extrapolates = input.curves.some((c) => c.extrapolated === true);
  const y = { field: "bwMbPerS", type: "quantitative" as const, title: BANDWIDTH_AXIS_TITLE, scale: yScale };
  const pieces = extrapolates ? extrapolationLayers({ x, y, color, strokeDash: dash }, tooltip) : null;
  const layers: object[] = pieces
    ? [
        { data: { values: curvePieces(input.curves) }, params: [ZOOM_PARAM], ...pieces.within },
        { data: { values: curvePieces(input.curves) }, ...pieces.extrapolated },
      ]
    : [{ data: { values: input.curves }, mark: { type: "line", clip: true }, params: [ZOOM_PARAM], encoding: { x, y, color, strokeDash: dash, tooltip } }];
  if (input.measured && input.measured.length > 0) {
    const measured = measuredBars.points;
    layers.push(
      {
        data: { values: measured },
        mark: { type: "rule", clip: true, strokeWidth: 0.6 },
        encoding: { x, y: { field: "low", type: "quantitative" }, y2: { field: "high" }, color },
      },
      {
        data: { values: measured },
        mark: { type: "point", clip: true, filled: false, size: 14, strokeWidth: 0.8 },
        encoding: {
          x,
          y: { field: "bwMbPerS", type: "quantitative" },
          color,
          tooltip: [...tooltip, { field: "sdBwMbPerS", title: "sd (MB/s)", format: ".2f" }, { field: "count", title: "runs" }],
        },
      },
    );
  }
  // One layer per origin, in legend order, so later origins (measurements) are drawn on
  // top; they share one shape legend.
  // Only origins with peaks: an empty layer would give vega an empty domain to draw on.
  const present = input.peakOrigins.filter((o) => input.peaks.some((p) => p.origin === o.origin));
  const origins = present.map((o) => o.origin);
  for (const origin of present) {
    layers.push({
      data: { values: input.peaks },
      transform: [{ filter: { field: "origin", equal: origin.origin } }],
      mark: {
        type: "point",
        clip: true,
        filled: true,
        opacity: 1,
        size: origin.outlined ? 48 : 64,
        ...(origin.outlined ? { stroke: "#222222", strokeWidth: 0.8 } : {}),
      },
      encoding: {
        x,
        y: { field: "bwMbPerS", type: "quantitative" },
        color,
        shape: {
          field: "origin",
          type: "nominal",
          title: "peak (ī, bw_ī)",
          scale: { domain: origins, range: present.map((o) => o.shape) },
          legend: { orient: "bottom", direction: "vertical" },
        },
        tooltip: [{ field: "origin", title: "peak" }, ...tooltip],
      },
    });
  }
  const spec = { ...chartFrame(input.size ?? "column"), layer: layers } as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption + clippedText(measuredBars.clipped, measuredBars.points.length, NON_NEGATIVE, "±1 sd bars"), spec };
}
