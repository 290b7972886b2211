/**
 * The data the ingest stage hands to the fit stage (docs/science.md §3.1).
 *
 * One parallel checkpoint *run* checkpoints `m` processes together; each process writes
 * `ckptMb` in `endS − startS` seconds. A run's aggregated bandwidth is the sum of its
 * processes' bandwidths, its `V` the sum of their sizes in GB (MB / 1000). Runs whose
 * processes all have one size `v` form the size series of `v`; per (m, v) the runs are
 * summarised by count, mean and standard deviation, and each series has a peak (ī, bw_ī).
 * Runs of mixed sizes are validation points (the D1–D3 experiments of docs/science.md §3.4).
 */

/** One process's checkpoint, as read from a trace (canonical CSV or host logs). */
export interface ProcessCheckpoint {
  runId: string;
  node: string;
  m: number;
  sizeMb: number;
  ckptMb: number;
  startS: number;
  endS: number;
}

/** One parallel checkpoint run, aggregated. */
export interface RunObservation {
  runId: string;
  m: number;
  /** Σ size_mb / 1000. */
  vGb: number;
  /** Σ ckpt_mb / (end_s − start_s) over the run's processes. */
  aggregatedBwMbPerS: number;
  /** The processes' common size, or null when the run mixes sizes. */
  uniformSizeMb: number | null;
  /** The file (canonical) or run directory (host logs) the run was read from. */
  source?: string;
  /**
   * Extra columns (e.g. `cluster`, `repetition`) whose value is the same for every process
   * of the run; a column whose value varies within the run is left out.
   */
  attributes?: Record<string, string>;
}

/** The runs of one (m, v) cell of a size series. */
export interface SeriesPoint {
  sizeMb: number;
  m: number;
  /** m · v / 1000. */
  vGb: number;
  count: number;
  meanBwMbPerS: number;
  /** Sample standard deviation (n − 1); 0 for a single run. */
  sdBwMbPerS: number;
}

/** All (m, v) cells of one application size v, by increasing m, with the curve's peak. */
export interface SizeSeries {
  sizeMb: number;
  /**
   * Present when series are grouped by run attributes (`groupBy`): the attribute values of
   * this series' runs (null for runs without the attribute). Series of different groups
   * are separate curves, each with its own peak.
   */
  group?: Record<string, string | null>;
  points: SeriesPoint[];
  /** (ī, bw_ī): the m with the largest mean bandwidth (the first such m on ties). */
  peak: { m: number; bwMbPerS: number };
}

export interface Observations {
  /** Every accepted run (uniform and mixed sizes), in order of first appearance. */
  runs: RunObservation[];
  /** Size series from the uniform-size runs, by increasing size. */
  series: SizeSeries[];
  /** Runs of mixed sizes, kept for validation. */
  validationRuns: RunObservation[];
  /** The run attributes the series are grouped by, when any. */
  groupBy?: string[];
}

/**
 * Columns every canonical trace CSV has, named in its header (in any order; other columns
 * are kept as run attributes).
 */
export const CANONICAL_COLUMNS = ["run_id", "node", "m", "size_mb", "ckpt_mb", "start_s", "end_s"] as const;
