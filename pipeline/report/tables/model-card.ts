/**
 * The model card of a bandwidth model: what it computes (form, formula, coefficients),
 * in which units, on which domain it was fitted, how well (metrics, when fitted) and from
 * what (provenance). Two tables: the coefficients, and every other property as a reader
 * asks for it — the quantity in words, its value with its unit ("cross-validated RMSE
 * (5-fold, seed 1)", "2.237 MB/s"); the keys (`metrics.crossValidation.rmseMbPerS`) stay in
 * the model artifact. A metric or provenance entry the card does not know yet is still
 * shown, named from its key.
 */
import { formOf, parametersOf, termLabel, type BandwidthModel, type ModelTerm } from "../../fit/model";
import { describePredictionBand, predictionBandWidth } from "../../fit/prediction-band";
import { readableNumber, type CellValue, type Table } from "./table";

export interface ModelCard {
  coefficients: Table;
  properties: Table;
}

/** "a·m²·V²", "e", "a12·m·V²"… (the term's spelling is the fit stage's `termLabel`). */
export function termExpression(term: ModelTerm): string {
  const monomial = termLabel(term);
  return monomial === "1" ? term.name : `${term.name}·${monomial}`;
}

export function modelFormula(model: BandwidthModel): string {
  return formOf(model.form).formula;
}

/** Each parameter of the model's form: name, how it enters (a term, or a symbol), value. */
function parameterRows(model: BandwidthModel): { name: string; term: string; value: number | null }[] {
  const form = formOf(model.form);
  return parametersOf(model).filter((p) => !p.internal).map((p, j) => ({
    name: p.name,
    term: form.terms ? termExpression(form.terms[j]!) : `${p.symbol} (${p.meaning}${p.unit === "1" ? "" : `, ${p.unit}`})`,
    value: model.coefficients[p.name] ?? null,
  }));
}

export function modelCard(model: BandwidthModel, idPrefix: string, cluster?: string): ModelCard {
  return {
    coefficients: {
      id: `${idPrefix}-coefficients`,
      title: `Coefficients of the ${model.name} model`,
      caption: `${modelFormula(model)}, with m a count, V in GB (MB/1000) and bw in MB/s.`,
      columns: [
        { key: "name", label: "coefficient" },
        { key: "term", label: "term" },
        { key: "value", label: "value" },
      ],
      rows: parameterRows(model),
    },
    properties: {
      id: `${idPrefix}-card`,
      title: `Model card: ${model.name}${cluster !== undefined ? ` (${cluster})` : ""}`,
      caption:
        "What the model computes, in which units, on which domain it was fitted, how well and from what, in words; " +
        "every figure under its own name, and the covariance of the coefficients, are in the model artifact (JSON).",
      columns: [
        { key: "property", label: "quantity" },
        { key: "value", label: "value" },
      ],
      rows: cardRows(model, cluster).map(([property, value]) => ({ property, value })),
    },
  };
}

type Row = [string, CellValue];

