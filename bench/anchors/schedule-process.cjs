// One fresh process's measurement for bench/anchors/schedule-anchor.ts, on family C's seeded
// instances 1..N, warm (WARM_PASSES untimed passes over every instance first), per instance
// the best of REPEATS calls. Prints one JSON line.
// - `ours`: the built library (dist/): the best `schedulerMicros` and the best whole-call
//   time, with the evaluations, decisions and CTNYS.
// - `transliteration`: bench/reference/schedule-ckpt-transliteration.ts (run with
//   `--require tsx/cjs`): the best time of a call, and the CTNYS.
// A process of its own because V8's optimisation of the hot loops is decided once per
// process, and not always the same way: the anchor takes the median of several.
"use strict";
const { join } = require("node:path");

const [which, root, instancesArg, repeatsArg, warmArg] = process.argv.slice(2);
const schedule = require(join(root, "dist", "pipeline", "schedule"));
const { PAPER_MODEL } = require(join(root, "dist", "pipeline", "fit", "model"));
const INSTANCES = Number(instancesArg);
const REPEATS = Number(repeatsArg);
const WARM_PASSES = Number(warmArg);

const family = schedule.FAMILIES.C;
const instances = Array.from({ length: INSTANCES }, (_, s) => schedule.familyInstance("C", s + 1));
const options = schedule.resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: family.deadlineS, k0: 2, estimator: "static", criterion: "p", record: false });

function measureOurs() {
  for (let pass = 0; pass < WARM_PASSES; pass++) for (const apps of instances) schedule.scheduleCkpt(apps, options);
  const result = { scheduler: [], whole: [], evaluations: [], decisions: [], ctnys: [] };
  for (const apps of instances) {
    let outcome = schedule.scheduleCkpt(apps, options);
    let best = Infinity;
    let bestScheduler = Infinity;
    for (let r = 0; r < REPEATS; r++) {
      const start = performance.now();
      outcome = schedule.scheduleCkpt(apps, options);
      best = Math.min(best, (performance.now() - start) * 1000);
      bestScheduler = Math.min(bestScheduler, outcome.schedulerMicros);
    }
    result.scheduler.push(bestScheduler);
    result.whole.push(best);
    result.evaluations.push(outcome.evaluations.evaluations);
    result.decisions.push(outcome.iterations);
    result.ctnys.push(outcome.ctnys);
  }
  return result;
}

function measureTransliteration() {
  const { scheduleCkptTransliteration, transliterationWork } = require(join(root, "bench", "reference", "schedule-ckpt-transliteration.ts"));
  const k = PAPER_MODEL.coefficients;
  const model = { ...k, mMax: PAPER_MODEL.domain.mMax, vGbMax: PAPER_MODEL.domain.vGbMax };
  const work = transliterationWork(family.n);
  const columns = instances.map((apps) => ({ p: Float64Array.from(apps, (a) => a.pS), sizes: Float64Array.from(apps, (a) => a.sizeMb) }));
  const run = ({ p, sizes }) => scheduleCkptTransliteration(p, sizes, family.deadlineS, 2, model, work);
  for (let pass = 0; pass < WARM_PASSES; pass++) columns.forEach(run);
  const result = { micros: [], ctnys: [] };
  for (const column of columns) {
    let value = run(column);
    let best = Infinity;
    for (let r = 0; r < REPEATS; r++) {
      const start = performance.now();
      value = run(column);
      best = Math.min(best, (performance.now() - start) * 1000);
    }
    result.micros.push(best);
    result.ctnys.push(value);
  }
  return result;
}

process.stdout.write(`${JSON.stringify(which === "transliteration" ? measureTransliteration() : measureOurs())}\n`);
