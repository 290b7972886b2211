/**
 * Run a sweep into a folder, or resume it: the harness's main loop.
 *
 *     <out>/plan.json        the combinations, their ids and order (fixed at the first start)
 *     <out>/sweep.json       the sweep file as given
 *     <out>/lease.json       the runner's lease (present while a runner works on the folder)
 *     <out>/state/<id>.json  each combination's state (combination-state.ts)
 *     <out>/runs/<id>/attempt-<k>/   one folder per attempt (run-folder.ts)
 *     <out>/trace.csv        every done run, canonical CSV, replaced atomically after each run
 *     <out>/host-logs/       the same runs in the host-logs layout (host-logs.ts)
 *
 * Crash safety: each step is an atomic file replacement, in the order trace → host logs →
 * state done, so a runner killed at any instant leaves a folder that `--resume` continues:
 * runs marked done are kept (and their traces checked again), a run caught in progress is
 * run again in a new attempt folder, nothing is counted twice. Failed runs (a full disk, a
 * killed worker, a failing command) are recorded with their reason and the sweep goes on;
 * `--retry-failed` runs them again.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { writeFileAtomic, writeJsonAtomic } from "../shared/atomic-write";
import { InputError } from "../shared/errors";
import { TOOL_VERSION } from "../shared/version";
import { runCommand } from "./command-backend";
import { combinedTracePath, writeCombinedTrace } from "./combined-trace";
import { readAllStates, writeCombinationState, type CombinationState } from "./combination-state";
import { runEmulated } from "./emulate-backend";
import { runFio } from "./fio-backend";
import { gitCommit } from "./git-commit";
import { hostInfo, type HostInfo } from "./host-info";
import { clearHostLogsStaging, hostLogsDir, writeHostLogsRun } from "./host-logs";
import { acquireLease, currentOwner, readLease, releaseLease, renewLease, type Lease } from "./lease";
import { placeProcesses } from "./place-processes";
import { planSweep, type Combination, type SweepPlan } from "./plan-sweep";
import { combinationWork, describeCombination, estimateRemainingS, type ProgressSnapshot } from "./progress";
import { readStoredPlan, storedPlanPath } from "./stored-plan";
import { attemptFolder, closeRunFolder, openRunFolder, type RunContext } from "./run-folder";
import { checkSweepFolder } from "./sweep-folder";
import type { BackendHooks, RunResult } from "./run-result";
import type { LauncherKind, Sweep } from "./sweep-spec";

/** Command-line settings that apply to every run (they are not part of the sweep's identity). */
export interface RunOverrides {
  nodes?: string[];
  launcher?: LauncherKind;
  remoteShell?: string[];
}

export type ProgressEvent =
  | { kind: "start"; snapshot: ProgressSnapshot }
  | { kind: "run-start"; snapshot: ProgressSnapshot; id: string }
  | { kind: "run-end"; snapshot: ProgressSnapshot; id: string; status: "done" | "failed"; reason: string | null };

export interface SweepRunOptions {
  outDir: string;
  sweep: Sweep;
  /** Where the sweep was read from (provenance), and its text (copied into the folder). */
  sweepFile?: { path: string; text: string };
  resume?: boolean;
  retryFailed?: boolean;
  overrides?: RunOverrides;
  /** Lease duration in seconds (renewed every third of it while running). */
  leaseS?: number;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** For tests and diagnostics: called when a run's processes are all ready. */
  onRunReady?: BackendHooks["onReady"];
}

export interface FailedRun {
  id: string;
  reason: string;
  /** The attempt folder (relative to the sweep folder) with the run's stdout/stderr. */
  runFolder: string | null;
}

export interface SweepSummary {
  outDir: string;
  traceFile: string;
  hostLogsDir: string;
  total: number;
  done: number;
  failed: FailedRun[];
  todo: number;
  /** Runs finished (done or failed) by this invocation. */
  ranNow: number;
  traceRows: number;
  /** True when stopped by a signal before the end (the folder can be resumed). */
  interrupted: boolean;
}

