/**
 * Other readings of checkpointing by waves ([Y-thesis] §6.4; docs/science.md §4.6), as options,
 * next to the faithful one of `schedule-by-waves.ts` (the default, which this gives exactly
 * when every choice is faithful; a test checks it).
 *
 * The open points (faithful value first):
 * - `pacing` — `barrier`: wave j + 1 starts when wave j's ScheduleCkpt loop has ended;
 *   `per-node`: no waves, one ScheduleCkpt loop over all applications under the constraint
 *   that a node checkpoints one application at a time (a node's next one may start as soon
 *   as its previous one ended), which is what the per-node concurrency requires.
 * - `order` — which application of a node goes in wave j: the j-th in `input` order, or
 *   the j-th in `criterion` order (a node's most valuable one first).
 * - `carry` — an application a wave did not start is dropped (`drop`) or joins the next
 *   wave (`carry`).
 */
import type { Application } from "../application";
import { criterionOrder } from "../criterion-order";
import { applicationColumns } from "../application";
import type { ScheduleOptions } from "../schedule-options";
import { wavesOf } from "../schedule-by-waves";
import { scheduleCkptReadings, type ReadingOutcome, type ScheduleReadings } from "./schedule-readings";

/** Each wave reading's choices (the type of a set of readings follows from them). */
const WAVE_READING_CHOICES = { pacing: ["barrier", "per-node"], order: ["input", "criterion"], carry: ["drop", "carry"] } as const;
export const WAVE_PACINGS = WAVE_READING_CHOICES.pacing;
export const WAVE_ORDERS = WAVE_READING_CHOICES.order;
export const WAVE_CARRIES = WAVE_READING_CHOICES.carry;

export type WaveReadings = { -readonly [K in keyof typeof WAVE_READING_CHOICES]: (typeof WAVE_READING_CHOICES)[K][number] };

export const FAITHFUL_WAVE_READINGS: Readonly<WaveReadings> = Object.freeze({ pacing: "barrier", order: "input", carry: "drop" });

export function isFaithfulWaveReading(readings: Partial<WaveReadings> | undefined): boolean {
  if (readings === undefined) return true;
  return (Object.keys(FAITHFUL_WAVE_READINGS) as (keyof WaveReadings)[]).every((key) => readings[key] === undefined || readings[key] === FAITHFUL_WAVE_READINGS[key]);
}

export function waveReadingLabel(readings: Partial<WaveReadings> | undefined): string {
  const changed = (Object.keys(FAITHFUL_WAVE_READINGS) as (keyof WaveReadings)[]).filter((key) => readings?.[key] !== undefined && readings[key] !== FAITHFUL_WAVE_READINGS[key]);
  return changed.length === 0 ? "faithful" : changed.map((key) => `wave ${key}=${String(readings![key])}`).join(", ");
}

export interface WavesReadingOutcome {
  ctnys: number;
  totalP: number;
  ctnysShare: number;
  checkpointed: string[];
  missed: string[];
  iterations: number;
  evaluations: number;
  schedulerMicros: number;
  endS: number;
}

export function scheduleByWavesReadings(
  apps: readonly Application[],
  options: ScheduleOptions,
  readings: Partial<ScheduleReadings>,
  waveReadings: Partial<WaveReadings>,
): WavesReadingOutcome {
  const chosen: WaveReadings = { ...FAITHFUL_WAVE_READINGS, ...waveReadings };
  const totalP = apps.reduce((sum, app) => sum + app.pS, 0);
  if (chosen.pacing === "per-node") return summary([scheduleCkptReadings(apps, options, { ...readings, perNode: true })], totalP);
  const waves = chosen.order === "input" ? wavesOf(apps) : wavesInCriterionOrder(apps, options);
  const outcomes: ReadingOutcome[] = [];
  let timeS = 0;
  let carried: number[] = [];
  for (const wave of waves) {
    const members = [...carried, ...wave].sort((a, b) => a - b);
    if (timeS >= options.deadlineS || outcomes.some((o) => o.stall !== null)) break;
    const outcome = scheduleCkptReadings(members.map((index) => apps[index]!), options, readings, timeS);
    outcomes.push(outcome);
    carried = chosen.carry === "carry" ? members.filter((_, k) => outcome.apps[k]!.start === null) : [];
    timeS = outcome.endS;
  }
  return summary(outcomes, totalP);
}

/** Wave j = the j-th application of every node in criterion order (nodes in order of first appearance). */
function wavesInCriterionOrder(apps: readonly Application[], options: ScheduleOptions): number[][] {
  const { sizesMb, pS } = applicationColumns(apps);
  const rank = new Int32Array(apps.length);
  criterionOrder(pS, sizesMb, options.criterion).forEach((index, position) => (rank[index] = position));
  const byNode = new Map<string, number[]>();
  apps.forEach((app, index) => {
    const node = app.node ?? `#${index}`;
    byNode.set(node, [...(byNode.get(node) ?? []), index]);
  });
  const waves: number[][] = [];
  for (const indices of byNode.values()) {
    [...indices].sort((a, b) => rank[a]! - rank[b]!).forEach((index, j) => (waves[j] ??= []).push(index));
  }
  return waves.map((wave) => wave.sort((a, b) => a - b));
}

function summary(outcomes: readonly ReadingOutcome[], totalP: number): WavesReadingOutcome {
  const ctnys = outcomes.reduce((sum, o) => sum + o.ctnys, 0);
  return {
    ctnys,
    totalP,
    ctnysShare: totalP > 0 ? ctnys / totalP : 0,
    checkpointed: outcomes.flatMap((o) => o.checkpointed),
    missed: outcomes.flatMap((o) => o.missed),
    iterations: outcomes.reduce((sum, o) => sum + o.iterations, 0),
    evaluations: outcomes.reduce((sum, o) => sum + o.evaluations, 0),
    schedulerMicros: outcomes.reduce((sum, o) => sum + o.schedulerMicros, 0),
    endS: outcomes.length > 0 ? outcomes[outcomes.length - 1]!.endS : 0,
  };
}
