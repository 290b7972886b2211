/**
 * The `observations.runs` array of the observations artifact, encoded straight into bytes:
 * byte for byte what `JSON.stringify(artifact, null, 2)` writes for these runs (objects at
 * 6 spaces, fields at 8), without a string per run.
 *
 * A 10-million-row trace has 700 k runs (283 MiB of JSON); written as one template string
 * per run, then encoded, the writing took longer than half of the reading. Here:
 * - the numbers of a batch of runs (m, V, bandwidth, common size) are printed by ONE
 *   `JSON.stringify` of an array of doubles, then copied from that text between its
 *   commas. JSON prints a number exactly as `String(x)` does (ECMA-262 SerializeJSONProperty
 *   uses Number::toString) and a non-finite one, or a mixed-size run's NaN size, as `null`
 *   — what the object form gives — while V8 prints every double of the array into one
 *   buffer instead of making a heap string (and a number-cache entry) for each;
 * - a run_id of printable ASCII without `"` or `\` is copied from the run table's bytes
 *   (JSON writes it unchanged), any other through `JSON.stringify`;
 * - the fixed parts are encoded once, and so is the end of a run (its source and attribute
 *   record) per source and record.
 */
import type { RunTable } from "./run-table";

/** Runs whose numbers are printed per `JSON.stringify` call. */
const BATCH_RUNS = 2048;
const NUMBERS_PER_RUN = 4;
/** The longest number JSON prints (`-2.2250738585072014e-308`) is 24 characters. */
const MAX_NUMBER_CHARS = 25;
const OUT_BYTES = 1 << 20;

const ascii = (text: string) => Buffer.from(text, "latin1");
const OPEN_FIRST = ascii('[\n      {\n        "runId": ');
const OPEN_NEXT = ascii(',\n      {\n        "runId": ');
const M = ascii(',\n        "m": ');
const V = ascii(',\n        "vGb": ');
const BW = ascii(',\n        "aggregatedBwMbPerS": ');
const SIZE = ascii(',\n        "uniformSizeMb": ');
/** The fixed parts of one run, with room for a quoted run_id's quotes. */
const FIXED_BYTES = OPEN_NEXT.length + M.length + V.length + BW.length + SIZE.length + 2;

const COMMA = 44;
const QUOTE = 34;

/**
 * Encodes runs of one table, in the order asked, and hands the bytes to `sink` in chunks
 * (a view of a reused buffer: the sink must write or copy them before it returns).
 */
export class RunsJsonEncoder {
  private readonly out = Buffer.allocUnsafe(OUT_BYTES);
  private used = 0;
  private written = 0;
  /** The batch's numbers; filled with doubles only, so V8 keeps it an array of unboxed doubles. */
  private readonly numbers: number[] = [];
  private readonly numberText = Buffer.allocUnsafe(BATCH_RUNS * NUMBERS_PER_RUN * MAX_NUMBER_CHARS + 2);
  /**
   * A run's text after its numbers (source, attributes, "}"), by source and attribute
   * record + 1 (arrays: a Map keyed by a number that is not a small integer costs more).
   */
  private readonly endings: (Buffer | undefined)[][] = [];
  private endingsCached = 0;

  constructor(
    private readonly runs: RunTable,
    private readonly sink: (bytes: Uint8Array) => void,
  ) {}

  /**
   * Write the runs `index(0)` … `index(count - 1)` as the JSON
   * array `[ … ]`, closed at 4 spaces as the `runs` field of `observations`; `[]` if none.
   */
  writeArray(count: number, index: (k: number) => number): void {
    this.written = 0;
    if (count === 0) {
      this.put(ascii("[]"));
    } else {
      for (let from = 0; from < count; from += BATCH_RUNS) this.writeBatch(from, Math.min(count, from + BATCH_RUNS), index);
      this.put(ascii("\n    ]"));
    }
    this.flush();
  }

