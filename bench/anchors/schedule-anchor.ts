/**
 * ScheduleCkpt, family C (n = 70, T = 420 s), k0 = 2, static estimator, criterion p, warm,
 * against the same algorithm in plain C (bench/reference/schedule-ckpt.c) on the same 200
 * seeded instances. Ours runs from the built library (dist/, what `ckpt` and notebooks
 * load). Per instance: one warm-up call, then the best of 5; the median over instances.
 *
 * Ours is quoted as `schedulerMicros`, the decision code's own clock (schedule-ckpt.ts: the
 * order and the decisions, not the fluid execution nor building the outcome), which is
 * what `ckpt schedule` reports; the whole call is printed too. The C time is the whole
 * algorithm (order, decisions and execution) with no clock inside. Both must checkpoint
 * the same applications: the CTNYS of every instance is compared.
 */
import { join } from "node:path";
import type * as ScheduleModule from "../../pipeline/schedule";
import type * as FitModel from "../../pipeline/fit/model";
import { median } from "../harness";
import { compileReference, runReference, writeReferenceInput } from "../reference/c-reference";
import { formatRatio, ROOT, type Anchor } from "./anchor";

const INSTANCES = 200;
const REPEATS = 5;
const TARGET_RATIO = 2;

export function scheduleAnchor(): Anchor {
  const schedule = require(join(ROOT, "dist", "pipeline", "schedule")) as typeof ScheduleModule;
  const { PAPER_MODEL } = require(join(ROOT, "dist", "pipeline", "fit", "model")) as typeof FitModel;
  const family = schedule.FAMILIES.C;
  const instances = Array.from({ length: INSTANCES }, (_, s) => schedule.familyInstance("C", s + 1));
  const options = schedule.resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: family.deadlineS, k0: 2, estimator: "static", criterion: "p", record: false });

  const scheduler: number[] = [];
  const whole: number[] = [];
  const evaluations: number[] = [];
  const decisions: number[] = [];
  const ctnys: number[] = [];
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
    scheduler.push(bestScheduler);
    whole.push(best);
    evaluations.push(outcome.evaluations.evaluations);
    decisions.push(outcome.iterations);
    ctnys.push(outcome.ctnys);
  }

  const file = writeReferenceInput("family-c-instances.txt", instances.map((apps) => [apps.length, ...apps.map((a) => `${a.pS} ${a.sizeMb}`)].join("\n")).join("\n") + "\n");
  const k = PAPER_MODEL.coefficients;
  const d = PAPER_MODEL.domain;
  const binary = compileReference("schedule-ckpt");
  const lines = runReference(binary, [file, String(family.deadlineS), "2", "static", "p", ...[k.a, k.b, k.c, k.d, k.e, d.mMax, d.vGbMax].map(String), String(REPEATS)]).trim().split("\n");
  const cMicros = Number(lines.at(-1)!.split(" ")[1]);
  const cCtnys = lines.slice(0, -1).map((line) => Number(line.split(" ")[0]));
  const mismatches = cCtnys.filter((value, i) => value !== ctnys[i]).length;

  const ours = median(scheduler);
  const ratio = ours / cMicros;
  return {
    work: `ScheduleCkpt, family C, n = ${family.n}, k0 = 2, warm (median of ${INSTANCES} instances)`,
    reference: `the same algorithm in C (cc -O2): ${cMicros.toFixed(1)} µs`,
    ours: `${ours.toFixed(1)} µs`,
    ratio,
    target: `≤ ${TARGET_RATIO}× C`,
    met: ratio <= TARGET_RATIO && mismatches === 0,
    notes: [
      `same CTNYS as the C reference on ${INSTANCES - mismatches}/${INSTANCES} instances`,
      `whole scheduleCkpt call (decisions + fluid execution + building the outcome): ${median(whole).toFixed(1)} µs, ${formatRatio(median(whole) / cMicros)} C`,
      `per instance (medians): ${median(decisions)} decisions, ${median(evaluations)} bandwidth evaluations; ${((ours * 1000) / median(evaluations)).toFixed(1)} ns of scheduler time per evaluation (C: ${((cMicros * 1000) / median(evaluations)).toFixed(1)} ns)`,
    ],
  };
}
