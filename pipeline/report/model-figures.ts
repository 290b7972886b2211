/**
 * The figures of one bandwidth model against the published measurements (SPEC §3):
 *
 * - its surface bw(m, V) with its fitted domain and the Table 4.1 peaks;
 * - its curve per Table 4.1 size with its peaks next to the measured ones;
 * - its D1–D3 curves with its peaks next to the measured ones of [Y11] Table 1.
 */
import { bandwidthEvaluator, type BandwidthModel } from "../fit/model";
import type { Figure } from "./figure";
import { cumulativeSizesCurve, peakOf, sizeSeriesCurve } from "./model-curves";
import { modelSurfaceFigure, type SurfaceCell } from "./model-surface-spec";
import { peakCurvesFigure, type PeakMarker } from "./peak-curves-spec";
import {
  CAMPAIGN_M_MAX,
  TABLE_4_1_PEAKS,
  TABLE_4_1_SOURCE,
  VALIDATION_DATASETS,
  VALIDATION_DATASETS_SOURCE,
} from "./published-values";

export interface ModelFiguresOptions {
  /** Prefix of the figure ids, e.g. "paper-model". */
  idPrefix: string;
  /** How captions and legends name the model, e.g. "published model ([Y11] eq. 4)". */
  modelLabel: string;
  /** Surface grid: m = 1..mMax, V = 0..vMaxGb in steps of vStepGb. */
  mMax?: number;
  vMaxGb?: number;
  vStepGb?: number;
}

const MEASURED_41 = `measured (${TABLE_4_1_SOURCE})`;
const MEASURED_D = `measured (${VALIDATION_DATASETS_SOURCE.split(",")[0]})`;

export function modelFigures(model: BandwidthModel, options: ModelFiguresOptions): Figure[] {
  return [surfaceFigure(model, options), sizeCurvesFigure(model, options), datasetCurvesFigure(model, options)];
}

function surfaceFigure(model: BandwidthModel, options: ModelFiguresOptions): Figure {
  const mMax = options.mMax ?? CAMPAIGN_M_MAX;
  const vMax = options.vMaxGb ?? 6;
  const vStep = options.vStepGb ?? 0.1;
  const evaluate = bandwidthEvaluator(model);
  const cells: SurfaceCell[] = [];
  const vCount = Math.round(vMax / vStep);
  for (let m = 1; m <= mMax; m++) {
    for (let j = 0; j < vCount; j++) {
      const vGb = round((j + 0.5) * vStep);
      cells.push({ m, vGb, bwMbPerS: round(evaluate(m, vGb)) });
    }
  }
  return modelSurfaceFigure({
    id: `${options.idPrefix}-surface`,
    title: `bw(m, V) of the ${options.modelLabel}`,
    caption:
      `Aggregated checkpoint bandwidth predicted by the ${options.modelLabel} over m = 1..${mMax} simultaneous checkpoints ` +
      `and aggregated size V (GB = MB/1000). Dashed box: the domain the model was fitted on; grey: the polynomial gives ` +
      `no usable bandwidth (≤ 0, SPEC §3.2). Points: the peaks measured on the Azur cluster, ${TABLE_4_1_SOURCE}.`,
    cells,
    mStep: 1,
    vStepGb: vStep,
    domain: model.domain,
    points: TABLE_4_1_PEAKS.map((p) => ({
      m: p.m,
      vGb: (p.m * p.sizeMb) / 1000,
      bwMbPerS: p.bwMbPerS,
      origin: `measured peaks (${TABLE_4_1_SOURCE})`,
      label: `v = ${p.sizeMb} MB`,
    })),
    pointOrigins: [{ origin: `measured peaks (${TABLE_4_1_SOURCE})`, shape: "circle" }],
  });
}

function sizeCurvesFigure(model: BandwidthModel, options: ModelFiguresOptions): Figure {
  const mMax = options.mMax ?? CAMPAIGN_M_MAX;
  const predicted = `predicted by the ${shortLabel(options.modelLabel)}`;
  const series = TABLE_4_1_PEAKS.map((p) => String(p.sizeMb));
  const curves = TABLE_4_1_PEAKS.flatMap((p) =>
    sizeSeriesCurve(model, p.sizeMb, mMax)
      .filter((c) => c.usable)
      .map((c) => ({ series: String(p.sizeMb), m: c.m, bwMbPerS: round(c.bwMbPerS) })),
  );
  const peaks: PeakMarker[] = [];
  for (const p of TABLE_4_1_PEAKS) {
    const peak = peakOf(sizeSeriesCurve(model, p.sizeMb, mMax));
    if (peak) peaks.push({ series: String(p.sizeMb), m: peak.m, bwMbPerS: round(peak.bwMbPerS), origin: predicted });
    peaks.push({ series: String(p.sizeMb), m: p.m, bwMbPerS: p.bwMbPerS, origin: MEASURED_41 });
  }
  return peakCurvesFigure({
    id: `${options.idPrefix}-size-curves`,
    title: `Bandwidth per application size`,
    caption:
      `Curves m ↦ bw(m, m·v) of the ${options.modelLabel} for the application sizes v of ${TABLE_4_1_SOURCE} ` +
      `(points where the model gives no usable bandwidth are omitted). Circles: the peak each curve predicts; ` +
      `diamonds: the peak measured on the Azur cluster (${TABLE_4_1_SOURCE}).`,
    xTitle: "simultaneous checkpoints m (count)",
    seriesTitle: "application size v (MB)",
    series,
    curves,
    peaks,
    peakOrigins: [
      { origin: predicted, shape: "circle", outlined: false },
      { origin: MEASURED_41, shape: "diamond", outlined: true },
    ],
  });
}

function datasetCurvesFigure(model: BandwidthModel, options: ModelFiguresOptions): Figure {
  const predicted = `predicted by the ${shortLabel(options.modelLabel)}`;
  const curves = VALIDATION_DATASETS.flatMap((d) =>
    cumulativeSizesCurve(model, d.sizesMb)
      .filter((c) => c.usable)
      .map((c) => ({ series: d.name, m: c.m, bwMbPerS: round(c.bwMbPerS) })),
  );
  const peaks: PeakMarker[] = [];
  for (const d of VALIDATION_DATASETS) {
    const peak = peakOf(cumulativeSizesCurve(model, d.sizesMb));
    if (peak) peaks.push({ series: d.name, m: peak.m, bwMbPerS: round(peak.bwMbPerS), origin: predicted });
    peaks.push({ series: d.name, m: d.measuredPeak.m, bwMbPerS: d.measuredPeak.bwMbPerS, origin: MEASURED_D });
  }
  return peakCurvesFigure({
    id: `${options.idPrefix}-datasets`,
    title: "Peaks of the validation data sets D1–D3",
    caption:
      `Curves i ↦ bw(i, Σ_{k≤i} s_k) of the ${options.modelLabel} for the data sets D1–D3 (${VALIDATION_DATASETS_SOURCE}, ` +
      `SPEC §3.4). Circles: predicted peak; diamonds: peak measured on the Azur cluster.`,
    xTitle: "checkpointed blocks i (count)",
    seriesTitle: "data set",
    series: VALIDATION_DATASETS.map((d) => d.name),
    curves,
    peaks,
    peakOrigins: [
      { origin: predicted, shape: "circle", outlined: false },
      { origin: MEASURED_D, shape: "diamond", outlined: true },
    ],
  });
}

function shortLabel(label: string): string {
  return label.replace(/\s*\(.*\)$/, "");
}

/** Six significant decimals: enough for any figure, and stable JSON across platforms. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

