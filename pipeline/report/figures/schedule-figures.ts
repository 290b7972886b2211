/**
 * The schedule stage's part of the report (docs/science.md §4): one ScheduleCkpt run against the
 * deadline with the device bandwidth over time; the CTNYS share by k0 and criterion per
 * family over many seeds with 95 % intervals, next to the published values; ScheduleCkpt
 * against its baselines (parallel vs sequential); the identical-size campaign against the
 * measured counts; the scheduler's time against n and k0 (measured, so that figure is
 * volatile). The reproduction rows are the reproduce stage's (`pipeline/reproduce/schedule-reproduction-rows.ts`).
 *
 * The published values (Azur's measured counts, the papers' single instances, their C code's
 * times) are drawn only next to a campaign planned with the published model: next to a
 * cluster's own model they would compare that cluster's predictions with Azur's measurements.
 */
import {
  PUBLISHED_FAMILY_RESULTS,
  PUBLISHED_IDENTICAL_SIZES_SOURCE,
  PUBLISHED_WAVES_SOURCE,
} from "../../schedule/published-values";
import type { CampaignResult } from "../../schedule/campaign";
import type { ScheduleExample } from "../../schedule/schedule-example";
import { isPaperCampaign } from "../../reproduce/paper-campaign";
import type { Figure } from "./figure";
import { ganttFigure } from "./gantt-spec";
import { groupedBarsFigure } from "./grouped-bars-spec";
import { intervalChartFigure } from "./interval-chart-spec";
import { SHARE } from "./interval-bounds";
import { seriesLinesFigure } from "./series-lines-spec";
import type { Table } from "../tables/table";

const FAMILY_SOURCE = "[Y11] Tables 4–9";

/**
 * The schedule section's figures and tables; a figure whose data would be empty (no example,
 * an example where nothing was checkpointed, no family run) is left out with a note saying why.
 */
export function scheduleFigures(example: ScheduleExample | null, campaign: CampaignResult): { figures: Figure[]; tables: Table[]; notes: string[] } {
  const figures: Figure[] = [];
  const notes: string[] = [];
  if (example === null) notes.push("The example run is not drawn: its instance is not applicable to the model (see below).");
  else if (example.scheduleCkpt.startedCount === 0) notes.push("The example's Gantt chart is not drawn: ScheduleCkpt started no checkpoint.");
  else figures.push(scheduleGanttFigure(example));
  if (campaign.families.length > 0) figures.push(shareFigure(campaign), strategiesFigure(campaign));
  if (campaign.identicalSizes) figures.push(identicalFigure(campaign));
  const tables = [
    ...(campaign.families.length > 0 ? [familyTable(campaign)] : []),
    ...(campaign.identicalSizes ? [identicalTable(campaign)] : []),
    ...(campaign.waves ? [wavesTable(campaign)] : []),
  ];
  return { figures, tables, notes };
}

/** The Gantt chart of the example run, over the device bandwidth. */
export function scheduleGanttFigure(example: ScheduleExample): Figure {
  const run = example.scheduleCkpt;
  return ganttFigure({
    id: "schedule-example-gantt",
    title: "One ScheduleCkpt run against the deadline",
    caption:
      `ScheduleCkpt (k0 = ${example.k0}, criterion ${example.criterion}, ${example.estimator} estimator, ${example.model} model) on ${example.apps}: ` +
      `each started checkpoint from its start to its finish, and below the aggregated bandwidth of the checkpoint device over time ` +
      `(fluid execution). It saves ${run.ctnys} s of unsaved computation (CTNYS) of ${run.totalP} s, checkpointing ${run.checkpointed.length} ` +
      `of ${run.apps.length} applications in ${run.iterations} decisions; sequential greedy saves ${example.sequentialGreedy.ctnys} s, ` +
      `all in parallel ${example.allInParallel.ctnys} s.`,
    deadlineS: example.deadlineS,
    bars: run.apps
      .filter((a) => a.start !== null && a.finish !== null)
      .map((a) => ({ id: a.id, startS: a.start!, finishS: a.finish!, outcome: a.missed ? ("missed" as const) : ("checkpointed" as const), pS: a.pS, sizeMb: a.sizeMb })),
    steps: run.bandwidthSteps.map((s) => ({ fromS: s.fromS, toS: s.toS, m: s.m, bandwidthMbPerS: s.bandwidthMbPerS })),
  });
}

