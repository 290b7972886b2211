/**
 * Synthetic checkpoint campaigns of clusters unlike Azur, in the canonical trace format:
 * for recalibration tests and demonstrations of the bandwidth model on shapes the papers'
 * quadratic was not built for. They are NOT measured data; every row says so in its
 * `cluster` column (the shape's name ends in "-synthetic").
 *
 * Each shape is a stated generating curve B(m, v) (aggregated bandwidth, MB/s, of m
 * processes of size v MB) over a grid of sizes and m; the campaign is the same as
 * `ckpt synth`'s for Azur (pipeline/ingest/synthetic-azur.ts): `repetitions` runs per
 * (m, v), the run's bandwidth B · exp(σ Z) with σ = 4 %, shared between its processes up to
 * a factor exp(2 % Z) each, BLCR-sized images, 20 ms launch jitter and 2 s between runs.
 *
 * - `collapse` ("small-nfs-synthetic"): a small NFS server that one writer already
 *   saturates; concurrent writers only add seeks and lock traffic, so the aggregate is
 *   highest at m = 1 and falls: B = b₁(v) · exp(−0.22 (m − 1)), b₁ from 70 MB/s (32 MB) to
 *   55 MB/s (512 MB), m = 1..6, v ∈ {32, 64, 128, 256, 512} MB. Every size series peaks
 *   at m = 1, so the papers' "points up to the peak" rule leaves one m per size.
 * - `saturate` ("pfs-synthetic"): a parallel file system that each writer can feed at
 *   r = 110 MB/s up to a plateau of 950 MB/s, slightly lower for very large totals:
 *   B = 950 · (1 − exp(−m·r / 950)) · (1 − 0.03 · V / 65.536 GB), m ∈ {1, 2, 4, 8, 12, 16,
 *   24, 32}, v ∈ {64, 256, 512, 1024, 2048} MB: up to 32 writers and V = 65.5 GB.
 * - `link-flat` ("hpc16-synthetic"): 16 nodes behind Gigabit Ethernet writing to one NFS
 *   server near 800 MB/s. Each writer is held to its link, 112 MB/s of payload, after a
 *   50 ms start per checkpoint (open, fsync): r(v) = v / (0.05 s + v/112); the server takes
 *   the first 8 GB into its write-back cache at 850 MB/s and the rest at its disks' 720 MB/s:
 *   C(V) = V / (min(V, 8)/850 + max(0, V − 8)/720). B = min(m·r(v), C(V)): linear in m up to
 *   the link-limited corner near m = 8, then flat (a hard corner, no collapse), m = 1..16,
 *   v ∈ {64, 256, 1024, 2048} MB.
 *
 * Deterministic: the same options give a byte-identical file.
 */
import { createRandom, type Random } from "../shared/random";
import { SYNTHETIC_HEADER, syntheticRowToCsv, type SyntheticRow } from "./synthetic-azur";

export type ClusterShapeName = "collapse" | "saturate" | "link-flat";

export interface ClusterShape {
  /** Prefix of the node names. */
  name: string;
  /** The `cluster` column of every row. */
  cluster: string;
  sizesMb: readonly number[];
  mValues: readonly number[];
  /** The generating curve, MB/s, without noise. */
  bandwidthMbPerS(m: number, sizeMb: number): number;
}

const collapseSingleProcess = (sizeMb: number) => 70 - (15 * Math.log2(sizeMb / 32)) / 4;
/** link-flat: a writer's rate over Gigabit Ethernet after a 50 ms start, MB/s. */
const linkRate = (sizeMb: number) => sizeMb / (0.05 + sizeMb / 112);
/** link-flat: the server, 8 GB of write-back cache at 850 MB/s, then disks at 720 MB/s. */
const serverCapacity = (vGb: number) => vGb / (Math.min(vGb, 8) / 850 + Math.max(0, vGb - 8) / 720);

