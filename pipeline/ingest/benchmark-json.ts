/**
 * The JSON of a benchmark's output file, as the benchmarks write it: not always alone in
 * its file. fio in `--client` mode prints each server's text lines (`<host> …`) before
 * the JSON object even with `--output`; IOR 3.2 leaves earlier output before it in a summary
 * file. The object starts at the first line that is `{` alone; positions are lines of the
 * whole file, so that rejects and errors point where the user looks.
 */
import { parseJson } from "../input/parse-json";

export { lineFinder } from "../input/text-position";

/** The offset of the first line that is `{` alone (0 when none is: the parse then says what is wrong). */
function jsonStart(text: string): number {
  const match = /^[ \t]*\{[ \t]*\r?$/m.exec(text);
  return match === null ? 0 : match.index;
}

/**
 * The JSON object that starts at the first line that is `{` alone, and where it ends: at a
 * line that is `}` alone, the first such line where the text from the start parses (fio
 * and IOR close their top-level object so; IOR 3.2 also closes a nested one at the line's
 * start; fio's `--output-format=json,normal` prints its normal output after it). Without
 * such a line, the whole rest, and a syntax error names its file:line:column.
 */
export function parseJsonObject(text: string, file: string): { value: unknown; start: number; end: number } {
  const start = jsonStart(text);
  for (const match of text.slice(start).matchAll(/^\}[ \t]*\r?$/gm)) {
    const end = start + match.index + 1;
    try {
      return { value: JSON.parse(text.slice(start, end)), start, end };
    } catch {
      // not the end of the object yet: the next candidate
    }
  }
  return { value: parseJson(text, file, "is the file cut short, or was it written by two runs at once?", start), start, end: text.length };
}