function familyLabel(row: { family: string; n: number; deadlineS: number }): string {
  return `${row.family}: n = ${row.n}, T = ${row.deadlineS} s`;
}

function shareFigure(campaign: CampaignResult): Figure {
  const panels = [...new Set(campaign.families.map(familyLabel))];
  const k0s = campaign.settings.k0s;
  return intervalChartFigure({
    id: "schedule-share-by-k0",
    title: "CTNYS share by k0 and criterion",
    caption:
      `Share of the unsaved computation that ScheduleCkpt saves before the deadline (CTNYS / Σ p), mean over ${campaign.settings.seeds} ` +
      `random instances per family with its 95 % Student-t interval (${campaign.settings.model} model, ${campaign.settings.estimator} estimator)` +
      (isPaperCampaign(campaign) ? `, and the published share of the single instance of ${FAMILY_SOURCE} (docs/science.md §4.5).` : ` on the papers' instance families (docs/science.md §4.5).`),
    panelTitle: "family",
    xTitle: "Sahni enumeration depth k0",
    yTitle: "CTNYS share (CTNYS / Σp)",
    groupTitle: "criterion",
    panels,
    xValues: k0s.map((k) => `k0 = ${k}`),
    groups: campaign.settings.criteria,
    points: campaign.families.map((row) => ({
      panel: familyLabel(row),
      x: `k0 = ${row.k0}`,
      group: row.criterion,
      mean: row.share.mean,
      low: row.share.low,
      high: row.share.high,
      n: row.share.n,
      published: isPaperCampaign(campaign) ? (row.published?.share ?? null) : null,
    })),
    publishedLabel: `published, one instance (${FAMILY_SOURCE})`,
    bounds: SHARE,
  });
}

function strategiesFigure(campaign: CampaignResult): Figure {
  const k0 = Math.max(...campaign.settings.k0s);
  const groups = [...campaign.settings.criteria.map((c) => `ScheduleCkpt (k0 = ${k0}, ${c})`), "sequential greedy", "all in parallel", "upper bound"];
  const bars = campaign.familyBaselines.flatMap((base) => {
    const row = campaign.families.find((f) => f.family === base.family)!;
    const x = familyLabel(row);
    return [
      ...campaign.settings.criteria.map((criterion) => {
        const s = campaign.families.find((f) => f.family === base.family && f.k0 === k0 && f.criterion === criterion)!.share;
        return { x, group: `ScheduleCkpt (k0 = ${k0}, ${criterion})`, value: s.mean, low: s.low, high: s.high };
      }),
      { x, group: "sequential greedy", value: base.sequentialShare.mean, low: base.sequentialShare.low, high: base.sequentialShare.high },
      { x, group: "all in parallel", value: base.parallelShare.mean, low: base.parallelShare.low, high: base.parallelShare.high },
      { x, group: "upper bound", value: base.upperBoundShare.mean, low: base.upperBoundShare.low, high: base.upperBoundShare.high },
    ];
  });
  return groupedBarsFigure({
    id: "schedule-strategies",
    title: "ScheduleCkpt against checkpointing one at a time or all at once",
    caption:
      `CTNYS share (mean over ${campaign.settings.seeds} instances with its 95 % Student-t interval) of ScheduleCkpt, sequential greedy (one checkpoint at a time ` +
      `in decreasing p, docs/science.md §4.4), all in parallel (everything at once: the collapse the model predicts) and the upper bound of any schedule ` +
      `(a knapsack of the most the device can move before T); markers sit at each bar's value, so a share of 0 shows as a marker on the axis.`,
    xTitle: "family",
    yTitle: "CTNYS share (CTNYS / Σp)",
    groupTitle: "strategy",
    xValues: [...new Set(bars.map((b) => b.x))],
    groups,
    bars,
    size: "page",
    bounds: SHARE,
  });
}

