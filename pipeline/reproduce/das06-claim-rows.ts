/**
 * The reproduction rows of the [DAS06] claim investigation (docs/investigations/das06-tr-
 * fastest.md): "FCFS-TR is the fastest" in the cells of RD4 (25 tasks of 1800 s on M01,
 * shared), RD7 (75 tasks of 1800 s, on M01 and on M04) and RD9 (weekend, 75 tasks of 7200 s on
 * M01), on each trace of the traces grid — the synthetic classroom trace, LANL, the Microsoft
 * 1999 desktops — under each predictor, and at every setting of the synthetic generator.
 *
 * The claims are orderings of bar heights in the paper's figures, so each is judged by TR's
 * margin over the fastest other policy (mean slowdown over the claim's cells): it holds when
 * TR is faster by at least 0.5 %, fails when slower by that much, and cannot be told apart in
 * between (a tie: on a trace where nothing fails during a bag, every policy takes the ideal
 * time). A row holds when no claim fails and at least one holds.
 */
import type { MergedGroup, MergedSweep } from "../simulate/sweep/merge-sweep";
import { trendRow, type ReproductionRow } from "./reproduction";

const SOURCE = "[DAS06] Figs 2 (left), 4, 6";
const POLICIES = ["FCFS", "FCFS-AT", "FCFS-TR", "FCFS-PRDCT-DMD"];
/** Below this relative margin, TR and the fastest other policy cannot be told apart. */
const TIE = 0.005;

/** The cells each claim compares the policies over (as the RD rows pick them, das06-rows.ts). */
const CLAIMS: { name: string; cells: (p: Record<string, unknown>) => boolean }[] = [
  { name: "RD4", cells: (p) => p.startTimes === "weekday" && p.machineSet === "M01" && p.tasks === 25 && p.taskCpuS === 1800 && p.checkpointStore === "shared" },
  { name: "RD7 (M01)", cells: (p) => p.startTimes === "weekday" && p.machineSet === "M01" && p.tasks === 75 && p.taskCpuS === 1800 },
  { name: "RD7 (M04)", cells: (p) => p.startTimes === "weekday" && p.machineSet === "M04" && p.tasks === 75 && p.taskCpuS === 1800 },
  { name: "RD9", cells: (p) => p.startTimes === "weekend" && p.machineSet === "M01" && p.tasks === 75 && p.taskCpuS === 7200 },
];

type Outcome = "holds" | "tie" | "fails";

interface ClaimResult {
  name: string;
  outcome: Outcome;
  text: string;
}

/** Each claim on a set of groups (one trace, one predictor): TR's margin over the fastest other policy. */
function judge(groups: MergedGroup[]): ClaimResult[] {
  return CLAIMS.flatMap(({ name, cells }) => {
    const chosen = groups.filter((g) => cells(g.parameters));
    if (chosen.length === 0) return [];
    const means = POLICIES.map((policy) => chosen.reduce((sum, g) => sum + (g.policies?.[policy]?.slowdown?.mean ?? NaN), 0) / chosen.length);
    const tr = means[2]!;
    const others = means.filter((_, i) => i !== 2);
    const fastestOther = Math.min(...others);
    const margin = (fastestOther - tr) / fastestOther;
    const outcome: Outcome = margin >= TIE ? "holds" : margin <= -TIE ? "fails" : "tie";
    const fastest = POLICIES[means.indexOf(Math.min(...means))]!;
    return [{ name, outcome, text: `${name} ${outcome === "tie" ? "tie" : outcome} (fastest ${fastest}; TR ${signed(100 * margin)} % against the fastest other; ${POLICIES.map((p, i) => `${p.replace("FCFS-", "")} ${means[i]!.toFixed(3)}`).join(", ")})` }];
  });
}