/** The card's rows: what a reader asks of a model, in this order, each value with its unit. */
function cardRows(model: BandwidthModel, cluster: string | undefined): Row[] {
  const d = model.domain;
  const rows: Row[] = [
    ...(cluster !== undefined ? [["cluster", cluster] as Row] : []),
    ["model", model.name],
    ["form", `${model.form}, ${parametersOf(model).filter((p) => !p.internal).length} ${formOf(model.form).terms ? "terms" : "parameters"}: ${modelFormula(model)}`],
    ["units", `m, simultaneous checkpoints (${model.units.m}); V, aggregated size in ${model.units.V}; bw, aggregated bandwidth in ${model.units.bw}`],
    [
      "fitted domain (where it answers)",
      `m from ${d.mMin} to ${d.mMax}; V from ${readableNumber(d.vGbMin)} to ${readableNumber(d.vGbMax)} GB` +
        (d.writerGbMin === undefined || d.writerGbMax === undefined
          ? ""
          : d.writerGbMin === d.writerGbMax
            ? `; at ${readableNumber(d.writerGbMin * 1000)} MB per writer only (one size measured)`
            : `; V/m from ${readableNumber(d.writerGbMin * 1000)} to ${readableNumber(d.writerGbMax * 1000)} MB per writer`),
    ],
    ["bandwidth cap b_max", capText(model)],
    ...predictionBandRows(model),
    ...(model.notes ?? []).map((note, i): Row => [`note ${i + 1}`, note]),
  ];
  const metrics = { ...(model.metrics ?? {}) };
  const provenance = { ...model.provenance };
  const take = (from: Record<string, unknown>, key: string): unknown => {
    const value = from[key];
    delete from[key];
    return value;
  };
  const number = (value: unknown, unit = "") => (typeof value === "number" ? `${readableNumber(value)}${unit}` : null);
  if (model.metrics !== undefined) {
    const points = take(metrics, "pointCount");
    const runs = take(metrics, "runCount");
    const fitPoints = take(provenance, "fitPoints");
    rows.push(["fit points", `${number(points) ?? "?"}${typeof fitPoints === "string" ? ` (${fitPoints})` : ""}${typeof runs === "number" ? `, from ${runs} runs` : ""}`]);
    const parameters = take(metrics, "parameterCount");
    const dof = take(metrics, "degreesOfFreedom");
    if (parameters !== undefined) rows.push(["parameters and residual degrees of freedom", `${number(parameters)} and ${number(dof) ?? "?"}`]);
    const r2 = take(metrics, "rSquared");
    const adjusted = take(metrics, "adjustedRSquared");
    if (typeof r2 === "number") rows.push(["R² (adjusted R²)", `${r2.toFixed(3)}${typeof adjusted === "number" ? ` (${adjusted.toFixed(3)})` : ""}`]);
    for (const [key, label] of [
      ["rmseMbPerS", "RMSE, root-mean-square error"],
      ["maeMbPerS", "MAE, mean absolute error"],
      ["residualStandardErrorMbPerS", "residual standard error"],
    ] as const) {
      const value = take(metrics, key);
      if (typeof value === "number") rows.push([label, `${readableNumber(value)} MB/s`]);
    }
    const eGlobal = take(metrics, "eGlobalPercent");
    const eGlobalPoints = take(metrics, "eGlobalPointCount");
    if (typeof eGlobal === "number") rows.push(["E_global, the papers' mean absolute percentage error up to the peaks", `${eGlobal.toFixed(2)} %${typeof eGlobalPoints === "number" ? ` over ${eGlobalPoints} points` : ""}`]);
    const cv = take(metrics, "crossValidation") as { folds?: number; seed?: number; rmseMbPerS?: number | null } | undefined;
    if (cv !== undefined) rows.push([`cross-validated RMSE (${cv.folds ?? "?"}-fold, seed ${cv.seed ?? "?"})`, number(cv.rmseMbPerS, " MB/s") ?? "not computed"]);
    const condition = take(metrics, "conditionNumber");
    if (typeof condition === "number") rows.push(["condition number of the column-scaled design", readableNumber(condition)]);
    // Per-series peaks, coefficients with their intervals and their covariance have tables of their own, or the artifact.
    for (const key of ["coefficients", "covariance", "seriesPeaks", "distinctPointCount", "tQuantile"]) take(metrics, key);
  }
  // Whatever else the metrics hold, named from its key (e.g. rmseMbPerS → "RMSE", in MB/s).
  rows.push(...describeRest("", metrics));
  const tool = take(provenance, "tool");
  const version = take(provenance, "toolVersion");
  const method = take(provenance, "method");
  if (tool !== undefined || method !== undefined) rows.push(["fitted by", [tool !== undefined ? `${String(tool)}${version !== undefined ? ` ${String(version)}` : ""}` : "", method ?? ""].filter(Boolean).join(": ")]);
  const options = take(provenance, "options") as Record<string, unknown> | undefined;
  if (options !== undefined) rows.push(["fit options", Object.entries(options).map(([k, v]) => `${words(k)} ${typeof v === "boolean" ? (v ? "yes" : "no") : String(v)}`).join("; ")]);
  const inputs = take(provenance, "inputs") as { path: string; sha256: string }[] | undefined;
  if (Array.isArray(inputs)) rows.push(["fitted from", inputs.map((i) => `${i.path} (sha256 ${i.sha256.slice(0, 12)}…)`).join("; ")]);
  const source = take(provenance, "source");
  if (source !== undefined) rows.push(["source", String(source)]);
  const domain = take(provenance, "domain");
  if (domain !== undefined) rows.push(["fitted on", String(domain)]);
  rows.push(...describeRest("", provenance));
  return rows;
}

/** The cap and where it comes from (older files, without the source, had declared caps only). */
function capText(model: BandwidthModel): string {
  if (model.bandwidthCapMbPerS === null) return "none declared";
  const source = model.bandwidthCapSource === "measured" ? "measured: the largest mean of a measured (m, V) cell" : "declared";
  return `${readableNumber(model.bandwidthCapMbPerS)} MB/s, ${source}`;
}

/** Quantities named in words from their keys, units from their suffixes; nested objects flattened ("fold size"). */
function describeRest(prefix: string, value: Record<string, unknown>): Row[] {
  return Object.keys(value)
    .sort()
    .flatMap((key): Row[] => {
      const item = value[key];
      const { name, unit } = quantityOf(key);
      const label = prefix === "" ? name : `${prefix}, ${name}`;
      if (item === null || item === undefined) return [[label, "—"]];
      if (typeof item === "number") return [[label, `${readableNumber(item)}${unit}`]];
      if (typeof item === "string") return [[label, item]];
      if (typeof item === "boolean") return [[label, item ? "yes" : "no"]];
      if (!Array.isArray(item)) return describeRest(label, item as Record<string, unknown>);
      return [[label, `${item.length} entries, in the model artifact`]];
    });
}

const UNIT_SUFFIXES: [RegExp, string][] = [
  [/MbPerS$/, " MB/s"],
  [/Percent$/, " %"],
  [/Gb$/, " GB"],
  [/Mb$/, " MB"],
  [/Micros$/, " µs"],
  [/Seconds$|S$/, " s"],
];

/** "rmseMbPerS" → { name: "RMSE", unit: " MB/s" }; "allPoints" → "all points". */
function quantityOf(key: string): { name: string; unit: string } {
  for (const [suffix, unit] of UNIT_SUFFIXES) if (suffix.test(key) && key.replace(suffix, "") !== "") return { name: words(key.replace(suffix, "")), unit };
  return { name: words(key), unit: "" };
}

const ACRONYMS = new Set(["rmse", "mae", "mape", "cv", "aic", "bic"]);

function words(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(" ")
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w))
    .join(" ");
}

/** How wide the band of one new burst is, for a model that has one (not the published model). */
function predictionBandRows(model: BandwidthModel): Row[] {
  const band = predictionBandWidth(model);
  return band === null ? [] : [["prediction band (one new burst)", describePredictionBand(band)]];
}
