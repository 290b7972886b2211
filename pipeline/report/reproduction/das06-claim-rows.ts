/**
 * The reproduction rows of the [DAS06] claim investigation (docs/investigations/das06-tr-
 * fastest.md): "FCFS-TR is the fastest" (RD4, RD7, RD9), checked as the report's RD rows check
 * it (das06-figures.ts), on each trace of the traces grid — the synthetic classroom trace, LANL,
 * the Microsoft 1999 desktops — under each predictor, and at every setting of the synthetic
 * generator's parameters. A row holds when all three orderings hold.
 */
import type { MergedGroup, MergedSweep } from "../../simulate/sweep/merge-sweep";
import { das06OrderingRows } from "../figures/das06-figures";
import { trendRow, type ReproductionRow } from "./reproduction";

const CLAIMS = ["das06/rd4/25-1800-m01", "das06/rd7/75-1800", "das06/rd9/weekend-m01"];
const SOURCE = "[DAS06] Figs 2 (left), 4, 6";

/** The groups of a grid split by the parameters that are not a cell of the paper's grid (trace, predictor, generator). */
function splitBy(merged: MergedSweep, key: (g: MergedGroup) => string): Map<string, MergedSweep> {
  const parts = new Map<string, MergedSweep>();
  for (const g of merged.groups) {
    const k = key(g);
    const part = parts.get(k) ?? { ...merged, cells: [], groups: [] };
    part.groups.push(g);
    parts.set(k, part);
  }
  return parts;
}

function predictorLabel(g: MergedGroup): string {
  const p = g.parameters;
  return p.predictor === "noisy-oracle" ? `noisy predictor (false alarms ${Number(p.falsePositive ?? 0.1) * 100} %, missed failures ${Number(p.falseNegative ?? 0.1) * 100} %)` : "oracle predictor";
}

/** The cells each claim compares the policies over (as das06-figures.ts picks them). */
const CLAIM_CELLS: Record<string, (p: Record<string, unknown>) => boolean> = {
  "das06/rd4/25-1800-m01": (p) => p.startTimes === "weekday" && p.machineSet === "M01" && p.tasks === 25 && p.taskCpuS === 1800 && p.checkpointStore === "shared",
  "das06/rd7/75-1800": (p) => p.startTimes === "weekday" && p.tasks === 75 && p.taskCpuS === 1800,
  "das06/rd9/weekend-m01": (p) => p.startTimes === "weekend" && p.machineSet === "M01" && p.tasks === 75 && p.taskCpuS === 7200,
};
const POLICIES = ["FCFS", "FCFS-AT", "FCFS-TR", "FCFS-PRDCT-DMD"];

/** The relative spread of the four policies' mean slowdowns over a claim's cells: below 1 %, no policy is faster on that trace. */
function spread(part: MergedSweep, id: string): number {
  const groups = part.groups.filter((g) => CLAIM_CELLS[id]!(g.parameters));
  const means = POLICIES.map((policy) => groups.reduce((sum, g) => sum + (g.policies?.[policy]?.slowdown?.mean ?? NaN), 0) / groups.length);
  return Math.max(...means) / Math.min(...means) - 1;
}

/** RD4, RD7 and RD9 on a part of a grid: whether each holds, whether the policies differ at all there, and the evidence. */
function claims(part: MergedSweep): { holds: boolean[]; tied: boolean[]; evidence: string } {
  const rows = das06OrderingRows(part).filter((r) => CLAIMS.includes(r.id));
  const tied = CLAIMS.map((id) => spread(part, id) < 0.01);
  return {
    holds: CLAIMS.map((id) => rows.find((r) => r.id === id)?.ours === 1),
    tied,
    evidence: CLAIMS.map((id, i) => {
      const r = rows.find((row) => row.id === id)!;
      return `${id.split("/")[1]!.toUpperCase()} ${r.ours === 1 ? "holds" : "does not"}${tied[i] ? " (the four policies within 1 %: none is faster on this trace)" : ""} (${r.reason.replace(/^(does not hold|holds) [^:]*: /, "")})`;
    }).join("; "),
  };
}

export function das06TraceClaimRows(merged: MergedSweep): ReproductionRow[] {
  const traceName = (g: MergedGroup) => (g.parameters.trace == null ? "the synthetic classroom trace" : String(g.parameters.trace));
  return [...splitBy(merged, (g) => `${traceName(g)}|${predictorLabel(g)}`)].map(([key, part]) => {
    const [trace, predictor] = key.split("|") as [string, string];
    const { holds, evidence } = claims(part);
    const slug = `${trace.includes("lanl") ? "lanl05" : trace.includes("microsoft") ? "microsoft99" : "synthetic"}/${predictor.startsWith("oracle") ? "oracle" : `noisy-${Number(part.groups[0]!.parameters.falsePositive) * 100}`}`;
    return trendRow({
      id: `investigation/das06/${slug}/tr-fastest`,
      quantity: `RD4, RD7 and RD9 on ${trace}, ${predictor}: FCFS-TR is the fastest`,
      source: SOURCE,
      holds: holds.every(Boolean),
      evidence,
      how: `our [DAS06] simulator on data/simulations/das06-claims-traces.json: ${trace}, ${predictor}; mean slowdown over every starting point`,
      where: `on ${trace} with the ${predictor}`,
    });
  });
}

export function das06GeneratorClaimRows(merged: MergedSweep): ReproductionRow[] {
  const setting = (g: MergedGroup) => {
    const s = g.parameters.synthetic as { meanOnHours: number; meanAvailability: number; rebootsPerOnHour: number };
    return `ON ${s.meanOnHours} h, availability ${(100 * s.meanAvailability).toFixed(1)} %, reboots ${s.rebootsPerOnHour}/h`;
  };
  return [...splitBy(merged, predictorLabel)].map(([predictor, part]) => {
    const settings = [...splitBy(part, setting)].map(([label, sub]) => ({ label, ...claims(sub) }));
    const all = settings.filter((s) => s.holds.every(Boolean));
    const perClaim = CLAIMS.map((id, i) => `${id.split("/")[1]!.toUpperCase()} at ${settings.filter((s) => s.holds[i]).length} (the policies within 1 % at ${settings.filter((s) => s.tied[i]).length})`).join(", ");
    return trendRow({
      id: `investigation/das06/generator/${predictor.startsWith("oracle") ? "oracle" : "noisy"}/tr-fastest`,
      quantity: `RD4, RD7 and RD9 over the synthetic generator's range, ${predictor}: FCFS-TR is the fastest at some setting`,
      source: SOURCE,
      holds: all.length > 0,
      evidence: `all three hold at ${all.length} of ${settings.length} settings${all.length > 0 ? ` (${all.map((s) => s.label).join("; ")})` : ""}; ${perClaim} of ${settings.length}`,
      how: `our [DAS06] simulator on data/simulations/das06-claims-generator.json (mean ON 2, 8, 24 h × availability 40, 54.4, 70 % × reboots 0, 0.1 per ON hour), ${predictor}; mean slowdown over every starting point`,
      where: `over the generator's range with the ${predictor}`,
    });
  });
}
