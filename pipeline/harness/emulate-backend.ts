/**
 * The `emulate` backend: one parallel checkpoint run with `m` worker
 * *processes* (not threads: each has its own address space, as the checkpointed
 * applications do) that write BLCR-pattern images into the target directory (docs/science.md §3.1).
 *
 * Here (launcher "local"): fork every worker; each allocates and touches its memory and says `ready`;
 * when all are ready the barrier opens (`go` to each, in the same tick); each reports the
 * CLOCK_MONOTONIC start/end of its write (system-wide on Linux, so the workers' clocks and
 * the barrier's are one clock). A worker that dies, reports an error, or a run that outlives
 * its timeout fails the run: the other workers are killed, their output is kept, nothing
 * is reported as measured. On a cluster (launcher ssh/srun) the workers run on the nodes and
 * speak the line protocol instead (`protocol-runner.ts`).
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, statfsSync } from "node:fs";
import { join, posix } from "node:path";
import { blcrImageLayout } from "./blcr-image";
import type { ControllerMessage, WorkerMessage } from "./emulate-worker";
import { workerArgv } from "./emulate-worker";
import { launcherArgv } from "./launcher-argv";
import { harnessScript } from "./node-script";
import { OutputTail } from "./output-tail";
import { placeProcesses } from "./place-processes";
import type { Combination } from "./plan-sweep";
import { runProtocolProcesses } from "./protocol-runner";
import type { BackendHooks, ProcessLog, RunResult } from "./run-result";
import { removeQuietly } from "./remove-quietly";
import { shellJoin } from "./shell-quote";

interface Worker {
  index: number;
  node: string;
  child: ChildProcess | null;
  argv: string[];
  command: string;
  stdout: OutputTail;
  stderr: OutputTail;
  ready: boolean;
  done: { bytes: number; startNs: bigint; endNs: bigint } | null;
  exit: string;
  closed: boolean;
}

/** The folder of a run's images inside the target directory. */
export function targetRunDir(combination: Combination): string {
  return join(combination.dir, combination.id);
}

export function runEmulated(combination: Combination, hooks: BackendHooks = {}): Promise<RunResult> {
  return combination.launcher === "local" ? runForked(combination, hooks) : runRemote(combination, hooks);
}

/**
 * On the nodes of a cluster: each worker runs through the launcher and speaks the line
 * protocol (the tool must be at the same path on the nodes, as with an NFS /home).
 */
async function runRemote(combination: Combination, hooks: BackendHooks): Promise<RunResult> {
  const script = harnessScript("emulate-worker");
  const placements = placeProcesses(combination.m, combination.launcher, combination.nodes, combination.processesPerNode, combination.id);
  const processes = placements.map((p) => {
    const sizeMb = combination.sizesMb[p.index - 1]!;
    const argv = workerArgv({
      sizeMb,
      file: posix.join(targetRunDir(combination), `${p.label}.img`),
      sync: combination.sync ?? "fsync",
      pagesPerWrite: combination.pagesPerWrite,
      protocol: true,
      removeAfter: !combination.keepFiles,
    });
    const line = `exec ${shellJoin([script.execPath, ...script.execArgv, script.script, ...argv])}`;
    return { index: p.index, node: p.label, sizeMb, argv: launcherArgv(combination.launcher, p.host, line, combination.remoteShell) };
  });
  const result = await runProtocolProcesses(processes, combination.timeoutS, hooks);
  if (!combination.keepFiles && (hooks.mayRemoveFiles?.() ?? true)) removeQuietly(targetRunDir(combination));
  return result;
}

