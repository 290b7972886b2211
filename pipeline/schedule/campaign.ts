/**
 * The papers' ScheduleCkpt campaigns ([Y-thesis] ch. 7, [Y11] §6.3; docs/science.md §4.5–§4.6) run
 * over many seeds, with the published values next to ours.
 *
 * - Families A, B, C: per family × criterion × k0, the CTNYS share (CTNYS / Σ p) over
 *   seeds with its 95 % CI, CTNYS, scheduler time, misses, the gap to the upper bound
 *   and, with `exact`, the shortfall against the exact simultaneous-start optimum on the
 *   instances where it was proven. Per family, the baselines (sequential greedy, all in
 *   parallel), the bound and the exact optimum, as shares.
 * - Identical sizes (deterministic): ScheduleCkpt (k0 = 0, criterion p) and sequential
 *   greedy under the model, and sequential greedy at the measured single-process rate, next
 *   to the *measured* published counts.
 * - Waves (§4.6): 25 nodes × 4 applications by waves, k0 = 2, per criterion.
 * - Scaling: scheduler time against n and k0 (family C's laws, T = 6 n).
 *
 * Every run of every part is kept in `runs` (plain rows) for plots. Seeded, so a rerun
 * gives the same numbers except the measured times.
 */
import type { BandwidthModel } from "../fit/model";
import type { NotApplicable } from "../shared/not-applicable";
import type { Application } from "./application";
import { scheduleDomainPolicy, type ScheduleDomainPolicy } from "./bandwidth-oracle";
import { allInParallel } from "./all-in-parallel";
import type { Criterion } from "./criterion-order";
import type { IdleStart } from "./index-bw-max";
import { exactSimultaneous, type ExactLimits } from "./exact-simultaneous";
import {
  FAMILIES,
  IDENTICAL_SIZE_CAMPAIGN,
  WAVES_CAMPAIGN,
  familyInstance,
  identicalSizeInstance,
  randomInstance,
  scaledFamilyC,
  wavesInstance,
  type FamilyName,
} from "./instance-families";
import { meanWithCi, type MeanWithCi } from "../stats/mean-confidence-interval";
import {
  PUBLISHED_IDENTICAL_SIZES,
  PUBLISHED_IDENTICAL_SIZES_SOURCE,
  PUBLISHED_WAVES,
  PUBLISHED_WAVES_SOURCE,
  publishedFamilyResult,
  type PublishedFamilyResult,
} from "./published-values";
import { scheduleByWaves } from "./schedule-by-waves";
import { scheduleCkpt } from "./schedule-ckpt";
import { isFaithfulReading, readingLabel, scheduleCkptReadings, type ScheduleReadings } from "./readings/schedule-readings";
import { isFaithfulWaveReading, scheduleByWavesReadings, waveReadingLabel, type WavesReadingOutcome, type WaveReadings } from "./readings/waves-readings";
import { resolveScheduleOptions, type ScheduleOptions } from "./schedule-options";
import { sequentialGreedy } from "./sequential-greedy";
import { sequentialAtRate, type SequentialAtRateOutcome } from "./sequential-at-rate";
import { SINGLE_PROCESS_BW_RANGE_MB_PER_S } from "../ingest/published-azur-data";
import type { EstimatorName } from "./time-estimator";
import { upperBound } from "./upper-bound";

export type CampaignPart = FamilyName | "identical" | "waves" | "scaling";
export const CAMPAIGN_PARTS: readonly CampaignPart[] = ["A", "B", "C", "identical", "waves", "scaling"];

export interface CampaignSettings {
  model: BandwidthModel;
  domain: ScheduleDomainPolicy;
  estimator: EstimatorName;
  parts: CampaignPart[];
  seeds: number;
  firstSeed: number;
  k0s: number[];
  criteria: Criterion[];
  /** Run the exact simultaneous-start solver on every family instance (null: off). */
  exact: ExactLimits | null;
  /** n values of the scaling part, and its seeds per n. */
  scalingNs: number[];
  scalingSeeds: number;
  /** index_bw_max on an idle device (default: the papers' "constant-term"). */
  idleStart?: IdleStart;
  /** Other readings of ScheduleCkpt (readings/schedule-readings.ts); absent or faithful: the default loop. */
  readings?: Partial<ScheduleReadings>;
  /** Other readings of the waves (readings/waves-readings.ts); absent or faithful: `scheduleByWaves`. */
  waveReadings?: Partial<WaveReadings>;
  /** Called with a line of progress now and then (the CLI prints it on stderr). */
  onProgress?: (message: string) => void;
}

