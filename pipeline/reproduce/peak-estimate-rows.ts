/**
 * [Y11] Table 1 / [Y-thesis] Table 4.2, estimated columns (docs/science.md §3.4): the peak
 * (ī, bw_ī) of each data set's curve i ↦ bw(i, Σ_{k≤i} s_k) as the published model gives it.
 * The papers computed these cells with the model whose coefficients they print, so ours
 * must give them back: ī exactly, bw_ī to one unit of its last digit (`model-value-row.ts`). The two papers print the same
 * cells; where they do, one row cites both, and where a cell differed, each paper would get
 * its own row. The measured columns are compared by the model rows (model-reproduction-rows.ts).
 */
import { peakCurve, type BandwidthModel } from "../fit";
import { modelValueRow } from "./model-value-row";
import { printedNumber, printedText, rowWhere, rowsWhere, type PublishedRow, type PublishedTable, type PublishedTables } from "./published-tables";
import { cite, compareWithPublished, type ReproductionRow } from "./reproduction";

const COLUMNS = [
  { column: "peak_m_estimated", key: "estimated-peak-m", label: "ī", what: "peak position ī", unit: "count" },
  { column: "peak_bw_mb_per_s_estimated", key: "estimated-peak-bw", label: "bw_ī", what: "peak bandwidth bw_ī", unit: "MB/s" },
] as const;

export function peakEstimateRows(model: BandwidthModel, published: PublishedTables, modelLabel: string): ReproductionRow[] {
  const rows: ReproductionRow[] = [];
  const y11 = published.y11Table1;
  const thesis = published.table42;
  for (const y11Row of y11.rows) {
    const dataset = printedText(y11, y11Row, "dataset");
    const sizesMb = datasetSizes(published.datasets, dataset);
    const peak = peakCurve(model, sizesMb).peak;
    const thesisRow = rowWhere(thesis, "dataset", dataset);
    for (const c of COLUMNS) {
      const how = `peak of i ↦ bw(i, Σ_{k≤i} s_k), i = 1..${sizesMb.length}, ${modelLabel}, sizes of ${dataset} from ${published.datasets.source}`;
      const quantity = `data set ${dataset}: ${c.what} the model predicts (estimated column)`;
      const row = (table: PublishedTable, tableRow: PublishedRow, source: string, id: string) => {
        const printed = printedNumber(table, tableRow, c.column);
        if (c.key === "estimated-peak-bw") {
          return modelValueRow({
            id, quantity, source, printed, ours: peak.bw, unit: c.unit, how,
            evidence: () => `the ${modelLabel} peaks at bw(${peak.m}, ${sizesMb.slice(0, peak.m).reduce((a, b) => a + b, 0) / 1000} GB) = ${peak.bw.toFixed(2)} MB/s`,
          });
        }
        return compareWithPublished({ id, quantity, source, ...printed, ours: peak.m, unit: c.unit, how, whenDiffers: "the papers computed this cell with the same model, so it should be equal" });
      };
      const y11Cell = printedText(y11, y11Row, c.column);
      const thesisCell = printedText(thesis, thesisRow, c.column);
      const y11Source = cite("[Y11]", "Table 1", dataset, `estimated ${c.label}`);
      const thesisSource = cite("[Y-thesis]", "Table 4.2", dataset, `estimated ${c.label}`);
      if (y11Cell === thesisCell) rows.push(row(y11, y11Row, `${y11Source}; ${thesisSource}`, `${dataset}/${c.key}`));
      else rows.push(row(y11, y11Row, y11Source, `${dataset}/${c.key}/y11`), row(thesis, thesisRow, thesisSource, `${dataset}/${c.key}/thesis`));
    }
  }
  return rows;
}

/** A data set's sizes in the printed order (column `block`). */
export function datasetSizes(table: PublishedTable, dataset: string): number[] {
  const blocks = rowsWhere(table, "dataset", dataset)
    .map((r) => ({ block: printedNumber(table, r, "block").paper, sizeMb: printedNumber(table, r, "size_mb").paper }))
    .sort((a, b) => a.block - b.block);
  return blocks.map((b) => b.sizeMb);
}
