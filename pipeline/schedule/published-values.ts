/**
 * ScheduleCkpt results published by the papers (docs/science.md §4.5–§4.6), to print next to ours.
 * Nothing here is computed except the shares, CTNYS / (CTNYS + RCTNYS). The instances
 * behind the numbers are not published, so comparisons are of shares and trends, over
 * many seeds of our own instances.
 */
import type { Criterion } from "./criterion-order";
import type { FamilyName } from "./instance-families";

export interface PublishedFamilyResult {
  family: FamilyName;
  criterion: Criterion;
  k0: number;
  ctnys: number;
  /** As printed (see `note` where the print is wrong). */
  rctnys: number;
  /** CTNYS / Σ p of the published instance. */
  share: number;
  schedulerMicros: number;
  source: string;
  note?: string;
}

const SOURCE = "[Y11] Tables 4–9 (docs/science.md §4.5)";
/** Family A's Σ p, from its criterion-p rows (4842 + 5362 = 6833 + 3371 = 10204). */
const FAMILY_A_TOTAL_P = 10204;
const COPY_ERROR =
  "[Y11] Table 5 prints RCTNYS = CTNYS (a copy error, docs/science.md §4.5); the share uses the family's Σp ≈ 10204 (RCTNYS ≈ " ;

function row(family: FamilyName, criterion: Criterion, k0: number, ctnys: number, rctnys: number, schedulerMicros: number): PublishedFamilyResult {
  const copyError = family === "A" && criterion === "density" && k0 > 0;
  return {
    family, criterion, k0, ctnys, rctnys, schedulerMicros, source: SOURCE,
    share: copyError ? ctnys / FAMILY_A_TOTAL_P : ctnys / (ctnys + rctnys),
    ...(copyError ? { note: `${COPY_ERROR}${FAMILY_A_TOTAL_P - ctnys})` } : {}),
  };
}

/** docs/science.md §4.5 table: CTNYS / RCTNYS / scheduling time (µs) per family, criterion and k0. */
export const PUBLISHED_FAMILY_RESULTS: readonly PublishedFamilyResult[] = [
  row("A", "p", 0, 4842, 5362, 28), row("A", "p", 1, 6218, 3996, 1834), row("A", "p", 2, 6833, 3371, 20776),
  row("A", "density", 0, 5021, 5183, 31), row("A", "density", 1, 6947, 6947, 2565), row("A", "density", 2, 7135, 7135, 21090),
  row("B", "p", 0, 17340, 12207, 87), row("B", "p", 1, 21633, 7914, 6350), row("B", "p", 2, 24260, 5287, 72542),
  row("B", "density", 0, 19200, 10347, 145), row("B", "density", 1, 22985, 6562, 5478), row("B", "density", 2, 27103, 2444, 65983),
  row("C", "p", 0, 15895, 26901, 169), row("C", "p", 1, 24454, 18342, 52503), row("C", "p", 2, 26900, 15896, 269430),
  row("C", "density", 0, 18952, 23844, 232), row("C", "density", 1, 25677, 17119, 39862), row("C", "density", 2, 28734, 14062, 292110),
];

export function publishedFamilyResult(family: FamilyName, criterion: Criterion, k0: number): PublishedFamilyResult | null {
  return PUBLISHED_FAMILY_RESULTS.find((r) => r.family === family && r.criterion === criterion && r.k0 === k0) ?? null;
}

/**
 * [Y-thesis] Table 7.2 / [Y11] Table 3 (docs/science.md §4.5): identical sizes, sequential greedy,
 * *measured* on the cluster (a single process reached only ≈ 5.3–6 MB/s there, well below
 * what the fitted quadratic predicts at m = 1).
 */
export const PUBLISHED_IDENTICAL_SIZES: readonly { sizeMb: number; checkpointed: number; ctnys: number }[] = [
  { sizeMb: 10, checkpointed: 50, ctnys: 2525 },
  { sizeMb: 50, checkpointed: 50, ctnys: 2525 },
  { sizeMb: 100, checkpointed: 16, ctnys: 1080 },
  { sizeMb: 200, checkpointed: 8, ctnys: 572 },
  { sizeMb: 400, checkpointed: 4, ctnys: 297 },
];
export const PUBLISHED_IDENTICAL_SIZES_SOURCE = "[Y-thesis] Table 7.2, [Y11] Table 3 (measured, sequential greedy)";

/** [Y-thesis] §6.4 (docs/science.md §4.6): 25 nodes × 4 applications by waves, T = 600 s, k0 = 2. */
export const PUBLISHED_WAVES: readonly { criterion: Criterion; ctnys: number; rctnys: number; share: number; schedulerMicros: number }[] = [
  { criterion: "p", ctnys: 27084, rctnys: 13132, share: 27084 / (27084 + 13132), schedulerMicros: 92104 },
  { criterion: "density", ctnys: 29217, rctnys: 10999, share: 29217 / (29217 + 10999), schedulerMicros: 97589 },
];
export const PUBLISHED_WAVES_SOURCE = "[Y-thesis] §6.4";
