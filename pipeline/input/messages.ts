/**
 * The wording of the input kit's refusals, in one place (as vega-lite's log/message.ts):
 * each function builds one message from what was seen, where (a file, `file:line:column`,
 * a flag or a field) and how to fix it, so that every reader says the same thing the same
 * way. The readers throw them as InputError.
 */

/** How a value reads in a message: its JSON (undefined, which JSON has not, as "undefined"). */
export function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** A sentence or clause after a message, or nothing. */
const then = (separator: string, fix: string | undefined) => (fix === undefined || fix === "" ? "" : `${separator}${fix}`);

/** A file that could not be read: `cannot read <what> "<path>": <reason>. <fix>` */
export function cannotRead(what: string, path: string, reason: string, fix?: string): string {
  return `cannot read ${what} "${path}": ${reason}${then(". ", fix)}`;
}

/** A text that is not JSON: `<where>: not valid JSON (<parser's words>); <fix>`, where is `file:line:column`. */
export function notValidJson(where: string, detail: string, fix?: string): string {
  return `${where}: not valid JSON (${detail})${then("; ", fix)}`;
}

/** A JSON value that should have been an object of fields. */
export function notAnObject(where: string, kind: string, example: string): string {
  return `${where}: ${kind} is a JSON object of fields, e.g. ${example}`;
}

/** A field the kind has not: `<where>: unknown field "<field>"; <kind> has <fields>` */
export function unknownField(where: string, field: string, kind: string, fields: readonly string[]): string {
  return `${where}: unknown field "${field}"; ${kind} has ${fields.join(", ")}`;
}

/** A field whose value is not what it must be: `<where>: <field> must be <what>, found <value>` */
export function mustBe(where: string, field: string, what: string, found: unknown): string {
  return `${where}: ${field} must be ${what}, found ${shown(found)}`;
}

/** Where a field set by a flag or by a scenario file is, for `mustBe` and `unknownField`. */
export function flagOrField(flag: string, field: string): string {
  return `--${flag} (or the scenario's "${field}")`;
}
