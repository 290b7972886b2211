#!/usr/bin/env node
// The `ckpt` command: runs the compiled CLI (npm ci / npm run build produce dist/).
"use strict";
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
