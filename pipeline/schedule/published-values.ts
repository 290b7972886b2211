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
  /** CTNYS / (CTNYS + RCTNYS) as printed. */
  printedShare: number;
  /** CTNYS / Σ p of the published instance (`publishedFamilyTotalP`): the printed share, corrected where the print is wrong. */
  share: number;
  schedulerMicros: number;
  source: string;
  /** Set where the printed CTNYS + RCTNYS is not the instance's Σ p: the evidence. */
  note?: string;
}

const SOURCE = "[Y11] Tables 4–9 (docs/science.md §4.5)";

/** [Y11]'s table per family and criterion: Tables 4–9 in that order (A p, A density, B p, …). */
export function publishedTableOf(family: FamilyName, criterion: Criterion): string {
  return `Table ${4 + 2 * ["A", "B", "C"].indexOf(family) + (criterion === "p" ? 0 : 1)}`;
}

/** docs/science.md §4.5 table as printed: family, criterion, k0, CTNYS, RCTNYS, scheduling time (µs). */
const PRINTED: readonly [FamilyName, Criterion, number, number, number, number][] = [
  ["A", "p", 0, 4842, 5362, 28], ["A", "p", 1, 6218, 3996, 1834], ["A", "p", 2, 6833, 3371, 20776],
  ["A", "density", 0, 5021, 5183, 31], ["A", "density", 1, 6947, 6947, 2565], ["A", "density", 2, 7135, 7135, 21090],
  ["B", "p", 0, 17340, 12207, 87], ["B", "p", 1, 21633, 7914, 6350], ["B", "p", 2, 24260, 5287, 72542],
  ["B", "density", 0, 19200, 10347, 145], ["B", "density", 1, 22985, 6562, 5478], ["B", "density", 2, 27103, 2444, 65983],
  ["C", "p", 0, 15895, 26901, 169], ["C", "p", 1, 24454, 18342, 52503], ["C", "p", 2, 26900, 15896, 269430],
  ["C", "density", 0, 18952, 23844, 232], ["C", "density", 1, 25677, 17119, 39862], ["C", "density", 2, 28734, 14062, 292110],
];

/**
 * Σ p of a family's published instance. Every row of a family ran the same instance, so
 * CTNYS + RCTNYS = Σ p (docs/science.md §4.1) is the same in all of them; it is the value most
 * of them print (A: 10204 in three of six rows, B and C: all six).
 */
export function publishedFamilyTotalP(family: FamilyName): number {
  const sums = PRINTED.filter(([f]) => f === family).map(([, , , ctnys, rctnys]) => ctnys + rctnys);
  const counts = new Map<number, number>();
  for (const sum of sums) counts.set(sum, (counts.get(sum) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0]![0];
}

function row([family, criterion, k0, ctnys, rctnys, schedulerMicros]: (typeof PRINTED)[number]): PublishedFamilyResult {
  const totalP = publishedFamilyTotalP(family);
  const printedSum = ctnys + rctnys;
  const copy = rctnys === ctnys;
  const note =
    printedSum === totalP
      ? undefined
      : copy
        ? `[Y11] ${publishedTableOf(family, criterion)} prints RCTNYS = CTNYS (a copy error, docs/science.md §4.5): with the family's Σ p = ${totalP} (CTNYS + RCTNYS of its other rows) RCTNYS is ${totalP - ctnys}`
        : `[Y11] ${publishedTableOf(family, criterion)} prints CTNYS + RCTNYS = ${printedSum}, not the family's Σ p = ${totalP} (CTNYS + RCTNYS of its other rows; the same instance ran in all): one of the two is off by ${printedSum - totalP}`;
  return {
    family, criterion, k0, ctnys, rctnys, schedulerMicros, source: SOURCE,
    printedShare: ctnys / printedSum,
    share: ctnys / totalP,
    ...(note !== undefined ? { note } : {}),
  };
}

/** docs/science.md §4.5 table: CTNYS / RCTNYS / scheduling time (µs) per family, criterion and k0. */
export const PUBLISHED_FAMILY_RESULTS: readonly PublishedFamilyResult[] = PRINTED.map(row);

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
