/**
 * Measured durations (fields named `…Micros` / `micros`) differ from run to run however
 * everything is seeded. A stage's artifact keeps its deterministic part byte-identical by
 * moving every such field out, to a volatile timings artifact keyed by its JSON path; the
 * field itself becomes null.
 */
const TIMING_KEY = /micros$/i;

export function splitTimings<T>(value: T): { value: T; timings: Record<string, number> } {
  const timings: Record<string, number> = {};
  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`));
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node as Record<string, unknown>)) {
      const itemPath = path === "" ? key : `${path}.${key}`;
      if (TIMING_KEY.test(key) && typeof item === "number") {
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
