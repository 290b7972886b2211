#!/usr/bin/env node
// The `ckpt` command: runs the compiled CLI (npm ci / npm run build produce dist/).
"use strict";
// Node ≥ 22.8 keeps the code it compiles on disk between runs: about half of a cold start
// is compiling the same modules again (README, Performance). The cache is Node's own
// (NODE_COMPILE_CACHE=<dir> moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off); Node 20
// has no such cache and starts as before.
require("node:module").enableCompileCache?.();
// `ckpt … | head` closes the pipe early: that ends the output, it is not an error.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});
let cli;
try {
  cli = require("../dist/pipeline/cli.js");
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND") {
    process.stderr.write("ckpt: the project is not built yet; run `npm ci` (or `npm run build`) in its folder first.\n");
    process.exit(2);
  }
  throw error;
}
cli.main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error) => { process.stderr.write(`ckpt: ${error && error.stack ? error.stack : error}\n`); process.exitCode = 1; },
);