  private writeBatch(from: number, to: number, index: (k: number) => number): void {
    const { runs, numbers } = this;
    numbers.length = 0;
    for (let k = from; k < to; k++) {
      const i = index(k);
      numbers.push(runs.m[i]!, runs.sumSizeMb[i]! / 1000, runs.bwMbPerS[i]!, runs.uniformSizeMb[i]!);
    }
    const text = this.numberText;
    const textEnd = text.write(JSON.stringify(numbers), 0, "latin1");
    let at = 1; // past "["
    for (let k = from; k < to; k++) {
      const i = index(k);
      const ending = this.ending(i);
      // At most 6 bytes per run_id byte: a control byte is escaped as \u00XX.
      const bound = FIXED_BYTES + 6 * runs.runIdLength(i) + NUMBERS_PER_RUN * MAX_NUMBER_CHARS + ending.length;
      if (this.used + bound > this.out.length) this.flush();
      if (bound > this.out.length) {
        // A run too large for the buffer (a run_id of ~1 MiB): its fields go one by one.
        this.put(this.written++ === 0 ? OPEN_FIRST : OPEN_NEXT);
        this.put(Buffer.from(JSON.stringify(runs.runId(i)), "utf8"));
        this.flush(); // room for the numbers, which are copied unchecked
        at = this.putNumbers(text, at, ending);
        continue;
      }
      const out = this.out;
      let used = this.used;
      used = copy(this.written++ === 0 ? OPEN_FIRST : OPEN_NEXT, out, used);
      out[used] = QUOTE;
      const idEnd = runs.copyPlainRunId(i, out, used + 1);
      if (idEnd >= 0) {
        out[idEnd] = QUOTE;
        used = idEnd + 1;
      } else {
        used += out.write(JSON.stringify(runs.runId(i)), used, "utf8");
      }
      this.used = used;
      at = this.putNumbers(text, at, ending);
    }
    if (at !== textEnd) throw new Error(`runs JSON: ${at} of ${textEnd} bytes of the batch's numbers used`);
  }

  /** The rest of a run after its run_id: its four numbers from `text` at `at`, then `ending`. */
  private putNumbers(text: Buffer, at: number, ending: Buffer): number {
    at = this.putNumber(M, text, at);
    at = this.putNumber(V, text, at);
    at = this.putNumber(BW, text, at);
    at = this.putNumber(SIZE, text, at);
    this.put(ending);
    return at;
  }

  /** Run i's text after its numbers: the same for every run of one source and attribute record. */
  private ending(i: number): Buffer {
    const { runs } = this;
    const set = runs.attributeSetIndex(i);
    const source = runs.sourceOfIndex(i);
    const ofSource = (this.endings[source] ??= []);
    let bytes = ofSource[set + 1];
    if (bytes === undefined) {
      let text = `,\n        "source": ${JSON.stringify(runs.sourceOf(i))}`;
      if (set >= 0) text += `,\n        "attributes": ${JSON.stringify(runs.attributeSets[set], null, 2).replace(/\n/g, "\n        ")}`;
      bytes = Buffer.from(`${text}\n      }`, "utf8");
      // Bounded: with an attribute that differs in every run, every run has a record of its own.
      if (this.endingsCached++ < 1 << 16) ofSource[set + 1] = bytes;
    }
    return bytes;
  }

  /** `label`, then the number of `text` that starts at `at`; returns where the next one starts. */
  private putNumber(label: Uint8Array, text: Buffer, at: number): number {
    const out = this.out;
    let used = copy(label, out, this.used);
    let c = text[at]!;
    // Numbers are separated by commas, the last one ends with "]".
    while (c !== COMMA && c !== 93) {
      out[used++] = c;
      c = text[++at]!;
    }
    this.used = used;
    return at + 1;
  }

  private put(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.out.length) {
      this.flush();
      if (bytes.length > this.out.length) {
        this.sink(bytes);
        return;
      }
    }
    this.used = copy(bytes, this.out, this.used);
  }

  private flush(): void {
    if (this.used > 0) this.sink(this.out.subarray(0, this.used));
    this.used = 0;
  }

}

/** Copy `bytes` into `out` at `at`: short pieces in a loop (cheaper than calling `set`), long ones with `set`. */
function copy(bytes: Uint8Array, out: Uint8Array, at: number): number {
  const n = bytes.length;
  if (n > 48) {
    out.set(bytes, at);
    return at + n;
  }
  for (let k = 0; k < n; k++) out[at++] = bytes[k]!;
  return at;
}
