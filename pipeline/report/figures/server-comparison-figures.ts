/**
 * The user's report's answer to "which checkpoint policy for my machines, saving to my
 * server?" (docs/science.md §6.6): the desktop-grid simulators run with the fitted server, the
 * published Azur model and an ideal server (simulate/server/compare-servers.ts) — per
 * simulator one figure (the metric by policy, one colour per server, one panel per grid cell,
 * with 95 % intervals) and one table of the policies' ranking per cell and server, and what
 * changed: which policy comes first with each server, and whether that differs from the ideal.
 */
import type { ComparisonCell, ServerComparison, ServerKey, SimulatorComparison } from "../../simulate/server/compare-servers";
import type { Table } from "../tables/table";
import type { Figure } from "./figure";
import { intervalChartFigure } from "./interval-chart-spec";

/** [DAS06]'s figures label its policies FCFS, AT, TR and TR-PRDCT-DMD (docs/science.md §6.2.5): short enough for an axis. */
const AXIS_LABEL: Readonly<Record<string, string>> = { "FCFS-AT": "AT", "FCFS-TR": "TR", "FCFS-PRDCT-DMD": "TR-PRDCT-DMD" };
const axisLabel = (policy: string) => AXIS_LABEL[policy] ?? policy;

const GRIDS: { key: "bkt" | "das06"; name: string; where: string }[] = [
  { key: "das06", name: "[DAS06]", where: "a classroom's PCs (docs/science.md §6.2)" },
  { key: "bkt", name: "[BKT]", where: "volunteer clients pulling a bag of jobs (docs/science.md §6.1)" },
];

export interface ServerComparisonPart {
  figures: Figure[];
  tables: Table[];
  notes: string[];
  /** One sentence per grid: what comes first with each server. */
  findings: string[];
}

export function serverComparisonFigures(comparison: ServerComparison, clusterLabel: string): ServerComparisonPart {
  const label = (key: ServerKey) => (key === "fitted" ? `${clusterLabel} (${comparison.servers.find((s) => s.key === key)!.model?.form ?? ""} fit)` : comparison.servers.find((s) => s.key === key)!.label);
  const keys = comparison.servers.map((s) => s.key);
  const figures: Figure[] = [];
  const rows: Table["rows"] = [];
  const notes: string[] = [];
  const findings: string[] = [];
  for (const grid of GRIDS) {
    const sim: SimulatorComparison = comparison[grid.key];
    if (sim.cells.length === 0) continue;
    figures.push(
      intervalChartFigure({
        id: `server-policies-${grid.key}`,
        title: `${grid.name}: the policies with ${clusterLabel}'s server, Azur's and an ideal one`,
        caption:
          `${grid.name} simulator on ${grid.where}: ${sim.metric.label} by policy, mean with its 95 % interval, with the checkpoint server given by the model fitted to ` +
          `${clusterLabel}, by the published Azur model ([Y11] eq. 4), and an ideal server that never holds a transfer below its machine's link; ${sim.setting}. ` +
          `Lower is better.${grid.key === "das06" ? " AT, TR and TR-PRDCT-DMD are FCFS-AT, FCFS-TR and FCFS-PRDCT-DMD, as [DAS06]'s figures name them." : ""} A server missing from a panel could not price the load there (see the notes).`,
        panelTitle: "grid cell",
        xTitle: "policy",
        yTitle: sim.metric.label,
        groupTitle: "checkpoint server",
        panels: sim.cells.map((c) => c.label),
        xValues: sim.policies.map(axisLabel),
        groups: keys.map(label),
        points: sim.cells.flatMap((cell) =>
          keys.flatMap((key) =>
            Object.entries(cell.outcomes[key].policies).map(([policy, r]) => ({ panel: cell.label, x: axisLabel(policy), group: label(key), mean: r.mean, low: r.low, high: r.high, n: r.n, published: null })),
          ),
        ),
        publishedLabel: "",
        yFormat: ".3~g",
      }),
    );
    for (const cell of sim.cells) {
      for (const key of keys) {
        const o = cell.outcomes[key];
        const best = o.ranking[0];
        rows.push({
          grid: grid.name,
          cell: cell.label,
          server: label(key),
          first: best ?? null,
          ranking: o.notApplicable !== undefined ? "not applicable" : o.ranking.map((p) => `${p} ${format(o.policies[p]!.mean)}`).join(" < "),
          clear: best === undefined ? null : clearlyFirst(cell, key) ? "yes" : "no",
          busy: o.server === null ? null : o.server.busyFraction,
          outside: o.server === null ? null : o.server.outsideDomain,
        });
        if (o.notApplicable !== undefined) notes.push(`${grid.name}, ${cell.label}, ${label(key)} server: not applicable — ${o.notApplicable}.`);
      }
      findings.push(finding(grid.name, cell, keys, label, (key) => clearlyFirst(cell, key)));
    }
  }
  const table: Table = {
    id: "server-policy-ranking",
    title: "Which policy comes first, server by server",
    caption:
      `Per grid cell and checkpoint server, the policies from best to worst by the simulator's metric ([BKT]: makespan in h; [DAS06]: mean slowdown), ` +
      `whether the first is clearly first (its 95 % interval below every other's), the share of the run during which the server had a transfer in progress, and the ` +
      `transfers that took the model outside its fitted domain (clamped: ${comparison.servers[0]!.model?.outsideDomain ?? "clamp"}), per run.`,
    columns: [
      { key: "grid", label: "simulator" },
      { key: "cell", label: "grid cell" },
      { key: "server", label: "checkpoint server" },
      { key: "first", label: "first" },
      { key: "ranking", label: "ranking (metric)" },
      { key: "clear", label: "clearly first" },
      { key: "busy", label: "server busy (share of the run)", decimals: 2 },
      { key: "outside", label: "transfers outside the domain", decimals: 1 },
    ],
    rows,
  };
  return { figures, tables: [table], notes, findings };
}

const format = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** The first policy's interval lies below every other policy's (95 % intervals; a single run has none: not clear). */
function clearlyFirst(cell: ComparisonCell, key: ServerKey): boolean {
  const o = cell.outcomes[key];
  const [first, ...rest] = o.ranking;
  const high = o.policies[first!]!.high;
  return high !== null && rest.every((p) => o.policies[p]!.low !== null && high < o.policies[p]!.low!);
}

/**
 * "[DAS06], M04, 25 tasks of 1800 s: the first place changes with the server (FCFS-TR first with
 * the fitted server and the ideal one; FCFS-PRDCT-DMD with Azur's)", qualified when no first
 * place is clear of the others' intervals.
 */
function finding(grid: string, cell: ComparisonCell, keys: ServerKey[], label: (key: ServerKey) => string, clear: (key: ServerKey) => boolean): string {
  const byFirst = new Map<string, string[]>();
  const ranked = keys.filter((key) => cell.outcomes[key].ranking.length > 0);
  for (const key of ranked) {
    const first = cell.outcomes[key].ranking[0]!;
    byFirst.set(first, [...(byFirst.get(first) ?? []), label(key)]);
  }
  const parts = [...byFirst.entries()].map(([policy, servers]) => `${policy} first with ${servers.join(" and ")}`);
  const anyClear = ranked.some(clear);
  const changed =
    ranked.length === 0
      ? "no server could price this load"
      : byFirst.size > 1
        ? `the first place changes with the server${anyClear ? "" : ", though within the 95 % intervals"}`
        : `the same policy comes first with every server${anyClear ? "" : " (within the 95 % intervals)"}`;
  return `${grid}, ${cell.label}: ${changed}${parts.length > 0 ? ` (${parts.join("; ")})` : ""}.`;
}
