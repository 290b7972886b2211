/**
 * Shared pieces of the benchmarks: machine description, repeated timing, medians.
 * Benchmarks report numbers; they assert nothing (tests do that).
 */
import { cpus, totalmem, type as osType, release } from "node:os";

export function machineLine(): string {
  const cpu = cpus();
  return `machine: ${osType()} ${release()}, ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Run `fn` `warmup` times untimed, then `runs` times; returns each run's milliseconds. */
export async function timeRuns(fn: () => unknown, runs: number, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const text = rows.map((r) => r.map((c) => (typeof c === "number" ? formatMeasure(c) : c)));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]!.length)));
  console.log(`\n${title}`);
  console.log(header.map((h, i) => h.padEnd(widths[i]!)).join("  "));
  for (const r of text) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join("  "));
}

function formatMeasure(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : Math.abs(value) >= 1 ? value.toFixed(3) : value.toPrecision(3);
}

/** A benchmark module's default export. */
export type Benchmark = () => Promise<void>;
