/**
 * Read trace files (canonical CSV or host-logs directories), validate every row and
 * aggregate the accepted ones into `Observations`.
 *
 * INTERFACE ONLY: the implementation lands with the ingest stage.
 */
import type { Observations } from "./observations";

export type TraceFormat = "auto" | "canonical" | "host-logs";

export interface IngestOptions {
  /** "auto" (default): a directory is host logs, a file is canonical CSV. */
  format?: TraceFormat;
  /** Stop at the first bad row with `file:line: reason` (an InputError). */
  strict?: boolean;
  /** Called now and then with the number of rows read so far. */
  onProgress?: (rowsRead: number) => void;
}

/** A row that was not used, with where it was and why. */
export interface RejectedRow {
  file: string;
  line: number;
  reason: string;
  /** The row's text as read. */
  raw: string;
}

/** Always `read = accepted + rejected`. */
export interface IngestCounts {
  read: number;
  accepted: number;
  rejected: number;
}

export interface IngestResult {
  observations: Observations;
  counts: IngestCounts;
  rejects: RejectedRow[];
  /** Every input file with its content hash (provenance). */
  inputs: { path: string; sha256: string }[];
}

export async function ingestFiles(_paths: string[], _options: IngestOptions = {}): Promise<IngestResult> {
  throw new Error("ingestFiles is not implemented yet");
}