/** One ScheduleCkpt run of a campaign. */
export interface CampaignRun {
  part: CampaignPart;
  seed: number;
  n: number;
  deadlineS: number;
  criterion: Criterion;
  k0: number;
  ctnys: number;
  totalP: number;
  share: number;
  checkpointedCount: number;
  missedCount: number;
  schedulerMicros: number;
  evaluations: number;
  /** Of those, the ones above the model's fitted domain (infeasible under the policy `refuse`); null for the non-faithful readings, which do not count them. */
  aboveDomain: number | null;
  iterations: number;
  /** Upper bound on CTNYS for the instance. */
  upperBound: number;
  /** Exact simultaneous-start value (planned) and whether it was proven, when run. */
  exactValue: number | null;
  exactProven: boolean | null;
}

/** Per-instance baselines of a family. */
export interface CampaignInstance {
  part: FamilyName;
  seed: number;
  totalP: number;
  sequentialShare: number;
  parallelShare: number;
  parallelStalled: boolean;
  upperBoundShare: number;
  exactShare: number | null;
  exactProven: boolean | null;
}

export interface FamilyRow {
  family: FamilyName;
  n: number;
  deadlineS: number;
  criterion: Criterion;
  k0: number;
  share: MeanWithCi;
  ctnys: MeanWithCi;
  checkpointedCount: number;
  schedulerMicrosMedian: number;
  evaluationsMedian: number;
  missedTotal: number;
  /** (bound − CTNYS) / bound. */
  gapToBoundShare: MeanWithCi;
  /** (exact − CTNYS) / Σ p over the instances where the exact optimum was proven. */
  shortfallToExactShare: MeanWithCi | null;
  /** Instances where ScheduleCkpt saved less than the proven simultaneous-start optimum. */
  belowExactCount: number | null;
  published: PublishedFamilyResult | null;
}

export interface FamilyBaselineRow {
  family: FamilyName;
  sequentialShare: MeanWithCi;
  parallelShare: MeanWithCi;
  parallelStalledCount: number;
  upperBoundShare: MeanWithCi;
  exactShare: MeanWithCi | null;
  exactProvenCount: number | null;
}

export interface IdenticalSizeRow {
  sizeMb: number;
  scheduleCkpt: { checkpointed: number; ctnys: number };
  sequentialGreedy: { checkpointed: number; ctnys: number };
  /**
   * Sequential greedy at the single-process rate measured on the cluster, as the thesis ran it:
   * that rate is known only as a range (docs/science.md §4.5), so at its two ends and its middle.
   */
  sequentialAtMeasuredRate: { low: SequentialAtRateOutcome; middle: SequentialAtRateOutcome; high: SequentialAtRateOutcome };
  published: { checkpointed: number; ctnys: number; source: string };
}

export interface WavesRow {
  criterion: Criterion;
  k0: number;
  share: MeanWithCi;
  ctnys: MeanWithCi;
  schedulerMicrosMedian: number;
  published: { ctnys: number; rctnys: number; share: number; schedulerMicros: number; source: string };
}

export interface ScalingRow {
  n: number;
  deadlineS: number;
  k0: number;
  schedulerMicrosMedian: number;
  evaluationsMedian: number;
  iterationsMedian: number;
}

export interface CampaignResult {
  schema: "ckpt-lab/campaign@1";
  settings: Omit<CampaignSettings, "model" | "onProgress"> & { model: string };
  families: FamilyRow[];
  familyBaselines: FamilyBaselineRow[];
  identicalSizes: IdenticalSizeRow[] | null;
  waves: WavesRow[] | null;
  scaling: ScalingRow[] | null;
  runs: CampaignRun[];
  instances: CampaignInstance[];
  notes: string[];
  /** Parts the pipeline's schedule stage left out because the model cannot price them (added by the stage). */
  notApplicable?: NotApplicable[];
}

