/**
 * Read one canonical trace CSV into the ledger: the byte-level fast path first, csv-parse
 * from the first line the fast path does not handle (or for the whole file when asked).
 */
import type { ByteSource } from "./byte-source";
import { rawText } from "./byte-source";
import { readCanonicalCsvParse } from "./canonical-csv-parse-reader";
import { missingHeaderError, readCanonicalFast, type CanonicalFileState } from "./canonical-fast-reader";
import type { RowLedger } from "./row-ledger";

/** "fast": the fast path with csv-parse as fallback (default); "csv-parse": csv-parse only. */
export type CanonicalParser = "fast" | "csv-parse";

export interface CanonicalReadReport {
  /** The line from which csv-parse read the file, or null if the fast path read it all. */
  csvParseFromLine: number | null;
}

export async function readCanonicalSource(
  source: ByteSource,
  ledger: RowLedger,
  options: { parser?: CanonicalParser; onProgress?: (rowsRead: number) => void } = {},
): Promise<CanonicalReadReport> {
  const sourceIndex = ledger.addSource({
    name: source.name,
    readRaw: (start, end) => rawText(source.readRange(start, end), start === 0),
  });
  const state: CanonicalFileState = { layout: null, scope: null };
  let csvParseFrom = options.parser === "csv-parse" ? { byte: 0, line: 1 } : null;
  if (csvParseFrom === null) csvParseFrom = await readCanonicalFast(source, sourceIndex, ledger, state, options.onProgress);
  if (csvParseFrom !== null) {
    await readCanonicalCsvParse(source, sourceIndex, ledger, state, csvParseFrom.byte, csvParseFrom.line, options.onProgress);
  }
  if (state.layout === null || state.scope === null) throw missingHeaderError(source.name);
  ledger.closeScope();
  return { csvParseFromLine: csvParseFrom?.line ?? null };
}
