/** Worker thread of solve-batch.ts: solves the chunks of jobs it is sent, one reply per chunk. */
import { parentPort, workerData } from "node:worker_threads";
import { createLaw } from "./laws/create-law";
import { solveBatchJob, type BatchChunkReply, type BatchChunkRequest, type BatchJobResult, type BatchWorkerData } from "./solve-batch";

const { lawSpec, options } = workerData as BatchWorkerData;
const law = createLaw(lawSpec);

parentPort!.on("message", ({ first, jobs }: BatchChunkRequest) => {
  const results: BatchJobResult[] = [];
  for (let i = 0; i < jobs.length; i++) {
    try {
      results.push(solveBatchJob(jobs[i]!, law, options));
    } catch (error) {
      const reply: BatchChunkReply = { first, error: (error as Error).message, jobIndex: first + i };
      parentPort!.postMessage(reply);
      return;
    }
  }
  const reply: BatchChunkReply = { first, results };
  parentPort!.postMessage(reply);
});