function identicalFigure(campaign: CampaignResult): Figure {
  const rows = campaign.identicalSizes!;
  const published = isPaperCampaign(campaign);
  const measured = "measured, sequential greedy";
  const groups = ["ScheduleCkpt (k0 = 0, p)", "sequential greedy (model)", ...(published ? [measured] : [])];
  return groupedBarsFigure({
    id: "schedule-identical-sizes",
    title: published ? "Identical sizes: planned with the model, measured on the cluster" : `Identical sizes: planned with the ${campaign.settings.model} model`,
    caption:
      `50 applications of one size, p = 26…75 s, T = 300 s (docs/science.md §4.5): applications checkpointed by ScheduleCkpt and by sequential ` +
      `greedy as the ${campaign.settings.model} model predicts` +
      (published ? `, and by sequential greedy as measured (${PUBLISHED_IDENTICAL_SIZES_SOURCE}).` : ` (the papers' measured counts are Azur's, not drawn here).`),
    xTitle: "application size (MB)",
    yTitle: "checkpointed applications (count)",
    groupTitle: "strategy",
    xValues: rows.map((r) => String(r.sizeMb)),
    groups,
    bars: rows.flatMap((r) => [
      { x: String(r.sizeMb), group: groups[0]!, value: r.scheduleCkpt.checkpointed },
      { x: String(r.sizeMb), group: groups[1]!, value: r.sequentialGreedy.checkpointed },
      ...(published ? [{ x: String(r.sizeMb), group: measured, value: r.published.checkpointed }] : []),
    ]),
  });
}

/**
 * Scheduler time against n and k0, log scales (docs/science.md §4.5), with the published times of
 * the papers' C code. Measured, so volatile: the page shows its SVG, not its spec.
 */
export function schedulerTimeFigure(campaign: CampaignResult): Figure | null {
  if (!campaign.scaling || campaign.scaling.length === 0) return null;
  const groups = campaign.settings.k0s.map(String);
  return {
    ...seriesLinesFigure({
      id: "schedule-time",
      title: "Scheduler time against n and k0",
      caption:
        `Median time ScheduleCkpt spends deciding (µs, this machine, warm) on family C's laws with T = 6n s, against the number of ` +
        `applications n, per k0` +
        (isPaperCampaign(campaign) ? `; diamonds: the times ${FAMILY_SOURCE} report for families A, B, C (criterion p; C code on a 2 GHz Opteron)` : "") +
        `. Measured, so it differs from run to run.`,
      xTitle: "applications n (count)",
      yTitle: "scheduler time (µs)",
      groupTitle: "k0",
      groups,
      points: campaign.scaling.filter((r) => groups.includes(String(r.k0))).map((r) => ({ group: String(r.k0), x: r.n, y: r.schedulerMicrosMedian })),
      references: PUBLISHED_FAMILY_RESULTS.filter((r) => isPaperCampaign(campaign) && r.criterion === "p" && groups.includes(String(r.k0))).map((r) => ({
        group: String(r.k0),
        x: { A: 25, B: 50, C: 70 }[r.family],
        y: r.schedulerMicros,
        label: `family ${r.family}, k0 = ${r.k0}`,
      })),
      referenceLabel: `published (${FAMILY_SOURCE})`,
      logX: true,
      logY: true,
    }),
    volatile: true,
  };
}

