/**
 * The emulator's worker *process*: one per simulated application. It allocates the
 * application's memory, touches every page, then writes it as a BLCR image.
 *
 * Three ways to run it:
 * - forked by the emulate backend (an IPC channel exists): it reports `ready` once its
 *   memory is touched, waits for `go` (the barrier: every worker of a run starts
 *   together), writes, and reports the monotonic start/end of its checkpoint. If the
 *   parent goes away it exits at once, so a killed sweep leaves no orphan writing on.
 * - with `--protocol`, through a launcher on another node (ssh, srun): the same steps over
 *   the line protocol of `protocol-line.ts` (`ready` on stdout, `go` on stdin, `result`
 *   with wall-clock start/end derived from the monotonic clock), so a cluster's file
 *   server can be measured with the emulator and a real barrier.
 * - standalone, as a checkpoint command (`node emulate-worker.js --size-mb 32 --file
 *   ckpt.img [--sync fsync] [--pages-per-write 256]`): writes at once and prints one JSON
 *   line `{ "bytes", "seconds" }`. This is how the command backend is tested, and a way to
 *   measure a cluster's file server without BLCR.
 */
import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { allocateTouchedMemory, writeBlcrImage } from "./blcr-image";
import { PROTOCOL_PREFIX } from "./protocol-line";
import { SYNC_MODES, type SyncMode } from "./sweep-spec";

/** Messages between the emulate backend and its workers. */
export type WorkerMessage =
  | { type: "ready"; pid: number }
  | { type: "done"; bytes: number; startNs: string; endNs: string }
  | { type: "error"; message: string };
export type ControllerMessage = { type: "go" };

export interface WorkerArguments {
  sizeMb: number;
  file: string;
  sync: SyncMode;
  pagesPerWrite: number;
  /** Speak the line protocol on stdin/stdout (remote runs). */
  protocol?: boolean;
  /** Delete the image once measured (remote runs, unless the sweep keeps files). */
  removeAfter?: boolean;
}

/** The worker's argv, as the backend builds it and the worker reads it. */
export function workerArgv(args: WorkerArguments): string[] {
  return [
    "--size-mb",
    String(args.sizeMb),
    "--file",
    args.file,
    "--sync",
    args.sync,
    "--pages-per-write",
    String(args.pagesPerWrite),
    ...(args.protocol ? ["--protocol"] : []),
    ...(args.removeAfter ? ["--remove-after"] : []),
  ];
}

function readWorkerArguments(argv: string[]): WorkerArguments {
  const { values } = parseArgs({
    args: argv,
    options: {
      "size-mb": { type: "string" },
      file: { type: "string" },
      sync: { type: "string", default: "fsync" },
      "pages-per-write": { type: "string", default: "256" },
      protocol: { type: "boolean", default: false },
      "remove-after": { type: "boolean", default: false },
    },
    strict: true,
  });
  const sizeMb = Number(values["size-mb"]);
  const pagesPerWrite = Number(values["pages-per-write"]);
  if (!(sizeMb > 0) || !Number.isFinite(sizeMb)) throw new Error(`--size-mb expects a size in MB > 0, got "${values["size-mb"]}"`);
  if (!values.file) throw new Error("--file expects the path of the image to write");
  if (!(SYNC_MODES as readonly string[]).includes(values.sync!)) throw new Error(`--sync expects one of ${SYNC_MODES.join(", ")}, got "${values.sync}"`);
  if (!Number.isInteger(pagesPerWrite) || pagesPerWrite < 1 || pagesPerWrite > 512) {
    throw new Error(`--pages-per-write expects an integer from 1 to 512, got "${values["pages-per-write"]}"`);
  }
  return { sizeMb, file: values.file, sync: values.sync as SyncMode, pagesPerWrite, protocol: values.protocol, removeAfter: values["remove-after"] };
}

/** Report the error on stderr (what the run folder keeps) and to the parent, then exit 1. */
function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`emulate-worker: ${message}\n`);
  if (process.send && process.connected) process.send({ type: "error", message } satisfies WorkerMessage, () => process.exit(1));
  else process.exit(1);
}

function runForked(args: WorkerArguments): void {
  process.on("disconnect", () => process.exit(3));
  const memory = allocateTouchedMemory(args.sizeMb);
  process.on("message", (message: ControllerMessage) => {
    if (message?.type !== "go") return;
    try {
      const result = writeBlcrImage(args.file, memory, args.sync, args.pagesPerWrite);
      const done: WorkerMessage = { type: "done", bytes: result.bytes, startNs: String(result.startNs), endNs: String(result.endNs) };
      process.send!(done, () => process.exit(0));
    } catch (error) {
      fail(error);
    }
  });
  process.send!({ type: "ready", pid: process.pid } satisfies WorkerMessage);
}

function runWithProtocol(args: WorkerArguments): void {
  mkdirSync(dirname(args.file), { recursive: true });
  const memory = allocateTouchedMemory(args.sizeMb);
  process.stdout.write(`${PROTOCOL_PREFIX}ready\n`);
  const input = createInterface({ input: process.stdin });
  input.once("line", () => {
    input.close();
    const goEpochMs = Date.now();
    const goNs = process.hrtime.bigint();
    let result;
    try {
      result = writeBlcrImage(args.file, memory, args.sync, args.pagesPerWrite);
    } catch (error) {
      fail(error);
      return;
    } finally {
      if (args.removeAfter) rmSync(args.file, { force: true });
    }
    const epochS = (ns: bigint) => (goEpochMs + Number(ns - goNs) / 1e6) / 1000;
    process.stdout.write(`${PROTOCOL_PREFIX}result rc=0 start=${epochS(result.startNs).toFixed(6)} end=${epochS(result.endNs).toFixed(6)} bytes=${result.bytes} pid=${process.pid}\n`);
  });
  // If stdin closes without "go" (the harness is gone) nothing is left to wait for: the
  // process ends without a result.
}

function runStandalone(args: WorkerArguments): void {
  const memory = allocateTouchedMemory(args.sizeMb);
  const result = writeBlcrImage(args.file, memory, args.sync, args.pagesPerWrite);
  process.stdout.write(`${JSON.stringify({ file: args.file, bytes: result.bytes, seconds: Number(result.endNs - result.startNs) / 1e9 })}\n`);
}

if (require.main === module) {
  try {
    const args = readWorkerArguments(process.argv.slice(2));
    if (args.protocol) runWithProtocol(args);
    else if (process.send) runForked(args);
    else runStandalone(args);
  } catch (error) {
    fail(error);
  }
}
