/**
 * A synthetic Azur-like checkpoint campaign in the canonical trace format: what the
 * [Y-thesis] ch. 4 campaign would have recorded, generated from a stated curve with seeded
 * noise, for tests, benchmarks and demonstrations. It is NOT measured data.
 *
 * Campaign (docs/science.md §3.1): for every size v of [Y-thesis] Table 4.1 and m = 1..30, `repetitions`
 * runs checkpointing m processes of size v together; then mixed-size validation runs for
 * D1–D3 (docs/science.md §3.4: the first i blocks of each data set, i = 1..12), `repetitions` each.
 *
 * Generating curve (decisions of this generator; the sources give only the peaks):
 * - mean aggregated bandwidth B(m, v̄), with v̄ the run's mean process size:
 *   - m ≤ ī: the parabola with its vertex at Table 4.1's peak (ī, bw_ī) that passes through
 *     (1, b₁): B = bw_ī − k (m − ī)², k = (bw_ī − b₁) / (ī − 1)² — concave, rising to the peak;
 *   - m > ī: the collapse, B = bw_ī · (ī / m)^γ with γ = 0.8: below the peak and falling;
 *   - b₁, what one process achieves alone: 6.0 MB/s for 15 MB falling linearly to 5.3 MB/s
 *     for 684 MB (docs/science.md §4.5: "≈ 5.3–6 MB/s on that hardware");
 *   - for a size between Table 4.1's, ī and bw_ī are interpolated linearly in ln v (and
 *     held constant outside [15, 684] MB); a mixed run uses its mean size v̄ = V / m.
 * - noise: each run's bandwidth is B · exp(σ Z), σ = 3 % up to the peak and 12 % after it
 *   (the collapse is noisier); the run's bandwidth is shared equally between its
 *   processes up to a factor exp(2 % Z) each (renormalised, so the run's sum is kept);
 * - a process writes ckpt_mb = size_mb · 4100/4096 + 0.1 (BLCR writes a 4-byte header per
 *   4 KiB page plus a little metadata, docs/science.md §3.1), starts within 20 ms of its run's start,
 *   and takes ckpt_mb / (its bandwidth) seconds. Runs follow each other with 2 s between.
 * Numbers are written with 3 decimals (sizes, MB, seconds from the campaign's start).
 * Deterministic: the same options give a byte-identical file.
 */
import { createRandom, type Random } from "../shared/random";
import type { ProcessCheckpoint } from "./observations";
import { SINGLE_PROCESS_BW_RANGE_MB_PER_S, TABLE_4_1_PEAKS, VALIDATION_DATASETS } from "./published-azur-data";

export interface SyntheticAzurOptions {
  seed: number;
  /** Runs per (m, v) and per (data set, i); [Y-thesis] had more than 100, the issue asks ≥ 20. */
  repetitions: number;
  /** Largest m of the uniform-size series (30 on Azur). */
  maxM?: number;
  /** Include the D1–D3 mixed-size validation runs (default true). */
  validation?: boolean;
}

/** A process checkpoint of the synthetic campaign, with its extra columns. */
export interface SyntheticRow extends ProcessCheckpoint {
  cluster: string;
  dataset: string;
  repetition: number;
}

export const SYNTHETIC_CLUSTER = "azur-synthetic";
export const SYNTHETIC_HEADER = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster,dataset,repetition";

/** The collapse exponent γ after the peak. */
const COLLAPSE_EXPONENT = 0.8;
const RUN_NOISE_UP_TO_PEAK = 0.03;
const RUN_NOISE_AFTER_PEAK = 0.12;
const SHARE_NOISE = 0.02;
const LAUNCH_JITTER_S = 0.02;
const PAUSE_BETWEEN_RUNS_S = 2;

/** b₁(v): one process alone, MB/s, linear in v over Table 4.1's sizes (clamped). */
export function singleProcessBandwidth(sizeMb: number): number {
  const smallest = TABLE_4_1_PEAKS[0]!.sizeMb;
  const largest = TABLE_4_1_PEAKS[TABLE_4_1_PEAKS.length - 1]!.sizeMb;
  const t = Math.min(1, Math.max(0, (sizeMb - smallest) / (largest - smallest)));
  return SINGLE_PROCESS_BW_RANGE_MB_PER_S.high + t * (SINGLE_PROCESS_BW_RANGE_MB_PER_S.low - SINGLE_PROCESS_BW_RANGE_MB_PER_S.high);
}

