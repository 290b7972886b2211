/**
 * The worker thread of a user's policy module (policy-module.ts has the protocol): imports the
 * module, checks its default export, says so to the main thread, then answers plan requests
 * one at a time, blocked on the shared state between them, until it is terminated.
 */
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { createLaw } from "../../place/laws/create-law";
import { describeValue, policyLaw, type CheckpointPolicy } from "./checkpoint-policy";
import { COUNT, DONE, FAILED, MESSAGE_CHARS, MESSAGE_LENGTH, REQUEST, STATE, type PolicyModuleWorkerData } from "./policy-module";

const input = workerData as PolicyModuleWorkerData;

async function load(): Promise<CheckpointPolicy> {
  let module: { default?: unknown };
  try {
    if (/\.[mc]?ts$/.test(input.file)) {
      // TypeScript through tsx, when it is installed (it is a development dependency of this project).
      const { tsImport } = (await import("tsx/esm/api")) as { tsImport: (specifier: string, parent: string) => Promise<{ default?: unknown }> };
      module = await tsImport(pathToFileURL(input.file).href, __filename);
    } else module = (await import(pathToFileURL(input.file).href)) as { default?: unknown };
  } catch (error) {
    throw new Error(`cannot import it: ${(error as Error).message}${error instanceof SyntaxError ? syntaxErrorPosition(input.file) : ""}`);
  }
  let exported = (module.default ?? module) as (Partial<CheckpointPolicy> & { default?: unknown }) | undefined;
  // A module compiled to CommonJS (a .ts file outside an ES-module package) arrives wrapped once more.
  if (typeof exported === "object" && exported !== null && !("plan" in exported) && typeof exported.default === "object") exported = exported.default as Partial<CheckpointPolicy>;
  const shape = 'its default export must be { name: string, plan(input): number[] } (e.g. export default { name: "my-policy", plan(input) { return []; } })';
  if (typeof exported !== "object" || exported === null) throw new Error(`${shape}; found ${describeValue(exported)}`);
  if (typeof exported.name !== "string" || exported.name.trim() === "" || exported.name.length > 64) throw new Error(`${shape}; its name is ${describeValue(exported.name)} (a non-empty string of at most 64 characters)`);
  if (typeof exported.plan !== "function") throw new Error(`${shape}; its plan is ${describeValue(exported.plan)}`);
  return exported as CheckpointPolicy;
}

/** Where a syntax error is: `import()` does not say, `node --check` does (its first line is "file:line"). */
function syntaxErrorPosition(file: string): string {
  const check = spawnSync(process.execPath, ["--check", file], { encoding: "utf8", timeout: 10_000 });
  const line = check.stderr?.split("\n")[0] ?? "";
  return /:\d+$/.test(line) ? ` at ${line}` : "";
}

function serve(policy: CheckpointPolicy): never {
  const state = new Int32Array(input.control);
  const values = new Float64Array(input.data);
  const text = new Uint16Array(input.message);
  const law = policyLaw(createLaw(input.lawSpec));
  const fail = (message: string) => {
    const kept = message.slice(0, MESSAGE_CHARS);
    for (let i = 0; i < kept.length; i++) text[i] = kept.charCodeAt(i);
    Atomics.store(state, MESSAGE_LENGTH, kept.length);
    Atomics.store(state, STATE, FAILED);
  };
  for (;;) {
    for (let s = Atomics.load(state, STATE); s !== REQUEST; s = Atomics.load(state, STATE)) Atomics.wait(state, STATE, s);
    const n = Atomics.load(state, COUNT);
    const sliceSeconds = Array.from(values.subarray(0, n));
    const checkpointSeconds = Array.from(values.subarray(n, 2 * n));
    const downloadSeconds = values[2 * n]!;
    let result: unknown;
    let threw: unknown = null;
    try {
      result = policy.plan.call(policy, { sliceSeconds, checkpointSeconds, downloadSeconds, law });
    } catch (error) {
      threw = error ?? new Error(String(error));
    }
    if (threw !== null) {
      const error = threw as Error;
      fail(`threw ${error instanceof Error ? `${error.name}: ${error.message}` : describeValue(threw)}`);
    } else if (!Array.isArray(result) || !result.every((x) => typeof x === "number")) {
      fail(`returned ${describeValue(result)}: plan(input) must return an array of slice indices (number[]), synchronously`);
    } else if (result.length > input.capacity) {
      fail(`returned ${result.length} indices for ${n} slices`);
    } else {
      for (let i = 0; i < result.length; i++) values[i] = result[i] as number;
      Atomics.store(state, COUNT, result.length);
      Atomics.store(state, STATE, DONE);
    }
    Atomics.notify(state, STATE);
  }
}

load().then(
  (policy) => {
    parentPort!.postMessage({ ok: true, name: policy.name });
    serve(policy);
  },
  (error: Error) => parentPort!.postMessage({ ok: false, message: error.message }),
);
