/**
 * Other readings of ScheduleCkpt ([Y-thesis] Algorithm 1–2, Annex A; docs/science.md §4.3,
 * §4.6), as options, to find which reading the published results follow. The faithful
 * reading is the default everywhere and is what `schedule-ckpt.ts` runs; this module is a
 * plain, unoptimised implementation of the same loop with each open point made a choice.
 * With every choice at its faithful value it gives exactly `scheduleCkpt`'s result (a test
 * checks it over many seeded instances); it is kept apart from the optimised loop so that
 * the readings cost that loop nothing. Its scheduler times are not comparable with
 * `scheduleCkpt`'s.
 *
 * The open points (faithful value first):
 * - `candidates` — I, the applications ks_bw chooses from: `while`, Algorithm 2's walk in
 *   criterion order that stops at the first application lowering the aggregated
 *   bandwidth; `filter`, the same test but passing over such an application and going on;
 *   `all`, every waiting application (no index_bw_max).
 * - `completion` — the greedy L that completes a subset J: `scan` every remaining candidate
 *   and keep those that still fit (keeps scanning after a rejection); `stop` at the first
 *   candidate that does not fit.
 * - `completionScope` — what L scans: the `candidates` I, or every `waiting` application
 *   (so ks_bw can build sets larger than I).
 * - `ties` — between subsets of equal value: the `first` found (∅ first, by size, then
 *   lexicographic), or the one leaving the `least-volume` to transfer.
 * - `runningSizes` — how the checkpoints in progress count in the deadline check: their
 *   `remaining` sizes, or their `original` sizes (as if they restarted).
 * - `decisions` — when ks_bw starts checkpoints: at `every` decision (t = 0 and each
 *   completion, Algorithm 1's loop), or only `once`, at t = 0 (the loop then only lets what it
 *   started finish): the papers' CTNYS read as the value of the first knapsack alone.
 * - `perNode` — at most one checkpoint per node at a time ([Y-thesis] §6.4's constraint
 *   applied at every decision, instead of waves): an application whose node has one
 *   running is not a candidate, and a set never holds two of one node.
 */
import { applicationColumns, type Application } from "../application";
import { createBandwidthOracle } from "../bandwidth-oracle";
import { criterionOrder } from "../criterion-order";
import { createFluidDevice } from "../fluid-device";
import type { ScheduleOptions } from "../schedule-options";
import { createSizeSet, insertSize, type SizeSet } from "../size-set";
import { outcomeFromDevice, type StrategyOutcome } from "../strategy-outcome";
import { estimatorByName, type TimeEstimator } from "../time-estimator";
import type { BandwidthOracle } from "../bandwidth-oracle";

export const CANDIDATE_READINGS = ["while", "filter", "all"] as const;
export const COMPLETION_READINGS = ["scan", "stop"] as const;
export const COMPLETION_SCOPES = ["candidates", "waiting"] as const;
export const TIE_READINGS = ["first", "least-volume"] as const;
export const RUNNING_SIZE_READINGS = ["remaining", "original"] as const;
export const DECISION_READINGS = ["every", "once"] as const;

export interface ScheduleReadings {
  candidates: (typeof CANDIDATE_READINGS)[number];
  completion: (typeof COMPLETION_READINGS)[number];
  completionScope: (typeof COMPLETION_SCOPES)[number];
  ties: (typeof TIE_READINGS)[number];
  runningSizes: (typeof RUNNING_SIZE_READINGS)[number];
  decisions: (typeof DECISION_READINGS)[number];
  perNode: boolean;
}

export const FAITHFUL_READINGS: Readonly<ScheduleReadings> = Object.freeze({
  candidates: "while",
  completion: "scan",
  completionScope: "candidates",
  ties: "first",
  runningSizes: "remaining",
  decisions: "every",
  perNode: false,
});

export function isFaithfulReading(readings: Partial<ScheduleReadings> | undefined): boolean {
  if (readings === undefined) return true;
  return (Object.keys(FAITHFUL_READINGS) as (keyof ScheduleReadings)[]).every((key) => readings[key] === undefined || readings[key] === FAITHFUL_READINGS[key]);
}