const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`;
const verdict = (results: ClaimResult[]) => results.some((r) => r.outcome === "holds") && !results.some((r) => r.outcome === "fails");

function groupBy(groups: MergedGroup[], key: (g: MergedGroup) => string): Map<string, MergedGroup[]> {
  const parts = new Map<string, MergedGroup[]>();
  for (const g of groups) {
    const k = key(g);
    const part = parts.get(k) ?? [];
    part.push(g);
    parts.set(k, part);
  }
  return parts;
}

function predictorLabel(g: MergedGroup): string {
  const p = g.parameters;
  return p.predictor === "noisy-oracle" ? `noisy predictor (false alarms ${Number(p.falsePositive ?? 0.1) * 100} %, missed failures ${Number(p.falseNegative ?? 0.1) * 100} %)` : "oracle predictor";
}

const MARGIN_RULE = "TR's margin over the fastest other policy, mean slowdown over the claim's cells and every starting point: holds at ≥ 0.5 %, a tie within ±0.5 %";

export function das06TraceClaimRows(merged: MergedSweep): ReproductionRow[] {
  const traceName = (g: MergedGroup) => (g.parameters.trace == null ? "the synthetic classroom trace" : String(g.parameters.trace));
  return [...groupBy(merged.groups, (g) => `${traceName(g)}|${predictorLabel(g)}`)].map(([key, groups]) => {
    const [trace, predictor] = key.split("|") as [string, string];
    const results = judge(groups);
    const slug = `${trace.includes("lanl") ? "lanl05" : trace.includes("microsoft") ? "microsoft99" : "synthetic"}/${predictor.startsWith("oracle") ? "oracle" : `noisy-${Number(groups[0]!.parameters.falsePositive) * 100}`}`;
    return trendRow({
      id: `investigation/das06/${slug}/tr-fastest`,
      quantity: `RD4, RD7 and RD9 on ${trace}, ${predictor}: FCFS-TR is the fastest`,
      source: SOURCE,
      holds: verdict(results),
      evidence: results.map((r) => r.text).join("; "),
      how: `our [DAS06] simulator on data/simulations/das06-claims-traces.json: ${trace}, ${predictor}; ${MARGIN_RULE}`,
      where: `on ${trace} with the ${predictor}`,
    });
  });
}

export function das06GeneratorClaimRows(merged: MergedSweep): ReproductionRow[] {
  const setting = (g: MergedGroup) => {
    const s = g.parameters.synthetic as { meanOnHours: number; meanAvailability: number; rebootsPerOnHour: number };
    return `ON ${s.meanOnHours} h, availability ${(100 * s.meanAvailability).toFixed(1)} %, reboots ${s.rebootsPerOnHour}/h`;
  };
  return [...groupBy(merged.groups, predictorLabel)].map(([predictor, groups]) => {
    const settings = [...groupBy(groups, setting)].map(([label, part]) => ({ label, results: judge(part) }));
    const holding = settings.filter((s) => verdict(s.results));
    const count = (name: string, outcome: Outcome) => settings.filter((s) => s.results.some((r) => r.name === name && r.outcome === outcome)).length;
    const perClaim = CLAIMS.map(({ name }) => `${name} holds at ${count(name, "holds")}, ties at ${count(name, "tie")}, fails at ${count(name, "fails")}`).join("; ");
    return trendRow({
      id: `investigation/das06/generator/${predictor.startsWith("oracle") ? "oracle" : "noisy"}/tr-fastest`,
      quantity: `RD4, RD7 and RD9 over the synthetic generator's range, ${predictor}: FCFS-TR is the fastest at some setting`,
      source: SOURCE,
      holds: holding.length > 0,
      evidence: `at ${holding.length} of ${settings.length} settings${holding.length > 0 ? ` (${holding.map((s) => s.label).join("; ")})` : ""}; ${perClaim}`,
      how: `our [DAS06] simulator on data/simulations/das06-claims-generator.json (mean ON 2, 8, 24 h × availability 40, 54.4, 70 % × reboots 0, 0.1 per ON hour), ${predictor}; ${MARGIN_RULE}`,
      where: `over the generator's range with the ${predictor}`,
    });
  });
}
