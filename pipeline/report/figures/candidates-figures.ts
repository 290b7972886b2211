/**
 * The forms `--form auto` compared (docs/science.md §3.5), side by side: a table of every
 * candidate with its cross-validated error, R², E_global and parameters, and one figure of
 * each candidate's curves over the measured means, one panel per application size —
 * with each form's dash where the forms were fitted, dotted where they extrapolate.
 */
import { bandwidthEvaluator, formOf, inModelDomain, type BandwidthModel } from "../../fit/model";
import { candidateModel } from "../../fit/candidate-model";
import type { FormSelection } from "../../fit/select-form";
import type { Observations } from "../../ingest/observations";
import { categoryScale, dashScale, paddedDomain, themeFrame } from "./chart-frame";
import type { Figure } from "./figure";
import { measuredSeries } from "./measured-series";
import { curvePieces, extrapolationLayers } from "./peak-curves-spec";
import { readableNumber, type Table } from "../tables/table";

export function candidatesTable(selection: FormSelection, idPrefix = "fitted-model"): Table {
  return {
    id: `${idPrefix}-candidates`,
    title: "The forms compared by cross-validation",
    caption:
      `Every form of bw(m, V) fitted on the same points and scored on the same ${selection.folds} folds (seed ${selection.seed}, folds grouped by run): ` +
      `the cross-validated RMSE with its standard error over the folds, R² and the papers' E_global in sample, and the fitted parameters. ` +
      `Rule: ${selection.rule}. Forms marked as project additions are not the papers' (docs/science.md §3.5).`,
    columns: [
      { key: "form", label: "form" },
      { key: "origin", label: "from" },
      { key: "parameterCount", label: "parameters" },
      { key: "cv", label: "CV RMSE", unit: "MB/s", decimals: 3 },
      { key: "se", label: "± SE", unit: "MB/s", decimals: 3 },
      { key: "rSquared", label: "R²", decimals: 4 },
      { key: "eGlobal", label: "E_global", unit: "%", decimals: 2 },
      { key: "status", label: "" },
      { key: "parameters", label: "fitted parameters" },
    ],
    rows: selection.candidates.map((c) => {
      const form = formOf(c.form);
      return {
        form: c.form,
        origin: form.origin === "papers" ? form.source : "project addition",
        parameterCount: c.parameterCount,
        cv: c.cvRmseMbPerS,
        se: c.cvStandardErrorMbPerS,
        rSquared: c.rSquared,
        eGlobal: c.eGlobalPct,
        status: c.form === selection.chosen ? "chosen" : c.reason ? `not scored: ${c.reason}` : "",
        parameters:
          c.parameters === null
            ? null
            : form.parameters.filter((p) => !p.fixed).map((p) => `${p.symbol} = ${readableNumber(c.parameters![p.name]!)}`).join(", "),
      };
    }),
  };
}

export function candidatesFigure(
  selection: FormSelection,
  chosen: BandwidthModel,
  observations: Observations,
  observationsLabel: string,
  mMax: number,
  idPrefix = "fitted-model",
): Figure | null {
  const labelled = measuredSeries(observations);
  if (labelled.length === 0) return null;
  const forms = selection.candidates.filter((c) => c.parameters !== null);
  const curves = forms.flatMap((candidate) => {
    const model = candidateModel(chosen, candidate)!;
    const bw = bandwidthEvaluator(model);
    return labelled.flatMap(({ label, series }) => {
      const points = [];
      for (let m = 1; m <= mMax; m++) {
        const vGb = (m * series.sizeMb) / 1000;
        const value = bw(m, vGb);
        if (Number.isFinite(value) && value > 0) points.push({ series: `${candidate.form}${SEPARATOR}${label}`, m, bwMbPerS: round(value), extrapolated: !inModelDomain(model, m, vGb) });
      }
      return points;
    });
  });
  const rows = [
    ...curvePieces(curves).map((p) => {
      const at = p.series.indexOf(SEPARATOR);
      return { kind: "curve", form: p.series.slice(0, at), size: p.series.slice(at + SEPARATOR.length), m: p.m, bwMbPerS: p.bwMbPerS, segment: p.segment, piece: p.piece };
    }),
    ...labelled.flatMap(({ label, series }) => series.points.map((p) => ({ kind: "mean", size: label, m: p.m, bwMbPerS: round(p.meanBwMbPerS), what: "measured mean" }))),
  ];
  const order = forms.map((c) => c.form);
  // Short axis titles: they repeat under and beside every panel.
  // Room at both ends, so that no mean at m = 1 or at the top is cut by a panel's frame.
  const x = { field: "m", type: "quantitative" as const, title: "m (count)", scale: { domain: paddedDomain(rows.map((r) => r.m), { nonNegative: true }), nice: false } };
  const y = { field: "bwMbPerS", type: "quantitative" as const, title: "bw (MB/s)", scale: { domain: paddedDomain([0, ...rows.map((r) => r.bwMbPerS)], { nonNegative: true }), nice: true } };
  const sizes = labelled.map((l) => l.label);
  const legend = { orient: "bottom" as const, direction: "horizontal" as const, symbolType: "stroke", symbolSize: 300 };
  // Each form its colour and dash (apart in greyscale) where fitted, dotted past its domain.
  const lines = extrapolationLayers(
    {
      x,
      y,
      color: { field: "form", type: "nominal", title: "form", scale: categoryScale(order), legend },
      strokeDash: { field: "form", type: "nominal", title: "form", scale: dashScale(order), legend },
    },
    [{ field: "form" }, { field: "m" }, { field: "bwMbPerS", title: "bw (MB/s)", format: ".2f" }],
  );
  const spec = {
    ...themeFrame(),
    data: { values: rows },
    facet: { field: "size", type: "nominal", title: "application size v (MB)", sort: sizes, header: { labelFontSize: 8, titleFontSize: 8 } },
    columns: Math.min(3, sizes.length),
    spec: {
      width: 130,
      height: 95,
      layer: [
        ...[lines.within, lines.extrapolated].map((layer) => {
          const { transform, ...rest } = layer as { transform: object[] };
          return { ...rest, transform: [{ filter: "datum.kind === 'curve'" }, ...transform] };
        }),
        {
          transform: [{ filter: "datum.kind === 'mean'" }],
          mark: { type: "point", filled: false, color: "#222222", size: 14, strokeWidth: 0.8, clip: true },
          encoding: {
            x,
            y,
            shape: { field: "what", type: "nominal", title: null, scale: { range: ["circle"] }, legend: { orient: "bottom" } },
            tooltip: [{ field: "m" }, { field: "bwMbPerS", title: "mean (MB/s)", format: ".2f" }],
          },
        },
      ],
    },
  };
  const d = chosen.domain;
  return {
    id: `${idPrefix}-candidates`,
    title: "The candidate forms over the measured means",
    caption:
      `Each form's curve m ↦ bw(m, m·v), fitted to ${observationsLabel}, per application size v, with the measured per-(m, v) means (circles). ` +
      `Drawn with each form's dash over the fitted domain (m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${d.vGbMin}, ${d.vGbMax}] GB), dotted where a form extrapolates. ` +
      `Chosen by ${selection.folds}-fold cross-validation: ${selection.chosen} (table "The forms compared by cross-validation").`,
    spec: spec as unknown as Figure["spec"],
  };
}

/** Between a form's name (no spaces) and a size's label in one curve's key. */
const SEPARATOR = " at v = ";

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
