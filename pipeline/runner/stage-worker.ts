/**
 * The pipeline's second lane (run-stages.ts): a worker thread that runs the stages it is
 * sent, one at a time, while the main thread runs another. A stage is found by the module
 * that defines it and its name, its input artifacts are read here from their files, and its
 * result goes back whole; progress lines and errors (with their kind, so that exit codes
 * stay) are messages.
 */
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { InputError, UsageError } from "../shared/errors";
import { findStage } from "./find-stage";
import type { StageContext, StageResult } from "./stage";

/** What the main thread sends: everything of a StageContext that is data, and where the inputs are. */
export interface StageRequest {
  module: string;
  name: string;
  inputPaths: Record<string, string>;
  context: Omit<StageContext, "inputs" | "progress">;
}

export type StageReply =
  | { type: "progress"; message: string }
  | { type: "done"; result: StageResult }
  | { type: "error"; kind: "InputError" | "UsageError" | "Error"; message: string; stack?: string };

async function runRequest(request: StageRequest): Promise<StageResult> {
  const stage = findStage(request.module, request.name);
  const inputs: Record<string, unknown> = {};
  for (const [name, path] of Object.entries(request.inputPaths)) inputs[name] = JSON.parse(readFileSync(path, "utf8"));
  const post = (reply: StageReply) => parentPort!.postMessage(reply);
  return stage.run({ ...request.context, inputs, progress: (message) => post({ type: "progress", message }) });
}

parentPort?.on("message", (request: StageRequest) => {
  runRequest(request).then(
    (result) => parentPort!.postMessage({ type: "done", result } satisfies StageReply),
    (error: unknown) => {
      const kind = error instanceof InputError ? "InputError" : error instanceof UsageError ? "UsageError" : "Error";
      const reply: StageReply = { type: "error", kind, message: error instanceof Error ? error.message : String(error), ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) };
      parentPort!.postMessage(reply);
    },
  );
});
