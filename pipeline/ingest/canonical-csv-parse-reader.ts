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

  add(bytes: Buffer, position: number): void {
    this.chunks.push({ bytes, position });
  }

  /** Calls `visit` on each byte of `[start, end)`, then forgets the chunks before `end`. */
  private scan(start: number, end: number, visit: (byte: number) => void): void {
    for (const { bytes, position } of this.chunks) {
      const from = Math.max(start, position) - position;
      const to = Math.min(end, position + bytes.length) - position;
      for (let i = from; i < to; i++) visit(bytes[i]!);
    }
    while (this.chunks.length > 0 && this.chunks[0]!.position + this.chunks[0]!.bytes.length <= end) this.chunks.shift();
  }

  /** Line feeds in `[start, end)`, and whether the range is only a line ending. */
  consume(start: number, end: number): { newlines: number; onlyLineEnding: boolean } {
    let newlines = 0;
    let other = 0;
    this.scan(start, end, (byte) => {
      if (byte === 10) newlines++;
      else if (byte !== 13) other++;
    });
    return { newlines, onlyLineEnding: other === 0 && end - start <= 2 };
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
    const parser = parse({
      bom: position === 0,
      relax_column_count: true,
      relax_quotes: true,
      record_delimiter: ["\r\n", "\n"],
      info: true,
    });
    const fed = new FedBytes();
    const input = Readable.from(chunksFrom(source, position, fed));
    input.pipe(parser);
    let recordStart = position;
    let recordLine = line;
    try {
      for await (const item of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
        const recordEnd = position + item.info.bytes;
        const { record } = item;
        const { newlines, onlyLineEnding } = fed.consume(recordStart, recordEnd);
        const blank = record.length === 1 && record[0] === "" && onlyLineEnding;
        if (!blank) {
          if (state.layout === null || state.scope === null) {
            state.layout = parseCanonicalHeader(record, source.name, recordLine);
            state.scope = ledger.openScope(source.name, state.layout.extraNames);
          } else {
            ingestCanonicalFields(record, state.layout, ledger, state.scope, {
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
        recordLine += newlines;
        recordStart = recordEnd;
      }
      return;
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      input.destroy();
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
}