export async function runSweep(options: SweepRunOptions): Promise<SweepSummary> {
  const { outDir } = options;
  const leaseMs = (options.leaseS ?? 30) * 1000;
  checkSweepFolder(outDir, options.sweepFile?.text);
  mkdirSync(outDir, { recursive: true });
  const leasePath = join(outDir, "lease.json");
  let lease: Lease = acquireLease(leasePath, currentOwner(), leaseMs);
  // A runner whose lease another runner took over (it was stopped past its expiry, say)
  // must not touch anything any more: not the images, not the states, not the trace.
  const stillOurs = () => readLease(leasePath)?.owner.token === lease.owner.token;
  const lostLease = () => new LeaseLostError(`another runner took over ${outDir} (this runner's lease had expired); stopped without touching its files`);
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(options.signal?.reason ?? "interrupted");
  options.signal?.addEventListener("abort", forwardAbort, { once: true });
  if (options.signal?.aborted) forwardAbort();
  let current: CombinationState | null = null;
  const heartbeat = setInterval(() => {
    try {
      lease = renewLease(leasePath, lease, leaseMs);
      if (current !== null) current = writeCombinationState(outDir, { ...current, lease });
    } catch (error) {
      controller.abort(`lease lost: ${(error as Error).message}`);
    }
  }, Math.max(1000, leaseMs / 3));
  heartbeat.unref();

  try {
    const plan = loadOrCreatePlan(options);
    const combinations = plan.combinations.map((c) => applyOverrides(c, options.overrides ?? {}));
    const states = new Map(readAllStates(outDir, plan.combinations.map((c) => c.id)).map((s) => [s.id, s]));
    const setState = (state: CombinationState) => {
      const written = writeCombinationState(outDir, state);
      states.set(written.id, written);
      return written;
    };

    // Recover: a run caught in progress by a stopped runner is run again; failed ones on request.
    for (const state of states.values()) {
      if (state.status === "running") {
        setState({ ...state, status: "todo", lease: null, reason: `abandoned: the runner stopped during attempt ${state.attempts}` });
      } else if (state.status === "failed" && options.retryFailed) {
        setState({ ...state, status: "todo" });
      }
    }
    const rebuild = () => {
      const trace = writeCombinedTrace(outDir, plan, [...states.values()]);
      for (const id of trace.unusable) {
        setState({ ...states.get(id)!, status: "todo", reason: "its trace file was missing or incomplete; run again" });
      }
      return trace.unusable.length > 0 ? writeCombinedTrace(outDir, plan, [...states.values()]) : trace;
    };
    let trace = rebuild();
    clearHostLogsStaging(outDir);

    const pending = combinations.filter((c) => states.get(c.id)!.status === "todo");
    for (const c of pending) {
      if (c.launcher !== "local") placeProcesses(c.m, c.launcher, c.nodes, c.processesPerNode, c.id);
    }

    const commit = gitCommit();
    const hosts = new Map<string, HostInfo>();
    const context = (c: Combination): RunContext => {
      if (!hosts.has(c.dir)) hosts.set(c.dir, hostInfo(c.dir));
      return {
        sweepName: plan.sweepName,
        sweepFile: options.sweepFile?.path ?? null,
        sweepSha256: plan.sweepSha256,
        cluster: plan.cluster,
        toolVersion: TOOL_VERSION,
        gitCommit: commit,
        host: hosts.get(c.dir)!,
      };
    };

    const startedMs = Date.now();
    let workDone = 0;
    let workLeft = pending.reduce((sum, c) => sum + combinationWork(c), 0);
    let ranNow = 0;
    const snapshot = (currentLabel: string | null): ProgressSnapshot => {
      const all = [...states.values()];
      const elapsedS = (Date.now() - startedMs) / 1000;
      return {
        total: plan.combinations.length,
        done: all.filter((s) => s.status === "done").length,
        failed: all.filter((s) => s.status === "failed").length,
        elapsedS,
        etaS: estimateRemainingS(workDone, elapsedS, workLeft),
        current: currentLabel,
      };
    };
    options.onProgress?.({ kind: "start", snapshot: snapshot(null) });

    for (const c of pending) {
      if (controller.signal.aborted) break;
      options.onProgress?.({ kind: "run-start", snapshot: snapshot(describeCombination(c)), id: c.id });
      if (c.pauseS > 0) {
        try {
          await sleep(c.pauseS * 1000, undefined, { signal: controller.signal });
        } catch {
          break;
        }
      }
      const previous = states.get(c.id)!;
      const attempt = previous.attempts + 1;
      const runFolder = attemptFolder(c.id, attempt);
      current = setState({ ...previous, status: "running", attempts: attempt, lease, runFolder, reason: null });
      const record = openRunFolder(outDir, c, attempt, context(c));
      const backend = c.backend === "emulate" ? runEmulated : c.backend === "fio" ? runFio : runCommand;
      let result: RunResult = await backend(c, { signal: controller.signal, mayRemoveFiles: stillOurs, ...(options.onRunReady ? { onReady: options.onRunReady } : {}) });
      if (!stillOurs()) throw lostLease();
      if (result.status === "done") {
        const problem = implausibleMeasurement(result);
        if (problem !== null) result = { status: "failed", reason: problem, logs: result.logs };
      }
      if (controller.signal.aborted && result.status === "failed") {
        // Interrupted, not failed: keep the attempt's logs, and leave the run to do again.
        closeRunFolder(outDir, record, c, result, plan.cluster);
        current = null;
        setState({ ...states.get(c.id)!, status: "todo", lease: null, reason: result.reason });
        break;
      }
      const rows = closeRunFolder(outDir, record, c, result, plan.cluster);
      if (result.status === "done" && rows !== null) {
        writeHostLogsRun(outDir, c, result.processes, result.barrierEpochMs, plan.cluster);
        current = null;
        setState({ ...states.get(c.id)!, status: "done", lease: null, reason: null });
      } else {
        current = null;
        setState({ ...states.get(c.id)!, status: "failed", lease: null, reason: result.status === "failed" ? result.reason : "no trace rows" });
      }
      trace = rebuild();
      ranNow += 1;
      workDone += combinationWork(c);
      workLeft -= combinationWork(c);
      const final = states.get(c.id)!;
      options.onProgress?.({
        kind: "run-end",
        snapshot: snapshot(null),
        id: c.id,
        status: final.status === "done" ? "done" : "failed",
        reason: final.reason,
      });
    }

    const all = [...states.values()];
    return {
      outDir,
      traceFile: combinedTracePath(outDir),
      hostLogsDir: hostLogsDir(outDir),
      total: plan.combinations.length,
      done: all.filter((s) => s.status === "done").length,
      failed: plan.combinations
        .map((c) => states.get(c.id)!)
        .filter((s) => s.status === "failed")
        .map((s) => ({ id: s.id, reason: s.reason ?? "unknown", runFolder: s.runFolder })),
      todo: all.filter((s) => s.status === "todo").length,
      ranNow,
      traceRows: trace.rows,
      interrupted: controller.signal.aborted,
    };
  } finally {
    clearInterval(heartbeat);
    options.signal?.removeEventListener("abort", forwardAbort);
    releaseLease(leasePath, lease);
  }
}

