/**
 * [Y-thesis] Table 4.3: checkpoint times measured with BLCR 0.4.2 under Linux 2.6.12 on
 * Grid5000 (§4.2, §4.4.1), the same BLCR as the campaign the model was fitted on (docs/science.md
 * §3.1). Each group of rows measures something else:
 *
 * - "App. séq. unique": one sequential application of S MB, checkpointed alone;
 * - "Plusieurs applications séquentielles": m independent sequential applications of s MB
 *   each, checkpointed at the same time to the NFS server — what the model describes;
 * - "Application parallèle": one MPI application (cpi) of m processes of s MB, checkpointed
 *   by LAM/MPI 7.1.4's coordinated checkpoint (BLCR on each process, no message in the
 *   channels at checkpoint time).
 *
 * Ours is the time the published model gives m checkpoints of s MB sharing the device
 * equally, s / (bw(m, m·s)/m) (docs/science.md §4.2; static and fluid agree for equal sizes),
 * `close` within the model's own accuracy (its E_global, rounded up, as for the peaks). The
 * parallel application is `not recomputable`: no published model prices a coordinated
 * checkpoint; ours, the same processes as independent applications, is for reference.
 *
 * The cells printed "4 x 50" in table column 4, where every other cell holds 400 MB, are
 * `erratum` rows on the process size, with the evidence the table and the model give; their
 * times are compared at the corrected size.
 */
import { bandwidthEvaluator, type BandwidthModel } from "../fit";
import { InputError, atLine } from "../shared/errors";
import { PUBLISHED_E_GLOBAL_PERCENT } from "./published-values";
import { printedNumber, printedText, type PublishedRow, type PublishedTable } from "./published-tables";
import { cite, compareWithPublished, round4, type ReproductionRow, type Tolerance } from "./reproduction";

const KINDS = {
  "single sequential application": { key: "single", label: "one sequential application" },
  "several sequential applications": { key: "several", label: "sequential applications checkpointed together" },
  "parallel application": { key: "parallel", label: "one MPI application (coordinated checkpoint)" },
} as const;
type Kind = keyof typeof KINDS;

interface Cell {
  row: PublishedRow;
  kind: Kind;
  processes: number;
  column: string;
  sizePrinted: string;
  processSizeMb: number;
  timeS: number;
  timePrinted: string;
}

export function checkpointTimeRows(model: BandwidthModel, table: PublishedTable, options: { bandwidthRelative: number; modelLabel: string }): ReproductionRow[] {
  const bw = bandwidthEvaluator(model);
  const predictS = (m: number, sMb: number) => sMb / (bw(m, (m * sMb) / 1000) / m);
  const cells = table.rows.map((row) => readCell(table, row));
  const columnSize = columnAggregateSizes(cells);
  const tolerance: Tolerance = {
    relative: options.bandwidthRelative,
    rationale: `a model against measurements: its published mean error E_global = ${PUBLISHED_E_GLOBAL_PERCENT} %, rounded up`,
  };
  const rows: ReproductionRow[] = [];
  for (const cell of cells) {
    const { key, label } = KINDS[cell.kind];
    const id = `table-4.3/${key}/${cell.processes}x${cell.processSizeMb}MB`;
    const source = (column: string) => cite("[Y-thesis]", "Table 4.3", `${cell.kind}, ${cell.processes} process${cell.processes > 1 ? "es" : ""}`, `${cell.column} (${column})`);
    const aggregateMb = columnSize.get(cell.column)!;
    let sizeMb = cell.processSizeMb;
    let atCorrected = "";
    if (cell.processes * cell.processSizeMb !== aggregateMb) {
      sizeMb = aggregateMb / cell.processes;
      const others = cells.filter((c) => c.column === cell.column && c !== cell && c.processes * c.processSizeMb === aggregateMb);
      const sameGroup = others.filter((c) => c.kind === cell.kind).map((c) => c.timeS);
      rows.push(
        compareWithPublished({
          id: `${id}/process-size`,
          quantity: `${label}: size s of each of the ${cell.processes} processes (cell printed "${cell.sizePrinted}")`,
          source: source("S"),
          ...printedNumber(table, cell.row, "process_size_mb"),
          ours: sizeMb,
          unit: "MB",
          how: `table column ${cell.column}'s aggregate size, ${aggregateMb} MB, over ${cell.processes} processes`,
          selfCheck: true,
          erratum: {
            corrected: sizeMb,
            evidence:
              `every other cell of table column ${cell.column} holds ${aggregateMb} MB (${unique(others.map((c) => c.sizePrinted)).join(", ")}), this one ${cell.processes * cell.processSizeMb} MB; ` +
              `its time, ${cell.timePrinted} s, is that of ${aggregateMb} MB: ` +
              (sameGroup.length > 0 ? `the other ${aggregateMb} MB cells of its group took ${Math.min(...sameGroup)}–${Math.max(...sameGroup)} s, and ` : "") +
              `the ${options.modelLabel} gives ${fixed(predictS(cell.processes, cell.processSizeMb), 1)} s for ${cell.processes} × ${cell.processSizeMb} MB, ${fixed(predictS(cell.processes, sizeMb), 1)} s for ${cell.processes} × ${sizeMb} MB`,
          },
        }),
      );
      atCorrected = ` at the corrected ${cell.processes} × ${sizeMb} MB (row ${id}/process-size)`;
    }
    const ours = round4(predictS(cell.processes, sizeMb));
    const how = `s / (bw(m, m·s)/m) with m = ${cell.processes}, s = ${sizeMb} MB${atCorrected}, ${options.modelLabel}: each of m simultaneous checkpoints gets bw/m`;
    const base = { id: `${id}/time`, quantity: `${label}, ${cell.processes} × ${sizeMb} MB: checkpoint time (BLCR 0.4.2)`, source: source("T"), ...printedNumber(table, cell.row, "checkpoint_time_s"), ours, unit: "s", how };
    if (cell.kind === "parallel application") {
      rows.push(compareWithPublished({ ...base, notRecomputable: parallelReason(cells, cell, columnSize) }));
    } else {
      const rateMbPerS = (cell.processes * sizeMb) / cell.timeS;
      const modelRate = bw(cell.processes, (cell.processes * sizeMb) / 1000);
      rows.push(
        compareWithPublished({
          ...base,
          tolerance,
          whenDiffers:
            `the cluster moved ${fixed(rateMbPerS, 2)} MB/s in all, the ${options.modelLabel} predicts ${fixed(modelRate, 2)} MB/s` +
            (cell.processes === 1 ? " (the quadratic's known weakness at m = 1, docs/science.md §4.5)" : ""),
        }),
      );
    }
  }
  return rows;
}

