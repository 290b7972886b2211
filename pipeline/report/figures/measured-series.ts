/**
 * Plain rows from ingest's observations for the figures: the uniform-size series (one
 * label per curve) and the mixed-size data-set runs averaged per number of blocks.
 */
import type { Observations, SizeSeries } from "../../ingest/observations";
import { displayText } from "../../shared/display-text";

export interface LabelledSeries {
  /** The legend label: the size in MB, plus the group's values when sizes repeat across groups. */
  label: string;
  series: SizeSeries;
}

/** Series with at least two points (a curve), labelled; sorted by size. */
export function measuredSeries(observations: Observations): LabelledSeries[] {
  const curves = observations.series.filter((s) => s.points.length >= 2);
  const sizes = curves.map((s) => s.sizeMb);
  return curves
    .map((series) => {
      const repeated = sizes.filter((size) => size === series.sizeMb).length > 1;
      const group = series.group ? displayText(Object.values(series.group).filter((v) => v !== null).join(", ")) : "";
      return { label: repeated && group ? `${series.sizeMb} (${group})` : String(series.sizeMb), series };
    })
    .sort((a, b) => a.series.sizeMb - b.series.sizeMb || (a.label < b.label ? -1 : 1));
}

export interface DatasetPoint {
  dataset: string;
  m: number;
  vGb: number;
  meanBwMbPerS: number;
  sdBwMbPerS: number;
  count: number;
}

/**
 * Runs tagged with a data set (a `dataset` run attribute, e.g. D1), averaged per m: the
 * measured curve of checkpointing its first i blocks (docs/science.md §3.4). Runs of the data set's
 * first block alone have one size and count too.
 */
export function datasetPoints(observations: Observations, datasets: readonly string[]): DatasetPoint[] {
  const cells = new Map<string, { dataset: string; m: number; vGb: number; values: number[] }>();
  for (const run of observations.runs) {
    const dataset = run.attributes?.dataset;
    if (dataset === undefined || !datasets.includes(dataset)) continue;
    const key = `${dataset}\u0000${run.m}`;
    let cell = cells.get(key);
    if (cell === undefined) cells.set(key, (cell = { dataset, m: run.m, vGb: run.vGb, values: [] }));
    cell.values.push(run.aggregatedBwMbPerS);
  }
  return [...cells.values()]
    .sort((a, b) => datasets.indexOf(a.dataset) - datasets.indexOf(b.dataset) || a.m - b.m)
    .map((cell) => {
      const n = cell.values.length;
      const mean = cell.values.reduce((s, v) => s + v, 0) / n;
      const sd = n > 1 ? Math.sqrt(cell.values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1)) : 0;
      return { dataset: cell.dataset, m: cell.m, vGb: cell.vGb, meanBwMbPerS: mean, sdBwMbPerS: sd, count: n };
    });
}
