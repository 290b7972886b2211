/**
 * The published inputs of the bandwidth campaign (docs/science.md §3.1, §3.4), as data. The same
 * numbers are in `data/published/*.csv` (a test keeps the two in step).
 */

/** Peaks measured on Azur, [Y-thesis] Table 4.1: per application size v, (ī, bw_ī). */
export const TABLE_4_1_PEAKS: readonly { sizeMb: number; peakM: number; peakBwMbPerS: number }[] = [
  { sizeMb: 15, peakM: 18, peakBwMbPerS: 38.34 },
  { sizeMb: 46, peakM: 13, peakBwMbPerS: 37.44 },
  { sizeMb: 76, peakM: 11, peakBwMbPerS: 36.74 },
  { sizeMb: 114, peakM: 11, peakBwMbPerS: 36.52 },
  { sizeMb: 271, peakM: 10, peakBwMbPerS: 34.6 },
  { sizeMb: 414, peakM: 8, peakBwMbPerS: 29.84 },
  { sizeMb: 684, peakM: 5, peakBwMbPerS: 20.45 },
];

/**
 * The validation data sets of [Y11] Table 1 / [Y-thesis] Table 4.2: twelve application
 * sizes in MB (the first i of them are checkpointed together, i = 1..12) and the measured
 * peak (ī, bw_ī) of the resulting curve.
 */
export const VALIDATION_DATASETS: readonly {
  name: string;
  sizesMb: readonly number[];
  /** `bwPrinted`: the bandwidth as printed, where its digits are not those of the number ("31.20"). */
  measuredPeak: { m: number; bwMbPerS: number; bwPrinted?: string };
}[] = [
  { name: "D1", sizesMb: [105, 451, 135, 241, 329, 172, 211, 281, 117, 494, 113, 301], measuredPeak: { m: 9, bwMbPerS: 31.2, bwPrinted: "31.20" } },
  { name: "D2", sizesMb: [20, 390, 57, 129, 425, 13, 330, 19, 211, 120, 493, 312], measuredPeak: { m: 11, bwMbPerS: 34.03 } },
  { name: "D3", sizesMb: [412, 272, 320, 231, 455, 317, 401, 395, 429, 492, 201, 212], measuredPeak: { m: 8, bwMbPerS: 28.77 } },
];

/**
 * What one process alone achieved on that hardware, MB/s: "≈ 5.3–6 MB/s" (docs/science.md §4.5,
 * [Y-thesis] Table 7.2 discussion).
 */
export const SINGLE_PROCESS_BW_RANGE_MB_PER_S = { low: 5.3, high: 6 } as const;
