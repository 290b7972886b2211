/**
 * Read one canonical trace CSV into the ledger: look at its first bytes (encoding, line
 * endings, separator and decimal mark), read every line (byte-level scan, or csv-parse on
 * every line when asked), and tell the ledger how to read rows back (their text as in the
 * file, a run's rows).
 */
import { readRawText, withCrLineEnds, type ByteSource } from "./byte-source";
import { missingHeaderError, newCanonicalFileState, rescanCanonicalRows } from "./canonical-line";
import { readCanonicalLines } from "./canonical-fast-reader";
import { PARALLEL_MIN_BYTES, readCanonicalInTwo } from "./canonical-split-reader";
import { chooseDialect, sampleInDialect, withDialect, type DialectOptions } from "./csv-dialect";
import type { RowLedger } from "./row-ledger";
import { ENCODING_SAMPLE_BYTES, sniffTraceEncoding } from "./trace-encoding";
import { formatCount } from "../shared/format-table";

/** "fast": the byte-level reader (default); "csv-parse": csv-parse on every line (the reference, ~25× slower). Same result. */
export type CanonicalParser = "fast" | "csv-parse";

export interface CanonicalReadReport {
  /** Things worth knowing that are not rejected rows (comment lines, CR line endings). */
  warnings: string[];
  /** The file's SHA-256 when another thread computes it (the source then has none), settled later. */
  sha256?: Promise<string>;
  /** How a file read on two threads was put together (absent: it was read on one). */
  twoThreads?: "joined" | "second part re-read";
}

export interface CanonicalReadOptions extends DialectOptions {
  parser?: CanonicalParser;
  onProgress?: (rowsRead: number) => void;
  /** Read files of at least this many bytes on two threads (Infinity: never); see `canonical-split-reader.ts`. */
  parallelMinBytes?: number;
  spillDirectory?: string;
}

/** Read the first bytes of a source. */
async function sample(source: ByteSource): Promise<{ bytes: Uint8Array; complete: boolean }> {
  const bytes = Buffer.allocUnsafe(ENCODING_SAMPLE_BYTES);
  let filled = 0;
  for (;;) {
    const n = await source.read(bytes, filled, bytes.length - filled, filled);
    if (n === 0) return { bytes: bytes.subarray(0, filled), complete: true };
    filled += n;
    if (filled === bytes.length) return { bytes, complete: false };
  }
}

export async function readCanonicalSource(
  original: ByteSource,
  ledger: RowLedger,
  options: CanonicalReadOptions = {},
): Promise<CanonicalReadReport> {
  const first = await sample(original);
  const encoding = sniffTraceEncoding(first.bytes, original.name, first.complete);
  const lines = encoding.lineEnding === "cr" ? withCrLineEnds(original) : original;
  const linesSample = encoding.lineEnding === "cr" ? first.bytes.map((b) => (b === 13 ? 10 : b)) : first.bytes;
  const { dialect, note } = chooseDialect(linesSample, encoding.bomBytes, original.name, options);
  const source = dialect.delimiter === "," ? lines : withDialect(lines, dialect);
  const file = newCanonicalFileState();
  const sourceIndex = ledger.addSource({
    name: source.name,
    // A rejected row's text as the file has it (its own separators and decimal marks).
    readRaw: (start, end) => readRawText(lines, start, end),
    rescan: (from, to, fromLine, visit) => rescanCanonicalRows(source, file.layout!, from, to, fromLine, visit),
  });
  const csvParse = options.parser === "csv-parse";
  const split = csvParse
    ? null
    : await readCanonicalInTwo(source, sourceIndex, ledger, file, {
        sample: sampleInDialect(linesSample, dialect),
        encoding,
        dialect,
        minBytes: options.parallelMinBytes ?? PARALLEL_MIN_BYTES,
        spillDirectory: options.spillDirectory,
        onProgress: options.onProgress,
      });
  if (split === null) {
    await readCanonicalLines(source, sourceIndex, ledger, file, encoding.bomBytes, {
      onProgress: options.onProgress,
      byteScan: !csvParse,
      // csv-parse is loaded only when asked for (it costs the start-up of every ingest otherwise).
      split: csvParse ? (await import("./csv-parse-fields.js")).csvParseLineFields : undefined,
    });
    if (file.layout === null || file.scope === null) throw missingHeaderError(source.name, first.bytes.length === 0);
    ledger.closeScope();
  }
  const warnings: string[] = note === null ? [] : [note];
  if (encoding.lineEnding === "cr") warnings.push(`${source.name} has CR line endings (classic Mac OS); each CR was read as a line end`);
  if (file.commentLines > 0) {
    const lines = file.commentLines === 1 ? "1 comment line" : `${formatCount(file.commentLines)} comment lines`;
    warnings.push(`${source.name}: ${lines} (starting with #) skipped, the first at line ${file.firstCommentLine}`);
  }
  return split === null ? { warnings } : { warnings, sha256: split.sha256, twoThreads: split.joined ? "joined" : "second part re-read" };
}
