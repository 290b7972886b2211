/** The tool's version, recorded in every artifact's provenance. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The project's root folder (where package.json is), from the source tree or from dist/. */
export function projectRoot(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate) && (JSON.parse(readFileSync(candidate, "utf8")) as { name?: string }).name === "ckpt-lab") {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find ckpt-lab's package.json above " + __dirname);
    dir = parent;
  }
}

export const TOOL_VERSION: string = (
  JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as { version: string }
).version;
