#!/usr/bin/env node
// `npm run mutation [-- <module>...] [--only <file>] [--force]`: StrykerJS over the core
// modules (bin/mutation-modules.js; all of them when none is named), one source file at a
// time. Each mutant runs only the unit tests that executed its code (perTest coverage), on one
// worker (the tests themselves are the load).
//
// Incremental, one results file per source file: test/mutation/<module>/<file>.incremental.json
// (committed) keeps every mutant's result with the code and tests it was measured on. A file
// whose code and tests are unchanged since its results were stored is not run at all; one
// that changed is run, and Stryker tests again only the mutants whose code or covering tests
// changed; --force tests all. One Stryker run per file, rather than per module, because
// Stryker writes its results only when a run ends: a module of 1 700 mutants is hours on two
// cores, and an interrupted run must keep the files it finished.
//
// Prints the score per file and per module, from the stored results of all the module's
// files, and writes reports/mutation/<module>-survivors.txt (each surviving or uncovered
// mutant: file:line:column, mutator, the replacement) and reports/mutation/<module>/<file>.html
// (Stryker's report). Not part of CI or `npm run test:all`.
"use strict";
const { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, renameSync } = require("node:fs");
const { basename, dirname, join, relative } = require("node:path");
const { MUTATION_MODULES } = require("./mutation-modules");

const root = join(__dirname, "..");
const outDir = join(root, "reports", "mutation");

function usage() {
  return [
    "Usage: npm run mutation [-- <module>... [--only <file>] [--force]]",
    "",
    "Mutation testing (StrykerJS) of the core modules, each against its unit tests.",
    `Modules: ${Object.keys(MUTATION_MODULES).join(", ")} (all when none is named).`,
    "  --only <file>  run only the module's source file <file> (its name, or its path)",
    "                 (the scores still count every file's stored results)",
    "  --force        test every mutant again, not only those whose code or tests changed",
    "  --help         this text",
    "",
    "Writes reports/mutation/<module>-survivors.txt and <module>/<file>.html; keeps the",
    "incremental results in test/mutation/<module>/<file>.incremental.json.",
  ].join("\n");
}

function parseArgs(argv) {
  const modules = [];
  let force = false;
  let only;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--force") force = true;
    else if (arg === "--only") {
      only = argv[++i];
      if (only === undefined || only.startsWith("-")) throw new Error("--only needs a file name, e.g. --only weibull.ts");
    } else if (arg.startsWith("-")) throw new Error(`unknown option ${arg}; see --help`);
    else if (!(arg in MUTATION_MODULES)) throw new Error(`unknown module "${arg}"; the modules are ${Object.keys(MUTATION_MODULES).join(", ")}`);
    else modules.push(arg);
  }
  return { help: false, force, only, modules: modules.length > 0 ? modules : Object.keys(MUTATION_MODULES) };
}

/**
 * The files a list of patterns names: a path, or `<folder>/*.ts` (its TypeScript files, not
 * declarations), less the paths given as `!<path>`. The only shapes bin/mutation-modules.js uses.
 */
function expandPatterns(patterns) {
  const excluded = new Set(patterns.filter((p) => p.startsWith("!")).map((p) => p.slice(1)));
  const files = [];
  for (const pattern of patterns.filter((p) => !p.startsWith("!"))) {
    const star = pattern.match(/^(.*)\/\*(\.[a-z.]+)$/);
    if (star === null) {
      if (pattern.includes("*")) throw new Error(`bin/mutation-modules.js: pattern ${pattern} is not a path or <folder>/*<ending>`);
      files.push(pattern);
      continue;
    }
    const [, folder, ending] = star;
    for (const entry of readdirSync(join(root, folder)).sort()) {
      if (entry.endsWith(ending) && !entry.endsWith(".d.ts")) files.push(`${folder}/${entry}`);
    }
  }
  return files.filter((f) => !excluded.has(f));
}

/** An error in what was asked for: printed without a stack trace, exit status 2. */
function usageError(message) {
  return Object.assign(new Error(message), { usage: true });
}

function resultsFileOf(name, file) {
  return `test/mutation/${name}/${basename(file, ".ts")}.incremental.json`;
}

