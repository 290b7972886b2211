/**
 * The DP placer's part of the report (docs/science.md §5): per scenario, the checkpoints of every
 * policy on the job's time line, and the expected waste of each under both objectives
 * with the Monte Carlo interval; and one table of all the wastes. The reproduction of Daly's
 * published periods, which the baselines use, is the reproduce stage's
 * (pipeline/reproduce/daly-rows.ts).
 */
import type { Objective } from "../../place/objective";
import type { ScenarioPlacement } from "../../place/scenario-placement";
import type { Figure } from "./figure";
import { placementTimelineFigure } from "./placement-timeline-spec";
import type { Table } from "../tables/table";
import { wasteByPolicyFigure } from "./waste-by-policy-spec";

const OBJECTIVE_LABELS: Record<Objective, string> = {
  paper: "papers' objective (first failure)",
  complete: "complete objective (docs/science.md §5.3)",
  bkt: "[BKT]'s objective (docs/science.md §6.1.5)",
};

const HOUR = 3600;

export function placeFigures(scenarios: readonly ScenarioPlacement[]): { figures: Figure[]; tables: Table[] } {
  const figures: Figure[] = [];
  for (const s of scenarios) {
    const p = s.placement;
    const labels = p.policies.map((policy) => policyLabel(policy.label, s.scenario.objective));
    const context = `${s.scenario.description}; costs: ${s.costSource}; α = ${p.alpha}, β = ${p.beta}, costs in quanta of ${p.quantumSeconds} s`;
    figures.push(
      placementTimelineFigure({
        id: `place-${s.name}-timeline`,
        title: `Checkpoints placed by each policy (${s.name})`,
        caption:
          `Failure-free time line of ${context}. Grey: the job's slices; orange: a checkpoint and its cost. The DP minimises the ` +
          `${OBJECTIVE_LABELS[p.objective]}; Young and Daly periods are mapped to slices on cumulative cost (as [BKT] writes) and on cumulative work.`,
        policies: labels,
        bars: p.policies.flatMap((policy, i) => [
          ...policy.timeline.slices.map((slice) => ({
            policy: labels[i]!,
            kind: "slice" as const,
            slice: slice.slice,
            startHours: slice.startSeconds / HOUR,
            endHours: slice.endSeconds / HOUR,
          })),
          ...policy.timeline.checkpoints.map((c) => ({
            policy: labels[i]!,
            kind: "checkpoint" as const,
            slice: c.afterSlice,
            startHours: c.startSeconds / HOUR,
            endHours: c.endSeconds / HOUR,
          })),
        ]),
      }),
      wasteByPolicyFigure({
        id: `place-${s.name}-waste`,
        title: `Expected waste by policy (${s.name})`,
        caption:
          `Expected waste of each policy's checkpoints for ${context}: analytic value (circle) and the mean of ` +
          `${p.policies[0]?.monteCarlo?.firstFailure.runs ?? 0} simulated executions up to the first failure with its 95 % normal-approximation interval, mean ± 1.96 s/√N (square), ` +
          `under the papers' objective and under the complete one that also charges the overhead of runs that never fail.`,
        policies: labels,
        objectives: Object.values(OBJECTIVE_LABELS),
        points: p.wasteTable.map((row) => ({
          policy: policyLabel(row.label, s.scenario.objective),
          objective: OBJECTIVE_LABELS[row.objective],
          analyticHours: row.expectedWasteSeconds / HOUR,
          monteCarloHours: row.monteCarloMeanSeconds === null ? null : row.monteCarloMeanSeconds / HOUR,
          lowHours: row.monteCarloLowSeconds === null ? null : row.monteCarloLowSeconds / HOUR,
          highHours: row.monteCarloHighSeconds === null ? null : row.monteCarloHighSeconds / HOUR,
          runs: row.monteCarloRuns,
        })),
      }),
    );
  }
  const table: Table = {
    id: "place-waste",
    title: "Expected waste by scenario, policy and objective",
    caption:
      "Analytic expected waste of each policy's checkpoints and the Monte Carlo estimate (first-failure model, common random numbers " +
      "across policies) with its 95 % interval; \"covered\" says whether the interval contains the analytic value.",
    columns: [
      { key: "scenario", label: "scenario" },
      { key: "policy", label: "policy" },
      { key: "checkpoints", label: "checkpoints after slices" },
      { key: "objective", label: "objective" },
      { key: "analytic", label: "expected waste", unit: "s", decimals: 1 },
      { key: "mc", label: "Monte Carlo mean", unit: "s", decimals: 1 },
      { key: "low", label: "95 % low", unit: "s", decimals: 1 },
      { key: "high", label: "95 % high", unit: "s", decimals: 1 },
      { key: "covered", label: "covered" },
    ],
    rows: scenarios.flatMap((s) =>
      s.placement.wasteTable.map((row) => ({
        scenario: s.name,
        policy: policyLabel(row.label, s.scenario.objective),
        checkpoints: s.placement.policies.find((p) => p.label === row.label)!.checkpoints.join(" "),
        objective: row.objective,
        analytic: row.expectedWasteSeconds,
        mc: row.monteCarloMeanSeconds,
        low: row.monteCarloLowSeconds,
        high: row.monteCarloHighSeconds,
        covered:
          row.monteCarloLowSeconds === null || row.monteCarloHighSeconds === null
            ? null
            : row.monteCarloLowSeconds <= row.expectedWasteSeconds && row.expectedWasteSeconds <= row.monteCarloHighSeconds
              ? "yes"
              : "no",
      })),
    ),
  };
  return { figures, tables: [table] };
}

/** "dp" → "DP (paper objective)"; baselines keep their label, e.g. "young (cost)". */
function policyLabel(label: string, objective: Objective): string {
  return label === "dp" ? `DP (${objective} objective)` : label;
}
