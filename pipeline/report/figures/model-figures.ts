/**
 * The figures of one bandwidth model against measurements (docs/science.md §3):
 *
 * - its surface bw(m, V) with the box it was fitted on and measured points on top;
 * - its curve per application size with its peaks next to the measured ones;
 * - its D1–D3 curves with its peaks next to the measured ones of [Y11] Table 1.
 *
 * The measurements are ingest's observations when given (per-(m, v) means ± sd, measured
 * peaks, the data-set runs), else the published peaks of [Y-thesis] Table 4.1.
 *
 * A model is drawn as what it is where it was fitted, and marked where it is not: curves
 * dotted and labelled "extrapolated" outside its fitted domain, the surface veiled there.
 */
import { bandwidthEvaluator, type BandwidthModel } from "../../fit/model";
import { peakCurve } from "../../fit/peak-curve";
import type { Observations } from "../../ingest/observations";
import { TABLE_4_1_PEAKS, VALIDATION_DATASETS } from "../../ingest/published-azur-data";
import type { Figure } from "./figure";
import { datasetPoints, measuredSeries } from "./measured-series";
import { sizeSeriesCurve, usable } from "../../reproduce/size-series-curve";
import { modelSurfaceFigure, type SurfaceCell, type SurfacePoint } from "./model-surface-spec";
import { peakCurvesFigure, type MeasuredCurvePoint, type PeakMarker } from "./peak-curves-spec";
import { CAMPAIGN_M_MAX, TABLE_4_1_SOURCE, VALIDATION_DATASETS_SOURCE } from "../../reproduce/published-values";

export interface ModelFiguresOptions {
  /** Prefix of the figure ids, e.g. "paper-model". */
  idPrefix: string;
  /** How captions and legends name the model, e.g. "published model ([Y11] eq. 4)". */
  modelLabel: string;
  /** Measured data to draw with the model (ingest's observations), and how captions name it, e.g. "the traces x.csv". */
  observations?: Observations;
  observationsLabel?: string;
  /**
   * Points drawn on the surface (e.g. the fit points), with their legend label and which
   * points they are (e.g. the model's `provenance.fitPoints`); default the Table 4.1 peaks.
   */
  surfacePoints?: { label: string; selection: string; points: { m: number; vGb: number; bwMbPerS: number; label: string }[] };
  /** Draw the D1–D3 figure (default true; the data sets are Azur's). */
  datasets?: boolean;
  /** Surface grid: m = 1..mMax, V = 0..vMaxGb in steps of vStepGb. */
  mMax?: number;
  vMaxGb?: number;
  vStepGb?: number;
}

/** The range a model's figures cover when no measurements set it: Azur's campaign, m ≤ 30, V ≤ 6 GB. */
export const DEFAULT_MODEL_AXES = { mMax: CAMPAIGN_M_MAX, vMaxGb: 6, vStepGb: 0.1 } as const;

const MEASURED_41 = `measured (${TABLE_4_1_SOURCE})`;
const MEASURED_D = `measured (${VALIDATION_DATASETS_SOURCE.split(",")[0]})`;

export function modelFigures(model: BandwidthModel, options: ModelFiguresOptions): Figure[] {
  return [surfaceFigure(model, options), sizeCurvesFigure(model, options), ...(options.datasets === false ? [] : [datasetCurvesFigure(model, options)])];
}

