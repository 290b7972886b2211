/**
 * The [DAS06] simulator's part of the report (docs/science.md §6.2): the paper's Figs 2–6 —
 * slowdown by policy, checkpoint count, machine set and store, one figure per task set (and
 * the weekend's 75/7200) — and the IET table recomputed. The RD rows of the reproduction
 * table, RD1's IETs among them, are the reproduce stage's (pipeline/reproduce/das06-rows.ts).
 */
import type { MergedSweep } from "../../simulate/sweep/merge-sweep";
import type { ReproductionRow } from "../../reproduce/reproduction";
import { cells, das06TraceLabel, POLICIES, slowdown, type Cell } from "../../reproduce/das06-grid-cells";
import type { Table } from "../tables/table";
import type { Figure } from "./figure";
import { intervalChartFigure } from "./interval-chart-spec";
import { NON_NEGATIVE } from "./interval-bounds";

const IET_ROW_PREFIX = "das06/rd1/";

/**
 * The grid's figures, and the IET table from the reproduce stage's RD1 rows (their ids name
 * the machine set, the tasks and their length: `das06/rd1/<set>/<tasks>/<cpu>`).
 */
export function das06Figures(merged: MergedSweep, reproduction: readonly ReproductionRow[]): { figures: Figure[]; tables: Table[] } {
  const all = cells(merged);
  const traceLabel = das06TraceLabel(merged);
  const figures: Figure[] = [];
  const sets: [string, number, number, string][] = [
    ["weekday", 25, 1800, "Fig. 2"],
    ["weekday", 25, 7200, "Fig. 3"],
    ["weekday", 75, 1800, "Fig. 4"],
    ["weekday", 75, 7200, "Fig. 5"],
    ["weekend", 75, 7200, "Fig. 6"],
  ];
  for (const [period, tasks, cpu, figure] of sets) {
    const mine = all.filter((c) => c.period === period && c.tasks === tasks && c.cpu === cpu);
    if (mine.length === 0) continue;
    const panel = (c: Cell) => `${c.set}, ${c.store}`;
    const panels = ["M01, shared", "M01, private", "M04, shared", "M04, private"].filter((p) => mine.some((c) => panel(c) === p));
    // The replications of a cell are its starting points (one run each, the same for every policy), as in [DAS06].
    const runs = [...new Set(mine.flatMap((c) => POLICIES.map((policy) => c.group.policies![policy]!.runs!.mean)))].sort((a, b) => a - b);
    const startingPoints = runs.length === 1 ? String(runs[0]) : `${runs[0]}–${runs[runs.length - 1]}`;
    const seeds = mine[0]!.group.seeds.length;
    figures.push(
      intervalChartFigure({
        id: `das06-slowdown-${period}-${tasks}-${cpu}`,
        title: `Slowdown by policy, ${tasks} tasks of ${cpu} s (${period})`,
        caption:
          `[DAS06] ${figure} from our simulator: turnaround / ideal execution time, mean over the ${startingPoints} starting points of the ${period} window ` +
          `(every hour of it, one run each, the same for every policy; ${seeds === 1 ? "one seed" : `the mean of ${seeds} seeds' means`} of the request order) with its 95 % Student-t interval over them, ` +
          `per checkpoint count, machine set and store. ${traceLabel[0]!.toUpperCase()}${traceLabel.slice(1)}; the predictor of FCFS-PRDCT-DMD is perfect (an upper bound).`,
        panelTitle: "machines, store",
        xTitle: "checkpoints per execution",
        yTitle: "slowdown (turnaround / IET)",
        groupTitle: "policy",
        panels,
        xValues: ["0", "1", "9"],
        groups: POLICIES,
        points: mine.flatMap((c) =>
          POLICIES.map((policy) => {
            const m = c.group.policies![policy]!;
            return { panel: panel(c), x: String(c.checkpoints), group: policy, mean: m.slowdown!.mean, low: m.slowdownLow!.mean, high: m.slowdownHigh!.mean, n: m.runs!.mean, published: null };
          }),
        ),
        publishedLabel: "",
        yFormat: ".2f",
        bounds: NON_NEGATIVE,
      }),
    );
  }
  const ietTable: Table = {
    id: "das06-iet",
    title: "Ideal execution times ([DAS06] Table 2), recomputed",
    caption: "The makespan of N identical tasks on the set's machines, all dedicated and available (docs/science.md §6.2.6), with Table 1's ratios, next to the printed values.",
    columns: [
      { key: "set", label: "machine set" },
      { key: "bag", label: "tasks × length" },
      { key: "ours", label: "ours", unit: "min", decimals: 2 },
      { key: "paper", label: "[DAS06] Table 2", unit: "min", decimals: 2 },
    ],
    rows: reproduction
      .filter((row) => row.id.startsWith(IET_ROW_PREFIX))
      .map((row) => {
        const [set, tasks, cpu] = row.id.slice(IET_ROW_PREFIX.length).split("/");
        return { set, bag: `${tasks} × ${cpu} s`, ours: row.ours, paper: row.paper };
      }),
  };
  return { figures, tables: [ietTable] };
}
