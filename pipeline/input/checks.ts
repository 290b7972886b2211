/**
 * The checks of input fields: each says what a value must be (a phrase for "must be …"), or
 * null when the value is fine. A set of them, one per field, checks a whole object of
 * fields (`checkFields`): unknown fields are refused first, then every field in order,
 * missing ones included, each with where it is and what it must be (messages.ts).
 */
import { InputError } from "../shared/errors";
import { mustBe, unknownField } from "./messages";

/** What a value must be, or null when it is fine. */
export type Check = (value: unknown) => string | null;

export const positive: Check = (v) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? null : "a finite number > 0");
export const nonNegative: Check = (v) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? null : "a finite number ≥ 0");
export const probability: Check = (v) => (typeof v === "number" && v >= 0 && v <= 1 ? null : "a probability in [0, 1]");
export const integer = (min: number, max = Infinity): Check => (v) =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? null : max === Infinity ? `an integer ≥ ${min}` : `an integer in [${min}, ${max}]`;
export const text: Check = (v) => (typeof v === "string" ? null : "a string");
export const oneOf = (...choices: (string | number)[]): Check => (v) => (choices.includes(v as string) ? null : `one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`);
export const boolean: Check = (v) => (typeof v === "boolean" ? null : "true or false");
/** null, or what `check` accepts. */
export const nullOr = (check: Check): Check => (v) => (v === null ? null : check(v));
/** [min, max] with min ≤ max, each passing `check` (and an integer when `integers`). */
export const range = (check: Check, integers = false): Check => (v) =>
  Array.isArray(v) && v.length === 2 && check(v[0]) === null && check(v[1]) === null && (v[0] as number) <= (v[1] as number) && (!integers || v.every(Number.isInteger))
    ? null
    : `[min, max] with min ≤ max, each ${integers ? "an integer ≥ 1" : check(-1) ?? "a number"}`;
/** A non-empty list of distinct names among `names`; `what` names them ("policies"). */
export const distinctAmong = (what: string, names: readonly string[]): Check => (v) =>
  Array.isArray(v) && v.length > 0 && v.every((p) => names.includes(p as string)) && new Set(v).size === v.length ? null : `a non-empty list of distinct ${what} among ${names.join(", ")}`;

/**
 * Check an object of fields against one check per field; `kind` names what it is ("a [BKT]
 * scenario"), `where(field)` where a field is (a file and line, or a flag).
 */
export function checkFields<T>(value: Record<string, unknown>, checks: Record<keyof T & string, Check>, kind: string, where: (field: string) => string): T {
  const fields = Object.keys(checks);
  for (const key of Object.keys(value)) if (!(key in checks)) throw new InputError(unknownField(where(key), key, kind, fields));
  for (const field of fields) {
    const problem = checks[field as keyof T & string](value[field]);
    if (problem !== null) throw new InputError(mustBe(where(field), field, problem, value[field]));
  }
  return value as T;
}