function strykerOptions(name, file, force) {
  const { testFiles } = MUTATION_MODULES[name];
  const stem = basename(file, ".ts");
  return {
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    vitest: { configFile: "test/mutation/vitest.config.mts", related: false },
    testFiles,
    mutate: [file],
    coverageAnalysis: "perTest",
    concurrency: 1,
    incremental: true,
    incrementalFile: resultsFileOf(name, file),
    force,
    // The sandbox is a copy of the project; these are not read by the unit tests (nor the
    // other modules' sandboxes, when two runs go at once).
    ignorePatterns: ["/.stryker-tmp", "/.cache", "/bench/out", "/test-results", "/notebooks/node_modules", "/paper"],
    tempDirName: `.stryker-tmp/${name}`,
    cleanTempDir: "always",
    reporters: [process.stdout.isTTY ? "progress" : "progress-append-only", "html"],
    htmlReporter: { fileName: `reports/mutation/${name}/${stem}.html` },
    // Slow under the machine's shared load: a mutant is a timeout only past twice its tests' time + 10 s.
    timeoutFactor: 2,
    timeoutMS: 10_000,
    logLevel: "warn",
    fileLogLevel: "off",
  };
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** The module's test files as they are now, by path. */
function currentTestSources(name) {
  return new Map(expandPatterns(MUTATION_MODULES[name].testFiles).map((t) => [t, readFileSync(join(root, t), "utf8")]));
}

/**
 * Whether the stored results of `file` were measured on exactly its code and its module's
 * test files as they are now (`testSources`): the same test the incremental mode makes
 * (Stryker compares the mutated file's and the test files' sources, nothing else), so such a
 * file need not be run.
 */
function storedResultsCurrent(name, file, testSources) {
  const path = join(root, resultsFileOf(name, file));
  if (!existsSync(path)) return false;
  const report = readJson(path);
  const stored = report.files[file];
  if (stored === undefined || stored.source !== readFileSync(join(root, file), "utf8")) return false;
  const storedTests = Object.entries(report.testFiles ?? {});
  return storedTests.length === testSources.size && storedTests.every(([t, { source }]) => testSources.get(t) === source);
}

/** Killed, survived, timeout, no coverage and the score as Stryker defines it. */
function tally(results) {
  const count = (status) => results.filter((r) => r.status === status).length;
  const killed = count("Killed");
  const survived = count("Survived");
  const timeout = count("Timeout");
  const noCoverage = count("NoCoverage");
  const detected = killed + timeout;
  const valid = detected + survived + noCoverage;
  return { mutants: results.length, killed, survived, timeout, noCoverage, errors: count("RuntimeError") + count("CompileError"), scorePct: valid === 0 ? NaN : (100 * detected) / valid };
}

function survivorLines(file, results) {
  return results
    .filter((r) => r.status === "Survived" || r.status === "NoCoverage")
    .map((r) => {
      const at = `${file}:${r.location.start.line}:${r.location.start.column + 1}`;
      const replacement = (r.replacement ?? "").replace(/\s+/g, " ").slice(0, 160);
      return `${at}\t${r.status}\t${r.mutatorName}\t${replacement}`;
    });
}

/**
 * The results file without what names this machine (the project's folder, stack traces from
 * the sandbox), so that it can be committed: Stryker compares a mutant's code and its tests'
 * code with the stored ones, never these.
 */
function makePortable(name, file) {
  const path = join(root, resultsFileOf(name, file));
  const report = readJson(path);
  report.projectRoot = ".";
  for (const results of Object.values(report.files)) for (const mutant of results.mutants) delete mutant.statusReason;
  const text = `${JSON.stringify(report, null, 1)}\n`;
  if (text.includes(root)) throw new Error(`${path} still names ${root}; cannot commit it as it is`);
  writeAtomic(path, text);
}

function writeAtomic(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

const HEADER = "file                          mutants   score  killed  survived  timeout  no-coverage";

function row(label, t) {
  const score = Number.isNaN(t.scorePct) ? "–" : `${t.scorePct.toFixed(1)} %`;
  return [label.padEnd(28), String(t.mutants).padStart(8), score.padStart(7), String(t.killed).padStart(7), String(t.survived).padStart(9), String(t.timeout).padStart(8), String(t.noCoverage).padStart(12)].join(" ");
}

async function runModule(Stryker, name, { only, force }) {
  const files = expandPatterns(MUTATION_MODULES[name].mutate);
  const stems = files.map((f) => basename(f, ".ts"));
  const twice = stems.find((s, i) => stems.indexOf(s) !== i);
  if (twice !== undefined) throw new Error(`${name}: two files are named ${twice}.ts; their results files would clash`);
  const chosen = only === undefined ? files : files.filter((f) => f === only || f.endsWith(`/${only}`));
  if (only !== undefined && chosen.length === 0) throw usageError(`${name}: no source file is named ${only}; its files are ${files.join(", ")}`);
  const testSources = currentTestSources(name);
  const startedMs = Date.now();
  for (const [index, file] of chosen.entries()) {
    const progress = `mutation: ${name} (${index + 1}/${chosen.length}): ${file}`;
    if (!force && storedResultsCurrent(name, file, testSources)) {
      process.stderr.write(`${progress}: code and tests unchanged, stored results kept\n`);
      continue;
    }
    process.stderr.write(`${progress}\n`);
    await new Stryker(strykerOptions(name, file, force)).runMutationTest();
    makePortable(name, file);
  }
  const minutes = (Date.now() - startedMs) / 60_000;

  const lines = [];
  const all = [];
  const missing = [];
  const survivors = [];
  for (const file of files) {
    const path = join(root, resultsFileOf(name, file));
    if (!existsSync(path)) {
      missing.push(file);
      continue;
    }
    // A file Stryker finds nothing to mutate in (declarations only) has no entry.
    const results = readJson(path).files[file]?.mutants ?? [];
    all.push(...results);
    lines.push(row(basename(file), tally(results)));
    survivors.push(...survivorLines(file, results));
  }
  survivors.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  writeAtomic(join(outDir, `${name}-survivors.txt`), `# ${name}: surviving and uncovered mutants (file:line:column, status, mutator, replacement)\n${survivors.join("\n")}\n`);
  const total = tally(all);
  process.stdout.write(`\n${name} (${minutes.toFixed(1)} min)\n${HEADER}\n${lines.join("\n")}\n${row(missing.length === 0 ? "all files" : "files measured", total)}\n`);
  if (missing.length > 0) process.stdout.write(`not yet measured: ${missing.join(", ")}\n`);
  return { name, ...total, complete: missing.length === 0 };
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`mutation: ${error.message}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  const { Stryker } = await import("@stryker-mutator/core");
  mkdirSync(outDir, { recursive: true });
  const rows = [];
  for (const name of args.modules) rows.push(await runModule(Stryker, name, args));
  process.stdout.write(`\n${HEADER.replace("file    ", "module  ")}\n${rows.map((r) => row(r.complete ? r.name : `${r.name} (partial)`, r)).join("\n")}\n`);
  return rows.every((r) => r.complete && r.scorePct >= 80) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`mutation: ${error.usage === true ? error.message : (error.stack ?? error)}\n`);
    process.exit(error.usage === true ? 2 : 1);
  },
);
