/**
 * The sweep's runs in the host-logs layout of the ingest stage (data/README.md,
 * `pipeline/ingest/host-logs-reader.ts`): `<out>/host-logs/<run_id>/<node>/events.log`,
 * with one start and one end event per process in the format of
 * `pipeline/ingest/host-log-event.ts`:
 *
 *     <time_s> ckpt_start pid=<pid> m=<m> size_mb=<MB> repetition=<r> backend=<b> sync=<mode> [cluster=<c>]
 *     <time_s> ckpt_end pid=<pid> ckpt_bytes=<bytes>
 *
 * Times are Unix times in seconds (the barrier's wall-clock time plus the process's
 * offsets from it). The extra keys become the same extra columns as in the canonical CSV.
 *
 * Each run's folder is built in `<out>/.host-logs-staging/` and renamed into place, so a
 * reader of `host-logs/` sees a run complete or not at all (ingest reads every
 * subdirectory of a campaign folder, so nothing unfinished may ever be inside it).
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Combination } from "./plan-sweep";
import { removeQuietly } from "./remove-quietly";
import type { ProcessCheckpointResult } from "./run-result";

/** The file name ingest reads in each host folder. */
const EVENT_LOG = "events.log";

export function hostLogsDir(outDir: string): string {
  return join(outDir, "host-logs");
}

function stagingDir(outDir: string): string {
  return join(outDir, ".host-logs-staging");
}

/** The event-log lines of one process. */
export function hostLogLines(combination: Combination, process: ProcessCheckpointResult, barrierEpochMs: number, cluster: string | null): string[] {
  const time = (seconds: number) => (barrierEpochMs / 1000 + seconds).toFixed(6);
  const extras = [`repetition=${combination.repetition}`, `backend=${combination.backend}`, `sync=${combination.sync ?? "-"}`, ...(cluster === null ? [] : [`cluster=${cluster}`])];
  return [
    `${time(process.startS)} ckpt_start pid=${process.pid} m=${combination.m} size_mb=${process.sizeMb} ${extras.join(" ")}`,
    `${time(process.endS)} ckpt_end pid=${process.pid} ckpt_bytes=${process.ckptBytes}`,
  ];
}

export function writeHostLogsRun(outDir: string, combination: Combination, processes: readonly ProcessCheckpointResult[], barrierEpochMs: number, cluster: string | null): void {
  const staged = join(stagingDir(outDir), combination.id);
  removeQuietly(staged);
  for (const p of processes) {
    mkdirSync(join(staged, p.node), { recursive: true });
    writeFileSync(join(staged, p.node, EVENT_LOG), `# ckpt-lab harness, run ${combination.id}\n${hostLogLines(combination, p, barrierEpochMs, cluster).join("\n")}\n`);
  }
  const final = join(hostLogsDir(outDir), combination.id);
  mkdirSync(hostLogsDir(outDir), { recursive: true });
  removeQuietly(final);
  renameSync(staged, final);
}

/** Remove what a runner killed while staging left behind. */
export function clearHostLogsStaging(outDir: string): void {
  removeQuietly(stagingDir(outDir));
}
