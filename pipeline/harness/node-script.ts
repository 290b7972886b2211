/**
 * How to start one of the harness's own scripts (the emulator worker, the memory holder)
 * as a separate Node process: the compiled `.js` next to this file when running from
 * `dist/`, or the `.ts` source through tsx when running from the sources (tests,
 * `node --import tsx`).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export interface NodeScript {
  /** The node binary. */
  execPath: string;
  /** Node options that must precede the script (the tsx loader from sources). */
  execArgv: string[];
  script: string;
}

export function harnessScript(baseName: "emulate-worker" | "hold-app"): NodeScript {
  const compiled = join(__dirname, `${baseName}.js`);
  if (!__filename.endsWith(".ts") && existsSync(compiled)) return { execPath: process.execPath, execArgv: [], script: compiled };
  const loader = pathToFileURL(require.resolve("tsx")).href;
  return { execPath: process.execPath, execArgv: ["--import", loader], script: join(__dirname, `${baseName}.ts`) };
}

/** The script as one argv (for templates and generated shell scripts). */
export function harnessScriptArgv(baseName: "emulate-worker" | "hold-app"): string[] {
  const s = harnessScript(baseName);
  return [s.execPath, ...s.execArgv, s.script];
}
