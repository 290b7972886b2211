// `ckpt pipeline --force` run RUNS times in one process, for bench/anchors/pipeline-anchor.ts:
// the first run is what the CLI does (V8 loads, compiles and optimises the code as it goes),
// the later ones do the same work with the code already compiled and optimised. Prints one
// JSON line: per run, its milliseconds and each stage's seconds.
"use strict";
const { join } = require("node:path");

const [root, out, runsArg] = process.argv.slice(2);
const { runPipeline } = require(join(root, "dist", "pipeline", "run.js"));

(async () => {
  const runs = [];
  for (let r = 0; r < Number(runsArg); r++) {
    const start = performance.now();
    const run = await runPipeline({ out, force: true });
    runs.push({ ms: performance.now() - start, stages: run.outcomes.map((o) => ({ name: o.name, seconds: o.seconds })) });
  }
  process.stdout.write(`${JSON.stringify(runs)}\n`);
})().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exitCode = 1;
});
