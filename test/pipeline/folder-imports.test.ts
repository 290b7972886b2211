/**
 * The folder rules of pipeline/README.md that are not the report's (test/report/
 * report-draws-only.test.ts): the input kit and the command-line framework import only
 * shared/, ingest/ reads its inputs with the kit and never imports harness/ (which writes
 * the traces ingest reads), and nothing but the command line imports the command-line
 * framework. Every import counts here, type-only ones too: they are dependencies a reader
 * follows. Imports are read from the sources as text.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { typeScriptSources } from "../helpers";

const PIPELINE = resolve("pipeline");

/** The pipeline paths (relative to pipeline/) a file imports, with `import`, `export … from` or `import()`. */
function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...[...text.matchAll(/^\s*(?:import|export)\s+(?:[^"';]*?\s+from\s+)?["'](\.[^"']+)["']/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => m[1]!),
  ];
  return specifiers.map((s) => relative(PIPELINE, resolve(dirname(file), s)));
}

/** "file imports target" for every file of `folder` importing a path under one of `targets`. */
function offending(folder: string, allowed: (target: string) => boolean): string[] {
  return typeScriptSources(join(PIPELINE, folder)).flatMap((file) =>
    imports(file)
      .filter((target) => !allowed(target))
      .map((target) => `${relative(PIPELINE, file)} imports ${target}`),
  );
}

const inFolder = (target: string, ...folders: string[]) => folders.some((folder) => target.startsWith(`${folder}/`));

describe("pipeline/ folder rules", () => {
  it("ingest/ imports nothing of harness/", () => {
    expect(offending("ingest", (target) => !inFolder(target, "harness"))).toEqual([]);
  });

  it("input/ and command-line/ import only shared/ and themselves", () => {
    expect(offending("input", (target) => inFolder(target, "input", "shared"))).toEqual([]);
    expect(offending("command-line", (target) => inFolder(target, "command-line", "shared"))).toEqual([]);
  });

  it("only the command line imports the command-line framework", () => {
    const outside = typeScriptSources(PIPELINE).filter((file) => !/^(commands\/|command-line\/|cli\.ts$)/.test(relative(PIPELINE, file)));
    const users = outside.flatMap((file) => imports(file).filter((target) => inFolder(target, "command-line")).map((target) => `${relative(PIPELINE, file)} imports ${target}`));
    expect(users).toEqual([]);
  });

  it("sees the imports it checks (the rule would pass vacuously otherwise)", () => {
    // benchmark-json.ts parses with the kit: the scan must find that import.
    expect(imports(join(PIPELINE, "ingest/benchmark-json.ts"))).toContain("input/parse-json");
    expect(offending("ingest", (target) => !inFolder(target, "input"))).not.toEqual([]);
  });
});
