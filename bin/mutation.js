#!/usr/bin/env node
// `npm run mutation [-- <module>...] [--force]`: StrykerJS over the core modules
// (bin/mutation-modules.js; all of them when none is named), one module after the other.
// Each mutant runs only the unit tests that executed its code (perTest coverage), on one
// worker (the tests themselves are the load). Incremental: test/mutation/<module>.incremental.json
// (committed) keeps every mutant's result with the code and tests it was measured on, so a
// rerun tests again only the mutants whose code or covering tests changed; --force tests all.
//
// Prints the score per module and writes reports/mutation/<module>-survivors.txt (each
// surviving or uncovered mutant: file:line:column, mutator, the replacement) and
// reports/mutation/<module>.html (Stryker's report). Not part of CI or `npm run test:all`:
// a full run takes about an hour on two cores.
"use strict";
const { mkdirSync, readFileSync, writeFileSync, renameSync } = require("node:fs");
const { join, relative } = require("node:path");
const { MUTATION_MODULES } = require("./mutation-modules");

const root = join(__dirname, "..");
const outDir = join(root, "reports", "mutation");

function usage() {
  return [
    "Usage: npm run mutation [-- <module>... [--force]]",
    "",
    "Mutation testing (StrykerJS) of the core modules, each against its unit tests.",
    `Modules: ${Object.keys(MUTATION_MODULES).join(", ")} (all when none is named).`,
    "  --force   test every mutant again, not only those whose code or tests changed",
    "  --help    this text",
    "",
    "Writes reports/mutation/<module>-survivors.txt and <module>.html; keeps the",
    "incremental results in test/mutation/<module>.incremental.json.",
  ].join("\n");
}

function parseArgs(argv) {
  const modules = [];
  let force = false;
  for (const arg of argv) {
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--force") force = true;
    else if (arg.startsWith("-")) throw new Error(`unknown option ${arg}; see --help`);
    else if (!(arg in MUTATION_MODULES)) throw new Error(`unknown module "${arg}"; the modules are ${Object.keys(MUTATION_MODULES).join(", ")}`);
    else modules.push(arg);
  }
  return { help: false, force, modules: modules.length > 0 ? modules : Object.keys(MUTATION_MODULES) };
}

function strykerOptions(name, force) {
  const { mutate, testFiles } = MUTATION_MODULES[name];
  return {
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    vitest: { configFile: "test/mutation/vitest.config.mts", related: false },
    testFiles,
    mutate,
    coverageAnalysis: "perTest",
    concurrency: 1,
    incremental: true,
    incrementalFile: `test/mutation/${name}.incremental.json`,
    force,
    // The sandbox is a copy of the project; these are not read by the unit tests.
    ignorePatterns: ["/.cache", "/bench/out", "/test-results", "/notebooks/node_modules", "/paper"],
    tempDirName: `.stryker-tmp/${name}`,
    cleanTempDir: "always",
    reporters: [process.stdout.isTTY ? "progress" : "progress-append-only", "html"],
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    // Slow under the machine's shared load: a mutant is a timeout only past twice its tests' time + 10 s.
    timeoutFactor: 2,
    timeoutMS: 10_000,
    logLevel: "warn",
    fileLogLevel: "off",
  };
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
  return { killed, survived, timeout, noCoverage, errors: count("RuntimeError") + count("CompileError"), ignored: count("Ignored"), scorePct: valid === 0 ? NaN : (100 * detected) / valid };
}

function survivorLines(results) {
  return results
    .filter((r) => r.status === "Survived" || r.status === "NoCoverage")
    .map((r) => {
      const file = relative(root, r.fileName);
      const at = `${file}:${r.location.start.line}:${r.location.start.column + 1}`;
      const replacement = (r.replacement ?? "").replace(/\s+/g, " ").slice(0, 160);
      return `${at}\t${r.status}\t${r.mutatorName}\t${replacement}`;
    })
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/**
 * The incremental file without what names this machine (the project's folder, stack traces
 * from the sandbox), so that it can be committed: Stryker compares a mutant's code and its
 * tests' code with the stored ones, never these.
 */
function portableIncrementalFile(name) {
  const path = join(root, strykerOptions(name, false).incrementalFile);
  const report = JSON.parse(readFileSync(path, "utf8"));
  report.projectRoot = ".";
  for (const file of Object.values(report.files)) for (const mutant of file.mutants) delete mutant.statusReason;
  const text = `${JSON.stringify(report, null, 1)}\n`;
  if (text.includes(root)) throw new Error(`${path} still names ${root}; cannot commit it as it is`);
  writeAtomic(path, text);
}

function writeAtomic(path, text) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
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
  for (const name of args.modules) {
    const startedMs = Date.now();
    process.stderr.write(`mutation: ${name}: ${MUTATION_MODULES[name].mutate.join(" ")}\n`);
    const results = await new Stryker(strykerOptions(name, args.force)).runMutationTest();
    const minutes = (Date.now() - startedMs) / 60_000;
    portableIncrementalFile(name);
    const t = tally(results);
    const survivors = survivorLines(results);
    writeAtomic(join(outDir, `${name}-survivors.txt`), `# ${name}: surviving and uncovered mutants (file:line:column, status, mutator, replacement)\n${survivors.join("\n")}\n`);
    rows.push({ name, ...t, minutes });
    process.stderr.write(`mutation: ${name}: score ${t.scorePct.toFixed(1)} % in ${minutes.toFixed(1)} min; survivors in reports/mutation/${name}-survivors.txt\n`);
  }
  const header = "module    score  killed  survived  timeout  no-coverage  errors  minutes";
  const lines = rows.map((r) =>
    [r.name.padEnd(8), `${r.scorePct.toFixed(1)} %`.padStart(7), String(r.killed).padStart(7), String(r.survived).padStart(9), String(r.timeout).padStart(8), String(r.noCoverage).padStart(12), String(r.errors).padStart(7), r.minutes.toFixed(1).padStart(8)].join(" "),
  );
  process.stdout.write(`${header}\n${lines.join("\n")}\n`);
  return rows.every((r) => r.scorePct >= 80) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`mutation: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