function familyTable(campaign: CampaignResult): Table {
  return {
    id: "schedule-families",
    title: "ScheduleCkpt on the random families A, B, C",
    caption: isPaperCampaign(campaign)
      ? `Per family, criterion and k0: the CTNYS share over ${campaign.settings.seeds} instances (mean, 95 % interval, sd), the published share of ` +
        `${FAMILY_SOURCE}'s single instance, and the gap to the upper bound. ${campaign.notes[1] ?? ""}`
      : `Per family, criterion and k0: the CTNYS share over ${campaign.settings.seeds} instances (mean, 95 % interval, sd) planned with the ${campaign.settings.model} model, and the gap to the upper bound.`,
    columns: [
      { key: "family", label: "family" },
      { key: "criterion", label: "criterion" },
      { key: "k0", label: "k0" },
      { key: "share", label: "share", decimals: 3 },
      { key: "low", label: "95 % low", decimals: 3 },
      { key: "high", label: "95 % high", decimals: 3 },
      { key: "sd", label: "sd", decimals: 3 },
      ...(isPaperCampaign(campaign) ? [{ key: "published", label: "published share", decimals: 3 }] : []),
      { key: "gap", label: "gap to bound", decimals: 3 },
      { key: "missed", label: "missed" },
    ],
    rows: campaign.families.map((r) => ({
      family: familyLabel(r),
      criterion: r.criterion,
      k0: r.k0,
      share: r.share.mean,
      low: r.share.low,
      high: r.share.high,
      sd: r.share.sd,
      ...(isPaperCampaign(campaign) ? { published: r.published?.share ?? null } : {}),
      gap: r.gapToBoundShare.mean,
      missed: r.missedTotal,
    })),
  };
}

function identicalTable(campaign: CampaignResult): Table {
  return {
    id: "schedule-identical-sizes",
    title: "Identical sizes: checkpointed applications and CTNYS",
    caption: isPaperCampaign(campaign)
      ? `${campaign.notes[3] ?? ""} Published: ${PUBLISHED_IDENTICAL_SIZES_SOURCE}.`
      : `The ${campaign.settings.model} model's predictions (the papers' measured counts are Azur's, not shown).`,
    columns: [
      { key: "size", label: "size", unit: "MB" },
      { key: "sckpt", label: "ScheduleCkpt" },
      { key: "sckptCtnys", label: "its CTNYS", unit: "s" },
      { key: "seq", label: "sequential greedy" },
      { key: "seqCtnys", label: "its CTNYS", unit: "s" },
      ...(isPaperCampaign(campaign)
        ? [
            { key: "pub", label: "measured" },
            { key: "pubCtnys", label: "measured CTNYS", unit: "s" },
          ]
        : []),
    ],
    rows: campaign.identicalSizes!.map((r) => ({
      size: r.sizeMb,
      sckpt: r.scheduleCkpt.checkpointed,
      sckptCtnys: r.scheduleCkpt.ctnys,
      seq: r.sequentialGreedy.checkpointed,
      seqCtnys: r.sequentialGreedy.ctnys,
      ...(isPaperCampaign(campaign) ? { pub: r.published.checkpointed, pubCtnys: r.published.ctnys } : {}),
    })),
  };
}

function wavesTable(campaign: CampaignResult): Table {
  return {
    id: "schedule-waves",
    title: "Several applications per node, by waves",
    caption: `${campaign.notes[2] ?? ""}${isPaperCampaign(campaign) ? ` Published: ${PUBLISHED_WAVES_SOURCE} (docs/science.md §4.6).` : ` Planned with the ${campaign.settings.model} model.`}`,
    columns: [
      { key: "criterion", label: "criterion" },
      { key: "k0", label: "k0" },
      { key: "share", label: "share", decimals: 3 },
      { key: "low", label: "95 % low", decimals: 3 },
      { key: "high", label: "95 % high", decimals: 3 },
      ...(isPaperCampaign(campaign) ? [{ key: "published", label: "published share", decimals: 3 }] : []),
    ],
    rows: campaign.waves!.map((r) => ({
      criterion: r.criterion,
      k0: r.k0,
      share: r.share.mean,
      low: r.share.low,
      high: r.share.high,
      ...(isPaperCampaign(campaign) ? { published: r.published.share } : {}),
    })),
  };
}
