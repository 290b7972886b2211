// Preloaded (`node --require`) into a benchmarked process: at exit, writes the process's
// peak resident memory in KiB (getrusage's maxrss) to the file named by CKPT_BENCH_PEAK_FILE.
"use strict";
const { writeFileSync } = require("node:fs");

const file = process.env.CKPT_BENCH_PEAK_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
