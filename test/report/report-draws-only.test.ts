/**
 * The report only draws (pipeline/report/README.md): no module of pipeline/report/ loads,
 * directly or through the modules it loads, the pipeline's stages or runner or a module
 * that computes what the report prints — the fit itself, ScheduleCkpt and its campaigns,
 * the DP placer, the simulators, the reproduction rows. Every number it prints comes from
 * an artifact. Type-only imports are erased and load nothing, so they are allowed (a type
 * lives next to the code that produces its values). The imports are read from the sources
 * as text: `import … from "…"`, `export … from "…"` and `import("…")`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { typeScriptSources } from "../helpers";

const PIPELINE = resolve("pipeline");

/** Modules that compute, by path under pipeline/ (a folder ends in "/"). */
const COMPUTING = [
  "stages/",
  "runner/",
  "run.ts",
  "fit/fit-bandwidth-model.ts",
  "fit/index.ts",
  "schedule/schedule-ckpt.ts",
  "schedule/campaign.ts",
  "schedule/index.ts",
  "place/variable-cost-dp.ts",
  "place/place-job.ts",
  "place/index.ts",
  "simulate/",
  "reproduce/reproduction-rows.ts",
  "reproduce/index.ts",
];

/** The project modules a file loads when it runs (type-only imports and exports left out). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\s+from\s+)?["'](\.[^"']+)["']/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => m[1]!),
  ];
  return specifiers.map((s) => {
    const base = resolve(dirname(file), s.replace(/\.js$/, ""));
    for (const candidate of [`${base}.ts`, join(base, "index.ts")]) if (existsSync(candidate)) return candidate;
    throw new Error(`${relative(PIPELINE, file)}: cannot resolve the import "${s}"`);
  });
}

function isComputing(file: string): boolean {
  const path = relative(PIPELINE, file);
  return COMPUTING.some((c) => (c.endsWith("/") ? path.startsWith(c) : path === c));
}

describe("pipeline/report/", () => {
  it("loads no stage, no runner and no computing module, directly or not", () => {
    const offending: string[] = [];
    for (const start of typeScriptSources(join(PIPELINE, "report"))) {
      // Breadth-first over what the module loads, keeping the way there to name it.
      const seen = new Map<string, string[]>([[start, [start]]]);
      const queue = [start];
      while (queue.length > 0) {
        const file = queue.shift()!;
        for (const next of valueImports(file)) {
          if (seen.has(next)) continue;
          const way = [...seen.get(file)!, next];
          seen.set(next, way);
          if (isComputing(next)) offending.push(way.map((f) => relative(PIPELINE, f)).join(" → "));
          else queue.push(next);
        }
      }
    }
    expect(offending).toEqual([]);
  });

  it("sees a computing module where one is loaded: run.ts loads every stage", () => {
    const loads = valueImports(join(PIPELINE, "run.ts")).map((f) => relative(PIPELINE, f));
    expect(loads).toContain("stages/reproduce-stage.ts");
    expect(loads.some((f) => isComputing(join(PIPELINE, f)))).toBe(true);
  });
});
