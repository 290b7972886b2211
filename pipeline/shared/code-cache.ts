/**
 * Load a large generated CommonJS file with V8's code cache, as `require` would but without
 * parsing and compiling it again at every start (Node 20 has no `module.enableCompileCache`).
 * The generated Vega-Lite validator (4.3 MB) takes ~0.1–0.3 s to load and ~50 ms more at its
 * first call; from the cache, made after that first call so that it holds the functions the
 * call compiled too, it loads in about half that and its first call costs ~2 ms.
 *
 * The cache sits next to the file, named by a hash of the file's bytes and of the V8 version
 * and architecture: V8's own check of a cache against its source compares lengths only, so a
 * regenerated file of the same length must never meet an old cache. A cache V8 rejects, or
 * one that cannot be read or written, costs time only.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire, wrap } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { writeFileAtomic } from "./atomic-write";

export interface CachedModule {
  exports: unknown;
  /** Write the code cache, once, if there was none usable (call after the module's first use). */
  saveCache(): void;
}

export function requireWithCodeCache(path: string): CachedModule {
  const source = readFileSync(path, "utf8");
  const key = createHash("sha256").update(`${process.versions.v8} ${process.arch}\n`).update(source).digest("hex").slice(0, 16);
  const cachePath = `${path}.${key}.v8cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = existsSync(cachePath) ? readFileSync(cachePath) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new Script(wrap(source), { filename: path, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(path), module, path, dirname(path));
  let needsCache = cachedData === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports,
    saveCache() {
      if (!needsCache) return;
      needsCache = false;
      try {
        writeFileAtomic(cachePath, script.createCachedData(), { sync: false });
        // Caches of earlier versions of the file (or of another node) are of no further use.
        const prefix = `${basename(path)}.`;
        for (const name of readdirSync(dirname(path))) {
          if (name.startsWith(prefix) && name.endsWith(".v8cache") && name !== basename(cachePath)) rmSync(join(dirname(path), name), { force: true });
        }
      } catch {
        // A read-only installation: the file loads without a cache.
      }
    },
  };
}