/** The stored plan when resuming (it must come from the same sweep), else a new one. */
function loadOrCreatePlan(options: SweepRunOptions): SweepPlan {
  const { outDir, sweep } = options;
  const fresh = planSweep(sweep);
  const stored = readStoredPlan(outDir);
  if (stored === null) {
    if (options.sweepFile) writeFileAtomic(join(outDir, "sweep.json"), options.sweepFile.text);
    writeJsonAtomic(storedPlanPath(outDir), fresh);
    return fresh;
  }
  if (!options.resume) {
    const done = readAllStates(outDir, stored.combinations.map((c) => c.id)).filter((s) => s.status === "done").length;
    throw new InputError(
      `${outDir} already holds the sweep "${stored.sweepName}" (${done} of ${stored.combinations.length} runs done); pass --resume to continue it, or choose another --out`,
    );
  }
  if (stored.sweepSha256 !== fresh.sweepSha256) {
    throw new InputError(
      `the sweep given differs from the one ${outDir} was started with (see ${join(outDir, "sweep.json")}); resume with that sweep file, or run the changed sweep into another --out`,
    );
  }
  return stored;
}

function applyOverrides(c: Combination, overrides: RunOverrides): Combination {
  return {
    ...c,
    ...(overrides.launcher ? { launcher: overrides.launcher } : {}),
    ...(overrides.nodes ? { nodes: overrides.nodes } : {}),
    ...(overrides.remoteShell ? { remoteShell: overrides.remoteShell } : {}),
  };
}

/** A "successful" run whose numbers cannot be a checkpoint is a failure, said plainly. */
function implausibleMeasurement(result: Extract<RunResult, { status: "done" }>): string | null {
  for (const p of result.processes) {
    if (!(p.ckptBytes > 0)) {
      return `process ${p.index} (${p.node}) wrote nothing (0 bytes under its {dir}); the checkpoint command must write its image under {dir}`;
    }
    if (!(p.endS > p.startS)) return `process ${p.index} (${p.node}) reported end ${p.endS} s ≤ start ${p.startS} s`;
  }
  return null;
}

/** This runner lost its lease to another: it stopped and changed nothing (exit 1 from the CLI). */
export class LeaseLostError extends InputError {}
