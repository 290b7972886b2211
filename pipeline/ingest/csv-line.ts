/**
 * The fields of one physical line of a trace CSV that contains a double quote: RFC 4180
 * quoting within the line, read exactly as csv-parse reads a record with the options the
 * canonical reader uses (`relax_quotes`, `relax_column_count`, `,` between fields); the
 * property tests hold the two to identical fields on random lines.
 *
 * - A field that starts with `"` is quoted: it runs to the next `"` that is not doubled
 *   (`""` inside it is one `"`); after that quote comes `,` or the end of the line.
 * - A quote closed by anything else is not a closing quote: like csv-parse with
 *   `relax_quotes`, the field is then read as plain text from its opening quote on
 *   (`"a"b` is the five characters `"a"b`, with the doubled quotes already halved).
 * - A quote inside a field that does not start with one is an ordinary character.
 * - A quoted field that does not close on its line makes the line unreadable (null):
 *   a field never spans lines in a trace file, so one stray quote costs one line, not the
 *   rest of the file.
 *
 * `end` excludes the line ending (LF, or the CR LF pair). O(line length).
 */
const QUOTE = 34;
const COMMA = 44;

export function splitCsvLine(bytes: Uint8Array, start: number, end: number): string[] | null {
  const fields: string[] = [];
  let p = start;
  for (;;) {
    if (p < end && bytes[p] === QUOTE) {
      // Quoted: collect the content (quotes halved) until the closing quote.
      const content: number[] = [];
      let q = p + 1;
      let closedAt = -1;
      for (;;) {
        if (q >= end) return null;
        const b = bytes[q]!;
        if (b === QUOTE) {
          if (q + 1 < end && bytes[q + 1] === QUOTE) {
            content.push(QUOTE);
            q += 2;
            continue;
          }
          closedAt = q;
          break;
        }
        content.push(b);
        q++;
      }
      if (closedAt + 1 >= end || bytes[closedAt + 1] === COMMA) {
        fields.push(Buffer.from(content).toString("utf8"));
        p = closedAt + 1;
      } else {
        // Not a closing quote: plain text from the opening quote, the content as read so far.
        let q2 = closedAt;
        while (q2 < end && bytes[q2] !== COMMA) q2++;
        const text = Buffer.concat([Buffer.from([QUOTE]), Buffer.from(content), Buffer.from(bytes.buffer, bytes.byteOffset + closedAt, q2 - closedAt)]);
        fields.push(text.toString("utf8"));
        p = q2;
      }
    } else {
      let q = p;
      while (q < end && bytes[q] !== COMMA) q++;
      fields.push(Buffer.from(bytes.buffer, bytes.byteOffset + p, q - p).toString("utf8"));
      p = q;
    }
    if (p >= end) return fields;
    p++; // the comma
  }
}

/** Whether `bytes[start, end)` holds a double quote. */
export function hasQuote(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] === QUOTE) return true;
  return false;
}
