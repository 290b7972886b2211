/**
 * The reproduction rows of the [BKT] claim investigation (docs/investigations/bkt-pckp-halves-
 * periodic.md): "PCkP halves the waste of Periodic and takes half as many checkpoints" (RB3,
 * RB5) and the 20000-client trends (RB6, RB7), from the paper-scale grid under each reading,
 * and whether a 2× difference is reachable anywhere on the map of checkpoint cost × server
 * load × transient mode. Ratios are ratios of the means over the seeds; the evidence gives
 * the share of slice boundaries each policy checkpointed, the quantity that bounds them.
 */
import type { MergedGroup, MergedSweep } from "../simulate/sweep/merge-sweep";
import { compareWithPublished, trendRow, type ReproductionRow } from "./reproduction";

const SOURCE = "[BKT] §IV-B";
/** The DP policies and how rows name them. */
const DPS = { pckp: "PCkP", "pckp-complete": "PCkP with the complete objective" } as const;
type Dp = keyof typeof DPS;

const mean = (g: MergedGroup, policy: string, metric: string) => g.policies?.[policy]?.[metric]?.mean ?? NaN;
const f2 = (x: number) => x.toFixed(2);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** A reading of the paper-scale grid: the parameters that are not the cell (clients, jobs). */
function readingOf(g: MergedGroup): { key: string; label: string } {
  const p = g.parameters;
  const transient = String(p.transient ?? "suspend");
  const law = String(p.failureLawForPolicy ?? "availability");
  const unit = String(p.checkpointSizeUnit ?? "Mbit");
  const quantum = Number(p.quantumS ?? 60);
  const parts: string[] = [];
  if (unit === "MB") parts.push(`sizes in MB, DP quantum ${quantum / 60} min`);
  if (law !== "availability") parts.push(`policies planning with the ${law === "lifetime" ? "hosts' remaining lifetime" : law} law`);
  const label = `${parts.length === 0 ? "printed reading" : parts.join(", ")}, ${transient}`;
  return { key: `${unit}-${law}-${transient}`.toLowerCase(), label };
}

/**
 * The groups of a reading where Periodic (and Without FT) plan as in `periodicFrom` and the DP
 * policies as in `dpFrom`, cell by cell. Each policy runs alone on the same hosts and jobs
 * (common random numbers), so a policy's results under one reading do not depend on what the
 * others did: the comparison is as if both had run in one cell.
 */
function mixed(periodicFrom: MergedGroup[], dpFrom: MergedGroup[]): MergedGroup[] {
  const cell = (g: MergedGroup) => `${g.parameters.clients}|${g.parameters.jobs}`;
  return periodicFrom.flatMap((p) => {
    const d = dpFrom.find((g) => cell(g) === cell(p));
    if (d === undefined || d.policies === undefined || p.policies === undefined) return [];
    return [{ ...p, policies: { none: p.policies.none!, periodic: p.policies.periodic!, ...Object.fromEntries(Object.keys(DPS).map((dp) => [dp, d.policies![dp]!])) } }];
  });
}

/**
 * The paper-scale rows: per reading, RB3 and RB5 for each DP objective, RB6 and RB7; and the
 * mixed reading where Periodic plans with the availability law (printed) and PCkP with the
 * hosts' remaining lifetime.
 */
