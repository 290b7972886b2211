/**
 * Read a bandwidth model artifact from disk (or the built-in `paper` model), checking its
 * shape so that a hand-edited or truncated file is refused with a message that says what
 * is wrong, not used.
 */
import { parseJson } from "../input/parse-json";
import { readInputFile } from "../input/read-input";
import { InputError } from "../shared/errors";
import { empiricalCellNames } from "./forms/empirical-form";
import { fittedParameterNames } from "./one-size-fit";
import { validatePredictive } from "./predictive-distribution";
import type { FormParameter } from "./forms/bandwidth-form";
import { BANDWIDTH_CAP_SOURCES, isModelForm, MODEL_FORMS, MODEL_UNITS, PAPER_MODEL, parametersOf, type BandwidthModel } from "./model";

/** `"paper"` gives the published model; anything else is a path to a model JSON file. */
export function loadModel(reference: string): BandwidthModel {
  if (reference === "paper") return PAPER_MODEL;
  const text = readInputFile(reference, "model", 'Give "paper" for the published model or the path of a file written by `ckpt fit --out`.');
  const value = parseJson(text, reference, "is it a model written by `ckpt fit`?");
  return validateModel(value, reference);
}

const MODEL_SCHEMA = "ckpt-lab/bandwidth-model@1";
const WRITES_A_MODEL = "A model file is written by `ckpt fit <trace.csv> --out model.json` (or `ckpt fit --observations obs.json --out model.json`); --model paper takes the published model.";

/**
 * What a JSON object given as a model is, as far as it tells: the output `ckpt fit --json`
 * prints (the model is its "model" field), another artifact of this project (named by its
 * schema), or some other JSON (its first fields).
 */
function whatFileIs(value: Record<string, unknown>): string {
  const inner = value.model as { schema?: unknown } | undefined;
  if (typeof inner === "object" && inner !== null && inner.schema === MODEL_SCHEMA) {
    return "what `ckpt fit --json` prints (the fit's report: the model is its \"model\" field, next to the fit's metrics and residuals)";
  }
  if (typeof value.schema === "string") {
    const artifact = /^ckpt-lab\/([a-z-]+)@\d+$/.exec(value.schema);
    const name = artifact?.[1]!.replace(/-/g, " ");
    return name ? `${/^[aeiou]/.test(name) ? "an" : "a"} ${name} file ("schema": "${value.schema}")` : `a file with "schema": ${JSON.stringify(value.schema)}`;
  }
  if (Array.isArray(value)) return "a JSON array";
  const keys = Object.keys(value);
  return keys.length === 0 ? "an empty JSON object" : `a JSON object without a "schema" field (its fields: ${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", …" : ""})`;
}

/**
 * The empirical form's cells in the order its evaluation bisects them (forms/empirical-form.ts):
 * by size per writer, then by m, each (m, size) once — the order `ckpt fit` writes.
 */
function requireSortedCells(coefficients: Record<string, number>, fail: (what: string) => never): void {
  for (let i = 2; i <= coefficients.cellCount!; i++) {
    const before = empiricalCellNames(i - 1);
    const cell = empiricalCellNames(i);
    const [m0, w0, m, w] = [coefficients[before.m]!, coefficients[before.writerGb]!, coefficients[cell.m]!, coefficients[cell.writerGb]!];
    if (w < w0 || (w === w0 && !(m > m0))) {
      fail(
        `the empirical form's cells must be sorted by size per writer, then by m, each (m, size) once (as \`ckpt fit\` writes them): ` +
          `cell ${i} (${cell.m} = ${m}, ${cell.writerGb} = ${w}) follows cell ${i - 1} (${before.m} = ${m0}, ${before.writerGb} = ${w0})`,
      );
    }
  }
}

