/**
 * How a worker thread finds the stage it is sent (stage-worker.ts): by the module that
 * defines it and its name, among the module's exports — alone, or in an array (the stages
 * made per measured cluster).
 */
import type { Stage } from "./stage";

export function findStage(module: string, name: string): Stage {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exports = require(module) as Record<string, unknown>;
  const isStage = (value: unknown): value is Stage => typeof value === "object" && value !== null && (value as Stage).name === name && typeof (value as Stage).run === "function";
  const stage = Object.values(exports).flatMap((value) => (Array.isArray(value) ? value : [value])).find(isStage);
  if (stage === undefined) throw new Error(`no stage named "${name}" is exported by ${module}`);
  return stage;
}
