/**
 * What the runner remembers of a stage's last run (in `<out>/.cache/pipeline-state.json`),
 * and the comparison that says why a stage must run again. Everything is a content hash:
 * touching a file without changing it changes nothing.
 */
import { stableStringify } from "../shared/hash";
import type { CodeIdentity } from "./code-identity";

export interface StageRecord {
  parameters: unknown;
  /** Input artifact name → sha256 of its file. */
  inputs: Record<string, string>;
  /** External input file → sha256. */
  inputFiles: Record<string, string>;
  code: CodeIdentity;
  /** Output path (relative to the output folder) → sha256. */
  outputs: Record<string, string>;
  /** The outputs that hold measured durations (may differ between runs). */
  volatile?: string[];
}

export type PipelineState = { schema: "ckpt-lab/pipeline-state@1"; stages: Record<string, StageRecord> };

/** Why `current` differs from `previous` (empty when nothing that matters changed). */
export function changesSince(previous: StageRecord, current: Omit<StageRecord, "outputs" | "volatile">): string[] {
  const reasons: string[] = [];
  const fileChanges = diffMaps(previous.inputFiles, current.inputFiles);
  if (fileChanges.length > 0) reasons.push(`input files changed: ${list(fileChanges)}`);
  const inputChanges = diffMaps(previous.inputs, current.inputs);
  if (inputChanges.length > 0) reasons.push(`input artifacts changed: ${list(inputChanges)}`);
  const parameterChanges = diffParameters(previous.parameters, current.parameters);
  if (parameterChanges.length > 0) reasons.push(`parameters changed: ${list(parameterChanges)}`);
  const codeChanges = diffMaps(previous.code.files, current.code.files);
  if (codeChanges.length > 0) reasons.push(`code changed: ${list(codeChanges)}`);
  const packageChanges = diffMaps(previous.code.packages, current.code.packages, (name, before, after) => `${name} ${before} → ${after}`);
  if (packageChanges.length > 0) reasons.push(`package versions changed: ${list(packageChanges)}`);
  return reasons;
}

function diffMaps(
  before: Record<string, string>,
  after: Record<string, string>,
  describe: (key: string, before: string, after: string) => string = (key) => `${key} (modified)`,
): string[] {
  const changes: string[] = [];
  for (const key of Object.keys(after).sort()) {
    if (!(key in before)) changes.push(`${key} (new)`);
    else if (before[key] !== after[key]) changes.push(describe(key, before[key]!, after[key]!));
  }
  for (const key of Object.keys(before).sort()) if (!(key in after)) changes.push(`${key} (removed)`);
  return changes;
}

/** Changed parameter paths, e.g. `reproduction.peakM: 1 → 2`. */
function diffParameters(before: unknown, after: unknown, path = ""): string[] {
  if (stableStringify(before) === stableStringify(after)) return [];
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => diffParameters(before[k], after[k], path ? `${path}.${k}` : k));
  }
  return [`${path || "(all)"}: ${stableStringify(before) ?? "unset"} → ${stableStringify(after) ?? "unset"}`];
}

function list(items: string[], max = 4): string {
  return items.length <= max ? items.join(", ") : `${items.slice(0, max).join(", ")} and ${items.length - max} more`;
}
