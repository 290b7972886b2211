/**
 * The sweep's runs in the host-logs layout (issue 2), the shape a cluster run leaves:
 * `<out>/host-logs/<run_id>/<node>/events.log`, one start and one end line per process.
 * The line format is the one the ingest stage defines (see `data/` and the ingest docs).
 *
 * Each run's folder is built aside and renamed into place, so a reader sees a run's logs
 * complete or not at all.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Combination } from "./plan-sweep";
import { removeQuietly } from "./remove-quietly";
import type { ProcessCheckpointResult } from "./run-result";

export function hostLogsDir(outDir: string): string {
  return join(outDir, "host-logs");
}

/** The event-log lines of one process (wall-clock times in seconds since the epoch). */
export function hostLogLines(combination: Combination, process: ProcessCheckpointResult, barrierEpochMs: number): string[] {
  const epoch = (seconds: number) => (barrierEpochMs / 1000 + seconds).toFixed(6);
  return [
    `${epoch(process.startS)} start run=${combination.id} m=${combination.m} size_mb=${process.sizeMb}`,
    `${epoch(process.endS)} end run=${combination.id} ckpt_mb=${(process.ckptBytes / 1e6).toFixed(6)}`,
  ];
}

export function writeHostLogsRun(outDir: string, combination: Combination, processes: readonly ProcessCheckpointResult[], barrierEpochMs: number): void {
  const root = hostLogsDir(outDir);
  const final = join(root, combination.id);
  const aside = join(root, `.${combination.id}.${process.pid}.tmp`);
  removeQuietly(aside);
  for (const p of processes) {
    mkdirSync(join(aside, p.node), { recursive: true });
    writeFileSync(join(aside, p.node, "events.log"), `${hostLogLines(combination, p, barrierEpochMs).join("\n")}\n`);
  }
  removeQuietly(final);
  renameSync(aside, final);
}
