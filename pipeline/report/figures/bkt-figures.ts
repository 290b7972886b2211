/**
 * The [BKT] desktop-grid simulator's part of the report (docs/science.md §6.1): the paper's
 * Figs 1–3 from our grid — makespan by bag size per client count and policy (a), the
 * average wasted time per client (b) — a table of every combination, and the RB rows of
 * the reproduction table (§6.1.8), which are trends: the paper prints no table, only
 * figures and a few stated factors.
 *
 * The grid the pipeline runs is scaled down (clients and jobs divided by the same factor,
 * so the jobs-per-client ratios of the paper are kept); the clients of each panel are
 * named with the paper's count they stand for. A grid whose hosts follow an availability
 * trace (its `trace` parameter; e.g. `ckpt pipeline --param simulate-bkt.grid=
 * data/simulations/bkt-microsoft99-grid.json`) is drawn the same way, captioned with the
 * trace, and gives no RB rows: the paper's trends are claims about its SETI@home laws.
 */
import { cite, compareWithPublished, trendRow as sharedTrendRow, type ReproductionRow } from "../reproduction/reproduction";
import { createLaw, parseLawString, type FailureLaw } from "../../place/laws";
import { expectedWaste } from "../../place/expected-waste";
import { createRandom } from "../../shared/random";
import { variableCostDp } from "../../place/variable-cost-dp";
import { bktLaw, BKT_PAPER_PRESET } from "../../simulate/bkt/bkt-scenario";
import type { MergedGroup, MergedSweep } from "../../simulate/sweep/merge-sweep";
import type { Table } from "../tables/table";
import type { Figure } from "./figure";
import { intervalChartFigure, type IntervalPoint } from "./interval-chart-spec";
import { NON_NEGATIVE } from "./interval-bounds";

const POLICY_LABELS: Record<string, string> = { none: "Without FT", periodic: "Periodic (Daly)", pckp: "PCkP (DP)" };
const label = (policy: string) => POLICY_LABELS[policy] ?? policy;
/** The paper's client counts, in the order of the grid's (5000, 10000, 20000). */
const PAPER_CLIENTS = [5000, 10000, 20000];
const SOURCE = "[BKT] §IV-B";

interface Cell {
  transient: string;
  clients: number;
  jobs: number;
  group: MergedGroup;
}

/** The availability trace a [BKT] grid's hosts follow (and from which day), or null when they follow the laws. */
export function bktGridTrace(merged: MergedSweep): { file: string; startDays: number } | null {
  const parameters = merged.groups[0]?.parameters;
  return typeof parameters?.trace === "string" ? { file: parameters.trace, startDays: Number(parameters.traceStartDays ?? 0) } : null;
}

function cells(merged: MergedSweep): Cell[] {
  return merged.groups.map((group) => ({
    // A grid that does not set it runs the default, suspend.
    transient: String(group.parameters.transient ?? "suspend"),
    clients: Number(group.parameters.clients),
    jobs: Number(group.parameters.jobs),
    group,
  }));
}

