/**
 * The name of the cluster a report describes: the one the user gives (`ckpt pipeline
 * --cluster NAME`), else the traces' `cluster` column (every distinct value, in order of
 * first appearance), else the trace files' names without their extension; as `displayText`.
 */
import { basename, extname } from "node:path";
import type { ObservationsArtifact } from "../../ingest/observations-artifact";
import { displayText } from "../../shared/display-text";

export function clusterName(artifact: ObservationsArtifact, given = ""): string {
  if (displayText(given) !== "") return displayText(given);
  const names: string[] = [];
  for (const run of artifact.observations.runs) {
    const name = displayText(run.attributes?.cluster ?? "");
    if (name && !names.includes(name)) names.push(name);
  }
  if (names.length > 0) return names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
  const files = artifact.inputs.map((input) => displayText(basename(input.path, extname(input.path))));
  return files.length > 0 ? files.join(", ") : "the ingested traces";
}
