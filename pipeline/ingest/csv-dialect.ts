/**
 * The separator and decimal mark of a canonical trace: `,` between fields and `.` in
 * numbers (the canonical form), or `;` between fields and, often, `,` in numbers — what a
 * spreadsheet in a decimal-comma locale (French, German, …) writes when it saves CSV
 * ("CSV (semicolon delimited)", `0,000;6,500`).
 *
 * Such a file is read by mapping its bytes as they are read (`withDialect`), one byte for
 * one, outside quotes: a `;` becomes `,`, and a `,` becomes `.` when it is a decimal comma
 * (between two digits, in a file with decimal commas), `;` otherwise — the two separators
 * swap roles, so that a comma in a text value (`Lyon, room 2`, which a spreadsheet does not
 * quote in a `;` file) stays inside its field, read as `;`. The readers then see a
 * canonical file; positions, line numbers, the SHA-256 and the raw text of rejected rows
 * are the file's own. A canonical file is not mapped at all, so the byte-level reader
 * keeps its speed for it.
 *
 * The dialect is given (`--delimiter ';' --decimal-comma`) or detected from the file's
 * first 64 KiB: a header line with no `,` but with `;` is `;`-separated, and a `;` file
 * whose rows hold a digit, a comma and a digit outside quotes uses the decimal comma. What
 * was detected is said in a warning, with what was seen and where.
 *
 * A comma between two digits inside a text value (a run_id `r1,2`) would be read as a
 * decimal point too: a `;` file from a spreadsheet has no reason to hold one.
 */
import { InputError } from "../shared/errors";
import { mappedSource, type ByteSource } from "./byte-source";
import { MAX_LINE_BYTES } from "./canonical-line";

export interface CsvDialect {
  delimiter: "," | ";";
  decimalComma: boolean;
}

/** How the command line asks for a dialect: a separator or "auto", and the decimal comma (undefined: detected). */
export interface DialectOptions {
  delimiter?: "auto" | "," | ";";
  decimalComma?: boolean;
}

export const DELIMITER_CHOICES = ["auto", ",", ";"] as const;

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const QUOTE = 34;
const HASH = 35;
const COMMA = 44;
const DOT = 46;
const SEMICOLON = 59;
const isDigit = (b: number | undefined) => b !== undefined && b >= 48 && b <= 57;

