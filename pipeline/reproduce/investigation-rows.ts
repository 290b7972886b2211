/**
 * The rows of the headline-claim investigations (docs/investigations/): [BKT] "PCkP halves
 * the waste of Periodic and takes half as many checkpoints", [Y11]/[Y-thesis] "the CTNYS
 * share rises with k0", [DAS06] "FCFS-TR is the fastest". Each comes with its verdict in the
 * investigation's page; here the numbers behind it, recomputed from the investigations stage's
 * artifact (the kept simulation grids and the k0 counts). A grid whose kept results are not
 * the current simulator's gives one `not recomputable` row saying how to refresh it.
 */
import type { Investigations } from "./investigations";
import { bktCostMapRows, bktPaperScaleRows } from "./bkt-claim-rows";
import { das06GeneratorClaimRows, das06TraceClaimRows } from "./das06-claim-rows";
import { k0ClaimRows } from "./k0-claim-rows";
import type { ReproductionRow } from "./reproduction";
import type { MergedSweep } from "../simulate/sweep/merge-sweep";

const GRID_ROWS: Record<string, { paper: string; rows: (merged: MergedSweep) => ReproductionRow[] }> = {
  "bkt-paper-scale": { paper: "[BKT] §IV-B", rows: bktPaperScaleRows },
  "bkt-cost-map": { paper: "[BKT] §IV-B", rows: bktCostMapRows },
  "das06-traces": { paper: "[DAS06] Figs 2, 4, 6", rows: das06TraceClaimRows },
  "das06-generator": { paper: "[DAS06] Figs 2, 4, 6", rows: das06GeneratorClaimRows },
};

export function investigationRows(investigations: Investigations | undefined): ReproductionRow[] {
  if (investigations === undefined) return [];
  const rows: ReproductionRow[] = [];
  for (const [name, { paper, rows: make }] of Object.entries(GRID_ROWS)) {
    const grid = investigations.grids[name];
    if (grid === undefined) continue;
    if (grid.merged !== null) {
      rows.push(...make(grid.merged));
      continue;
    }
    rows.push({
      id: `investigation/${name}/not-current`,
      quantity: `the investigation grid ${grid.grid}`,
      source: paper,
      papers: paper.startsWith("[BKT]") ? ["[BKT]"] : ["[DAS06]"],
      printed: "1",
      paper: 1,
      corrected: null,
      ours: null,
      unit: "grid",
      how: `its results kept next to the spec (${grid.cells} cells)`,
      selfCheck: false,
      verdict: "not recomputable",
      reason: `${grid.notCurrent} of ${grid.cells} cells have no result of the simulator's current code (hours of CPU, so the pipeline does not run them); refresh: ${grid.refresh}`,
    });
  }
  rows.push(...k0ClaimRows(investigations.k0));
  return rows;
}
