/** Content hashes for provenance and for the pipeline's skip-if-unchanged decisions. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export function sha256OfBytes(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

export function sha256OfFile(path: string): string {
  return sha256OfBytes(readFileSync(path));
}

/** A hash of a JSON value whose object keys are sorted, so equal values hash equally. */
export function sha256OfJson(value: unknown): string {
  return sha256OfBytes(stableStringify(value));
}

export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
}