/** Check that a parsed value is a usable `BandwidthModel`. */
export function validateModel(value: unknown, where = "model"): BandwidthModel {
  const fail = (what: string): never => {
    throw new InputError(`${where}: ${what}. ${WRITES_A_MODEL}`);
  };
  if (typeof value !== "object" || value === null) return fail("expected a JSON object");
  const model = value as Partial<BandwidthModel>;
  if (model.schema !== MODEL_SCHEMA) {
    throw new InputError(`${where}: this is ${whatFileIs(value as Record<string, unknown>)}, not a bandwidth model (a JSON file with "schema": "${MODEL_SCHEMA}"). ${WRITES_A_MODEL}`);
  }
  if (!isModelForm(model.form)) fail(`"form" must be one of ${MODEL_FORMS.map((f) => `"${f}"`).join(", ")}, found ${JSON.stringify(model.form)}`);
  const coefficients = model.coefficients as Record<string, unknown> | undefined;
  if (typeof coefficients !== "object" || coefficients === null) fail(`"coefficients" is missing`);
  if (model.form === "empirical" && !(Number.isInteger(coefficients!.cellCount) && (coefficients!.cellCount as number) >= 1)) {
    fail(`coefficient "cellCount" of the empirical form must be an integer ≥ 1 (its measured cells), found ${JSON.stringify(coefficients!.cellCount)}`);
  }
  const parameters = parametersOf({ form: model.form!, coefficients: coefficients as Record<string, number> });
  // Fixed parameters a form gained after the model was saved: evaluated as it was fitted (model.ts, evaluationCoefficients).
  const absent = parameters.filter((p) => p.whenAbsent !== undefined && coefficients![p.name] === undefined);
  for (const parameter of parameters) {
    const c = coefficients![parameter.name];
    if (absent.includes(parameter)) continue;
    if (typeof c !== "number" || !Number.isFinite(c)) fail(`coefficient "${parameter.name}" must be a finite number, found ${JSON.stringify(c)}`);
    const floor = parameter.atLeast === undefined ? undefined : coefficients![parameter.atLeast];
    if (typeof floor === "number" && !((c as number) >= floor)) {
      fail(`coefficient "${parameter.name}" (${parameter.meaning}) must be at least "${parameter.atLeast}", found ${c} < ${floor}`);
    }
  }
  if (model.form === "empirical") requireSortedCells(coefficients as Record<string, number>, fail);
  const units = model.units as Record<string, unknown> | undefined;
  if (!units || units.m !== MODEL_UNITS.m || units.V !== MODEL_UNITS.V || units.bw !== MODEL_UNITS.bw) {
    fail(`"units" must be ${JSON.stringify(MODEL_UNITS)} (V in GB = MB/1000), found ${JSON.stringify(units)}`);
  }
  const d = model.domain as Record<string, unknown> | undefined;
  for (const key of ["mMin", "mMax", "vGbMin", "vGbMax"]) {
    if (!d || typeof d[key] !== "number" || !Number.isFinite(d[key] as number)) fail(`"domain.${key}" must be a finite number`);
  }
  // The sizes per writer of a model that holds at measured ones only: both or neither, 0 < min ≤ max.
  if ((d!.writerGbMin === undefined) !== (d!.writerGbMax === undefined)) fail(`"domain.writerGbMin" and "domain.writerGbMax" go together (the sizes per writer the model holds at), found one`);
  if (d!.writerGbMin !== undefined && !(typeof d!.writerGbMin === "number" && typeof d!.writerGbMax === "number" && d!.writerGbMin > 0 && d!.writerGbMin <= d!.writerGbMax)) {
    fail(`"domain.writerGbMin" and "domain.writerGbMax" must be numbers with 0 < min ≤ max, found ${JSON.stringify(d!.writerGbMin)} and ${JSON.stringify(d!.writerGbMax)}`);
  }
  if (model.bandwidthCapMbPerS !== null && (typeof model.bandwidthCapMbPerS !== "number" || !(model.bandwidthCapMbPerS > 0))) {
    fail(`"bandwidthCapMbPerS" must be null or a number > 0`);
  }
  // Absent: a file from before the cap could be measured, when every cap was declared.
  if (model.bandwidthCapSource !== undefined) {
    if (!BANDWIDTH_CAP_SOURCES.includes(model.bandwidthCapSource)) {
      fail(`"bandwidthCapSource" must be ${BANDWIDTH_CAP_SOURCES.map((s) => `"${s}"`).join(" or ")}, found ${JSON.stringify(model.bandwidthCapSource)}`);
    }
    if (model.bandwidthCapMbPerS === null) fail(`"bandwidthCapSource" says where a cap comes from, but "bandwidthCapMbPerS" is null: drop it, or give the cap`);
  }
  if (model.predictive !== undefined && model.predictive !== null) {
    validatePredictive(model.predictive, fittedParameterNames(model as BandwidthModel), fail);
  }
  const saved = model as BandwidthModel;
  const older = absent.length === 0 ? [] : [olderModelNote(absent)];
  return {
    ...saved,
    name: typeof model.name === "string" ? model.name : where,
    provenance: model.provenance ?? {},
    ...(older.length > 0 ? { notes: [...(saved.notes ?? []), ...older] } : {}),
  };
}

/** What a model saved before its form's upper size references existed is, in words. */
function olderModelNote(absent: readonly FormParameter[]): string {
  const unbounded = absent.every((p) => p.whenAbsent === Infinity);
  return (
    `saved without ${absent.map((p) => `${p.symbol} (${p.name}, ${p.meaning.replace(/ \(fixed from the data\)$/, "")})`).join(" and ")}, which its form gained later: ` +
    (unbounded
      ? "evaluated as it was fitted, its size factors an unbounded power law above the smallest measured size (docs/science.md §3.5); refit it to hold them at the largest measured size"
      : `evaluated as it was fitted, with ${absent.map((p) => `${p.symbol} = ${p.whenAbsent}`).join(", ")}`)
  );
}