function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function optionsFor(settings: CampaignSettings, deadlineS: number, k0: number, criterion: Criterion): ScheduleOptions {
  return resolveScheduleOptions({
    model: settings.model, deadlineS, k0, criterion, estimator: settings.estimator, domain: settings.domain, record: false,
    ...(settings.idleStart !== undefined ? { idleStart: settings.idleStart } : {}),
  });
}

function runRow(
  part: CampaignPart,
  seed: number,
  apps: readonly Application[],
  options: ScheduleOptions,
  bound: number,
  exact: { value: number; proven: boolean } | null,
  readings?: Partial<ScheduleReadings>,
): CampaignRun {
  const outcome = isFaithfulReading(readings) ? scheduleCkpt(apps, options) : readingRun(scheduleCkptReadings(apps, options, readings!));
  return {
    part, seed, n: apps.length, deadlineS: options.deadlineS, criterion: options.criterion, k0: options.k0,
    ctnys: outcome.ctnys, totalP: outcome.totalP, share: outcome.ctnysShare, checkpointedCount: outcome.checkpointed.length,
    missedCount: outcome.missed.length, schedulerMicros: outcome.schedulerMicros, evaluations: outcome.evaluations.evaluations,
    aboveDomain: aboveDomainOf(outcome.evaluations),
    iterations: outcome.iterations, upperBound: bound, exactValue: exact?.value ?? null, exactProven: exact?.proven ?? null,
  };
}

function aboveDomainOf(evaluations: { evaluations: number; aboveDomain?: number }): number | null {
  return evaluations.aboveDomain ?? null;
}

/** A readings outcome in the shape `runRow` and the waves read. */
function readingRun(outcome: Omit<WavesReadingOutcome, "endS">) {
  return { ...outcome, evaluations: { evaluations: outcome.evaluations } };
}

function runFamily(family: FamilyName, settings: CampaignSettings, runs: CampaignRun[], instances: CampaignInstance[]): void {
  const spec = FAMILIES[family];
  for (let k = 0; k < settings.seeds; k++) {
    const seed = settings.firstSeed + k;
    if (k % 10 === 0) settings.onProgress?.(`campaign: family ${family}, seed ${k + 1}/${settings.seeds}`);
    const apps = familyInstance(family, seed);
    const base = optionsFor(settings, spec.deadlineS, 0, "p");
    const bound = upperBound(apps, base);
    const exactResult = settings.exact ? exactSimultaneous(apps, base, settings.exact) : null;
    const exact = exactResult ? { value: exactResult.value, proven: exactResult.provenOptimal } : null;
    const sequential = sequentialGreedy(apps, base);
    const parallel = allInParallel(apps, base);
    const totalP = sequential.totalP;
    instances.push({
      part: family, seed, totalP,
      sequentialShare: sequential.ctnysShare, parallelShare: parallel.ctnysShare, parallelStalled: parallel.stall !== null,
      upperBoundShare: bound.ctnys / totalP, exactShare: exact ? exact.value / totalP : null, exactProven: exact?.proven ?? null,
    });
    for (const criterion of settings.criteria) {
      for (const k0 of settings.k0s) runs.push(runRow(family, seed, apps, optionsFor(settings, spec.deadlineS, k0, criterion), bound.ctnys, exact, settings.readings));
    }
  }
}

function familyRows(family: FamilyName, settings: CampaignSettings, runs: CampaignRun[]): FamilyRow[] {
  const spec = FAMILIES[family];
  const rows: FamilyRow[] = [];
  for (const criterion of settings.criteria) {
    for (const k0 of settings.k0s) {
      const mine = runs.filter((r) => r.part === family && r.criterion === criterion && r.k0 === k0);
      const proven = mine.filter((r) => r.exactProven === true);
      rows.push({
        family, n: spec.n, deadlineS: spec.deadlineS, criterion, k0,
        share: meanWithCi(mine.map((r) => r.share)),
        ctnys: meanWithCi(mine.map((r) => r.ctnys)),
        checkpointedCount: mine.reduce((a, r) => a + r.checkpointedCount, 0) / Math.max(1, mine.length),
        schedulerMicrosMedian: median(mine.map((r) => r.schedulerMicros)),
        evaluationsMedian: median(mine.map((r) => r.evaluations)),
        missedTotal: mine.reduce((a, r) => a + r.missedCount, 0),
        gapToBoundShare: meanWithCi(mine.map((r) => (r.upperBound > 0 ? (r.upperBound - r.ctnys) / r.upperBound : 0))),
        shortfallToExactShare: settings.exact ? meanWithCi(proven.map((r) => (r.exactValue! - r.ctnys) / r.totalP)) : null,
        belowExactCount: settings.exact ? proven.filter((r) => r.exactValue! - r.ctnys > 1e-9 * Math.max(1, r.exactValue!)).length : null,
        published: publishedFamilyResult(family, criterion, k0),
      });
    }
  }
  return rows;
}

