/**
 * Numbers published by the papers that the report compares with, each with its source
 * (papers named as in SPEC.md). Nothing here is computed: these are the "paper" column of
 * the reproduction table and the reference marks of the figures.
 */

/** A measured peak (ī, bw_ī) of a bandwidth curve. */
export interface PublishedPeak {
  m: number;
  bwMbPerS: number;
}

export interface PublishedSizePeak extends PublishedPeak {
  sizeMb: number;
}

/** [Y-thesis] Table 4.1: peaks measured on the Grid5000 Azur cluster (the fit's input). */
export const TABLE_4_1_PEAKS: readonly PublishedSizePeak[] = [
  { sizeMb: 15, m: 18, bwMbPerS: 38.34 },
  { sizeMb: 46, m: 13, bwMbPerS: 37.44 },
  { sizeMb: 76, m: 11, bwMbPerS: 36.74 },
  { sizeMb: 114, m: 11, bwMbPerS: 36.52 },
  { sizeMb: 271, m: 10, bwMbPerS: 34.6 },
  { sizeMb: 414, m: 8, bwMbPerS: 29.84 },
  { sizeMb: 684, m: 5, bwMbPerS: 20.45 },
];
export const TABLE_4_1_SOURCE = "[Y-thesis] Table 4.1";

export interface PublishedDataset {
  name: string;
  /** Application sizes in MB, checkpointed as the first i blocks for i = 1..12. */
  sizesMb: readonly number[];
  measuredPeak: PublishedPeak;
}

/** [Y11] Table 1 / [Y-thesis] Table 4.2: the validation data sets and their measured peaks. */
export const VALIDATION_DATASETS: readonly PublishedDataset[] = [
  { name: "D1", sizesMb: [105, 451, 135, 241, 329, 172, 211, 281, 117, 494, 113, 301], measuredPeak: { m: 9, bwMbPerS: 31.2 } },
  { name: "D2", sizesMb: [20, 390, 57, 129, 425, 13, 330, 19, 211, 120, 493, 312], measuredPeak: { m: 11, bwMbPerS: 34.03 } },
  { name: "D3", sizesMb: [412, 272, 320, 231, 455, 317, 401, 395, 429, 492, 201, 212], measuredPeak: { m: 8, bwMbPerS: 28.77 } },
];
export const VALIDATION_DATASETS_SOURCE = "[Y11] Table 1, [Y-thesis] Table 4.2";

/** [Y-thesis] §4: the fit's mean absolute percentage error on its raw (unpublished) measurements. */
export const PUBLISHED_E_GLOBAL_PERCENT = 4.02;
export const PUBLISHED_E_GLOBAL_SOURCE = "[Y-thesis] ch. 4 (E_global)";

/** The measurement campaign's range of m ([Y-thesis] ch. 4: n = 1..30 nodes). */
export const CAMPAIGN_M_MAX = 30;
