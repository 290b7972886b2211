/**
 * Run the `m` processes of one parallel checkpoint run through a launcher (here, ssh,
 * srun), speaking the line protocol of `protocol-line.ts`: wait until every process says
 * `ready`, open the barrier (`go` on every stdin, in the same tick), collect each result.
 * Used by the command backend (a script per process around the checkpoint command) and by
 * the emulate backend on remote nodes (the emulator itself speaks the protocol).
 *
 * A process that reports a failure, exits without a result, or whose command exits
 * non-zero fails the run: the others are stopped (SIGTERM to their process group so their
 * clean-up runs, SIGKILL a few seconds later). Everything each process printed is kept.
 * Start/end times come from each node's wall clock, relative to the barrier's.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { OutputTail } from "./output-tail";
import { parseProtocolLine } from "./protocol-line";
import type { BackendHooks, ProcessLog, RunResult } from "./run-result";
import { shellJoin } from "./shell-quote";

/** One process to run: where (its label), and the launcher's argv. */
export interface LaunchedProcess {
  index: number;
  node: string;
  sizeMb: number;
  argv: string[];
}

interface Remote {
  index: number;
  node: string;
  sizeMb: number;
  argv: string[];
  command: string;
  child: ChildProcess | null;
  stdout: OutputTail;
  stderr: OutputTail;
  ready: boolean;
  result: { rc: number; startEpochS: number; endEpochS: number; bytes: number; pid: number } | null;
  exit: string;
  closed: boolean;
}

/** Run the processes; `timeLimitS` bounds the whole run (readiness included). */
export function runProtocolProcesses(processes: readonly LaunchedProcess[], timeLimitS: number, hooks: BackendHooks = {}): Promise<RunResult> {
  const remotes: Remote[] = processes.map((p) => ({
    index: p.index,
    node: p.node,
    sizeMb: p.sizeMb,
    argv: p.argv,
    command: shellJoin(p.argv),
    child: null,
    stdout: new OutputTail(),
    stderr: new OutputTail(),
    ready: false,
    result: null,
    exit: "not started",
    closed: false,
  }));
  const logs = (): ProcessLog[] =>
    remotes.map((r) => ({ index: r.index, node: r.node, command: r.command, stdout: r.stdout.text(), stderr: r.stderr.text(), exit: r.exit }));

  return new Promise<RunResult>((resolve) => {
    let failure: string | null = null;
    let goEpochMs = 0;
    let settled = false;
    const timer = setTimeout(() => fail(`timed out after ${timeLimitS} s (the sweep's "timeoutS", plus the application's start for the command backend)`), timeLimitS * 1000);
    const onAbort = () => fail(`interrupted: ${String(hooks.signal?.reason ?? "aborted")}`);
    hooks.signal?.addEventListener("abort", onAbort, { once: true });

    const finishIfClosed = () => {
      if (settled || !remotes.every((r) => r.closed)) return;
      settled = true;
      clearTimeout(timer);
      hooks.signal?.removeEventListener("abort", onAbort);
      if (failure === null) {
        const missing = remotes.find((r) => r.result === null);
        if (missing) failure = `process ${missing.index} (${missing.node}) ended (${missing.exit}) without reporting a result`;
      }
      if (failure !== null) {
        resolve({ status: "failed", reason: failure, logs: logs() });
        return;
      }
      resolve({
        status: "done",
        barrierEpochMs: goEpochMs,
        logs: logs(),
        processes: remotes.map((r) => ({
          index: r.index,
          node: r.node,
          pid: r.result!.pid,
          sizeMb: r.sizeMb,
          ckptBytes: r.result!.bytes,
          startS: r.result!.startEpochS - goEpochMs / 1000,
          endS: r.result!.endEpochS - goEpochMs / 1000,
        })),
      });
    };

    function fail(reason: string): void {
      if (failure === null) failure = reason;
      for (const r of remotes) if (!r.closed) killGroup(r.child);
      finishIfClosed();
    }

    const openBarrierIfReady = () => {
      if (failure !== null || !remotes.every((r) => r.ready)) return;
      hooks.onReady?.(remotes.map((r) => r.child!.pid!));
      goEpochMs = Date.now();
      for (const r of remotes) r.child!.stdin!.end("go\n");
    };

    const onLine = (r: Remote, line: string) => {
      const message = parseProtocolLine(line);
      if (message === null) {
        r.stdout.push(Buffer.from(`${line}\n`));
        return;
      }
      switch (message.kind) {
        case "ready":
          r.ready = true;
          openBarrierIfReady();
          break;
        case "fail":
          fail(`process ${r.index} (${r.node}): ${message.message}`);
          break;
        case "result":
          r.result = message;
          if (message.rc !== 0) {
            const lastLine = r.stderr.text().trim().split("\n").pop() ?? "";
            const how = message.rc > 128 ? `was killed by signal ${message.rc - 128}` : `exited with status ${message.rc}`;
            fail(`process ${r.index} (${r.node}): the checkpoint command ${how}${lastLine ? `: ${lastLine}` : ""}`);
          }
          break;
        case "malformed":
          fail(`process ${r.index} (${r.node}) sent an unreadable protocol line: ${message.text}`);
          break;
      }
    };

    for (const r of remotes) {
      let child: ChildProcess;
      try {
        child = spawn(r.argv[0]!, r.argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], detached: true });
      } catch (error) {
        r.closed = true;
        fail(`could not start process ${r.index} (${r.node}): ${(error as Error).message}`);
        continue;
      }
      r.child = child;
      r.exit = "running";
      child.stdin!.on("error", () => {
        // The process is gone; its close event tells how.
      });
      let pending = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        pending += chunk.toString("utf8");
        let newline: number;
        while ((newline = pending.indexOf("\n")) >= 0) {
          onLine(r, pending.slice(0, newline));
          pending = pending.slice(newline + 1);
        }
      });
      child.stderr!.on("data", (chunk: Buffer) => r.stderr.push(chunk));
      child.on("error", (error) => {
        if (child.pid !== undefined) return;
        r.closed = true;
        r.exit = `not started (${error.message})`;
        fail(`could not start process ${r.index} (${r.node}) with ${r.argv[0]}: ${error.message}`);
      });
      child.on("close", (code, signal) => {
        if (pending !== "") onLine(r, pending);
        r.closed = true;
        r.exit = signal !== null ? `killed by ${signal}` : `exit ${code}`;
        if (r.result === null && failure === null) {
          const lastLine = r.stderr.text().trim().split("\n").pop() ?? "";
          fail(`process ${r.index} (${r.node}) ${r.exit} before reporting a result${lastLine ? `: ${lastLine}` : ""}`);
        }
        finishIfClosed();
      });
    }
    if (hooks.signal?.aborted) onAbort();
    finishIfClosed();
  });
}

/**
 * Stop a launcher and everything it started here (it leads its own process group): SIGTERM
 * first, so a process script's exit trap kills its application and removes its folder,
 * then SIGKILL for whatever is still there after the grace period.
 */
function killGroup(child: ChildProcess | null, graceMs = 3000): void {
  // Not "has the launcher exited": its group may outlive it, holding the pipes.
  if (child === null || child.pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal);
    }
  };
  signalGroup("SIGTERM");
  // Unconditionally: the script may be gone while the command it started still holds the
  // group (and the pipes the "close" event waits for).
  const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
  timer.unref();
  child.once("close", () => clearTimeout(timer));
}
