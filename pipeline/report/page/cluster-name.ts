/**
 * The name of the cluster a report describes: the one the user gives (`ckpt pipeline
 * --cluster NAME`), else the traces' `cluster` column (every distinct value, in order of
 * first appearance), else the trace files' names without their extension.
 */
import { basename, extname } from "node:path";
import type { ObservationsArtifact } from "../../ingest/observations-artifact";

export function clusterName(artifact: ObservationsArtifact, given = ""): string {
  if (given.trim() !== "") return given.trim();
  const names: string[] = [];
  for (const run of artifact.observations.runs) {
    const name = run.attributes?.cluster?.trim();
    if (name && !names.includes(name)) names.push(name);
  }
  if (names.length > 0) return names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
  const files = artifact.inputs.map((input) => basename(input.path, extname(input.path)));
  return files.length > 0 ? files.join(", ") : "the ingested traces";
}
