/**
 * [Y-thesis] Tables 7.1 and 7.2 ([Y11] Tables 2 and 3 print the same cells; docs/science.md
 * §4.5): n = 50 applications of one size, p = 26…75 s, T = 300 s, run on the cluster.
 *
 * - Table 7.1, ScheduleCkpt (k0 = 0, criterion p): ours is ScheduleCkpt with the published
 *   model on the same instance, which is deterministic, so only equality is a `match`.
 * - Table 7.2, sequential greedy in decreasing p: the thesis ran it on the cluster, so ours
 *   is sequential greedy at the rate one process was measured at in Table 4.3 (BLCR 0.4.2,
 *   `measured-single-process-rate.ts`); where Table 4.3 did not measure the size, that rate is
 *   interpolated, and the row is at best `close`, within what the two measured rates around
 *   it give. The printed CTNYS must be the Σ of the k largest p for the printed count k, and
 *   RCTNYS the Σ of the others: otherwise an `erratum`.
 */
import { sizeSeriesCurve } from "./size-series-curve";
import type { BandwidthModel } from "../fit";
import { IDENTICAL_SIZE_CAMPAIGN, identicalSizeInstance, resolveScheduleOptions, scheduleCkpt, sequentialAtRate, sequentialGreedy } from "../schedule";
import { measuredSingleProcessRate, type MeasuredRate } from "./measured-single-process-rate";
import { CAMPAIGN_M_MAX } from "./published-values";
import { printedNumber, type PublishedRow, type PublishedTable, type PublishedTables } from "./published-tables";
import { cite, compareWithPublished, type ReproductionRow, type Tolerance } from "./reproduction";

export function identicalSizeRows(model: BandwidthModel, published: PublishedTables, modelLabel: string): ReproductionRow[] {
  return [...scheduleCkptRows(model, published.table71, modelLabel), ...sequentialGreedyRows(model, published, modelLabel)];
}

const { n, deadlineS, firstPS } = IDENTICAL_SIZE_CAMPAIGN;
const INSTANCE = `n = ${n}, p = ${firstPS}…${firstPS + n - 1} s, T = ${deadlineS} s`;

function scheduleCkptRows(model: BandwidthModel, table: PublishedTable, modelLabel: string): ReproductionRow[] {
  const rows: ReproductionRow[] = [];
  for (const row of table.rows) {
    const sizeMb = printedNumber(table, row, "app_size_mb").paper;
    const apps = identicalSizeInstance(sizeMb);
    const totalP = apps.reduce((a, app) => a + app.pS, 0);
    const outcome = scheduleCkpt(apps, resolveScheduleOptions({ model, deadlineS, k0: 0, criterion: "p", record: false }));
    const where = (column: string) => `${cite("[Y-thesis]", "Table 7.1", `${sizeMb} MB`, column)}; ${cite("[Y11]", "Table 2")}`;
    const printedCount = printedNumber(table, row, "n_checkpointed");
    const how = `ScheduleCkpt (k0 = 0, criterion p, static estimator) with the ${modelLabel}, ${INSTANCE}`;
    const whenDiffers = throughputReason(model, sizeMb, printedCount.paper, modelLabel);
    const label = `identical sizes, ${sizeMb} MB, ScheduleCkpt (k0 = 0)`;
    rows.push(
      compareWithPublished({ id: `table-7.1/${sizeMb}MB/checkpointed`, quantity: `${label}: applications checkpointed`, source: where("nb ckpt"), ...printedCount, ours: outcome.checkpointed.length, unit: "count", how, whenDiffers }),
      compareWithPublished({ id: `table-7.1/${sizeMb}MB/ctnys`, quantity: `${label}: CTNYS`, source: where("CTNYS"), ...printedNumber(table, row, "ctnys_s"), ours: outcome.ctnys, unit: "s", how, whenDiffers }),
      compareWithPublished({
        id: `table-7.1/${sizeMb}MB/rctnys`,
        quantity: `${label}: RCTNYS = Σ p − CTNYS`,
        source: where("RCTNYS"),
        ...printedNumber(table, row, "rctnys_s"),
        ours: totalP - printedNumber(table, row, "ctnys_s").paper,
        unit: "s",
        how: `Σ p = ${totalP} s minus the row's CTNYS`,
        selfCheck: true,
      }),
    );
  }
  return rows;
}

