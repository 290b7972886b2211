#!/usr/bin/env node
// Compile pipeline/ to dist/ with the pinned TypeScript, unless dist/ was already built from
// exactly these sources: a content hash of every compiled input (pipeline/**/*.ts,
// tsconfig.json, the compiler's version) is kept in dist/.source-hash. `npm run pipeline`
// calls it, so an up-to-date build costs a hash of the sources (~10 ms), not a tsc run
// (~10 s). `--force` compiles anyway (`npm run build`).
//
// It also writes dist/vega-lite-validator.js: Ajv's standalone code for the Vega-Lite JSON
// schema the report validates every figure against (pipeline/report/figures/validate-spec.ts).
// Compiling that 2.6 MB schema takes ~1.4 s at every start; loading the compiled code ~0.1 s.
// The code is made from the schema without its descriptions (annotations, which take no part
// in validation) and with its $refs as calls rather than inlined copies: 4.3 MB of code instead
// of 8.6 MB, which halves its loading and first call (the report validates at least one new
// spec on every run: the measured scheduler times).
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

const versionOf = (name) => JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;

/** What the generated validator depends on; validate-spec.ts checks it before using the file. */
const validatorKey = () => `ajv ${versionOf("ajv")}, vega-lite ${versionOf("vega-lite")}`;

function writeValidator() {
  const Ajv = require(join(root, "node_modules", "ajv")).default;
  const standaloneCode = require(join(root, "node_modules", "ajv", "dist", "standalone")).default;
  const schema = withoutDescriptions(JSON.parse(readFileSync(join(root, "node_modules", "vega-lite", "build", "vega-lite-schema.json"), "utf8")));
  // The same options and formats as validate-spec.ts's run-time compilation (inlineRefs only changes the code's shape).
  const ajv = new Ajv({ allowUnionTypes: true, strict: false, allErrors: false, inlineRefs: false, code: { source: true } });
  ajv.addFormat("uri", true);
  ajv.addFormat("uri-reference", true);
  ajv.addFormat("color-hex", /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/);
  const code = `${standaloneCode(ajv, ajv.compile(schema))}\nmodule.exports.key = ${JSON.stringify(validatorKey())};\n`;
  const path = join(root, "dist", "vega-lite-validator.js");
  writeFileSync(`${path}.tmp`, code);
  renameSync(`${path}.tmp`, path);
}

/** The schema without its `description` and `markdownDescription` strings (a property named "description" is kept: its value is a schema). */
function withoutDescriptions(value) {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== "object") return value;
  const out = {};
  for (const [key, child] of Object.entries(value)) {
    if ((key === "description" || key === "markdownDescription") && typeof child === "string") continue;
    out[key] = withoutDescriptions(child);
  }
  return out;
}

function sourceHash() {
  const hash = createHash("sha256");
  hash.update(`typescript ${versionOf("typescript")}; ${validatorKey()}\n`);
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
writeValidator();
writeFileSync(`${stampPath}.tmp`, `${current}\n`);
renameSync(`${stampPath}.tmp`, stampPath);