function baselineRow(family: FamilyName, settings: CampaignSettings, instances: CampaignInstance[]): FamilyBaselineRow {
  const mine = instances.filter((i) => i.part === family);
  return {
    family,
    sequentialShare: meanWithCi(mine.map((i) => i.sequentialShare)),
    parallelShare: meanWithCi(mine.map((i) => i.parallelShare)),
    parallelStalledCount: mine.filter((i) => i.parallelStalled).length,
    upperBoundShare: meanWithCi(mine.map((i) => i.upperBoundShare)),
    exactShare: settings.exact ? meanWithCi(mine.filter((i) => i.exactProven).map((i) => i.exactShare!)) : null,
    exactProvenCount: settings.exact ? mine.filter((i) => i.exactProven).length : null,
  };
}

function identicalSizes(settings: CampaignSettings): IdenticalSizeRow[] {
  settings.onProgress?.("campaign: identical sizes");
  return IDENTICAL_SIZE_CAMPAIGN.sizesMb.map((sizeMb) => {
    const apps = identicalSizeInstance(sizeMb);
    const options = optionsFor(settings, IDENTICAL_SIZE_CAMPAIGN.deadlineS, 0, "p");
    const heuristic = scheduleCkpt(apps, options);
    const sequential = sequentialGreedy(apps, options);
    const published = PUBLISHED_IDENTICAL_SIZES.find((p) => p.sizeMb === sizeMb)!;
    const { low, high } = SINGLE_PROCESS_BW_RANGE_MB_PER_S;
    const atRate = (rate: number) => sequentialAtRate(apps, rate, options.deadlineS, options.sequentialRule);
    return {
      sizeMb,
      scheduleCkpt: { checkpointed: heuristic.checkpointed.length, ctnys: heuristic.ctnys },
      sequentialGreedy: { checkpointed: sequential.checkpointed.length, ctnys: sequential.ctnys },
      sequentialAtMeasuredRate: { low: atRate(low), middle: atRate((low + high) / 2), high: atRate(high) },
      published: { checkpointed: published.checkpointed, ctnys: published.ctnys, source: PUBLISHED_IDENTICAL_SIZES_SOURCE },
    };
  });
}

function waves(settings: CampaignSettings, runs: CampaignRun[]): WavesRow[] {
  const rows: WavesRow[] = [];
  for (const criterion of settings.criteria) {
    const mine: CampaignRun[] = [];
    for (let k = 0; k < settings.seeds; k++) {
      const seed = settings.firstSeed + k;
      if (k % 10 === 0) settings.onProgress?.(`campaign: waves (${criterion}), seed ${k + 1}/${settings.seeds}`);
      const apps = wavesInstance(seed);
      const options = optionsFor(settings, WAVES_CAMPAIGN.deadlineS, WAVES_CAMPAIGN.k0, criterion);
      const faithful = isFaithfulReading(settings.readings) && isFaithfulWaveReading(settings.waveReadings);
      const outcome = faithful ? scheduleByWaves(apps, options) : readingRun(scheduleByWavesReadings(apps, options, settings.readings ?? {}, settings.waveReadings ?? {}));
      const bound = upperBound(apps, options);
      const run: CampaignRun = {
        part: "waves", seed, n: apps.length, deadlineS: options.deadlineS, criterion, k0: options.k0,
        ctnys: outcome.ctnys, totalP: outcome.totalP, share: outcome.ctnysShare, checkpointedCount: outcome.checkpointed.length,
        missedCount: outcome.missed.length, schedulerMicros: outcome.schedulerMicros, evaluations: outcome.evaluations.evaluations,
        aboveDomain: aboveDomainOf(outcome.evaluations),
        iterations: outcome.iterations, upperBound: bound.ctnys, exactValue: null, exactProven: null,
      };
      mine.push(run);
      runs.push(run);
    }
    const published = PUBLISHED_WAVES.find((p) => p.criterion === criterion)!;
    rows.push({
      criterion, k0: WAVES_CAMPAIGN.k0,
      share: meanWithCi(mine.map((r) => r.share)),
      ctnys: meanWithCi(mine.map((r) => r.ctnys)),
      schedulerMicrosMedian: median(mine.map((r) => r.schedulerMicros)),
      published: { ...published, source: PUBLISHED_WAVES_SOURCE },
    });
  }
  return rows;
}