/** "candidates=filter, completion=stop": the choices that differ from the faithful reading. */
export function readingLabel(readings: Partial<ScheduleReadings> | undefined): string {
  const changed = (Object.keys(FAITHFUL_READINGS) as (keyof ScheduleReadings)[]).filter((key) => readings?.[key] !== undefined && readings[key] !== FAITHFUL_READINGS[key]);
  return changed.length === 0 ? "faithful" : changed.map((key) => `${key}=${String(readings![key])}`).join(", ");
}

export interface ReadingOutcome extends StrategyOutcome {
  endS: number;
  iterations: number;
  /** Per decision: |I| (candidates) and the subsets J ks_bw enumerated. */
  candidatesPerDecision: number[];
  subsetsPerDecision: number[];
  /** Time estimates ks_bw made (each subset's check, then one per application its completion scans): what a decision's time grows with. */
  estimates: number;
  evaluations: number;
  schedulerMicros: number;
}

interface Decider {
  sizesMb: Float64Array;
  pS: Float64Array;
  node: Int32Array;
  plan: BandwidthOracle;
  estimator: TimeEstimator;
  k0: number;
  enumeration: ScheduleOptions["enumeration"];
  idleStart: ScheduleOptions["idleStart"];
  readings: ScheduleReadings;
}

/** ScheduleCkpt under `readings` (see the module docblock); `startS` shifts the clock as in `scheduleCkpt`. */
export function scheduleCkptReadings(apps: readonly Application[], options: ScheduleOptions, readings: Partial<ScheduleReadings>, startS = 0): ReadingOutcome {
  const chosen: ScheduleReadings = { ...FAITHFUL_READINGS, ...readings };
  const { sizesMb, pS } = applicationColumns(apps);
  const nodeIds = new Map<string, number>();
  const node = Int32Array.from(apps, (app, index) => (app.node === undefined ? -1 - index : nodeIds.get(app.node) ?? (nodeIds.set(app.node, nodeIds.size), nodeIds.size - 1)));
  const plan = createBandwidthOracle(options.model, options.domain, options.planBandwidth);
  const truth = createBandwidthOracle(options.truthModel, options.domain, options.truthBandwidth);
  const decider: Decider = { sizesMb, pS, node, plan, estimator: estimatorByName(options.estimator), k0: options.k0, enumeration: options.enumeration, idleStart: options.idleStart, readings: chosen };
  const device = createFluidDevice(sizesMb, truth, { startS, recordSteps: false });
  const started = performance.now();
  let waiting = Array.from(criterionOrder(pS, sizesMb, options.criterion));
  const candidatesPerDecision: number[] = [];
  const subsetsPerDecision: number[] = [];
  let estimates = 0;
  let iterations = 0;
  for (;;) {
    iterations++;
    const running = Array.from(device.running.subarray(0, device.runningCount));
    const runningSet = createSizeSet(apps.length);
    for (const index of running) insertSize(runningSet, chosen.runningSizes === "remaining" ? device.remainingMb[index]! : sizesMb[index]!);
    const busyNodes = new Set(running.map((index) => node[index]!));
    const deciding = chosen.decisions === "every" || iterations === 1;
    const eligible = !deciding ? [] : chosen.perNode ? waiting.filter((index) => !busyNodes.has(node[index]!)) : waiting;
    const candidates = candidateSet(eligible, runningSet, decider);
    const scope = chosen.completionScope === "waiting" ? eligible : candidates;
    const decision = deciding ? ksBwReading(candidates, scope, runningSet, options.deadlineS - device.timeS, decider) : { selected: [], subsets: 0, estimates: 0 };
    candidatesPerDecision.push(candidates.length);
    subsetsPerDecision.push(decision.subsets);
    estimates += decision.estimates;
    const starting = new Set(decision.selected);
    waiting = waiting.filter((index) => !starting.has(index));
    for (const index of eligible.filter((i) => starting.has(i))) device.start(index);
    if (starting.size === 0 && device.runningCount === 0) break;
    if (device.advance() < 0) break;
  }
  const schedulerMicros = (performance.now() - started) * 1000;
  return {
    ...outcomeFromDevice("schedule-ckpt", apps, device, options.deadlineS, truth),
    endS: device.timeS,
    iterations,
    candidatesPerDecision,
    subsetsPerDecision,
    estimates,
    evaluations: plan.counts().evaluations,
    schedulerMicros,
  };
}

