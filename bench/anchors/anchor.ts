/**
 * One line of the performance table (`npm run bench -- anchors`, bench/RESULTS.md): a piece
 * of work, the reference it is measured against in the same run, our time, the ratio and
 * whether the target is met, with the details that say where the time goes.
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { join } from "node:path";

export interface Anchor {
  work: string;
  /** The reference and its measured value, e.g. "plain C loop (cc -O2): 5.4 µs"; "—" when there is none. */
  reference: string;
  /** Our measurement, with its unit. */
  ours: string;
  /** Ours ÷ the reference (times, or bytes), or null when the line has no reference. */
  ratio: number | null;
  target: string;
  met: boolean;
  /** Where the time goes, what was checked: printed under the table and kept in RESULTS.md. */
  notes: string[];
}

export const ROOT = join(__dirname, "..", "..");

/** Wall time of one child process in ms; a non-zero exit is an error with its stderr. */
export function timeProcess(command: string, args: string[], options: SpawnSyncOptions = {}): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 << 20, ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}: ${String(result.stderr).slice(0, 2000)}`);
  return ms;
}

/** A duration with a unit that keeps three significant digits. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

export function formatRatio(ratio: number): string {
  return `${ratio.toPrecision(3)}×`;
}
