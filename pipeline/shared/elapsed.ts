/** Microseconds since `start`, a `process.hrtime.bigint()` reading (solver times in outputs). */
export function microsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1000;
}
