/**
 * The [BKT] desktop-grid simulator's part of the report (docs/science.md §6.1): the paper's
 * Figs 1–3 from our grid — makespan by bag size per client count and policy (a), the
 * average wasted time per client (b) — and a table of every combination. The RB rows of the
 * reproduction table are the reproduce stage's (pipeline/reproduce/bkt-rows.ts).
 *
 * The grid the pipeline runs is scaled down (clients and jobs divided by the same factor,
 * so the jobs-per-client ratios of the paper are kept); the clients of each panel are
 * named with the paper's count they stand for. A grid whose hosts follow an availability
 * trace (its `trace` parameter; e.g. `ckpt pipeline --param simulate-bkt.grid=
 * data/simulations/bkt-microsoft99-grid.json`) is drawn the same way, captioned with the
 * trace.
 */
import { bktGridTrace, cells, PAPER_CLIENTS, sortedUnique } from "../../reproduce/bkt-grid-cells";
import type { MergedSweep } from "../../simulate/sweep/merge-sweep";
import type { Table } from "../tables/table";
import type { Figure } from "./figure";
import { intervalChartFigure, type IntervalPoint } from "./interval-chart-spec";
import { NON_NEGATIVE } from "./interval-bounds";

const POLICY_LABELS: Record<string, string> = { none: "Without FT", periodic: "Periodic (Daly)", pckp: "PCkP (DP)" };
const label = (policy: string) => POLICY_LABELS[policy] ?? policy;

export function bktFigures(merged: MergedSweep): { figures: Figure[]; tables: Table[] } {
  const all = cells(merged);
  const trace = bktGridTrace(merged);
  const clientCounts = sortedUnique(all.map((c) => c.clients));
  const scale = clientCounts.length > 0 ? PAPER_CLIENTS[0]! / clientCounts[0]! : 1;
  const panel = (clients: number) => (trace === null ? `${clients} clients (as ${Math.round(clients * scale)})` : `${clients} clients`);
  const policies = Object.keys(all[0]?.group.policies ?? {});
  const seeds = all[0]?.group.seeds.length ?? 0;
  const figures: Figure[] = [];
  for (const transient of ["suspend", "abort"]) {
    const mine = all.filter((c) => c.transient === transient);
    if (mine.length === 0) continue;
    const panels = sortedUnique(mine.map((c) => c.clients)).map(panel);
    const xValues = sortedUnique(mine.map((c) => c.jobs)).map(String);
    const points = (metric: string): IntervalPoint[] =>
      mine.flatMap((c) =>
        policies.map((policy) => {
          const m = c.group.policies![policy]![metric]!;
          return { panel: panel(c.clients), x: String(c.jobs), group: label(policy), mean: m.mean, low: m.low, high: m.high, n: m.n, published: null };
        }),
      );
    const mode =
      transient === "suspend"
        ? "a transient failure suspends the copy (the project's calibration, docs/science.md §6.1.4)"
        : "a transient failure kills the copy ([BKT]'s literal reading, docs/science.md §6.1.4)";
    const scaleNote =
      trace === null
        ? `The grid is the paper's divided by ${scale}: clients and jobs scaled together, so each panel keeps its paper counterpart's jobs-per-client ratios`
        : `Clients follow the nodes of the availability trace ${trace.file} observed at day ${trace.startDays} of it (not [BKT]'s SETI@home laws), and the policies plan with its available intervals as an empirical law`;
    figures.push(
      intervalChartFigure({
        id: `bkt-makespan-${transient}`,
        title: `Makespan of a bag of jobs by policy (${transient})`,
        caption:
          `[BKT] Figs 1(a)–3(a) from our simulator: the time at which the last job's first result reaches the server, mean over ${seeds} seeds ` +
          `with its 95 % Student-t interval (${seeds - 1} degrees of freedom), per bag size (jobs) and client count; ${mode}. ${scaleNote}. Common random numbers: every policy sees the same clients, jobs and availability.`,
        panelTitle: "clients",
        xTitle: "jobs in the bag",
        yTitle: "makespan (h)",
        groupTitle: "policy",
        panels,
        xValues,
        groups: policies.map(label),
        points: points("makespanH"),
        publishedLabel: "",
        yFormat: ".1f",
        bounds: NON_NEGATIVE,
      }),
      intervalChartFigure({
        id: `bkt-waste-${transient}`,
        title: `Average wasted time per client by policy (${transient})`,
        caption:
          `[BKT] Figs 1(b)–3(b) from our simulator: (checkpoint overhead + lost computation) / clients, hours, mean over ${seeds} seeds with its 95 % Student-t interval (${seeds - 1} degrees of freedom); ${mode}. ` +
          `The table below splits it into its two parts. ${scaleNote}.`,
        panelTitle: "clients",
        xTitle: "jobs in the bag",
        yTitle: "average wasted time (h per client)",
        groupTitle: "policy",
        panels,
        xValues,
        groups: policies.map(label),
        points: points("averageWasteH"),
        publishedLabel: "",
        yFormat: ".2f",
        bounds: NON_NEGATIVE,
      }),
    );
  }
  const columns: Table["columns"] = [
    { key: "transient", label: "transient" },
    { key: "clients", label: "clients" },
    { key: "jobs", label: "jobs" },
    ...policies.flatMap((p) => [
      { key: `${p}-makespan`, label: `${label(p)} makespan`, unit: "h", decimals: 1 },
      { key: `${p}-overhead`, label: `${label(p)} overhead`, unit: "h/client", decimals: 2 },
      { key: `${p}-lost`, label: `${label(p)} lost`, unit: "h/client", decimals: 2 },
    ]),
  ];
  const table: Table = {
    id: "bkt-grid",
    title: "The [BKT] grid: makespan and wasted time per policy",
    caption: `Means over ${seeds} seeds. Overhead = checkpoint uploads, restart downloads and connection waits; lost = computation lost at failures; both per client (docs/science.md §6.1.6).`,
    columns,
    rows: all.map((c) => ({
      transient: c.transient,
      clients: c.clients,
      jobs: c.jobs,
      ...Object.fromEntries(
        policies.flatMap((p) => {
          const m = c.group.policies![p]!;
          return [
            [`${p}-makespan`, m.makespanH!.mean],
            [`${p}-overhead`, m.checkpointOverheadH!.mean / c.clients],
            [`${p}-lost`, m.lostComputationH!.mean / c.clients],
          ];
        }),
      ),
    })),
  };
  return { figures, tables: [table] };
}
