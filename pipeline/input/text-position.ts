/**
 * Positions in a text for messages: the 1-based line and column of a character offset, and
 * the line of a JSON field, so that a refusal points where the user looks.
 */
import { lastIndexAtOrBelow } from "../shared/sorted-search";

/** The 1-based line of an offset of `text` (the line starts found once, then a binary search). */
export function lineFinder(text: string): (at: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (at) => lastIndexAtOrBelow(starts, at) + 1;
}

/** ":line:column" (1-based) of an offset of `text`. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `:${before.length}:${before[before.length - 1]!.length + 1}`;
}

/** ":line" of the first `"field"` key in a JSON text, or "" (a field's line for messages). */
export function fieldPosition(text: string, field: string): string {
  const at = text.indexOf(`"${field}"`);
  return at < 0 ? "" : `:${text.slice(0, at).split("\n").length}`;
}
