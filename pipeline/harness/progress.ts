/**
 * The sweep's progress line (stderr) and its ETA.
 *
 * The ETA weighs each remaining run by its expected work — the megabytes it writes plus a
 * fixed cost per process (start, allocation, barrier), ≈ 25 MB-equivalent — and divides by
 * the rate observed in this session. A sweep's runs differ by two orders of magnitude in
 * size, so counting runs would be wildly off; the weights are rough, the rate is measured.
 */
import type { Combination } from "./plan-sweep";

export interface ProgressSnapshot {
  total: number;
  done: number;
  failed: number;
  /** Seconds since this session started. */
  elapsedS: number;
  /** Seconds left, or null before the first run of the session has finished. */
  etaS: number | null;
  /** The run in progress, or null. */
  current: string | null;
}

const PROCESS_COST_MB = 25;

export function combinationWork(combination: Pick<Combination, "m" | "sizesMb">): number {
  return combination.sizesMb.reduce((sum, size) => sum + size, 0) + PROCESS_COST_MB * combination.m;
}

export function estimateRemainingS(workDoneThisSession: number, elapsedS: number, workRemaining: number): number | null {
  if (workDoneThisSession <= 0 || elapsedS <= 0) return null;
  return (workRemaining * elapsedS) / workDoneThisSession;
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "—";
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, "0")}m`;
  if (m > 0) return `${m}m${String(rest).padStart(2, "0")}s`;
  return `${rest}s`;
}

/** `[########........] 12/48 runs (1 failed)  25%  elapsed 1m02s  ETA 3m05s  m=4 32 MB r2` */
export function formatProgress(snapshot: ProgressSnapshot, barWidth = 24): string {
  const finished = snapshot.done + snapshot.failed;
  const fraction = snapshot.total === 0 ? 1 : finished / snapshot.total;
  const filled = Math.round(fraction * barWidth);
  const bar = `[${"#".repeat(filled)}${".".repeat(barWidth - filled)}]`;
  const failed = snapshot.failed > 0 ? ` (${snapshot.failed} failed)` : "";
  const parts = [
    `${bar} ${finished}/${snapshot.total} runs${failed}`,
    `${Math.floor(fraction * 100)}%`,
    `elapsed ${formatDuration(snapshot.elapsedS)}`,
    `ETA ${finished === snapshot.total ? "0s" : formatDuration(snapshot.etaS)}`,
  ];
  if (snapshot.current !== null) parts.push(snapshot.current);
  return parts.join("  ");
}

/** How the progress line names a run: `m=4 32 MB r2` (mixed sizes: `m=3 mixed 20–390 MB`). */
export function describeCombination(combination: Pick<Combination, "m" | "sizesMb" | "repetition" | "sync">): string {
  const sizes = combination.sizesMb;
  const uniform = sizes.every((s) => s === sizes[0]);
  const size = uniform ? `${sizes[0]} MB` : `mixed ${Math.min(...sizes)}–${Math.max(...sizes)} MB`;
  return `m=${combination.m} ${size}${combination.sync && combination.sync !== "fsync" ? ` ${combination.sync}` : ""} r${combination.repetition}`;
}