/** Why a printed count can be out of the model's reach: the aggregate rate it needs against the model's best for that size. */
function throughputReason(model: BandwidthModel, sizeMb: number, count: number, modelLabel: string): string {
  const needed = (count * sizeMb) / deadlineS;
  const peak = sizeSeriesCurve(model, sizeMb, CAMPAIGN_M_MAX).peak;
  return (
    `${count} images of ${sizeMb} MB in ${deadlineS} s need ${needed.toFixed(2)} MB/s on average` +
    (needed > peak.bw ? `, above the ${modelLabel}'s best for ${sizeMb} MB images (${peak.bw.toFixed(2)} MB/s at m = ${peak.m}), so the platform of chapter 7 (BLCR 0.8.2, §7.1) checkpointed faster than the one the model was fitted on` : "")
  );
}

function sequentialGreedyRows(model: BandwidthModel, published: PublishedTables, modelLabel: string): ReproductionRow[] {
  const table = published.table72;
  const implied = impliedSingleProcessRates(table);
  const rows: ReproductionRow[] = [];
  for (const row of table.rows) {
    const sizeMb = printedNumber(table, row, "app_size_mb").paper;
    const apps = identicalSizeInstance(sizeMb);
    const ps = apps.map((a) => a.pS).sort((a, b) => b - a);
    const totalP = ps.reduce((a, b) => a + b, 0);
    const rate = measuredSingleProcessRate(published.table43, sizeMb);
    const run = (rateMbPerS: number) => sequentialAtRate(apps, rateMbPerS, deadlineS);
    const ours = run(rate.rateMbPerS);
    const atBelow = run(rate.below.rateMbPerS);
    const atAbove = run(rate.above.rateMbPerS);
    const byModel = sequentialGreedy(apps, resolveScheduleOptions({ model, deadlineS, record: false }));
    const where = (column: string) => `${cite("[Y-thesis]", "Table 7.2", `${sizeMb} MB`, column)}; ${cite("[Y11]", "Table 3")}`;
    const label = `identical sizes, ${sizeMb} MB: sequential greedy (measured)`;
    const how = (what: string, modelValue: number) =>
      `sequential greedy in decreasing p at ${ours.rateMbPerS.toFixed(2)} MB/s, ${rateText(rate)}, ${INSTANCE}; ` +
      `the ${modelLabel} (bw(1, s) for a lone checkpoint) gives ${modelValue} ${what}`;
    const spread = (pick: (o: typeof ours) => number): Partial<{ tolerance: Tolerance; approximate: string }> =>
      rate.measured
        ? {}
        : {
            approximate: `Table 4.3 did not measure ${sizeMb} MB: the rate is ${rate.below.sizeMb === rate.above.sizeMb ? "the nearest measured one" : "interpolated"}`,
            tolerance: {
              absolute: Math.max(Math.abs(pick(ours) - pick(atBelow)), Math.abs(pick(atAbove) - pick(ours))),
              rationale: `sequential greedy at the measured ${rate.below.rateMbPerS.toFixed(2)} and ${rate.above.rateMbPerS.toFixed(2)} MB/s gives ${pick(atBelow)} and ${pick(atAbove)}`,
            },
          };
    const count = printedNumber(table, row, "n_checkpointed");
    const ctnys = printedNumber(table, row, "ctnys_s");
    const whenDiffers = countGapReason(implied, sizeMb, rate);
    const best = ps.slice(0, count.paper).reduce((a, b) => a + b, 0);
    const lowest = `p = ${firstPS}…${firstPS + n - 1}`;
    rows.push(
      compareWithPublished({ id: `schedule/identical/${sizeMb}MB/checkpointed`, quantity: `${label}: applications checkpointed`, source: where("nb ckpt"), ...count, ours: ours.checkpointed, unit: "count", how: how("applications", byModel.checkpointed.length), ...spread((o) => o.checkpointed), whenDiffers }),
      compareWithPublished({
        id: `schedule/identical/${sizeMb}MB/ctnys`,
        quantity: `${label}: CTNYS`,
        source: where("CTNYS"),
        ...ctnys,
        ours: ours.ctnys,
        unit: "s",
        how: how("s of CTNYS", byModel.ctnys),
        ...spread((o) => o.ctnys),
        whenDiffers,
        ...(best !== ctnys.paper
          ? { erratum: { corrected: best, evidence: `sequential greedy takes the applications in decreasing p, so the printed ${count.paper} of ${lowest} save the ${count.paper} largest, ${best} s, and no ${count.paper} of them save ${ctnys.paper} s` } }
          : {}),
      }),
    );
    const rctnys = printedNumber(table, row, "rctnys_s");
    rows.push(
      compareWithPublished({
        id: `schedule/identical/${sizeMb}MB/rctnys`,
        quantity: `${label}: RCTNYS, Σ p of the applications left out`,
        source: where("RCTNYS"),
        ...rctnys,
        ours: totalP - best,
        unit: "s",
        how: `Σ p = ${totalP} s minus the ${count.paper} largest p (the printed count)`,
        selfCheck: true,
        ...(totalP - best !== rctnys.paper
          ? { erratum: { corrected: totalP - best, evidence: `the ${n - count.paper} applications left out have Σ p = ${totalP - best} s; the printed ${rctnys.paper} = ${totalP} − ${totalP - rctnys.paper}, the printed CTNYS` } }
          : {}),
      }),
    );
  }
  return rows;
}