/** I: the waiting applications (criterion order) ks_bw may start, by the `candidates` reading. */
function candidateSet(waiting: readonly number[], running: SizeSet, d: Decider): number[] {
  if (d.readings.candidates === "all") return d.readings.perNode ? onePerNode(waiting, d.node) : [...waiting];
  let m = running.count;
  let volumeMb = running.sumMb;
  let current = m === 0 ? (d.idleStart === "constant-term" ? d.plan.idleBandwidthMbPerS : -Infinity) : d.plan.bandwidthMbPerS(m, volumeMb / 1000);
  if (!(current > 0)) current = -Infinity;
  const chosen: number[] = [];
  const nodes = new Set<number>();
  for (const index of waiting) {
    if (d.readings.perNode && nodes.has(d.node[index]!)) continue;
    const next = d.plan.bandwidthMbPerS(m + 1, (volumeMb + d.sizesMb[index]!) / 1000);
    if (!(next >= current)) {
      if (d.readings.candidates === "while") break;
      continue;
    }
    m++;
    volumeMb += d.sizesMb[index]!;
    current = next;
    chosen.push(index);
    nodes.add(d.node[index]!);
  }
  return chosen;
}

function onePerNode(indices: readonly number[], node: Int32Array): number[] {
  const seen = new Set<number>();
  return indices.filter((index) => !seen.has(node[index]!) && (seen.add(node[index]!), true));
}

/**
 * ks_bw under the readings: every J ⊆ candidates with |J| ≤ k0 (or = k0) meeting the deadline
 * with CKPT, completed by L over `scope` (criterion order); the best value wins, ties as read.
 */
function ksBwReading(candidates: readonly number[], scope: readonly number[], running: SizeSet, budgetS: number, d: Decider): { selected: number[]; subsets: number; estimates: number } {
  const r = candidates.length;
  const largest = Math.min(d.k0, r);
  const smallest = d.enumeration === "exactly-k0" ? largest : 0;
  let best = -Infinity;
  let bestVolume = Infinity;
  let bestSet: number[] = [];
  let subsets = 0;
  let estimates = 0;
  const fits = (set: SizeSet, extraMb: number) => {
    estimates++;
    return set.count === 0 && extraMb === 0 ? budgetS >= 0 : d.estimator.finishTimeS(set, extraMb, budgetS, d.plan) <= budgetS;
  };
  for (let size = smallest; size <= largest; size++) {
    for (const positions of combinations(r, size)) {
      subsets++;
      const subset = positions.map((k) => candidates[k]!);
      if (d.readings.perNode && new Set(subset.map((i) => d.node[i]!)).size < subset.length) continue;
      const selection = copy(running);
      for (const index of subset) insertSize(selection, d.sizesMb[index]!);
      if (!fits(selection, 0)) continue;
      const inSet = new Set(subset);
      const nodes = new Set(subset.map((i) => d.node[i]!));
      let value = subset.reduce((sum, i) => sum + d.pS[i]!, 0);
      for (const index of scope) {
        if (inSet.has(index)) continue;
        if (d.readings.perNode && nodes.has(d.node[index]!)) continue;
        if (fits(selection, d.sizesMb[index]!)) {
          insertSize(selection, d.sizesMb[index]!);
          value += d.pS[index]!;
          inSet.add(index);
          nodes.add(d.node[index]!);
        } else if (d.readings.completion === "stop") break;
      }
      const better = value > best || (d.readings.ties === "least-volume" && value === best && selection.sumMb < bestVolume);
      if (better) {
        best = value;
        bestVolume = selection.sumMb;
        bestSet = scope.filter((index) => inSet.has(index)).concat(subset.filter((index) => !scope.includes(index)));
      }
    }
  }
  return { selected: bestSet, subsets, estimates };
}

function* combinations(r: number, size: number): Generator<number[]> {
  const positions = Array.from({ length: size }, (_, k) => k);
  if (size > r) return;
  for (;;) {
    yield [...positions];
    let k = size - 1;
    while (k >= 0 && positions[k] === r - size + k) k--;
    if (k < 0) return;
    positions[k]!++;
    for (let j = k + 1; j < size; j++) positions[j] = positions[j - 1]! + 1;
  }
}

function copy(set: SizeSet): SizeSet {
  const out = createSizeSet(set.sizesMb.length);
  for (let i = 0; i < set.count; i++) out.sizesMb[i] = set.sizesMb[i]!;
  out.count = set.count;
  out.sumMb = set.sumMb;
  return out;
}
