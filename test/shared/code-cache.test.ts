import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requireWithCodeCache } from "../../pipeline/shared/code-cache";

const dir = mkdtempSync(join(tmpdir(), "ckpt-code-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const caches = () => readdirSync(dir).filter((name) => name.endsWith(".v8cache"));

describe("requireWithCodeCache", () => {
  it("loads a CommonJS file as require does, writes its cache once, and never reuses it for other bytes of the same length", () => {
    const path = join(dir, "generated.js");
    writeFileSync(path, 'const { join } = require("node:path");\nmodule.exports = { answer: () => 41 + 1, join: join("a", "b") };\n');
    const first = requireWithCodeCache(path);
    expect((first.exports as { answer: () => number }).answer()).toBe(42);
    expect((first.exports as { join: string }).join).toBe(join("a", "b"));
    expect(caches()).toHaveLength(0);
    first.saveCache();
    first.saveCache();
    expect(caches()).toHaveLength(1);

    const second = requireWithCodeCache(path);
    expect((second.exports as { answer: () => number }).answer()).toBe(42);
    second.saveCache(); // a usable cache existed: nothing new
    expect(caches()).toHaveLength(1);

    const before = caches();
    // Same length, other code: V8 would accept the old cache (it compares lengths); ours names caches by content.
    writeFileSync(path, 'const { join } = require("node:path");\nmodule.exports = { answer: () => 40 + 3, join: join("a", "c") };\n');
    const edited = requireWithCodeCache(path);
    expect((edited.exports as { answer: () => number }).answer()).toBe(43);
    expect((edited.exports as { join: string }).join).toBe(join("a", "c"));
    edited.saveCache(); // the cache of the earlier bytes goes
    expect(caches()).toHaveLength(1);
    expect(caches()).not.toContain(before[0]);
  });
});
