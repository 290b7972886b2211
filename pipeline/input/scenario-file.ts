/**
 * A scenario file: a JSON object holding any subset of a simulator's fields, over its
 * defaults (merge-fields.ts: objects merge, lists are replaced whole). The simulator's own
 * validation then checks the merged fields, with `where` giving the file and the field's line.
 */
import { InputError } from "../shared/errors";
import { mergeFields } from "./merge-fields";
import { notAnObject } from "./messages";
import { parseJson } from "./parse-json";
import { fieldPosition } from "./text-position";

export interface ScenarioFields {
  /** The defaults with the file's fields over them. */
  fields: Record<string, unknown>;
  /** `file:line` of a field (the file alone when the field is not written in it). */
  where: (field: string) => string;
}

/** The defaults with the scenario text's fields over them; `example` shows a scenario in the refusal of a non-object. */
export function scenarioFields(text: string, file: string, defaults: object, example: string): ScenarioFields {
  const value = parseJson(text, file);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new InputError(notAnObject(file, "a scenario", example));
  return { fields: mergeFields(defaults as Record<string, unknown>, value as Record<string, unknown>), where: (field) => `${file}${fieldPosition(text, field)}` };
}
