// Preloaded (`node -r`) into a benchmarked child process: on exit, print the process's peak
// resident set size, in KiB, as the last line of stderr ("max-rss-kib <n>").
"use strict";
process.on("exit", () => {
  process.stderr.write(`\nmax-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