function surfaceFigure(model: BandwidthModel, options: ModelFiguresOptions): Figure {
  const mMax = options.mMax ?? DEFAULT_MODEL_AXES.mMax;
  const vMax = options.vMaxGb ?? DEFAULT_MODEL_AXES.vMaxGb;
  const vStep = options.vStepGb ?? DEFAULT_MODEL_AXES.vStepGb;
  const bw = bandwidthEvaluator(model);
  const cells: SurfaceCell[] = [];
  const vCount = Math.round(vMax / vStep);
  for (let m = 1; m <= mMax; m++) {
    for (let j = 0; j < vCount; j++) {
      const vGb = round((j + 0.5) * vStep);
      cells.push({ m, vGb, bwMbPerS: round(bw(m, vGb)) });
    }
  }
  const published = `measured peaks (${TABLE_4_1_SOURCE})`;
  const given = options.surfacePoints;
  const points: SurfacePoint[] = given
    ? given.points.filter((p) => p.vGb <= vMax && p.m <= mMax).map((p) => ({ ...p, origin: given.label }))
    : TABLE_4_1_PEAKS.map((p) => ({
        m: p.peakM,
        vGb: (p.peakM * p.sizeMb) / 1000,
        bwMbPerS: p.peakBwMbPerS,
        origin: published,
        label: `v = ${p.sizeMb} MB`,
      }));
  return modelSurfaceFigure({
    id: `${options.idPrefix}-surface`,
    title: `bw(m, V) of the ${options.modelLabel}`,
    caption:
      `Aggregated checkpoint bandwidth predicted by the ${options.modelLabel} over m = 1..${mMax} simultaneous checkpoints ` +
      `and aggregated size V (GB = MB/1000). Dashed box: the domain the model was fitted on; outside it, veiled, the model ` +
      `extrapolates; grey: the model gives no usable bandwidth (≤ 0, docs/science.md §3.2). Points: ${given ? `the ${given.label} of ${options.observationsLabel ?? "the ingested traces"} (${given.selection})` : `the peaks measured on the Azur cluster, ${TABLE_4_1_SOURCE}`}.`,
    cells,
    mStep: 1,
    vStepGb: vStep,
    domain: model.domain,
    points,
    pointOrigins: [{ origin: given ? given.label : published, shape: "circle" }],
    pointSize: given && given.points.length > 30 ? 14 : 36,
  });
}

function sizeCurvesFigure(model: BandwidthModel, options: ModelFiguresOptions): Figure {
  const mMax = options.mMax ?? DEFAULT_MODEL_AXES.mMax;
  const predicted = `predicted by the ${shortLabel(options.modelLabel)}`;
  const observed = options.observations ? measuredSeries(options.observations) : null;
  const sizes = observed
    ? observed.map((o) => ({ label: o.label, sizeMb: o.series.sizeMb }))
    : TABLE_4_1_PEAKS.map((p) => ({ label: String(p.sizeMb), sizeMb: p.sizeMb }));
  const curves = sizes.flatMap(({ label, sizeMb }) =>
    sizeSeriesCurve(model, sizeMb, mMax)
      .curve.filter((c) => usable(c.bw))
      .map((c) => ({ series: label, m: c.m, bwMbPerS: round(c.bw), extrapolated: !c.inDomain })),
  );
  const peaks: PeakMarker[] = sizes.map(({ label, sizeMb }) => {
    const peak = sizeSeriesCurve(model, sizeMb, mMax).peak;
    return { series: label, m: peak.m, bwMbPerS: round(peak.bw), origin: predicted };
  });
  let measuredOrigin = MEASURED_41;
  let measured: MeasuredCurvePoint[] | undefined;
  if (observed) {
    measuredOrigin = "measured peak (traces)";
    measured = observed.flatMap(({ label, series }) =>
      series.points.map((p) => ({ series: label, m: p.m, bwMbPerS: round(p.meanBwMbPerS), sdBwMbPerS: round(p.sdBwMbPerS), count: p.count })),
    );
    peaks.push(...observed.map(({ label, series }) => ({ series: label, m: series.peak.m, bwMbPerS: round(series.peak.bwMbPerS), origin: measuredOrigin })));
  } else {
    peaks.push(...TABLE_4_1_PEAKS.map((p) => ({ series: String(p.sizeMb), m: p.peakM, bwMbPerS: p.peakBwMbPerS, origin: MEASURED_41 })));
  }
  return peakCurvesFigure({
    id: `${options.idPrefix}-size-curves`,
    title: `Bandwidth per application size`,
    caption:
      `Curves m ↦ bw(m, m·v) of the ${options.modelLabel} for each application size v (points where the model gives no ` +
      `usable bandwidth are omitted)${extrapolationNote(curves, model)}. Circles: the peak each curve predicts; diamonds: the measured peak ` +
      (observed
        ? `of ${options.observationsLabel ?? "the ingested traces"}, whose per-(m, v) means are the small points with ±1 sd bars.`
        : `on the Azur cluster (${TABLE_4_1_SOURCE}).`),
    xTitle: "simultaneous checkpoints m (count)",
    seriesTitle: "application size v (MB)",
    series: sizes.map((s) => s.label),
    curves,
    ...(measured ? { measured } : {}),
    peaks,
    peakOrigins: [
      { origin: predicted, shape: "circle", outlined: false },
      { origin: measuredOrigin, shape: "diamond", outlined: true },
    ],
  });
}