export function bktPaperScaleRows(merged: MergedSweep): ReproductionRow[] {
  const byReading = new Map<string, { label: string; groups: MergedGroup[] }>();
  for (const g of merged.groups) {
    const r = readingOf(g);
    const entry = byReading.get(r.key) ?? { label: r.label, groups: [] };
    entry.groups.push(g);
    byReading.set(r.key, entry);
  }
  const printed = byReading.get("mbit-availability-suspend");
  const lifetime = byReading.get("mbit-lifetime-suspend");
  if (printed !== undefined && lifetime !== undefined) {
    byReading.set("mbit-mixed-suspend", { label: "Periodic planning with the availability law, PCkP with the hosts' remaining lifetime, suspend", groups: mixed(printed.groups, lifetime.groups) });
  }
  const rows: ReproductionRow[] = [];
  for (const [key, { label, groups }] of byReading) {
    const seeds = groups[0]!.seeds.length;
    const how = `our [BKT] simulator at the paper's scale (data/simulations/bkt-claims-paper-scale.json), ${label}; ${seeds} seeds per cell, ratios of the means`;
    const at = (clients: number, jobs: number) => groups.find((g) => Number(g.parameters.clients) === clients && Number(g.parameters.jobs) === jobs);
    const shares = (g: MergedGroup, dp: Dp) => `slice boundaries checkpointed: Periodic ${pct(mean(g, "periodic", "checkpointShare"))}, ${DPS[dp]} ${pct(mean(g, dp, "checkpointShare"))}`;
    for (const dp of Object.keys(DPS) as Dp[]) {
      const rb3 = at(5000, 10000);
      if (rb3 !== undefined) {
        rows.push(
          compareWithPublished({
            id: `investigation/bkt/${key}/${dp}/rb3-waste-ratio`,
            quantity: `RB3 at the paper's scale (${label}): ${DPS[dp]}'s average wasted time / Periodic's, 5000 clients, 10000 jobs`,
            source: `${SOURCE}, Fig. 1(b) ("reduces by a factor of 2")`,
            paper: 0.5,
            ours: mean(rb3, dp, "averageWasteH") / mean(rb3, "periodic", "averageWasteH"),
            unit: "ratio",
            how,
            tolerance: { absolute: 0.1, rationale: "a factor of 2 read from a figure, ±0.1" },
            whenDiffers: `${shares(rb3, dp)}; checkpoints taken ${DPS[dp]}/Periodic ${f2(mean(rb3, dp, "checkpointsTaken") / mean(rb3, "periodic", "checkpointsTaken"))}`,
          }),
        );
      }
      const rb5 = at(10000, 10000);
      if (rb5 !== undefined) {
        const checkpoints = mean(rb5, dp, "checkpointsTaken") / mean(rb5, "periodic", "checkpointsTaken");
        const overhead = mean(rb5, dp, "checkpointOverheadH") / mean(rb5, "periodic", "checkpointOverheadH");
        rows.push(
          trendRow({
            id: `investigation/bkt/${key}/${dp}/rb5-half-the-checkpoints`,
            quantity: `RB5 at the paper's scale (${label}): ${DPS[dp]} takes at most half of Periodic's checkpoints, 10000 clients, 10000 jobs`,
            source: `${SOURCE}, Fig. 2(b) ("performs less checkpoints than the periodic policy at least by a factor 2")`,
            holds: checkpoints <= 0.5 && overhead <= 0.5,
            evidence: `checkpoints taken ${DPS[dp]}/Periodic ${f2(checkpoints)}, checkpoint overhead ${f2(overhead)}; ${shares(rb5, dp)}`,
            how,
            where: `at the paper's scale (${label})`,
          }),
        );
      }
    }
    const small = at(20000, 1000);
    const large = at(20000, 10000);
    const cells20k = [small, large].filter((g): g is MergedGroup => g !== undefined);
    if (small !== undefined) {
      const pckpBestLarge = large === undefined ? null : mean(large, "pckp", "makespanH") <= Math.min(mean(large, "periodic", "makespanH"), mean(large, "none", "makespanH"));
      const noneBetterSmall = mean(small, "none", "makespanH") < mean(small, "pckp", "makespanH");
      rows.push(
        trendRow({
          id: `investigation/bkt/${key}/rb6-20000`,
          quantity: `RB6 at the paper's scale (${label}): 20000 clients, Without FT slightly better than PCkP at 1000 jobs${large ? ", PCkP best at 10000" : ""}`,
          source: `${SOURCE}, Fig. 3(a)`,
          holds: noneBetterSmall && pckpBestLarge !== false,
          evidence:
            `makespan at 1000 jobs: Without FT ${f2(mean(small, "none", "makespanH"))} h, Periodic ${f2(mean(small, "periodic", "makespanH"))} h, PCkP ${f2(mean(small, "pckp", "makespanH"))} h` +
            (large ? `; at 10000 jobs: ${f2(mean(large, "none", "makespanH"))}, ${f2(mean(large, "periodic", "makespanH"))}, ${f2(mean(large, "pckp", "makespanH"))} h` : ""),
          how,
          where: `at the paper's scale (${label})`,
        }),
      );
    }
    if (cells20k.length > 0) {
      const wins = cells20k.filter((g) => mean(g, "none", "makespanH") < mean(g, "periodic", "makespanH") && mean(g, "none", "averageWasteH") < mean(g, "periodic", "averageWasteH"));
      rows.push(
        trendRow({
          id: `investigation/bkt/${key}/rb7-20000`,
          quantity: `RB7 at the paper's scale (${label}): 20000 clients, Without FT beats Periodic in makespan and wasted time`,
          source: `${SOURCE}, Fig. 3(a), 3(b)`,
          holds: wins.length === cells20k.length,
          evidence: cells20k
            .map((g) => `${g.parameters.jobs} jobs: makespan ${f2(mean(g, "none", "makespanH"))} vs ${f2(mean(g, "periodic", "makespanH"))} h, waste ${f2(mean(g, "none", "averageWasteH"))} vs ${f2(mean(g, "periodic", "averageWasteH"))} h/client`)
            .join("; "),
          how,
          where: `at the paper's scale (${label})`,
        }),
      );
    }
  }
  return rows;
}

