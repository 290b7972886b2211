/**
 * Parse a JSON text, refused with `file:line:column` (Node's JSON.parse does not always say
 * where, so json-error-offset.ts finds the first error) in the kit's wording.
 */
import { InputError } from "../shared/errors";
import { jsonErrorOffset } from "./json-error-offset";
import { notValidJson } from "./messages";
import { lineColumn } from "./text-position";

/**
 * ":line:column" of the first JSON syntax error in `text` from offset `start` on (lines and
 * columns counted in the whole text), or "" when that part is valid.
 */
export function jsonPosition(text: string, start = 0): string {
  const offset = jsonErrorOffset(start === 0 ? text : text.slice(start));
  return offset === null ? "" : lineColumn(text, start + offset);
}

/**
 * The value of a JSON text (of its part from `start` on, positions in the whole text); `file`
 * names it in the message, `fix` says what the file should be.
 */
export function parseJson(text: string, file: string, fix?: string, start = 0): unknown {
  const json = start === 0 ? text : text.slice(start);
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new InputError(notValidJson(`${file}${jsonPosition(text, start)}`, (error as Error).message, fix), { cause: error });
  }
}
