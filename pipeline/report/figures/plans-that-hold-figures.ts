/**
 * The plans' uncertainty in a cluster's report (issue 34, point 6), drawn from the schedule
 * stage's `plans-that-hold` artifact (schedule/plans-that-hold.ts computes every number):
 * the fitted model's prediction band over its fitted domain, per measured size; the
 * example's mean and confident plans side by side with their miss probabilities (a table);
 * and the replay's miss rates of both plans.
 */
import type { PlansThatHold } from "../../schedule/plans-that-hold";
import type { Figure } from "./figure";
import { groupedBarsFigure } from "./grouped-bars-spec";
import { seriesLinesFigure } from "./series-lines-spec";
import type { Table } from "../tables/table";

const percentOf = (level: number) => `${Number((level * 100).toPrecision(3))} %`;
const planLabel = (plan: "mean" | number) => (plan === "mean" ? "mean plan" : `confident plan (${plan})`);

export function plansThatHoldFigures(plans: PlansThatHold, modelLabel: string): { figures: Figure[]; tables: Table[]; notes: string[] } {
  // The smallest and the largest measured size: more bands on one chart hide one another.
  const drawn = plans.band.length > 2 ? [plans.band[0]!, plans.band[plans.band.length - 1]!] : plans.band;
  const groups = drawn.map((b) => `v = ${b.sizeMb} MB`);
  const band = seriesLinesFigure({
    id: "prediction-band",
    title: "Prediction band of the fitted model",
    caption:
      `Mean aggregated bandwidth of the ${modelLabel} (lines) and its ${percentOf(plans.level)} prediction interval for one new checkpoint burst ` +
      `(bands: the run-to-run variance of the replicates plus the parameters' uncertainty, docs/science.md §3.6), for the smallest and the largest measured size v per writer, over the fitted domain only.`,
    xTitle: "m (simultaneous checkpoints)",
    padX: true,
    yTitle: "aggregated bandwidth (MB/s)",
    groupTitle: "size per writer",
    groups,
    points: drawn.flatMap((b, i) => b.points.map((p) => ({ group: groups[i]!, x: p.m, y: p.meanMbPerS, low: p.lowerMbPerS, high: p.upperMbPerS }))),
  });
  const { mean, confident } = plans.plans;
  const replay = "notApplicable" in plans.replay ? null : plans.replay;
  const table: Table = {
    id: "plans-mean-confident",
    title: "The mean plan and the confident plan",
    caption:
      `ScheduleCkpt on the example instance (${plans.plans.apps} applications, T = ${plans.plans.deadlineS} s) planned on the model's mean bandwidth and at confidence ${plans.confidence} ` +
      `(every started checkpoint ends by T with that probability, one factor for the whole release); miss probability: P(some started checkpoint ends after T) under the model's predictive distribution` +
      (replay !== null ? `; replay: each of the ${replay.folds} repetitions of the traces played as a measured release against a model fitted without it.` : "."),
    columns: [
      { key: "plan", label: "plan" },
      { key: "started", label: "checkpoints started" },
      { key: "planned", label: "work meant to be saved", unit: "s", decimals: 0 },
      { key: "miss", label: "miss probability (model)", decimals: 3 },
      { key: "replayMisses", label: "replays missing T" },
    ],
    rows: [mean, confident].map((side) => {
      const replayed = replay === null ? null : side.plan === "mean" ? replay.mean : replay.confident;
      return {
        plan: planLabel(side.plan),
        started: side.started,
        planned: side.plannedCtnysS,
        miss: side.missProbability,
        replayMisses: replayed === null ? null : `${replayed.misses} of ${replayed.replays}`,
      };
    }),
  };
  const figures: Figure[] = [band];
  const notes = [
    `The confidence gives up ${plans.plans.workGivenUpS.toFixed(0)} s of the mean plan's ${mean.plannedCtnysS.toFixed(0)} s (${(plans.plans.workGivenUpShare * 100).toFixed(1)} %).`,
  ];
  if (replay !== null) {
    const xValues = ["miss probability (model)", "miss rate (replay)"];
    const sides = [mean, confident].map((side) => planLabel(side.plan));
    figures.push(
      groupedBarsFigure({
        id: "replay-miss-rates",
        title: "How often each plan misses T",
        caption:
          `Share of releases in which some checkpoint the plan started does not end by T: predicted by the model (its predictive distribution) and measured by replaying ` +
          `${replay.mean.replays} held-out repetitions of the traces (leave one out, ${replay.heldOutRuns} runs; their ${percentOf(0.95)} intervals covered ${percentOf(replay.coverage)} of them). ` +
          `With few replays a rate is coarse: ${replay.mean.replays} replays can only show multiples of ${(100 / replay.mean.replays).toFixed(0)} %.`,
        xTitle: "",
        yTitle: "share of releases missing T",
        groupTitle: "plan",
        xValues,
        groups: sides,
        bars: [
          { x: xValues[0]!, group: sides[0]!, value: mean.missProbability },
          { x: xValues[0]!, group: sides[1]!, value: confident.missProbability },
          { x: xValues[1]!, group: sides[0]!, value: replay.mean.missRate },
          { x: xValues[1]!, group: sides[1]!, value: replay.confident.missRate },
        ],
        yFormat: ".0%",
      }),
    );
  } else if ("notApplicable" in plans.replay) {
    notes.push(`${plans.replay.notApplicable}.`);
  }
  return { figures, tables: [table], notes };
}
