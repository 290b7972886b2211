/**
 * Canonical trace CSV through csv-parse: the general path, for files (or the rest of a
 * file) the fast path does not handle — quoted fields, fields with line breaks, stray
 * carriage returns. Every record goes through `ingestCanonicalFields`.
 *
 * csv-parse options: `relax_column_count` (a short or long row is a rejected row, not a
 * parse failure), `relax_quotes` (a quote inside an unquoted field is a character),
 * `record_delimiter` LF or CRLF (a lone CR is data, as in the fast path), `bom`.
 *
 * Line numbers are counted here from the bytes (LF only), not taken from csv-parse, whose
 * `info.lines` also counts lone CRs. A record that csv-parse cannot read at all (a quote
 * that is never closed) is rejected as the one physical line it starts on, and reading
 * resumes on the next line with a new parser: otherwise one stray quote would swallow the
 * rest of the file as a single field.
 */
import { Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { InputError, atLine } from "../shared/errors";
import type { ByteSource } from "./byte-source";
import { parseCanonicalHeader } from "./canonical-header";
import { ingestCanonicalFields } from "./canonical-row";
import type { CanonicalFileState } from "./canonical-fast-reader";
import { rejectMessage } from "./reject-reasons";
import type { RowLedger } from "./row-ledger";

const CHUNK_BYTES = 1 << 20;

async function* chunksFrom(source: ByteSource, position: number, seen?: FedBytes): AsyncGenerator<Buffer> {
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const bytesRead = await source.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return;
    const bytes = chunk.subarray(0, bytesRead);
    seen?.add(bytes, position);
    position += bytesRead;
    yield bytes;
  }
}

/**
 * The bytes handed to csv-parse that records have not consumed yet, to count a record's
 * line feeds and recognise blank lines from the bytes themselves (csv-parse's `raw` drops
 * the LF of a CRLF ending).
 */
class FedBytes {
  private chunks: { bytes: Buffer; position: number }[] = [];
  /** Results of the last `consume`. */
  newlines = 0;
  onlyLineEnding = false;

  add(bytes: Buffer, position: number): void {
    this.chunks.push({ bytes, position });
  }

  /** Count the line feeds of `[start, end)` and see whether it is only a line ending; then forget the bytes before `end`. */
  consume(start: number, end: number): void {
    let newlines = 0;
    let other = 0;
    for (const { bytes, position } of this.chunks) {
      if (position >= end) break;
      const to = Math.min(end, position + bytes.length) - position;
      for (let i = Math.max(start, position) - position; i < to; i++) {
        const byte = bytes[i]!;
        if (byte === 10) newlines++;
        else if (byte !== 13) other++;
      }
    }
    while (this.chunks.length > 0 && this.chunks[0]!.position + this.chunks[0]!.bytes.length <= end) this.chunks.shift();
    this.newlines = newlines;
    this.onlyLineEnding = other === 0 && end - start <= 2;
  }
}

/** Offset just past the line that starts at `position` (its LF), or the end of the source. */
async function endOfLine(source: ByteSource, position: number): Promise<number> {
  for await (const chunk of chunksFrom(source, position)) {
    const newline = chunk.indexOf(10);
    if (newline >= 0) return position + newline + 1;
    position += chunk.length;
  }
  return position;
}

const FRIENDLY_CSV_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "a quoted field opened on this line is never closed",
};

/** Read `source` from byte `fromByte` (which is line `fromLine`, at a record start) to its end. */
export async function readCanonicalCsvParse(
  source: ByteSource,
  sourceIndex: number,
  ledger: RowLedger,
  state: CanonicalFileState,
  fromByte: number,
  fromLine: number,
  onProgress?: (rowsRead: number) => void,
): Promise<void> {
  let position = fromByte;
  let line = fromLine;
  let nextProgress = ledger.read + (1 << 14);
  for (;;) {
    const fed = new FedBytes();
    let recordStart = position;
    let recordLine = line;
    const from = position;
    const handle = (item: { record: string[]; info: { bytes: number } }) => {
      const recordEnd = from + item.info.bytes;
      const { record } = item;
      fed.consume(recordStart, recordEnd);
      const blank = record.length === 1 && record[0] === "" && fed.onlyLineEnding;
      if (!blank) {
        if (state.layout === null || state.scope === null) {
          state.layout = parseCanonicalHeader(record, source.name, recordLine);
          state.scope = ledger.openScope(source.name, state.layout.extraNames);
        } else {
          ingestCanonicalFields(record, state.layout, ledger, {
            sourceIndex,
            line: recordLine,
            byteStart: recordStart,
            byteEnd: recordEnd,
          });
          if (onProgress !== undefined && ledger.read >= nextProgress) {
            onProgress(ledger.read);
            nextProgress = ledger.read + (1 << 14);
          }
        }
      }
      recordLine += fed.newlines;
      recordStart = recordEnd;
    };
    // Records are handled synchronously inside csv-parse, as each one is completed
    // (`on_record`, which then drops it from the stream): an async iterator would cost a
    // promise per record, and a 'readable' handler can see csv-parse's error before the
    // records buffered ahead of it (the header, say), misplacing the error. A CsvError ends
    // this parser and is recovered from below; an error thrown by `handle` ends it too.
    const parser = parse({
      bom: position === 0,
      relax_column_count: true,
      relax_quotes: true,
      record_delimiter: ["\r\n", "\n"],
      info: true,
      // With `info`, csv-parse hands on_record the { record, info } pair its types do not model.
      on_record: (item) => {
        handle(item as unknown as { record: string[]; info: { bytes: number } });
        return null;
      },
    });
    const input = Readable.from(chunksFrom(source, position, fed));
    const error = await new Promise<CsvError | null>((resolve, reject) => {
      const stop = (outcome: () => void) => {
        input.unpipe(parser);
        input.destroy();
        parser.destroy();
        outcome();
      };
      parser.on("error", (failure) => stop(() => (failure instanceof CsvError ? resolve(failure) : reject(failure))));
      input.on("error", (failure) => stop(() => reject(failure)));
      parser.on("end", () => resolve(null));
      parser.resume();
      input.pipe(parser);
    });
    if (error === null) return;
    const detail = FRIENDLY_CSV_ERRORS[error.code] ?? `csv-parse cannot read the record starting on this line (${error.code})`;
    if (state.layout === null) {
      throw new InputError(atLine(source.name, recordLine, `cannot read the header: ${rejectMessage.malformedCsv(detail)}`), { cause: error });
    }
    const lineEnd = await endOfLine(source, recordStart);
    ledger.reject(sourceIndex, recordLine, recordStart, lineEnd, null, "malformed-csv", rejectMessage.malformedCsv(detail));
    position = lineEnd;
    line = recordLine + 1;
  }
}