/** (ī, bw_ī) for size v: Table 4.1's, interpolated linearly in ln v between its sizes. */
export function interpolatedPeak(sizeMb: number): { m: number; bwMbPerS: number } {
  const table = TABLE_4_1_PEAKS;
  if (sizeMb <= table[0]!.sizeMb) return { m: table[0]!.peakM, bwMbPerS: table[0]!.peakBwMbPerS };
  for (let i = 1; i < table.length; i++) {
    const low = table[i - 1]!;
    const high = table[i]!;
    if (sizeMb <= high.sizeMb) {
      const t = (Math.log(sizeMb) - Math.log(low.sizeMb)) / (Math.log(high.sizeMb) - Math.log(low.sizeMb));
      return { m: low.peakM + t * (high.peakM - low.peakM), bwMbPerS: low.peakBwMbPerS + t * (high.peakBwMbPerS - low.peakBwMbPerS) };
    }
  }
  const last = table[table.length - 1]!;
  return { m: last.peakM, bwMbPerS: last.peakBwMbPerS };
}

/** The generating curve B(m, v̄) in MB/s, without noise. */
export function syntheticAzurBandwidth(m: number, meanSizeMb: number): number {
  const peak = interpolatedPeak(meanSizeMb);
  if (m > peak.m) return peak.bwMbPerS * Math.pow(peak.m / m, COLLAPSE_EXPONENT);
  const b1 = singleProcessBandwidth(meanSizeMb);
  const k = (peak.bwMbPerS - b1) / ((peak.m - 1) * (peak.m - 1));
  return peak.bwMbPerS - k * (m - peak.m) * (m - peak.m);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The rows of the campaign, in file order. */
export function* syntheticAzurRows(options: SyntheticAzurOptions): Generator<SyntheticRow, void, undefined> {
  const { seed, repetitions } = options;
  const maxM = options.maxM ?? 30;
  if (!Number.isInteger(repetitions) || repetitions < 1) throw new RangeError(`repetitions must be an integer ≥ 1, got ${repetitions}`);
  if (!Number.isInteger(maxM) || maxM < 1) throw new RangeError(`maxM must be an integer ≥ 1, got ${maxM}`);
  const random = createRandom(seed);
  const clock = { now: 0 };
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  const repWidth = String(repetitions).length;
  const mWidth = String(Math.max(maxM, 12)).length;

  for (const { sizeMb } of TABLE_4_1_PEAKS) {
    for (let m = 1; m <= maxM; m++) {
      for (let r = 1; r <= repetitions; r++) {
        const runId = `v${pad(sizeMb, 3)}-m${pad(m, mWidth)}-r${pad(r, repWidth)}`;
        yield* run(random, clock, runId, new Array<number>(m).fill(sizeMb), "uniform", r);
      }
    }
  }
  if (options.validation ?? true) {
    for (const dataset of VALIDATION_DATASETS) {
      for (let i = 1; i <= dataset.sizesMb.length; i++) {
        for (let r = 1; r <= repetitions; r++) {
          const runId = `${dataset.name}-i${pad(i, mWidth)}-r${pad(r, repWidth)}`;
          yield* run(random, clock, runId, dataset.sizesMb.slice(0, i), dataset.name, r);
        }
      }
    }
  }
}

/** One run's rows; advances the campaign clock. */
function run(random: Random, clock: { now: number }, runId: string, sizesMb: number[], dataset: string, repetition: number): SyntheticRow[] {
  const m = sizesMb.length;
  const meanSizeMb = sizesMb.reduce((a, b) => a + b, 0) / m;
  const sigma = m > interpolatedPeak(meanSizeMb).m ? RUN_NOISE_AFTER_PEAK : RUN_NOISE_UP_TO_PEAK;
  const runBw = syntheticAzurBandwidth(m, meanSizeMb) * Math.exp(sigma * random.normal());
  const weights = sizesMb.map(() => Math.exp(SHARE_NOISE * random.normal()));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const runStart = clock.now;
  let runEnd = runStart;
  const rows: SyntheticRow[] = sizesMb.map((sizeMb, i) => {
    const ckptMb = round3(sizeMb * (4100 / 4096) + 0.1);
    const startS = round3(runStart + random.uniform(0, LAUNCH_JITTER_S));
    const processBw = (runBw * weights[i]!) / weightSum;
    const endS = round3(startS + ckptMb / processBw);
    runEnd = Math.max(runEnd, endS);
    return { runId, node: `azur-${i + 1}`, m, sizeMb, ckptMb, startS, endS, cluster: SYNTHETIC_CLUSTER, dataset, repetition };
  });
  clock.now = round3(runEnd + PAUSE_BETWEEN_RUNS_S);
  return rows;
}

/** One row as a canonical CSV line (no line ending), columns as in `SYNTHETIC_HEADER`. */
export function syntheticRowToCsv(row: SyntheticRow): string {
  return `${row.runId},${row.node},${row.m},${row.sizeMb},${row.ckptMb.toFixed(3)},${row.startS.toFixed(3)},${row.endS.toFixed(3)},${row.cluster},${row.dataset},${row.repetition}`;
}