function rateText(rate: MeasuredRate): string {
  const point = (p: MeasuredRate["below"]) => `${p.sizeMb} MB in ${p.timeS} s`;
  if (rate.measured) return `one application alone in [Y-thesis] Table 4.3 (BLCR 0.4.2: ${point(rate.below)})`;
  if (rate.below.sizeMb === rate.above.sizeMb) return `the nearest size one application alone was measured at in [Y-thesis] Table 4.3 (BLCR 0.4.2: ${point(rate.below)})`;
  return `interpolated between the sizes one application alone was measured at in [Y-thesis] Table 4.3 (BLCR 0.4.2: ${point(rate.below)}, ${point(rate.above)})`;
}

/**
 * The constant single-process rates under which sequential greedy checkpoints exactly the printed
 * count k of n images of s MB within T: k·s/T ≤ rate < (k + 1)·s/T (any rate ≥ n·s/T when k = n).
 */
export function impliedSingleProcessRates(table72: PublishedTable): { sizeMb: number; lowMbPerS: number; highMbPerS: number }[] {
  return table72.rows.map((row: PublishedRow) => {
    const sizeMb = printedNumber(table72, row, "app_size_mb").paper;
    const k = printedNumber(table72, row, "n_checkpointed").paper;
    return { sizeMb, lowMbPerS: (k * sizeMb) / deadlineS, highMbPerS: k >= n ? Infinity : ((k + 1) * sizeMb) / deadlineS };
  });
}

function countGapReason(rates: ReturnType<typeof impliedSingleProcessRates>, sizeMb: number, measured: MeasuredRate): string {
  const mine = rates.find((r) => r.sizeMb === sizeMb)!;
  const fastest = rates.reduce((a, b) => (b.lowMbPerS > a.lowMbPerS ? b : a));
  const slowest = rates.reduce((a, b) => (b.highMbPerS < a.highMbPerS ? b : a));
  const range = (r: (typeof rates)[number]) => (Number.isFinite(r.highMbPerS) ? `in [${r.lowMbPerS.toFixed(2)}, ${r.highMbPerS.toFixed(2)}) MB/s` : `≥ ${r.lowMbPerS.toFixed(2)} MB/s`);
  const oneRate = fastest.lowMbPerS < slowest.highMbPerS;
  return (
    `the printed count needs a single-process rate ${range(mine)} at ${sizeMb} MB, where Table 4.3 gives ${measured.rateMbPerS.toFixed(2)} MB/s` +
    (oneRate ? "" : `; no one rate gives all ${rates.length} printed counts (${fastest.sizeMb} MB needs ≥ ${fastest.lowMbPerS.toFixed(2)} MB/s, ${slowest.sizeMb} MB < ${slowest.highMbPerS.toFixed(2)} MB/s)`)
  );
}