const shorten = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** The first line that is neither blank nor a comment, from `from`: its bounds and number, or null. */
function headerLine(sample: Uint8Array, from: number): { start: number; end: number; line: number } | null {
  let line = 1;
  for (let start = from; start < sample.length; line++) {
    let end = sample.indexOf(NEWLINE, start);
    const next = end < 0 ? sample.length : end + 1;
    if (end < 0) end = sample.length;
    const contentEnd = end > start && sample[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
    if (contentEnd > start && sample[start] !== HASH) return { start, end: contentEnd, line };
    start = next;
  }
  return null;
}

/** The first comma between two digits outside quotes in the lines from `from`: the number it is in and its line, or null. */
function firstDecimalComma(sample: Uint8Array, from: number, firstLine: number): { text: string; line: number } | null {
  let quoted = false;
  let line = firstLine;
  for (let i = from; i < sample.length; i++) {
    const b = sample[i]!;
    if (b === NEWLINE) {
      quoted = false;
      line++;
    } else if (b === QUOTE) quoted = !quoted;
    else if (b === COMMA && !quoted && isDigit(sample[i - 1]) && isDigit(sample[i + 1])) {
      let start = i - 1;
      while (start > from && isDigit(sample[start - 1])) start--;
      let end = i + 2;
      while (end < sample.length && isDigit(sample[end])) end++;
      return { text: Buffer.from(sample.subarray(start, end)).toString("latin1"), line };
    }
  }
  return null;
}

/**
 * The dialect of a trace from its first bytes (`sample`, after `bomBytes`), as asked or
 * detected, with a note that says what was detected (null when nothing was: a canonical
 * file, or a dialect given in full).
 */
export function chooseDialect(sample: Uint8Array, bomBytes: number, file: string, options: DialectOptions = {}): { dialect: CsvDialect; note: string | null } {
  const asked = options.delimiter ?? "auto";
  const header = headerLine(sample, bomBytes);
  const headerText = header === null ? "" : Buffer.from(sample.subarray(header.start, header.end)).toString("utf8");
  const delimiter = asked !== "auto" ? asked : !headerText.includes(",") && headerText.includes(";") ? ";" : ",";
  if (delimiter === ",") {
    if (options.decimalComma) {
      throw new InputError(`${file}: a decimal comma needs another separator between fields: give --delimiter ';' with --decimal-comma (the fields of this file are read as separated by ',')`);
    }
    return { dialect: { delimiter, decimalComma: false }, note: null };
  }
  if (header !== null && !headerText.includes(";")) {
    throw new InputError(`${file}:${header.line}: --delimiter ';' was given, but the header holds no ';' ("${shorten(headerText)}"); leave --delimiter to auto`);
  }
  const seen = options.decimalComma === undefined && header !== null ? firstDecimalComma(sample, Math.min(sample.length, header.end + 1), header.line + 1) : null;
  const decimalComma = options.decimalComma ?? seen !== null;
  if (asked !== "auto" && options.decimalComma !== undefined) return { dialect: { delimiter, decimalComma }, note: null };
  const what = [
    ...(asked === "auto" ? [`its header separates the columns with ';' ("${shorten(headerText)}")`] : []),
    ...(options.decimalComma === undefined ? [seen ? `its numbers use ',' as the decimal mark ("${seen.text}" at line ${seen.line})` : "its first rows hold no number with a decimal comma"] : []),
  ];
  const flags = `--delimiter ';'${decimalComma ? " --decimal-comma" : ""}`;
  const note =
    `${file}: ${what.join(" and ")}, as a spreadsheet in a decimal-comma locale saves CSV; read as such (${flags})` +
    (decimalComma ? "" : "; if some numbers further down use a decimal comma, give --delimiter ';' --decimal-comma");
  return { dialect: { delimiter, decimalComma }, note };
}

/** The state of the mapping at a position: inside quotes or not, and the byte before (as in the file). */
interface MapState {
  quoted: boolean;
  previous: number | undefined;
}

const lineStartState = (): MapState => ({ quoted: false, previous: NEWLINE });

/** Map `bytes` in place as `dialect` says, from `state` (updated); `after` gives the byte that follows them in the file. */
function mapInPlace(bytes: Uint8Array, dialect: CsvDialect, state: MapState, after: () => number | undefined): void {
  let { quoted, previous } = state;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const b = bytes[i]!;
    if (b === NEWLINE) quoted = false;
    else if (b === QUOTE) quoted = !quoted;
    else if (!quoted) {
      if (b === SEMICOLON) bytes[i] = COMMA;
      else if (b === COMMA) bytes[i] = dialect.decimalComma && isDigit(previous) && isDigit(i + 1 < length ? bytes[i + 1] : after()) ? DOT : SEMICOLON;
    }
    previous = b;
  }
  state.quoted = quoted;
  state.previous = previous;
}

/** Bytes read back first to find where a line starts (a row is ~100 bytes); a line may be up to MAX_LINE_BYTES. */
const LOOK_BACK_BYTES = 4096;

/**
 * `source` read as a canonical file: in `dialect`, outside quotes, each `;` is read as `,`
 * and each `,` as `;`, or as `.` when it is a decimal comma (one byte for one:
 * `mappedSource`). A quote opens or closes a quoted field; a field never spans lines, so
 * every line starts outside quotes.
 */
export function withDialect(source: ByteSource, dialect: CsvDialect): ByteSource {
  const byteAt = (position: number): number | undefined => source.readRange(position, position + 1)[0];
  /** The state at `position`, from the start of its line. */
  const stateAt = (position: number): MapState => {
    const state = lineStartState();
    if (position === 0) return state;
    let back = source.readRange(Math.max(0, position - LOOK_BACK_BYTES), position);
    if (back.indexOf(NEWLINE) < 0 && position > LOOK_BACK_BYTES) back = source.readRange(Math.max(0, position - MAX_LINE_BYTES - 1), position);
    for (let i = back.lastIndexOf(NEWLINE) + 1; i < back.length; i++) if (back[i] === QUOTE) state.quoted = !state.quoted;
    state.previous = back[back.length - 1];
    return state;
  };
  // A read that starts where the last one ended (the readers' chunks) carries its state on;
  // any other finds it again from the start of its line.
  let next = -1;
  let carried = lineStartState();
  return mappedSource(source, (bytes, position) => {
    const state = position === next ? carried : stateAt(position);
    mapInPlace(bytes, dialect, state, () => byteAt(position + bytes.length));
    next = position + bytes.length;
    carried = state;
  });
}

/** A file's first bytes as `withDialect` reads them (what is looked at before reading: the header, the split point). */
export function sampleInDialect(sample: Uint8Array, dialect: CsvDialect): Uint8Array {
  if (dialect.delimiter === ",") return sample;
  const copy = Uint8Array.from(sample);
  mapInPlace(copy, dialect, lineStartState(), () => undefined);
  return copy;
}
