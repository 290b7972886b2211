/**
 * The observations artifact (`ckpt ingest --out observations.json`): the observations the
 * fit stage consumes, with what they were made from (input files and their SHA-256, the
 * options, the counts) so that a model can name its data.
 */
import { openAtomicLineWriter } from "../shared/atomic-write";
import { InputError } from "../shared/errors";
import type { IngestCounts, IngestResult, IngestSummary } from "./ingest-files";
import type { Observations, SizeSeries } from "./observations";
import type { RejectCode } from "./reject-reasons";
import { RunsJsonEncoder } from "./runs-json";

export const OBSERVATIONS_SCHEMA = "ckpt-lab/observations@1";

const SYNC_EVERY_BYTES = 64 << 20;

export interface ObservationsArtifact {
  schema: typeof OBSERVATIONS_SCHEMA;
  tool: { name: "ckpt-lab"; version: string };
  inputs: { path: string; sha256: string }[];
  options: { format: string; strict: boolean; groupBy: string[] };
  counts: IngestCounts;
  rejectedByCode: Partial<Record<RejectCode, number>>;
  /** The rejects file written next to it, if any. */
  rejectsFile: string | null;
  observations: Observations;
}

export function buildObservationsArtifact(
  result: Pick<IngestResult, "inputs" | "counts" | "rejectedByCode" | "observations">,
  context: { toolVersion: string; format: string; strict: boolean; groupBy: string[]; rejectsFile: string | null },
): ObservationsArtifact {
  return {
    schema: OBSERVATIONS_SCHEMA,
    tool: { name: "ckpt-lab", version: context.toolVersion },
    inputs: result.inputs,
    options: { format: context.format, strict: context.strict, groupBy: context.groupBy },
    counts: result.counts,
    rejectedByCode: result.rejectedByCode ?? {},
    rejectsFile: context.rejectsFile,
    observations: result.observations,
  };
}

/** Check a parsed observations file's shape (not every number) and type it. */
export function parseObservationsArtifact(value: unknown, file: string): ObservationsArtifact {
  const artifact = value as Partial<ObservationsArtifact> | null;
  if (artifact === null || typeof artifact !== "object" || artifact.schema !== OBSERVATIONS_SCHEMA) {
    const found = artifact !== null && typeof artifact === "object" ? JSON.stringify(artifact.schema) : typeof value;
    throw new InputError(`${file}: expected an observations file (schema "${OBSERVATIONS_SCHEMA}", as written by ckpt ingest --out), found schema ${found}`);
  }
  const observations = artifact.observations as Partial<Observations> | undefined;
  if (!observations || !Array.isArray(observations.runs) || !Array.isArray(observations.series) || !Array.isArray(observations.validationRuns)) {
    throw new InputError(`${file}: "observations" must hold the arrays runs, series and validationRuns; the file is damaged, rerun ckpt ingest`);
  }
  return artifact as ObservationsArtifact;
}

/** The 64-character stand-in for the SHA-256 of input k while it is computed (not hex: never a real one). */
export function pendingSha256(k: number): string {
  return `pending-sha256-of-input-${k}`.padEnd(64, "?");
}

/**
 * Write the observations artifact of a streamed ingest to `path`, atomically: byte for
 * byte what `writeJsonAtomic(path, buildObservationsArtifact(…))` writes, but with the
 * runs written one by one from their columns, so that millions of runs never exist as
 * objects or as one string (a JSON text of 2 GB cannot be a JS string at all).
 *
 * An input whose SHA-256 is still being computed (`summary.sha256Ready`: a thread hashes a
 * large file once it is read) is written with its 64-character stand-in, and the
 * hash over it once known, before the file is synced and renamed: the hashing overlaps the
 * writing instead of coming before it.
 */
export async function writeObservationsArtifact(
  path: string,
  summary: IngestSummary,
  summarised: { series: SizeSeries[]; validationRuns: number[] },
  context: { toolVersion: string; format: string; strict: boolean; groupBy: string[]; rejectsFile: string | null },
): Promise<void> {
  const { runs } = summary;
  const { series, validationRuns } = summarised;
  const RUNS = "\u0000runs\u0000";
  const VALIDATION = "\u0000validation\u0000";
  const observations: Record<string, unknown> = { runs: RUNS, series, validationRuns: VALIDATION };
  if (context.groupBy.length > 0) observations.groupBy = [...context.groupBy];
  const artifact = buildObservationsArtifact({ ...summary, observations: observations as unknown as Observations }, context);
  const text = JSON.stringify(artifact, null, 2);
  const [head, rest] = splitAt(text, JSON.stringify(RUNS));
  const [middle, tail] = splitAt(rest, JSON.stringify(VALIDATION));
  // Where the stand-ins of hashes to come are (in bytes: paths may be non-ASCII).
  const pending = summary.inputs.flatMap((input, k) => {
    if (input.sha256 !== pendingSha256(k)) return [];
    const at = head.indexOf(`"sha256": "${input.sha256}"`) + '"sha256": "'.length;
    return [{ input, position: Buffer.byteLength(head.slice(0, at), "utf8") }];
  });

  const writer = openAtomicLineWriter(path);
  try {
    // The runs, encoded straight into bytes (runs-json.ts); the rest is small.
    // Every 64 MiB, the disk starts on what is written (the runs of a 10-million-row trace
    // are 283 MiB: flushed all at once by the final fsync, they took 0.2–0.3 s after the writing).
    const syncs: Promise<void>[] = [];
    let unsynced = 0;
    const encoder = new RunsJsonEncoder(runs, (bytes) => {
      writer.writeBytes(bytes);
      unsynced += bytes.length;
      if (unsynced >= SYNC_EVERY_BYTES) {
        unsynced = 0;
        const sync = writer.syncInBackground();
        sync.catch(() => {}); // awaited below
        syncs.push(sync);
      }
    });
    writer.writeText(head);
    encoder.writeArray(runs.length, (k) => k);
    writer.writeText(middle);
    encoder.writeArray(validationRuns.length, (k) => validationRuns[k]!);
    writer.writeText(`${tail}\n`);
    await Promise.all(syncs);
    if (pending.length > 0) {
      await summary.sha256Ready;
      for (const { input, position } of pending) {
        if (!/^[0-9a-f]{64}$/.test(input.sha256)) throw new Error(`observations: the SHA-256 of ${input.path} is ${input.sha256}`);
        writer.writeAt(position, Buffer.from(input.sha256, "latin1"));
      }
    }
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  }
}

function splitAt(text: string, marker: string): [string, string] {
  const at = text.indexOf(marker);
  return [text.slice(0, at), text.slice(at + marker.length)];
}
