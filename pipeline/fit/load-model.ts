/**
 * Read a bandwidth model artifact from disk (or the built-in `paper` model), checking its
 * shape so that a hand-edited or truncated file is refused with a message that says what
 * is wrong, not used.
 */
import { readFileSync } from "node:fs";
import { InputError } from "../shared/errors";
import { formOf, isModelForm, MODEL_FORMS, MODEL_UNITS, PAPER_MODEL, type BandwidthModel } from "./model";

/** `"paper"` gives the published model; anything else is a path to a model JSON file. */
export function loadModel(reference: string): BandwidthModel {
  if (reference === "paper") return PAPER_MODEL;
  let text: string;
  try {
    text = readFileSync(reference, "utf8");
  } catch (error) {
    throw new InputError(
      `cannot read model "${reference}": ${(error as Error).message}. Give "paper" for the published model or the path of a file written by \`ckpt fit --out\`.`,
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${reference}: not valid JSON (${(error as Error).message}); is it a model written by \`ckpt fit\`?`, {
      cause: error,
    });
  }
  return validateModel(value, reference);
}

/** Check that a parsed value is a usable `BandwidthModel`. */
export function validateModel(value: unknown, where = "model"): BandwidthModel {
  const fail = (what: string): never => {
    throw new InputError(`${where}: ${what}. A model file is written by \`ckpt fit --out model.json\`.`);
  };
  if (typeof value !== "object" || value === null) return fail("expected a JSON object");
  const model = value as Partial<BandwidthModel>;
  if (model.schema !== "ckpt-lab/bandwidth-model@1") fail(`expected "schema": "ckpt-lab/bandwidth-model@1", found ${JSON.stringify(model.schema)}`);
  if (!isModelForm(model.form)) fail(`"form" must be one of ${MODEL_FORMS.map((f) => `"${f}"`).join(", ")}, found ${JSON.stringify(model.form)}`);
  const coefficients = model.coefficients as Record<string, unknown> | undefined;
  if (typeof coefficients !== "object" || coefficients === null) fail(`"coefficients" is missing`);
  for (const parameter of formOf(model.form!).parameters) {
    const c = coefficients![parameter.name];
    if (typeof c !== "number" || !Number.isFinite(c)) fail(`coefficient "${parameter.name}" must be a finite number, found ${JSON.stringify(c)}`);
  }
  const units = model.units as Record<string, unknown> | undefined;
  if (!units || units.m !== MODEL_UNITS.m || units.V !== MODEL_UNITS.V || units.bw !== MODEL_UNITS.bw) {
    fail(`"units" must be ${JSON.stringify(MODEL_UNITS)} (V in GB = MB/1000), found ${JSON.stringify(units)}`);
  }
  const d = model.domain as Record<string, unknown> | undefined;
  for (const key of ["mMin", "mMax", "vGbMin", "vGbMax"]) {
    if (!d || typeof d[key] !== "number" || !Number.isFinite(d[key] as number)) fail(`"domain.${key}" must be a finite number`);
  }
  if (model.bandwidthCapMbPerS !== null && (typeof model.bandwidthCapMbPerS !== "number" || !(model.bandwidthCapMbPerS > 0))) {
    fail(`"bandwidthCapMbPerS" must be null or a number > 0`);
  }
  return { ...(model as BandwidthModel), name: typeof model.name === "string" ? model.name : where, provenance: model.provenance ?? {} };
}
