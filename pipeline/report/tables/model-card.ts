/**
 * The model card of a bandwidth model: what it computes (form, formula, coefficients),
 * in which units, on which domain it was fitted, how well (metrics, when fitted) and from
 * what (provenance). Two tables: the coefficients, and every other property.
 */
import { formOf, termLabel, type BandwidthModel, type ModelTerm } from "../../fit/model";
import type { CellValue, Table } from "./table";

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
  return form.parameters.map((p, j) => ({
    name: p.name,
    term: form.terms ? termExpression(form.terms[j]!) : `${p.symbol} (${p.meaning}${p.unit === "1" ? "" : `, ${p.unit}`})`,
    value: model.coefficients[p.name] ?? null,
  }));
}

export function modelCard(model: BandwidthModel, idPrefix: string, cluster?: string): ModelCard {
  const d = model.domain;
  const properties: [string, CellValue][] = [
    ...(cluster !== undefined ? ([["cluster", cluster]] as [string, CellValue][]) : []),
    ["name", model.name],
    ["form", `${model.form} (${formOf(model.form).parameters.length} ${formOf(model.form).terms ? "terms" : "parameters"})`],
    ["formula", modelFormula(model)],
    ["units", `m: ${model.units.m}; V: ${model.units.V}; bw: ${model.units.bw}`],
    ["fitted domain", `m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${d.vGbMin}, ${d.vGbMax}] GB`],
    ["bandwidth cap b_max", model.bandwidthCapMbPerS === null ? "unknown" : `${model.bandwidthCapMbPerS} MB/s`],
    ...(model.notes ?? []).map((note, i): [string, CellValue] => [`note ${i + 1}`, note]),
    ...flatten("metrics", model.metrics ?? {}),
    ...flatten("provenance", model.provenance),
  ];
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
      caption: "What the model computes, its units, the domain it was fitted on, its metrics and provenance.",
      columns: [
        { key: "property", label: "property" },
        { key: "value", label: "value" },
      ],
      rows: properties.map(([property, value]) => ({ property, value })),
    },
  };
}

/**
 * Nested objects as "prefix.key" rows; arrays as compact JSON when short, else a count
 * (the tables of the fit, or the model artifact itself, hold them in full).
 */
function flatten(prefix: string, value: Record<string, unknown>): [string, CellValue][] {
  return Object.keys(value)
    .sort()
    .flatMap((key): [string, CellValue][] => {
      const item = value[key];
      const name = `${prefix}.${key}`;
      if (item === null || item === undefined) return [[name, null]];
      if (typeof item === "number" || typeof item === "string") return [[name, item]];
      if (typeof item === "object" && !Array.isArray(item)) return flatten(name, item as Record<string, unknown>);
      const json = JSON.stringify(item);
      return [[name, json.length <= 240 ? json : `${Array.isArray(item) ? item.length : "…"} entries (in the model artifact)`]];
    });
}