function datasetCurvesFigure(model: BandwidthModel, options: ModelFiguresOptions): Figure {
  const predicted = `predicted by the ${shortLabel(options.modelLabel)}`;
  const names = VALIDATION_DATASETS.map((d) => d.name);
  const curves = VALIDATION_DATASETS.flatMap((d) =>
    peakCurve(model, d.sizesMb)
      .curve.filter((c) => usable(c.bw))
      .map((c) => ({ series: d.name, m: c.m, bwMbPerS: round(c.bw), extrapolated: !c.inDomain })),
  );
  const peaks: PeakMarker[] = [];
  for (const d of VALIDATION_DATASETS) {
    const peak = peakCurve(model, d.sizesMb).peak;
    peaks.push({ series: d.name, m: peak.m, bwMbPerS: round(peak.bw), origin: predicted });
    peaks.push({ series: d.name, m: d.measuredPeak.m, bwMbPerS: d.measuredPeak.bwMbPerS, origin: MEASURED_D });
  }
  const measured = options.observations
    ? datasetPoints(options.observations, names).map((p) => ({
        series: p.dataset,
        m: p.m,
        bwMbPerS: round(p.meanBwMbPerS),
        sdBwMbPerS: round(p.sdBwMbPerS),
        count: p.count,
      }))
    : [];
  // Said when it is so: curves that coincide, and peaks at the last block (maxima of a curve still rising, not turning points).
  const lastI = Math.max(...curves.map((c) => c.m));
  const atEnd = peaks.filter((p) => p.origin === predicted && p.m === lastI).map((p) => p.series);
  const byM = new Map<number, number[]>();
  for (const c of curves) byM.set(c.m, [...(byM.get(c.m) ?? []), c.bwMbPerS]);
  const spread = Math.max(...[...byM.values()].filter((v) => v.length === names.length).map((v) => (Math.max(...v) - Math.min(...v)) / Math.max(...v.map(Math.abs))));
  const remarks =
    (spread < 0.02 ? ` The ${names.length} curves differ by less than 2 % at every i: they differ only through the aggregated size V, on which this model barely depends here.` : "") +
    (atEnd.length > 0 ? ` The predicted peak${atEnd.length > 1 ? "s" : ""} of ${atEnd.join(", ")} at i = ${lastI}, the last block, ${atEnd.length > 1 ? "are maxima of curves" : "is the maximum of a curve"} still rising there, not turning points.` : "");
  return peakCurvesFigure({
    id: `${options.idPrefix}-datasets`,
    title: "Peaks of the validation data sets D1–D3",
    caption:
      `Curves i ↦ bw(i, Σ_{k≤i} s_k) of the ${options.modelLabel} for the data sets D1–D3 (${VALIDATION_DATASETS_SOURCE}, ` +
      `docs/science.md §3.4)${extrapolationNote(curves, model)}. Circles: predicted peak; diamonds: peak measured on the Azur cluster` +
      (measured.length > 0 ? `; small points: mean ± sd of the data-set runs of ${options.observationsLabel ?? "the ingested traces"}.` : ".") +
      remarks,
    xTitle: "checkpointed blocks i (count)",
    seriesTitle: "data set",
    series: names,
    curves,
    ...(measured.length > 0 ? { measured } : {}),
    peaks,
    peakOrigins: [
      { origin: predicted, shape: "circle", outlined: false },
      { origin: MEASURED_D, shape: "diamond", outlined: true },
    ],
  });
}

/** What the dashes mean, when a curve leaves the model's fitted domain. */
function extrapolationNote(curves: readonly { extrapolated: boolean }[], model: BandwidthModel): string {
  if (!curves.some((c) => c.extrapolated)) return "";
  const d = model.domain;
  return `; drawn with each series' dash where the model was fitted (m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${d.vGbMin}, ${d.vGbMax}] GB), dotted where it extrapolates`;
}

function shortLabel(label: string): string {
  return label.replace(/\s*\(.*\)$/, "");
}

/** Six decimals: enough for any figure, and stable JSON across platforms. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