function scaling(settings: CampaignSettings, runs: CampaignRun[]): ScalingRow[] {
  const rows: ScalingRow[] = [];
  for (const n of settings.scalingNs) {
    settings.onProgress?.(`campaign: scaling, n = ${n}`);
    const spec = scaledFamilyC(n);
    const instances = Array.from({ length: settings.scalingSeeds }, (_, k) => randomInstance(spec, `N${n}`, settings.firstSeed + k));
    for (const k0 of settings.k0s) {
      const options = optionsFor(settings, spec.deadlineS, k0, "p");
      const mine = instances.map((apps, k) => {
        scheduleCkpt(apps, options); // warm-up: measure the algorithm, not the JIT
        const run = runRow("scaling", settings.firstSeed + k, apps, options, NaN, null, settings.readings);
        runs.push(run);
        return run;
      });
      rows.push({
        n, deadlineS: spec.deadlineS, k0,
        schedulerMicrosMedian: median(mine.map((r) => r.schedulerMicros)),
        evaluationsMedian: median(mine.map((r) => r.evaluations)),
        iterationsMedian: median(mine.map((r) => r.iterations)),
      });
    }
  }
  return rows;
}

export function runCampaign(settings: CampaignSettings): CampaignResult {
  const runs: CampaignRun[] = [];
  const instances: CampaignInstance[] = [];
  const families = settings.parts.filter((p): p is FamilyName => p === "A" || p === "B" || p === "C");
  for (const family of families) runFamily(family, settings, runs, instances);
  const notes = [
    "Shares are CTNYS / Σ p. The published values come from one unpublished instance per family; compare shares and trends, not CTNYS.",
    "The published instances' Σ p (B: 29547 for n = 50, C: 42796 for n = 70) imply mean p ≈ 590–610 s, far below the 1050 s of p uniform in [300, 1800] (docs/science.md §4.5): their p law was evidently not the stated one, which alone moves the shares.",
    `Waves: ${WAVES_CAMPAIGN.sizeAssumption}.`,
    "Identical sizes: ours are the model's predictions; the published counts were measured (one process reached only ≈ 5.3–6 MB/s, below the quadratic's ≈ 8.6 MB/s at m = 1, docs/science.md §4.5).",
    `Scheduler times are this machine's, warm; the published ones are the papers' C code on a 2 GHz Opteron.`,
    ...(isFaithfulReading(settings.readings) && isFaithfulWaveReading(settings.waveReadings)
      ? []
      : [`Readings: ${[readingLabel(settings.readings), waveReadingLabel(settings.waveReadings)].filter((l) => l !== "faithful").join(", ")} (not the faithful reading; scheduler times are those of the unoptimised readings loop).`]),
  ];
  const { model, onProgress: _progress, ...rest } = settings;
  return {
    schema: "ckpt-lab/campaign@1",
    // Recorded in this version's words, whichever vocabulary the settings used.
    settings: { ...rest, domain: scheduleDomainPolicy(rest.domain), model: model.name },
    families: families.flatMap((family) => familyRows(family, settings, runs)),
    familyBaselines: families.map((family) => baselineRow(family, settings, instances)),
    identicalSizes: settings.parts.includes("identical") ? identicalSizes(settings) : null,
    waves: settings.parts.includes("waves") ? waves(settings, runs) : null,
    scaling: settings.parts.includes("scaling") ? scaling(settings, runs) : null,
    runs,
    instances,
    notes,
  };
}
