/**
 * A user's checkpoint policy module (docs/science.md §6.7), run in a worker thread of its own
 * and called synchronously by the simulation: the simulator's event loop is synchronous, and a
 * thread of its own is what lets a `plan` that never returns be stopped (a loop, a blocking
 * sleep) and keeps the module's mistakes away from the simulator's state.
 *
 * Protocol: one SharedArrayBuffer. The main thread writes the copy's slice durations and
 * checkpoint costs, sets the state to REQUEST and waits (Atomics.wait) at most the time limit;
 * the worker, blocked on the state, calls `plan`, writes the indices (or what was wrong) and sets
 * DONE or FAILED. A call that outlives the limit terminates the worker, and the run stops with
 * the module's name. The limit is wall-clock time (what Atomics.wait can measure), so its
 * default (10 s, where a DP plan takes well under a millisecond) leaves room for a loaded machine; a test of
 * it uses a module that never returns, never one that is merely slow.
 *
 * The worker rebuilds the policies' failure law from its spec with the simulator's own code, so
 * `law.cdf`, `law.survival` and `law.mean` give the same numbers on both sides of the thread.
 *
 * Loading checks the module at once: it must import, and its default export must be `{ name:
 * string, plan: function }` with a name no built-in policy has.
 */
import { createRequire } from "node:module";
import { extname, join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import type { LawSpec } from "../../place/laws/failure-law";
import { InputError } from "../../shared/errors";
import { sha256OfFile } from "../../shared/hash";
import type { CheckpointPolicy, CheckpointPolicyInput } from "./checkpoint-policy";
import { cannotRead } from "../../input/messages";

/** Slot of the control array: the state, the entries written (slices in, indices out), the message's length. */
export const STATE = 0;
export const COUNT = 1;
export const MESSAGE_LENGTH = 2;
export const IDLE = 0;
export const REQUEST = 1;
export const DONE = 2;
export const FAILED = 3;
/** Characters of a failure message kept. */
export const MESSAGE_CHARS = 2000;

export interface PolicyModuleWorkerData {
  file: string;
  lawSpec: LawSpec;
  /** Float64 entries of the data area: two per slice of the longest job, and one for the download. */
  capacity: number;
  control: SharedArrayBuffer;
  data: SharedArrayBuffer;
  message: SharedArrayBuffer;
}

export interface LoadedPolicyModule {
  policy: CheckpointPolicy;
  /** What outputs say about the module. */
  identity: { file: string; sha256: string; name: string };
  close(): Promise<void>;
}

/**
 * Load `file` into a worker and return its policy once the module is checked.
 * @param maxSlices the most slices a copy can have (the scenario's slicesPerJob maximum)
 */
export async function loadPolicyModule(file: string, lawSpec: LawSpec, maxSlices: number, timeLimitS: number, reserved: readonly string[]): Promise<LoadedPolicyModule> {
  let sha256: string;
  try {
    sha256 = sha256OfFile(file);
  } catch (error) {
    throw new InputError(cannotRead("the policy module", file, (error as Error).message, "Give the path of an ES module (.mjs, .js or .ts) whose default export is { name, plan(input) }"), { cause: error });
  }
  const capacity = 2 * maxSlices + 1;
  const control = new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT);
  const data = new SharedArrayBuffer(capacity * Float64Array.BYTES_PER_ELEMENT);
  const message = new SharedArrayBuffer(MESSAGE_CHARS * Uint16Array.BYTES_PER_ELEMENT);
  const workerData: PolicyModuleWorkerData = { file: resolve(file), lawSpec, capacity, control, data, message };
  const worker = startWorker(workerData);
  // What the module prints goes to stderr: stdout may be the run's JSON.
  worker.stdout.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  worker.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  const name = await new Promise<string>((ready, fail) => {
    worker.once("message", (m: { ok: true; name: string } | { ok: false; message: string }) => (m.ok ? ready(m.name) : fail(new InputError(`policy module ${file}: ${m.message}`))));
    worker.once("error", (error) => fail(new InputError(`policy module ${file}: ${error.message}`, { cause: error })));
    worker.once("exit", (code) => fail(new InputError(`policy module ${file}: its worker exited (code ${code}) before the module was loaded`)));
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  worker.removeAllListeners("exit");
  worker.removeAllListeners("error");
  worker.removeAllListeners("message");
  // An error after loading (the worker dying) is seen by the next call, as a state never set.
  worker.on("error", () => {});
  if (reserved.includes(name)) {
    await worker.terminate();
    throw new InputError(`policy module ${file}: its name "${name}" is taken (a built-in policy or another module of this run: ${reserved.join(", ")}); give the module another name`);
  }
  const state = new Int32Array(control);
  const values = new Float64Array(data);
  const text = new Uint16Array(message);
  const limitMs = timeLimitS * 1000;
  let dead = false;
  const policy: CheckpointPolicy = {
    name,
    plan(input: CheckpointPolicyInput): number[] {
      if (dead) throw new Error("is no longer running (an earlier call failed)");
      const n = input.sliceSeconds.length;
      for (let i = 0; i < n; i++) {
        values[i] = input.sliceSeconds[i]!;
        values[n + i] = input.checkpointSeconds[i]!;
      }
      values[2 * n] = input.downloadSeconds;
      Atomics.store(state, COUNT, n);
      Atomics.store(state, STATE, REQUEST);
      Atomics.notify(state, STATE);
      const deadline = performance.now() + limitMs;
      while (Atomics.load(state, STATE) === REQUEST) {
        const left = deadline - performance.now();
        if (left <= 0 || Atomics.wait(state, STATE, REQUEST, left) === "timed-out") {
          if (Atomics.load(state, STATE) !== REQUEST) break;
          dead = true;
          void worker.terminate();
          // A worker that ended (process.exit in the module) cannot say so while this thread waits: it times out too.
          throw new Error(`took longer than its time limit of ${timeLimitS} s (policyTimeLimitS) and was stopped (or its worker ended, e.g. by process.exit)`);
        }
      }
      if (Atomics.load(state, STATE) === FAILED) {
        dead = true;
        throw new Error(String.fromCharCode(...text.subarray(0, Atomics.load(state, MESSAGE_LENGTH))));
      }
      const count = Atomics.load(state, COUNT);
      return Array.from(values.subarray(0, count));
    },
  };
  return {
    policy,
    identity: { file, sha256, name },
    async close() {
      dead = true;
      await worker.terminate();
    },
  };
}

function startWorker(workerData: PolicyModuleWorkerData): Worker {
  const extension = extname(__filename);
  const file = join(__dirname, `policy-module-worker${extension}`);
  // From the TypeScript sources (tests, benchmarks) the worker registers tsx's CommonJS hook first (as place/solve-batch.ts).
  return extension === ".ts"
    ? new Worker(`require(${JSON.stringify(createRequire(__filename).resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`, { eval: true, workerData, stdout: true, stderr: true })
    : new Worker(file, { workerData, stdout: true, stderr: true });
}
