/**
 * The DP over many jobs (a bag of tasks, [BKT] §V), on worker threads.
 *
 * Jobs are handed out in chunks of `chunkSize` to `threads` workers, each holding its own
 * copy of the law (built from the plain `LawSpec`), as they ask for more (dynamic
 * balancing: jobs differ a lot in size). Results come back in job order whatever the
 * thread count, so the output does not depend on scheduling. `threads: 1` solves in this
 * thread. The worker module is `batch-worker` next to this file (.js when built; .ts when
 * running from the sources, loaded through tsx).
 */
import { microsSince } from "../shared/elapsed";
import { createRequire } from "node:module";
import { extname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { InputError } from "../shared/errors";
import type { Job } from "./job";
import { createLaw } from "./laws/create-law";
import type { FailureLaw, LawSpec } from "./laws/failure-law";
import { solveDp, type DpOptions, type DpSolver } from "./solve-dp";

export interface BatchJobResult {
  checkpoints: number[];
  expectedWaste: number;
  solver: DpSolver;
  transitions: number;
  lawEvaluations: number;
}

export interface BatchOptions extends Omit<DpOptions, "onProgress"> {
  threads: number;
  chunkSize?: number;
  /** Called after every chunk with the number of jobs solved so far. */
  onProgress?: (solved: number, total: number) => void;
}

export interface BatchResult {
  results: BatchJobResult[];
  threads: number;
  wallMicros: number;
  transitions: number;
}

/** Solve one job of a batch (used by the worker threads too). */
export function solveBatchJob(job: Job, law: FailureLaw, options: DpOptions): BatchJobResult {
  const solution = solveDp(job, law, options);
  return {
    checkpoints: solution.checkpoints,
    expectedWaste: solution.expectedWaste,
    solver: solution.solver,
    transitions: solution.stats.transitions,
    lawEvaluations: solution.stats.lawEvaluations,
  };
}

/** What a worker is started with, and the messages exchanged. */
export interface BatchWorkerData {
  lawSpec: LawSpec;
  options: DpOptions;
}
export interface BatchChunkRequest {
  first: number;
  jobs: Job[];
}
export type BatchChunkReply = { first: number; results: BatchJobResult[] } | { first: number; error: string; jobIndex: number };

function dpOptionsOf({ alpha, beta, objective, quantumSeconds, rounding, maxMemoryBytes }: BatchOptions): DpOptions {
  return { alpha, beta, objective, quantumSeconds, rounding, maxMemoryBytes };
}

export async function solveBatch(jobs: Job[], lawSpec: LawSpec, options: BatchOptions): Promise<BatchResult> {
  const start = process.hrtime.bigint();
  const threads = Math.max(1, Math.min(options.threads, jobs.length));
  const chunkSize = options.chunkSize ?? 64;
  const dpOptions = dpOptionsOf(options);
  const results: BatchJobResult[] = new Array(jobs.length);
  if (threads === 1) {
    const law = createLaw(lawSpec);
    jobs.forEach((job, i) => {
      try {
        results[i] = solveBatchJob(job, law, dpOptions);
      } catch (error) {
        throw new InputError(`batch job ${i + 1}: ${(error as Error).message}`, { cause: error });
      }
      if ((i + 1) % chunkSize === 0 || i + 1 === jobs.length) options.onProgress?.(i + 1, jobs.length);
    });
  } else {
    createLaw(lawSpec); // refuse a bad law here, not in every worker
    await runWorkers(jobs, { lawSpec, options: dpOptions }, threads, chunkSize, results, options.onProgress);
  }
  return {
    results,
    threads,
    wallMicros: microsSince(start),
    transitions: results.reduce((s, r) => s + r.transitions, 0),
  };
}

function runWorkers(
  jobs: Job[],
  workerData: BatchWorkerData,
  threads: number,
  chunkSize: number,
  results: BatchJobResult[],
  onProgress?: (solved: number, total: number) => void,
): Promise<void> {
  const extension = extname(__filename);
  const file = join(__dirname, `batch-worker${extension}`);
  // From the TypeScript sources (tests, benchmarks) the worker registers tsx's CommonJS hook first.
  const start = (): Worker =>
    extension === ".ts"
      ? new Worker(`require(${JSON.stringify(createRequire(__filename).resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`, {
          eval: true,
          workerData,
        })
      : new Worker(file, { workerData });
  let next = 0;
  let solved = 0;
  let finished = 0;
  const workers: Worker[] = [];
  return new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      for (const worker of workers) void worker.terminate();
      reject(error);
    };
    const sendNext = (worker: Worker) => {
      if (next >= jobs.length) {
        void worker.terminate();
        if (++finished === workers.length && !failed) resolve();
        return;
      }
      const request: BatchChunkRequest = { first: next, jobs: jobs.slice(next, next + chunkSize) };
      next += request.jobs.length;
      worker.postMessage(request);
    };
    for (let t = 0; t < threads; t++) {
      const worker = start();
      workers.push(worker);
      worker.on("message", (reply: BatchChunkReply) => {
        if ("error" in reply) {
          fail(new InputError(`batch job ${reply.jobIndex + 1}: ${reply.error}`));
          return;
        }
        reply.results.forEach((r, i) => (results[reply.first + i] = r));
        solved += reply.results.length;
        onProgress?.(solved, jobs.length);
        sendNext(worker);
      });
      worker.on("error", (error) => fail(error));
      worker.on("exit", (code) => {
        if (code !== 0 && next < jobs.length) fail(new Error(`a batch worker exited with code ${code}`));
      });
      sendNext(worker);
    }
  });
}
