#!/usr/bin/env node
// Compile pipeline/ to dist/ with the pinned TypeScript, unless dist/ was already built from
// exactly these sources: a content hash of every compiled input (pipeline/**/*.ts,
// tsconfig.json, the compiler's version) is kept in dist/.source-hash. `npm run pipeline`
// calls it, so an up-to-date build costs a hash of the sources (~10 ms), not a tsc run
// (~10 s). `--force` compiles anyway (`npm run build`).
"use strict";
const { createHash } = require("node:crypto");
const { readdirSync, readFileSync, writeFileSync, existsSync, renameSync } = require("node:fs");
const { join, relative } = require("node:path");
const { spawnSync } = require("node:child_process");

const root = join(__dirname, "..");
const stampPath = join(root, "dist", ".source-hash");

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function sourceHash() {
  const hash = createHash("sha256");
  const compiler = JSON.parse(readFileSync(join(root, "node_modules", "typescript", "package.json"), "utf8")).version;
  hash.update(`typescript ${compiler}\n`);
  for (const file of [join(root, "tsconfig.json"), ...sourceFiles(join(root, "pipeline")).sort()]) {
    hash.update(`${relative(root, file)}\n`);
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}

const force = process.argv.includes("--force");
const current = sourceHash();
if (!force && existsSync(stampPath) && readFileSync(stampPath, "utf8").trim() === current) process.exit(0);
const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.json")], { stdio: "inherit" });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
writeFileSync(`${stampPath}.tmp`, `${current}\n`);
renameSync(`${stampPath}.tmp`, stampPath);
