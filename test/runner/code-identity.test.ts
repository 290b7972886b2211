import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codeIdentity } from "../../pipeline/runner/code-identity";
import { sha256OfBytes } from "../../pipeline/shared/hash";

const dir = mkdtempSync(join(tmpdir(), "ckpt-code-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
}

describe("codeIdentity", () => {
  it("follows relative imports (TypeScript and compiled CommonJS) and records the packages imported", () => {
    write("node_modules/vega/package.json", '{"name":"vega","version":"5.33.1"}');
    write("src/stage.ts", 'import { a } from "./a";\nimport type { T } from "./types";\nimport * as vega from "vega";\nimport { readFileSync } from "node:fs";\nexport * from "./re-exported";\n');
    write("src/a.ts", 'export {\n  b,\n} from "./lib/b.js";\nconst lazy = () => import("./lazy");\n');
    write("src/lib/b.ts", "export const b = 1;\n");
    write("src/lib/index.js", 'const c = require("./c");\nrequire("@scope/pkg/sub");\n');
    write("src/lib/c.js", "module.exports = 1;\n");
    write("src/types.ts", "export type T = number;\n");
    write("src/re-exported.ts", 'export * from "./lib";\n');
    write("src/lazy.ts", "export {};\n");
    write("src/unrelated.ts", "export {};\n");
    const identity = codeIdentity(join(dir, "src", "stage.ts"), join(dir, "src"), dir);
    // types.ts is only imported with `import type`, erased at run time: not part of the code.
    expect(Object.keys(identity.files)).toEqual(["a.ts", "lazy.ts", "lib/b.ts", "lib/c.js", "lib/index.js", "re-exported.ts", "stage.ts"]);
    expect(identity.files["lib/b.ts"]).toBe(sha256OfBytes("export const b = 1;\n"));
    expect(identity.packages).toEqual({ "@scope/pkg": "unknown", vega: "5.33.1" });
  });
});