export const CLUSTER_SHAPES: Record<ClusterShapeName, ClusterShape> = {
  collapse: {
    name: "collapse",
    cluster: "small-nfs-synthetic",
    sizesMb: [32, 64, 128, 256, 512],
    mValues: [1, 2, 3, 4, 5, 6],
    bandwidthMbPerS: (m, sizeMb) => collapseSingleProcess(sizeMb) * Math.exp(-0.22 * (m - 1)),
  },
  saturate: {
    name: "saturate",
    cluster: "pfs-synthetic",
    sizesMb: [64, 256, 512, 1024, 2048],
    mValues: [1, 2, 4, 8, 12, 16, 24, 32],
    bandwidthMbPerS: (m, sizeMb) => 950 * (1 - Math.exp((-m * 110) / 950)) * (1 - (0.03 * (m * sizeMb)) / 65536),
  },
  "link-flat": {
    name: "hpc16",
    cluster: "hpc16-synthetic",
    sizesMb: [64, 256, 1024, 2048],
    mValues: Array.from({ length: 16 }, (_, i) => i + 1),
    bandwidthMbPerS: (m, sizeMb) => Math.min(m * linkRate(sizeMb), serverCapacity((m * sizeMb) / 1000)),
  },
};

export const CLUSTER_SHAPE_NAMES = Object.keys(CLUSTER_SHAPES) as ClusterShapeName[];

export interface SyntheticClusterOptions {
  /** A named shape, or one of your own (any curve, sizes and m). */
  shape: ClusterShapeName | ClusterShape;
  seed: number;
  repetitions: number;
}

const RUN_NOISE = 0.04;
const SHARE_NOISE = 0.02;
const LAUNCH_JITTER_S = 0.02;
const PAUSE_BETWEEN_RUNS_S = 2;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The rows of the campaign, in file order (columns of `SYNTHETIC_HEADER`). */
export function* syntheticClusterRows(options: SyntheticClusterOptions): Generator<SyntheticRow, void, undefined> {
  const shape = typeof options.shape === "string" ? CLUSTER_SHAPES[options.shape] : options.shape;
  if (shape === undefined) throw new RangeError(`unknown cluster shape "${String(options.shape)}"; known: ${CLUSTER_SHAPE_NAMES.join(", ")}`);
  const { seed, repetitions } = options;
  if (!Number.isInteger(repetitions) || repetitions < 1) throw new RangeError(`repetitions must be an integer ≥ 1, got ${repetitions}`);
  const random = createRandom(seed);
  const clock = { now: 0 };
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  const sizeWidth = String(Math.max(...shape.sizesMb)).length;
  const mWidth = String(Math.max(...shape.mValues)).length;
  const repWidth = String(repetitions).length;
  for (const sizeMb of shape.sizesMb) {
    for (const m of shape.mValues) {
      for (let r = 1; r <= repetitions; r++) {
        const runId = `v${pad(sizeMb, sizeWidth)}-m${pad(m, mWidth)}-r${pad(r, repWidth)}`;
        yield* run(random, clock, shape, runId, m, sizeMb, r);
      }
    }
  }
}

function run(random: Random, clock: { now: number }, shape: ClusterShape, runId: string, m: number, sizeMb: number, repetition: number): SyntheticRow[] {
  const runBw = shape.bandwidthMbPerS(m, sizeMb) * Math.exp(RUN_NOISE * random.normal());
  const weights = Array.from({ length: m }, () => Math.exp(SHARE_NOISE * random.normal()));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const runStart = clock.now;
  let runEnd = runStart;
  const ckptMb = round3(sizeMb * (4100 / 4096) + 0.1);
  const rows = weights.map((weight, i): SyntheticRow => {
    const startS = round3(runStart + random.uniform(0, LAUNCH_JITTER_S));
    const endS = round3(startS + ckptMb / ((runBw * weight) / weightSum));
    runEnd = Math.max(runEnd, endS);
    return { runId, node: `${shape.name}-${i + 1}`, m, sizeMb, ckptMb, startS, endS, cluster: shape.cluster, dataset: "uniform", repetition };
  });
  clock.now = round3(runEnd + PAUSE_BETWEEN_RUNS_S);
  return rows;
}

/** The whole campaign as CSV text (header and a final newline). */
export function syntheticClusterCsv(options: SyntheticClusterOptions): string {
  return [SYNTHETIC_HEADER, ...[...syntheticClusterRows(options)].map(syntheticRowToCsv)].join("\n") + "\n";
}
