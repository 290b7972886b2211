/**
 * The comparisons every ScheduleCkpt table of the papers gets (docs/science.md §4.5–§4.6),
 * whichever paper printed it: the printed share CTNYS / (CTNYS + RCTNYS), the instance's
 * Σ p against the stated p law, and the printed scheduling times, which no other program on
 * other hardware can recompute.
 */
import { compareWithPublished, type ReproductionRow } from "./reproduction";

/** Tolerance rationale of a published share against our seeded instances' shares. */
export const SHARE_TOLERANCE_RATIONALE = "2 sd of our instances' shares: the paper ran one unpublished instance";

/** Why our shares can differ from a published ScheduleCkpt share: the finding of the k0 investigation. */
export const FLAT_IN_K0 = "under the faithful reading our shares are flat in k0 where the published ones rise (pipeline/schedule/README.md, the k0 investigation)";

/** A share as the rows print it: four decimals. */
export function shareOf(value: number): { paper: number; printed: string } {
  const printed = value.toFixed(4);
  return { paper: Number(printed), printed };
}

/**
 * Σ p of an instance whose rows all ran it (CTNYS + RCTNYS = Σ p, docs/science.md §4.1): the sum
 * most of its rows print (the smallest on a tie), so that one misprinted row stands out.
 */
export function instanceTotalP(sums: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const sum of sums) counts.set(sum, (counts.get(sum) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0]![0];
}

/** Mean and standard deviation of Σ p for n integers drawn uniformly in [pMinS, pMaxS]. */
export function totalPUnderLaw(n: number, pMinS: number, pMaxS: number): { mean: number; sd: number } {
  return { mean: (n * (pMinS + pMaxS)) / 2, sd: Math.sqrt((n * ((pMaxS - pMinS + 1) ** 2 - 1)) / 12) };
}

/** True when Σ p lies more than 3 sd from what the stated law makes likely. */
export function offLaw(totalP: number, n: number, pMinS: number, pMaxS: number): boolean {
  const { mean, sd } = totalPUnderLaw(n, pMinS, pMaxS);
  return Math.abs(totalP - mean) > 3 * sd;
}

/**
 * Σ p of a published instance against the stated p law (integers uniform in [pMin, pMax]):
 * `close` within 3 standard deviations of the sum, where a draw from the law almost surely
 * falls; further out, the instance was evidently not drawn from that law.
 */
export function totalPRow(id: string, what: string, source: string, printedTotal: number, n: number, pMinS: number, pMaxS: number): ReproductionRow {
  const { mean, sd } = totalPUnderLaw(n, pMinS, pMaxS);
  return compareWithPublished({
    id,
    quantity: `${what}: Σ p of the published instance, against the stated law (n = ${n}, p uniform in [${pMinS}, ${pMaxS}] s)`,
    source,
    paper: printedTotal,
    ours: mean,
    unit: "s",
    how: `expected Σ p of n draws from the stated law, n·(min + max)/2 (sd ${Math.round(sd)} s)`,
    tolerance: { absolute: 3 * sd, rationale: "3 sd of Σ p under the stated law" },
    whenDiffers: `${Math.abs((printedTotal - mean) / sd).toFixed(1)} sd from the stated law's mean: the instance was not drawn from it (mean p ${Math.round(printedTotal / n)} s); shares depend on the p law, so compare trends`,
  });
}

/** A printed scheduling time: not recomputable (another program on another machine); ours are measured elsewhere in the report. */
export function schedulerTimeRow(id: string, label: string, source: string, paperMicros: number, why: string, printed?: string): ReproductionRow {
  return compareWithPublished({
    id,
    quantity: `${label}: scheduling time`,
    source,
    paper: paperMicros,
    ...(printed !== undefined ? { printed } : {}),
    ours: null,
    unit: "µs",
    how: "our scheduler times are in the schedule section (measured, so kept out of this table)",
    notRecomputable: why,
  });
}