function sortedUnique(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

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

/** A stated trend of the paper: holds (1) or not (0) in our grid, with the numbers in the reason. */
function trendRow(id: string, quantity: string, holds: boolean, evidence: string, how: string): ReproductionRow {
  return sharedTrendRow({ id, quantity, source: SOURCE, holds, evidence, how, where: "in our grid" });
}

/**
 * RB11 (docs/science.md §6.1.8): the summary figures [BKT] §I quotes for SETI@home hosts against
 * the laws of its own Table I. "About 1 hour" is taken to the nearest hour, "about 4.5 hours"
 * to the nearest half hour; the unavailability law is read with μ as means (B1), the
 * project's reading, and the rates reading is given in the reason.
 */
export function bktLawReproductionRows(): ReproductionRow[] {
  const hour = 3600;
  const law = (text: string) => createLaw(parseLawString(text).spec);
  const availability = law(BKT_PAPER_PRESET.availability);
  const unavailabilityRates = law(BKT_PAPER_PRESET.unavailability.replace("param=mean", "param=rate"));
  const how = (what: string, text: string) => `${what} of the Table I law ${text} (place/laws)`;
  return [
    compareWithPublished({
      id: "bkt/rb11/median-availability",
      quantity: "RB11: median availability interval of a host",
      source: `${cite("[BKT]", "§I", undefined, '"about 1 hour"')}, against its Table I`,
      paper: 1,
      ours: round4(medianSeconds(availability) / hour),
      unit: "h",
      how: how("median", BKT_PAPER_PRESET.availability),
      tolerance: { absolute: 0.5, rationale: '"about 1 hour": to the nearest hour' },
    }),
    compareWithPublished({
      id: "bkt/rb11/mean-unavailability",
      quantity: "RB11: mean unavailability interval of a host",
      source: `${cite("[BKT]", "§I", undefined, '"about 4.5 hours"')}, against its Table I`,
      paper: 4.5,
      ours: round4(law(BKT_PAPER_PRESET.unavailability).meanSeconds / hour),
      unit: "h",
      how: how("mean", BKT_PAPER_PRESET.unavailability),
      tolerance: { absolute: 0.25, rationale: '"about 4.5 hours": to the nearest half hour' },
      whenDiffers:
        `§I quotes a whole-population figure, Table I fits one host class; reading μ as rates gives ${(unavailabilityRates.meanSeconds / hour).toFixed(2)} h, ` +
        "further still (docs/science.md §6.1.9, B1)",
    }),
  ];
}

/** The median of a law, by bisection on its CDF (to 1e-9 s). */
function medianSeconds(law: FailureLaw): number {
  let low = 0;
  let high = law.meanSeconds;
  while (law.cdf(high) < 0.5) high *= 2;
  while (high - low > 1e-9 * high) {
    const middle = (low + high) / 2;
    if (law.cdf(middle) < 0.5) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

/**
 * RB10: the DP is optimal for [BKT]'s objective — its expected waste equals the least over all
 * 2^(n−1) schedules (brute force through the plain evaluator, which shares no code with the
 * DP's tables), on seeded jobs of the paper's workload (10 slices of 1–5 h, images of
 * 10–512 Mbit over a 1.5 Mbit/s link, costs in whole minutes) under Table I's availability law.
 */
function dpOptimalityRow(): ReproductionRow {
  const law = bktLaw(BKT_PAPER_PRESET.availability, "availability");
  const random = createRandom(10);
  const n = 10;
  let worst = 0;
  for (let job = 0; job < 12; job++) {
    const slicesSeconds = Array.from({ length: n }, () => random.uniform(1, 5) * 3600);
    const costsQuanta = Array.from({ length: n }, () => Math.ceil(random.uniform(10, 512) / 1.5 / 60));
    const plain = { slicesSeconds, costsSeconds: costsQuanta.map((c) => 60 * c) };
    let best = Infinity;
    for (let mask = 0; mask < 1 << (n - 1); mask++) {
      const schedule = [...Array.from({ length: n - 1 }, (_, i) => i + 1).filter((i) => (mask >> (i - 1)) & 1), n];
      best = Math.min(best, expectedWaste(plain, schedule, law, { alpha: 1, beta: 0 }).bkt);
    }
    const dp = variableCostDp({ slicesSeconds, costsQuanta, quantumSeconds: 60, law, alpha: 1, beta: 0, objective: "bkt" });
    worst = Math.max(worst, Math.abs(dp.expectedWaste - best) / best);
  }
  return compareWithPublished({
    id: "bkt/rb10/dp-optimal",
    quantity: "RB10: largest relative gap between the DP's expected waste and the brute-force optimum (12 jobs of 10 slices)",
    source: "[BKT] §III-C (the shortest path is optimal)",
    paper: 0,
    ours: worst,
    unit: "relative gap",
    how: "variableCostDp with [BKT]'s objective against every schedule's expected waste (pipeline/place/expected-waste.ts), Weibull(0.431, 1.682 h), α = 1",
    tolerance: { absolute: 1e-9, rationale: "floating-point agreement of two independent evaluations" },
  });
}

/** The RB rows (docs/science.md §6.1.8) of a grid: RB1–RB9 from its suspend cells (none for a grid on a trace), RB10 from the DP. RB11 is bktLawReproductionRows. */
export function bktReproductionRows(merged: MergedSweep): ReproductionRow[] {
  return [...gridRows(merged), dpOptimalityRow()];
}

function gridRows(merged: MergedSweep): ReproductionRow[] {
  if (bktGridTrace(merged) !== null) return [];
  const all = cells(merged).filter((c) => c.transient === "suspend");
  const clientCounts = sortedUnique(all.map((c) => c.clients));
  if (clientCounts.length < 3) return [];
  const [small, middle, large] = clientCounts as [number, number, number];
  const scale = PAPER_CLIENTS[0]! / small;
  const how = `our [BKT] simulator on the pipeline's grid (paper's ÷ ${scale}, ${all[0]!.group.seeds.length} seeds, suspend: the project's calibration), means per cell`;
  const at = (clients: number) => all.filter((c) => c.clients === clients).sort((a, b) => a.jobs - b.jobs);
  const v = (c: Cell, policy: string, metric: string) => c.group.policies![policy]![metric]!.mean;
  const f = (x: number) => x.toFixed(2);
  const rows: ReproductionRow[] = [];

  const smallCells = at(small);
  const ratios = smallCells.map((c) => Math.min(v(c, "periodic", "makespanH"), v(c, "pckp", "makespanH")) / v(c, "none", "makespanH"));
  const best = Math.min(...ratios);
  rows.push(
    compareWithPublished({
      id: "bkt/rb1/best-ft-ratio",
      quantity: "RB1: best makespan ratio checkpointing / Without FT, 5000 clients",
      source: `${SOURCE}, Fig. 1(a) ("up to a factor 40 %")`,
      paper: 0.655,
      ours: best,
      unit: "ratio",
      how,
      tolerance: { absolute: 0.055, rationale: "the phrase admits 0.60 (40 % below) to 0.71 (Without FT 40 % above): the interval [0.60, 0.71]" },
      whenDiffers: `ratios per bag size ${ratios.map(f).join(", ")}`,
    }),
  );
  const pckpVsPeriodic = smallCells.map((c) => v(c, "pckp", "makespanH") / v(c, "periodic", "makespanH"));
  const meanRatio = pckpVsPeriodic.reduce((a, b) => a + b, 0) / pckpVsPeriodic.length;
  rows.push(trendRow("bkt/rb2/pckp-vs-periodic", "RB2: PCkP slightly better than Periodic in makespan, 5000 clients", meanRatio < 1, `mean PCkP/Periodic makespan ratio ${f(meanRatio)} (per bag size ${pckpVsPeriodic.map(f).join(", ")})`, how));
  const largestSmall = smallCells[smallCells.length - 1]!;
  rows.push(
    compareWithPublished({
      id: "bkt/rb3/waste-half",
      quantity: "RB3: PCkP's average wasted time / Periodic's, 5000 clients, 10000 jobs",
      source: `${SOURCE}, Fig. 1(b) ("reduces by a factor of 2")`,
      paper: 0.5,
      ours: v(largestSmall, "pckp", "averageWasteH") / v(largestSmall, "periodic", "averageWasteH"),
      unit: "ratio",
      how,
      tolerance: { absolute: 0.1, rationale: "a factor of 2 read from a figure, ±0.1" },
    }),
  );
  const middleCells = at(middle);
  const pckpBest = (c: Cell) => v(c, "pckp", "makespanH") <= Math.min(v(c, "periodic", "makespanH"), v(c, "none", "makespanH"));
  const middleWins = middleCells.filter(pckpBest).length;
  rows.push(trendRow("bkt/rb4/pckp-best-10000", "RB4: PCkP beats both others in makespan, 10000 clients", middleWins > middleCells.length / 2, `best at ${middleWins} of ${middleCells.length} bag sizes`, how));
  const overheadRatios = middleCells.map((c) => v(c, "pckp", "checkpointOverheadH") / v(c, "periodic", "checkpointOverheadH"));
  rows.push(
    trendRow(
      "bkt/rb5/overhead-half-10000",
      "RB5: PCkP's checkpoint overhead ≤ ½ of Periodic's, 10000 clients",
      overheadRatios.every((r) => r <= 0.5),
      `PCkP/Periodic overhead ratios ${overheadRatios.map(f).join(", ")}; checkpoints taken PCkP/Periodic ${middleCells.map((c) => f(v(c, "pckp", "checkpointsTaken") / v(c, "periodic", "checkpointsTaken"))).join(", ")}`,
      how,
    ),
  );
  const largeCells = at(large);
  const firstLarge = largeCells[0]!;
  const restLargeWins = largeCells.slice(1).filter(pckpBest).length;
  rows.push(
    trendRow(
      "bkt/rb6/20000",
      "RB6: 20000 clients: PCkP best except at 1000 jobs, where Without FT is slightly better",
      restLargeWins > (largeCells.length - 1) / 2 && v(firstLarge, "none", "makespanH") < v(firstLarge, "pckp", "makespanH"),
      `PCkP best at ${restLargeWins} of ${largeCells.length - 1} larger bags; at the smallest, Without FT ${f(v(firstLarge, "none", "makespanH"))} h vs PCkP ${f(v(firstLarge, "pckp", "makespanH"))} h`,
      how,
    ),
  );
  const noneBeatsPeriodic = largeCells.filter((c) => v(c, "none", "makespanH") < v(c, "periodic", "makespanH") && v(c, "none", "averageWasteH") < v(c, "periodic", "averageWasteH")).length;
  rows.push(trendRow("bkt/rb7/none-beats-periodic-20000", "RB7: 20000 clients: Without FT beats Periodic in makespan and wasted time", noneBeatsPeriodic > largeCells.length / 2, `at ${noneBeatsPeriodic} of ${largeCells.length} bag sizes`, how));
  const lessOverhead = largeCells.filter((c) => v(c, "pckp", "checkpointOverheadH") < v(c, "periodic", "checkpointOverheadH")).length;
  rows.push(trendRow("bkt/rb8/overhead-20000", "RB8: 20000 clients: PCkP has less checkpoint overhead than Periodic", lessOverhead > largeCells.length / 2, `at ${lessOverhead} of ${largeCells.length} bag sizes`, how));
  const overall = all.filter(pckpBest).length;
  rows.push(trendRow("bkt/rb9/overall", "RB9: overall, PCkP beats both others in completion time", overall > all.length / 2, `best in ${overall} of ${all.length} cells`, how));
  return rows;
}
