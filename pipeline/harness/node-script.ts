/**
 * How to start one of the harness's own scripts (the emulator worker, the memory holder)
 * as a separate Node process.
 *
 * From `dist/` it is the compiled `.js` next to this file. From the TypeScript sources
 * (tests, `node --import tsx`), the script and the harness modules it imports are compiled
 * once with TypeScript's `transpileModule` into a cache folder keyed by their content, so
 * that each worker starts as plain Node (≈ 60 ms) rather than through the tsx loader
 * (≈ 300 ms, more on a loaded machine): a sweep starts m fresh processes per run.
 */
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../shared/atomic-write";
import { sha256OfBytes } from "../shared/hash";

export type HarnessScriptName = "emulate-worker" | "hold-app";

export interface NodeScript {
  execPath: string;
  /** Node options that must precede the script. */
  execArgv: string[];
  script: string;
}

export function harnessScript(baseName: HarnessScriptName): NodeScript {
  const compiled = join(__dirname, `${baseName}.js`);
  if (!__filename.endsWith(".ts") && existsSync(compiled)) return { execPath: process.execPath, execArgv: [], script: compiled };
  return { execPath: process.execPath, execArgv: [], script: compiledFromSources(baseName) };
}

/** The script as one argv (for templates and generated shell scripts). */
export function harnessScriptArgv(baseName: HarnessScriptName): string[] {
  const s = harnessScript(baseName);
  return [s.execPath, ...s.execArgv, s.script];
}

const compiledScripts = new Map<HarnessScriptName, string>();

function compiledFromSources(baseName: HarnessScriptName): string {
  const known = compiledScripts.get(baseName);
  if (known !== undefined) return known;
  // The script's local imports, transitively (they are all siblings in pipeline/harness,
  // except ../shared modules, which the worker scripts do not use).
  const sources = new Map<string, string>();
  const visit = (name: string) => {
    if (sources.has(name)) return;
    const text = readFileSync(join(__dirname, `${name}.ts`), "utf8");
    sources.set(name, text);
    for (const match of text.matchAll(/from "\.\/([a-z0-9-]+)"/g)) visit(match[1]!);
    if (/from "\.\.\//.test(text)) throw new Error(`${name}.ts imports outside pipeline/harness; a worker script must not`);
  };
  visit(baseName);
  const ts = require("typescript") as typeof import("typescript");
  const key = sha256OfBytes([ts.version, ...[...sources].sort(([a], [b]) => a.localeCompare(b)).flat()].join("\0")).slice(0, 16);
  const folder = join(tmpdir(), `ckpt-lab-harness-${key}`);
  for (const [name, text] of sources) {
    const target = join(folder, `${name}.js`);
    if (existsSync(target)) continue;
    const output = ts.transpileModule(text, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: `${name}.ts`,
    }).outputText;
    writeFileAtomic(target, output);
  }
  const script = join(folder, `${baseName}.js`);
  compiledScripts.set(baseName, script);
  return script;
}