function readCell(table: PublishedTable, row: PublishedRow): Cell {
  const kind = printedText(table, row, "checkpoint_kind");
  if (!(kind in KINDS)) throw new InputError(atLine(table.path, row.line, `checkpoint_kind "${kind}" is none of ${Object.keys(KINDS).join(", ")}`));
  const time = printedNumber(table, row, "checkpoint_time_s");
  return {
    row,
    kind: kind as Kind,
    processes: printedNumber(table, row, "n_processes").paper,
    column: printedText(table, row, "table_column"),
    sizePrinted: printedText(table, row, "aggregate_size_printed_mb"),
    processSizeMb: printedNumber(table, row, "process_size_mb").paper,
    timeS: time.paper,
    timePrinted: time.printed,
  };
}

/** Each printed column's aggregate size: the one most of its cells hold (m · s). */
function columnAggregateSizes(cells: readonly Cell[]): Map<string, number> {
  const byColumn = new Map<string, Map<number, number>>();
  for (const c of cells) {
    const counts = byColumn.get(c.column) ?? new Map<number, number>();
    const size = c.processes * c.processSizeMb;
    counts.set(size, (counts.get(size) ?? 0) + 1);
    byColumn.set(c.column, counts);
  }
  return new Map([...byColumn].map(([column, counts]) => [column, [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0]]));
}

/** Why the MPI rows cannot be recomputed, with what the table itself shows of them. */
function parallelReason(cells: readonly Cell[], cell: Cell, columnSize: ReadonlyMap<string, number>): string {
  const rates = cells
    .filter((c) => c.kind === "parallel application")
    .map((c) => columnSize.get(c.column)! / c.timeS)
    .sort((a, b) => a - b);
  const median = rates.length % 2 === 1 ? rates[rates.length >> 1]! : (rates[rates.length / 2 - 1]! + rates[rates.length / 2]!) / 2;
  const independent = cells.find((c) => c.kind === "several sequential applications" && c.processes === cell.processes && c.column === cell.column);
  return (
    "a coordinated checkpoint of one MPI application (LAM/MPI 7.1.4, BLCR on each process): no published model prices its coordination. " +
    `In this table its time follows the aggregate size, whatever the number of processes: ${fixed(rates[0]!, 2)}–${fixed(rates[rates.length - 1]!, 2)} MB/s in all (median ${fixed(median, 2)})` +
    (independent ? `, where the same ${cell.processes} processes as independent applications took ${independent.timePrinted} s` : "") +
    "; ours (for reference) is the model's time for independent applications"
  );
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function fixed(value: number, decimals: number): string {
  return value.toFixed(decimals);
}