/** Here: forked workers with an IPC channel. */
function runForked(combination: Combination, hooks: BackendHooks): Promise<RunResult> {
  const dir = targetRunDir(combination);
  const script = harnessScript("emulate-worker");
  const workers: Worker[] = combination.sizesMb.map((sizeMb, i) => {
    const node = `local-${i + 1}`;
    const argv = workerArgv({ sizeMb, file: join(dir, `${node}.img`), sync: combination.sync ?? "fsync", pagesPerWrite: combination.pagesPerWrite });
    return {
      index: i + 1,
      node,
      child: null,
      argv,
      command: shellJoin([script.execPath, ...script.execArgv, script.script, ...argv]),
      stdout: new OutputTail(),
      stderr: new OutputTail(),
      ready: false,
      done: null,
      exit: "not started",
      closed: false,
    };
  });
  const logs = (): ProcessLog[] =>
    workers.map((w) => ({ index: w.index, node: w.node, command: w.command, stdout: w.stdout.text(), stderr: w.stderr.text(), exit: w.exit }));

  const refusal = prepareTarget(dir, combination.sizesMb);
  if (refusal !== null) return Promise.resolve({ status: "failed", reason: refusal, logs: logs() });

  return new Promise<RunResult>((resolve) => {
    let failure: string | null = null;
    let barrierNs = 0n;
    let barrierEpochMs = 0;
    let settled = false;
    const timer = setTimeout(() => fail(`timed out after ${combination.timeoutS} s (the sweep's "timeoutS")`), combination.timeoutS * 1000);
    const onAbort = () => fail(`interrupted: ${String(hooks.signal?.reason ?? "aborted")}`);
    hooks.signal?.addEventListener("abort", onAbort, { once: true });

    const finishIfClosed = () => {
      if (settled || !workers.every((w) => w.closed)) return;
      settled = true;
      clearTimeout(timer);
      hooks.signal?.removeEventListener("abort", onAbort);
      if (!combination.keepFiles && (hooks.mayRemoveFiles?.() ?? true)) removeQuietly(dir);
      if (failure === null && workers.some((w) => w.done === null)) {
        const silent = workers.find((w) => w.done === null)!;
        failure = `process ${silent.index} (${silent.node}) ended (${silent.exit}) without reporting its checkpoint`;
      }
      if (failure !== null) {
        resolve({ status: "failed", reason: failure, logs: logs() });
        return;
      }
      resolve({
        status: "done",
        barrierEpochMs,
        logs: logs(),
        processes: workers.map((w) => ({
          index: w.index,
          node: w.node,
          pid: w.child!.pid!,
          sizeMb: combination.sizesMb[w.index - 1]!,
          ckptBytes: w.done!.bytes,
          startS: Number(w.done!.startNs - barrierNs) / 1e9,
          endS: Number(w.done!.endNs - barrierNs) / 1e9,
        })),
      });
    };

    function fail(reason: string): void {
      if (failure === null) failure = reason;
      for (const w of workers) if (w.child && w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
      finishIfClosed();
    }

    const openBarrierIfReady = () => {
      if (failure !== null || !workers.every((w) => w.ready)) return;
      hooks.onReady?.(workers.map((w) => w.child!.pid!));
      barrierNs = process.hrtime.bigint();
      barrierEpochMs = Date.now();
      for (const w of workers) {
        try {
          w.child!.send({ type: "go" } satisfies ControllerMessage);
        } catch {
          // The worker died meanwhile; its exit fails the run.
        }
      }
    };

    for (const w of workers) {
      let child: ChildProcess;
      try {
        child = fork(script.script, w.argv, { execPath: script.execPath, execArgv: script.execArgv, stdio: ["ignore", "pipe", "pipe", "ipc"] });
      } catch (error) {
        w.closed = true;
        fail(`could not start process ${w.index}: ${(error as Error).message}`);
        continue;
      }
      w.child = child;
      w.exit = "running";
      child.stdout!.on("data", (chunk: Buffer) => w.stdout.push(chunk));
      child.stderr!.on("data", (chunk: Buffer) => w.stderr.push(chunk));
      child.on("message", (message: WorkerMessage) => {
        if (message.type === "ready") {
          w.ready = true;
          openBarrierIfReady();
        } else if (message.type === "done") {
          w.done = { bytes: message.bytes, startNs: BigInt(message.startNs), endNs: BigInt(message.endNs) };
        } else if (message.type === "error") {
          fail(`process ${w.index} (${w.node}) failed: ${message.message}`);
        }
      });
      child.on("error", (error) => {
        // A process that never started gets no "close"; for a started one, an error here is
        // the IPC channel of a process that died, and its "close" says how it died.
        if (child.pid !== undefined) return;
        w.closed = true;
        w.exit = `not started (${error.message})`;
        fail(`could not start process ${w.index}: ${error.message}`);
      });
      child.on("close", (code, signal) => {
        w.closed = true;
        w.exit = signal !== null ? `killed by ${signal}` : `exit ${code}`;
        if (code !== 0 && failure === null) {
          const lastLine = w.stderr.text().trim().split("\n").pop() ?? "";
          fail(`process ${w.index} (${w.node}) ${w.exit}${lastLine ? `: ${lastLine}` : ""}`);
        }
        finishIfClosed();
      });
    }
    if (hooks.signal?.aborted) onAbort();
    finishIfClosed();
  });
}

/** Create the run's folder and check the device has room; a reason to refuse, or null. */
function prepareTarget(dir: string, sizesMb: number[]): string | null {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    return `cannot create the target folder ${dir}: ${(error as Error).message}; check the sweep's "dir"`;
  }
  const neededBytes = sizesMb.reduce((sum, size) => sum + blcrImageLayout(size).bytes, 0);
  try {
    const fs = statfsSync(dir);
    const freeBytes = fs.bavail * fs.bsize;
    if (freeBytes < neededBytes) {
      return `no room on the target device: ${dir} has ${(freeBytes / 1e6).toFixed(1)} MB free and this run writes ${(neededBytes / 1e6).toFixed(1)} MB; free space or lower "sizeMb"/"m"`;
    }
  } catch {
    // statfs unsupported (rare): the writes themselves will report ENOSPC.
  }
  return null;
}
