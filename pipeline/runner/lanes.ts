/**
 * Where the runner's stages run: on the main thread one after the other, or in worker
 * threads (stage-worker.ts), so that on two cores the stages that do not depend on each
 * other overlap — place beside schedule, this machine's ingest and fit and the simulation
 * grids beside the traces' ingest and fit. With workers the main thread runs no stage: a
 * stage's computation is one long synchronous call, during which the main thread could not
 * hand the next stage to a worker that has finished. Outputs are the same whichever lane ran
 * a stage: a stage is a pure function of its inputs, and the runner writes what it returns.
 *
 * A stage is started when every stage that produces one of its inputs is done: the first
 * ready one in data-flow order, in the first free lane.
 */
import { extname, join } from "node:path";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { InputError, UsageError } from "../shared/errors";
import type { Stage, StageContext, StageResult } from "./stage";
import type { StageReply, StageRequest } from "./stage-worker";

/** What a lane needs to run a stage: its context without the parsed inputs (the lane reads them) and progress. */
export type StageData = Omit<StageContext, "inputs" | "progress">;

export interface Lane {
  name: string;
  /** Run `stage` with its input artifacts read from `inputPaths` (name → file). */
  run(stage: Stage, inputPaths: Record<string, string>, data: StageData, progress: (message: string) => void): Promise<StageResult>;
  close?(): Promise<void>;
}

export const inProcessLane: Lane = {
  name: "main thread",
  run(stage, inputPaths, data, progress) {
    const inputs: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(inputPaths)) inputs[name] = JSON.parse(readFileSync(path, "utf8"));
    return stage.run({ ...data, inputs, progress });
  },
};

/** A worker thread that runs the stages it is given one after the other; started at its first stage. */
export class WorkerLane implements Lane {
  private worker: Worker | undefined;

  constructor(readonly name: string) {}

  private start(): Worker {
    const extension = extname(__filename);
    const file = join(__dirname, `stage-worker${extension}`);
    // From the TypeScript sources (tests) the worker registers tsx's CommonJS hook first.
    this.worker =
      extension === ".ts"
        ? new Worker(`require(${JSON.stringify(createRequire(__filename).resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`, { eval: true })
        : new Worker(file);
    return this.worker;
  }

  run(stage: Stage, inputPaths: Record<string, string>, data: StageData, progress: (message: string) => void): Promise<StageResult> {
    const worker = this.worker ?? this.start();
    return new Promise<StageResult>((resolve, reject) => {
      const onMessage = (reply: StageReply) => {
        if (reply.type === "progress") return progress(reply.message);
        detach();
        if (reply.type === "done") resolve(reply.result);
        else reject(rebuildError(reply));
      };
      const onError = (error: Error) => {
        detach();
        this.worker = undefined;
        reject(error);
      };
      const onExit = (code: number) => onError(new Error(`the worker thread running stage "${stage.name}" exited with code ${code}`));
      const detach = () => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      const request: StageRequest = { module: stage.module, name: stage.name, inputPaths, context: data };
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }
}

/** The worker's error as the same kind of error here, so that the CLI's exit code and message stay. */
function rebuildError(reply: Extract<StageReply, { type: "error" }>): Error {
  const error = reply.kind === "InputError" ? new InputError(reply.message) : reply.kind === "UsageError" ? new UsageError(reply.message) : new Error(reply.message);
  if (reply.stack !== undefined) error.stack = reply.stack;
  return error;
}

/**
 * Run every stage once, each after the stages producing its inputs (`wiring`: stage →
 * input artifact names), in as many lanes as given. A failure stops new stages from
 * starting; the stages already running finish, then the first error is thrown.
 */
export async function runInLanes(
  stages: readonly Stage[],
  wiring: ReadonlyMap<string, readonly string[]>,
  lanes: readonly Lane[],
  runOne: (index: number, lane: Lane) => Promise<void>,
): Promise<void> {
  const producerOf = new Map<string, string>();
  for (const stage of stages) for (const output of stage.outputs) producerOf.set(output, stage.name);
  const done = new Set<string>();
  const pending = stages.map((_, index) => index);
  let failure: { error: unknown } | undefined;
  let wake = () => {};
  let changed = new Promise<void>((resolve) => (wake = resolve));
  const ready = (index: number) => wiring.get(stages[index]!.name)!.every((input) => done.has(producerOf.get(input)!));

  const laneLoop = async (lane: Lane): Promise<void> => {
    for (;;) {
      if (failure !== undefined || pending.length === 0) return;
      const position = pending.findIndex(ready);
      if (position < 0) {
        await changed;
        continue;
      }
      const [index] = pending.splice(position, 1) as [number];
      try {
        await runOne(index, lane);
        done.add(stages[index]!.name);
      } catch (error) {
        failure ??= { error };
      }
      const notify = wake;
      changed = new Promise<void>((resolve) => (wake = resolve));
      notify();
    }
  };
  await Promise.all(lanes.map(laneLoop));
  if (failure !== undefined) throw failure.error;
}
