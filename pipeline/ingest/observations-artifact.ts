/**
 * The observations artifact (`ckpt ingest --out observations.json`): the observations the
 * fit stage consumes, with what they were made from (input files and their SHA-256, the
 * options, the counts) so that a model can name its data.
 */
import { InputError } from "../shared/errors";
import type { IngestCounts, IngestResult } from "./ingest-files";
import type { Observations } from "./observations";
import type { RejectCode } from "./reject-reasons";

export const OBSERVATIONS_SCHEMA = "ckpt-lab/observations@1";

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
  result: IngestResult,
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
