/**
 * Accepted runs → `Observations`: the size series with their per-(m, v) statistics and
 * peaks, and the mixed-size runs kept for validation (docs/science.md §3.1, §3.4).
 *
 * A run belongs to the series of size v when all its processes have size v; per (m, v)
 * the runs' aggregated bandwidths are summarised by count, mean and sample standard
 * deviation (n − 1; 0 for a single run). A series' peak (ī, bw_ī) is the m with the largest
 * mean (the smallest such m on ties). With `groupBy` (run attributes such as `cluster`),
 * runs of different attribute values form different series: two clusters' curves are not
 * one curve.
 * Decision where the sources are silent: the mean and deviation are computed in two
 * passes over the runs (no running sums), in the order the runs were read, so the result
 * does not depend on anything but the data and its order.
 */
import type { Observations, RunObservation, SeriesPoint, SizeSeries } from "./observations";
import type { RunTable } from "./run-table";

export interface SummariseOptions {
  /** Run attributes whose values separate series (e.g. ["cluster"]). */
  groupBy?: readonly string[];
}

/** What the summary reads of the runs: objects (`summariseRuns`) or columns (`summariseRunTable`). */
interface RunsView {
  length: number;
  m(i: number): number;
  bwMbPerS(i: number): number;
  uniformSizeMb(i: number): number | null;
  attribute(i: number, name: string): string | undefined;
}

export function summariseRuns(runs: readonly RunObservation[], options: SummariseOptions = {}): Observations {
  const { series, validationRuns } = summarise(
    {
      length: runs.length,
      m: (i) => runs[i]!.m,
      bwMbPerS: (i) => runs[i]!.aggregatedBwMbPerS,
      uniformSizeMb: (i) => runs[i]!.uniformSizeMb,
      attribute: (i, name) => runs[i]!.attributes?.[name],
    },
    options,
  );
  const observations: Observations = { runs: [...runs], series, validationRuns: validationRuns.map((i) => runs[i]!) };
  if ((options.groupBy ?? []).length > 0) observations.groupBy = [...options.groupBy!];
  return observations;
}

/** The size series of a run table, and the indices of its validation (mixed-size) runs. */
export function summariseRunTable(table: RunTable, options: SummariseOptions = {}): { series: SizeSeries[]; validationRuns: number[] } {
  return summarise(
    {
      length: table.length,
      m: (i) => table.m[i]!,
      bwMbPerS: (i) => table.bwMbPerS[i]!,
      uniformSizeMb: (i) => table.uniformSize(i),
      attribute: (i, name) => table.attributes(i)?.[name],
    },
    options,
  );
}

function summarise(runs: RunsView, options: SummariseOptions): { series: SizeSeries[]; validationRuns: number[] } {
  const groupBy = options.groupBy ?? [];
  const groupOf = (i: number): Record<string, string | null> => Object.fromEntries(groupBy.map((name) => [name, runs.attribute(i, name) ?? null]));
  /** series key → { group, sizeMb, m → bandwidths } */
  const cells = new Map<string, { group: Record<string, string | null>; sizeMb: number; byM: Map<number, number[]> }>();
  const validationRuns: number[] = [];
  for (let i = 0; i < runs.length; i++) {
    const sizeMb = runs.uniformSizeMb(i);
    if (sizeMb === null) {
      validationRuns.push(i);
      continue;
    }
    const key = groupBy.length === 0 ? String(sizeMb) : `${JSON.stringify(groupBy.map((name) => runs.attribute(i, name) ?? null))}\u0000${sizeMb}`;
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = { group: groupOf(i), sizeMb, byM: new Map() };
      cells.set(key, cell);
    }
    const m = runs.m(i);
    let values = cell.byM.get(m);
    if (values === undefined) cell.byM.set(m, (values = []));
    values.push(runs.bwMbPerS(i));
  }
  const series: SizeSeries[] = [];
  for (const cell of cells.values()) {
    const points: SeriesPoint[] = [...cell.byM.entries()]
      .sort(([a], [b]) => a - b)
      .map(([m, values]) => {
        const { mean, sd } = meanAndSampleSd(values);
        return { sizeMb: cell.sizeMb, m, vGb: (m * cell.sizeMb) / 1000, count: values.length, meanBwMbPerS: mean, sdBwMbPerS: sd };
      });
    let peak = points[0]!;
    for (const point of points) if (point.meanBwMbPerS > peak.meanBwMbPerS) peak = point;
    const entry: SizeSeries = { sizeMb: cell.sizeMb, points, peak: { m: peak.m, bwMbPerS: peak.meanBwMbPerS } };
    if (groupBy.length > 0) entry.group = cell.group;
    series.push(entry);
  }
  series.sort((a, b) => compareGroups(a.group, b.group, groupBy) || a.sizeMb - b.sizeMb);
  return { series, validationRuns };
}
function compareGroups(
  a: Record<string, string | null> | undefined,
  b: Record<string, string | null> | undefined,
  groupBy: readonly string[],
): number {
  for (const name of groupBy) {
    const x = a?.[name] ?? "";
    const y = b?.[name] ?? "";
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Mean and sample standard deviation (n − 1), two passes; sd 0 for one value. Finite
 * bandwidths near the top of the doubles overflow the sum or the squares: those are
 * computed again on the values divided by the largest of them (every other input gives
 * the plain computation's bits).
 */
export function meanAndSampleSd(values: readonly number[]): { mean: number; sd: number } {
  const plain = plainMeanAndSampleSd(values);
  if (Number.isFinite(plain.mean) && Number.isFinite(plain.sd)) return plain;
  let scale = 0;
  for (const v of values) scale = Math.max(scale, Math.abs(v));
  const scaled = plainMeanAndSampleSd(values.map((v) => v / scale));
  return { mean: scaled.mean * scale, sd: scaled.sd * scale };
}

function plainMeanAndSampleSd(values: readonly number[]): { mean: number; sd: number } {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  if (values.length < 2) return { mean, sd: 0 };
  let squares = 0;
  for (const v of values) squares += (v - mean) * (v - mean);
  return { mean, sd: Math.sqrt(squares / (values.length - 1)) };
}
