/**
 * The folder of one attempt at one run, `<out>/runs/<run_id>/attempt-<k>/`:
 *
 *     run.json          configuration (the combination as run), host, tool version, git
 *                       commit, sweep file hash, times, outcome, each process's exit
 *     command.sh        the exact command line of every process
 *     process-<i>.stdout / process-<i>.stderr
 *     trace.csv         the run's canonical trace rows (only when the run succeeded;
 *                       written atomically before the run is marked done)
 *
 * Everything a reader needs to redo or question one measurement, without the rest of the
 * sweep.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic, writeJsonAtomic } from "../shared/atomic-write";
import type { GitCommit } from "./git-commit";
import type { HostInfo } from "./host-info";
import type { Combination } from "./plan-sweep";
import type { ProcessLog, RunResult } from "./run-result";
import { traceHeader, traceRows } from "./trace-rows";

export interface RunContext {
  sweepName: string;
  sweepFile: string | null;
  sweepSha256: string;
  cluster: string | null;
  toolVersion: string;
  gitCommit: GitCommit | null;
  host: HostInfo;
}

export interface RunRecord {
  schema: "ckpt-lab/harness-run@1";
  runId: string;
  attempt: number;
  status: "running" | "done" | "failed";
  reason: string | null;
  startedAt: string;
  finishedAt: string | null;
  sweep: { name: string; file: string | null; sha256: string };
  toolVersion: string;
  gitCommit: GitCommit | null;
  host: HostInfo;
  /** The combination as it ran (after command-line overrides such as --nodes-file). */
  configuration: Combination;
  processes: { index: number; node: string; exit: string }[];
}

/** `runs/<run_id>/attempt-<k>`, relative to the sweep folder. */
export function attemptFolder(runId: string, attempt: number): string {
  return join("runs", runId, `attempt-${attempt}`);
}

/** Create the attempt's folder and its `run.json` (status running). */
export function openRunFolder(outDir: string, combination: Combination, attempt: number, context: RunContext): RunRecord {
  const folder = join(outDir, attemptFolder(combination.id, attempt));
  mkdirSync(folder, { recursive: true });
  const record: RunRecord = {
    schema: "ckpt-lab/harness-run@1",
    runId: combination.id,
    attempt,
    status: "running",
    reason: null,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    sweep: { name: context.sweepName, file: context.sweepFile, sha256: context.sweepSha256 },
    toolVersion: context.toolVersion,
    gitCommit: context.gitCommit,
    host: context.host,
    configuration: combination,
    processes: [],
  };
  writeJsonAtomic(join(folder, "run.json"), record);
  return record;
}

/**
 * Store the outcome: logs and commands, then (success only) the trace rows atomically,
 * then the final `run.json`. Returns the run's trace rows, or null when it failed.
 */
export function closeRunFolder(outDir: string, record: RunRecord, combination: Combination, result: RunResult, cluster: string | null): string[] | null {
  const folder = join(outDir, attemptFolder(record.runId, record.attempt));
  writeLogs(folder, combination.id, record.attempt, result.logs);
  let rows: string[] | null = null;
  if (result.status === "done") {
    rows = traceRows(combination, result.processes, cluster);
    writeFileAtomic(join(folder, "trace.csv"), `${traceHeader(cluster)}\n${rows.join("\n")}\n`);
  }
  const final: RunRecord = {
    ...record,
    status: result.status,
    reason: result.status === "failed" ? result.reason : null,
    finishedAt: new Date().toISOString(),
    processes: result.logs.map((log) => ({ index: log.index, node: log.node, exit: log.exit })),
  };
  writeJsonAtomic(join(folder, "run.json"), final);
  return rows;
}

function writeLogs(folder: string, runId: string, attempt: number, logs: readonly ProcessLog[]): void {
  const commands = [
    "#!/bin/sh",
    `# The exact command of each process of run ${runId}, attempt ${attempt}. Processes forked by the`,
    "# emulate backend also had an IPC channel to the harness (ready / go / done messages).",
  ];
  for (const log of logs) {
    commands.push("", `# process ${log.index} (${log.node}): ${log.exit}`, log.command);
    writeFileSync(join(folder, `process-${log.index}.stdout`), log.stdout);
    writeFileSync(join(folder, `process-${log.index}.stderr`), log.stderr);
  }
  writeFileSync(join(folder, "command.sh"), `${commands.join("\n")}\n`);
}