/** The map's rows: per transient mode, whether some cost scale and load gives a DP ≤ ½ of Periodic in both checkpoints and waste. */
export function bktCostMapRows(merged: MergedSweep): ReproductionRow[] {
  const base = 512;
  const rows: ReproductionRow[] = [];
  for (const transient of ["suspend", "abort"]) {
    const groups = merged.groups.filter((g) => String(g.parameters.transient) === transient);
    const lawOf = (g: MergedGroup) => String(g.parameters.failureLawForPolicy ?? "availability");
    const sameCell = (a: MergedGroup, b: MergedGroup) =>
      JSON.stringify(a.parameters.checkpointMbit) === JSON.stringify(b.parameters.checkpointMbit) && JSON.stringify(a.parameters.server) === JSON.stringify(b.parameters.server);
    // Each DP against Periodic of its own reading, and the DPs planning with the lifetime against Periodic planning with the availability law (the mixed reading; policies run alone on common random numbers).
    const pairs = [
      ...groups.map((g) => ({ law: lawOf(g), periodic: g, dps: g })),
      ...groups.filter((g) => lawOf(g) === "lifetime").flatMap((g) => {
        const printed = groups.find((o) => lawOf(o) === "availability" && sameCell(o, g));
        return printed === undefined ? [] : [{ law: "mixed (Periodic: availability, PCkP: lifetime)", periodic: printed, dps: g }];
      }),
    ];
    const points = pairs.flatMap(({ law, periodic, dps }) =>
      (Object.keys(DPS) as Dp[])
        .filter((dp) => dps.policies?.[dp] !== undefined)
        .map((dp) => ({
          dp,
          law,
          scale: Number((dps.parameters.checkpointMbit as number[])[1]) / base,
          connections: Number((dps.parameters.server as { connections: number }).connections),
          checkpoints: mean(dps, dp, "checkpointsTaken") / mean(periodic, "periodic", "checkpointsTaken"),
          waste: mean(dps, dp, "averageWasteH") / mean(periodic, "periodic", "averageWasteH"),
          sharePeriodic: mean(periodic, "periodic", "checkpointShare"),
          shareDp: mean(dps, dp, "checkpointShare"),
        })),
    );
    if (points.length === 0) continue;
    const paperClients = (connections: number) => (100 * 1000) / connections;
    const describe = (p: (typeof points)[number]) =>
      `×${p.scale}, load of ${paperClients(p.connections)} clients, ${p.law} law, ${DPS[p.dp]}: checkpoints ${f2(p.checkpoints)}, waste ${f2(p.waste)} (boundaries ${pct(p.shareDp)} vs Periodic ${pct(p.sharePeriodic)})`;
    const halved = points.filter((p) => p.checkpoints <= 0.5 && p.waste <= 0.5);
    const fewest = points.reduce((a, b) => (b.checkpoints < a.checkpoints ? b : a));
    const leastWaste = points.reduce((a, b) => (b.waste < a.waste ? b : a));
    const printedScale = points.filter((p) => p.scale === 1 && p.law === "availability" && p.dp === "pckp");
    rows.push(
      trendRow({
        id: `investigation/bkt/map/${transient}/half-reachable`,
        quantity: `RB3 and RB5 together (${transient}): some checkpoint cost (×1–×32 the printed) and server load gives PCkP ≤ ½ of Periodic in both checkpoints and wasted time`,
        source: `${SOURCE}, Figs 1(b), 2(b)`,
        holds: halved.length > 0,
        evidence:
          `${halved.length} of ${points.length} points` +
          (halved.length > 0 ? ` (first: ${describe(halved[0]!)})` : "") +
          `; fewest checkpoints: ${describe(fewest)}; least waste: ${describe(leastWaste)}; at the printed cost: ${printedScale.map((p) => `load of ${paperClients(p.connections)} clients checkpoints ${f2(p.checkpoints)}, waste ${f2(p.waste)}`).join("; ")}`,
        how: `our [BKT] simulator on the map data/simulations/bkt-claims-map.json (1000 clients, 500 jobs, the server's connections scaled to the paper's client counts, checkpoint images ×1–×32 with the DP's quantum alike, ${merged.groups[0]!.seeds.length} seeds), ratios of the means`,
        where: `on the map (${transient})`,
      }),
    );
  }
  return rows;
}
