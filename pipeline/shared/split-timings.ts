/**
 * Measured durations (numeric fields whose name says micros: `schedulerMicros`,
 * `schedulerMicrosMedian`, `micros`…) differ from run to run however everything is
 * seeded. A stage's artifact keeps its deterministic part byte-identical by moving every
 * such field out, to a volatile timings artifact keyed by its JSON path; the field itself
 * becomes null. Published values (under a `published` key) are data, not measurements:
 * they stay.
 */
const TIMING_KEY = /micros/i;

export function splitTimings<T>(value: T): { value: T; timings: Record<string, number> } {
  const timings: Record<string, number> = {};
  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`));
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node as Record<string, unknown>)) {
      const itemPath = path === "" ? key : `${path}.${key}`;
      if (TIMING_KEY.test(key) && typeof item === "number" && !/(^|\.)published(\.|\[|$)/.test(path)) {
        timings[itemPath] = item;
        out[key] = null;
      } else {
        out[key] = walk(item, itemPath);
      }
    }
    return out;
  };
  return { value: walk(value, "") as T, timings };
}

/** The inverse: put the timings (path → value) back into a copy of `value`, for the readers of both artifacts. */
export function mergeTimings<T>(value: T, timings: Record<string, number>): T {
  const copy = JSON.parse(JSON.stringify(value)) as T;
  for (const [path, micros] of Object.entries(timings)) {
    const steps = path.match(/[^.[\]]+/g) ?? [];
    let node: unknown = copy;
    for (const step of steps.slice(0, -1)) node = (node as Record<string, unknown> | undefined)?.[step];
    if (node !== null && typeof node === "object") (node as Record<string, unknown>)[steps[steps.length - 1]!] = micros;
  }
  return copy;
}
