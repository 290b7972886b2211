/**
 * What the report says, as data: a summary, sections of figures and tables, and the
 * reproduction table, built from whatever artifacts the pipeline produced. Pure: the same
 * inputs give the same content, which render-report.ts turns into files.
 *
 * It reads like a results section: the summary first (the cluster, the fitted model and
 * its error, the headline schedule and placement results, what the model cannot be used
 * for, the reproduction score), then the cluster's own sections, then the published Azur
 * model, and the reproduction of the papers last. The report names the cluster it
 * describes (`clusterName`) in its title, section titles and model card.
 *
 * Inputs arrive stage by stage; a section appears when its artifacts exist, and the
 * report says which stages it was built from.
 */
import type { BandwidthModel } from "../../fit/model";
import type { Figure } from "../figures/figure";
import { modelCard } from "../tables/model-card";
import { readableNumber } from "../tables/table";
import { modelFigures } from "../figures/model-figures";
import { modelReproductionRows } from "../reproduction/model-reproduction-rows";
import type { ObservationsArtifact } from "../../ingest/observations-artifact";
import { fitFigures, type FitReportArtifact } from "../figures/fit-figures";
import type { CampaignResult } from "../../schedule";
import { mergeTimings } from "../../shared/split-timings";
import { scheduleFigures, schedulerTimeFigure, type ScheduleExample } from "../figures/schedule-figures";
import { scheduleReproductionRows } from "../reproduction/schedule-reproduction-rows";
import { measuredFigures } from "../figures/measured-figures";
import { machineFigures } from "../figures/machine-figures";
import { dalyReproductionRows, placeFigures, type ScenarioPlacement } from "../figures/place-figures";
import { VERDICTS, VERDICT_MEANINGS, reproductionTable, verdictCountsText, type ReproductionRow } from "../reproduction/reproduction";
import { reproductionSummaryTable } from "../reproduction/reproduction-summary";
import { bktFigures, bktGridTrace, bktLawReproductionRows, bktReproductionRows } from "../figures/bkt-figures";
import { das06Figures, das06ReproductionRows } from "../figures/das06-figures";
import { serverComparisonFigures } from "../figures/server-comparison-figures";
import type { ServerComparison } from "../../simulate/server/compare-servers";
import type { MergedSweep } from "../../simulate/sweep/merge-sweep";
import type { Table } from "../tables/table";
import type { NotApplicable } from "../../shared/not-applicable";
import { clusterName } from "./cluster-name";
import { DEFAULT_REPORT_PARAMETERS, type ReportParameters } from "./report-parameters";

/** A trace this project measured, with its fit and the words of its section. */
export interface MeasuredClusterInput {
  /** Names the section and its figures and tables. */
  key: string;
  /** "this machine", "the NFS cluster". */
  who: string;
  title: string;
  intro: string;
  observations: ObservationsArtifact;
  fit: FitReportArtifact;
}

export interface ReportInputs {
  /** The published model of [Y11] / [Y-thesis] (always there: it is data in the code). */
  paperModel: BandwidthModel;
  /** The ingest stage's artifact, when it ran. */
  observations?: ObservationsArtifact;
  /** The fit stage's report, when it ran. */
  fit?: FitReportArtifact;
  /** The clusters this project measured (`ingest-<key>` and `fit-<key>` stages), each when its stages ran. */
  measured?: readonly MeasuredClusterInput[];
  /** The schedule stage's example run (null when the model could not price it), campaign and measured times, when it ran. */
  scheduleExample?: ScheduleExample | null;
  campaign?: CampaignResult;
  scheduleTimings?: { campaign: Record<string, number> };
  /** The place stage's scenarios (docs/science.md §5), when it ran. */
  placements?: readonly ScenarioPlacement[];
  /** Scenarios the place stage could not answer with its model. */
  placeNotApplicable?: readonly NotApplicable[];
  /** The [BKT] simulator's grid, merged (docs/science.md §6.1), when its stage ran. */
  bktGrid?: MergedSweep;
  /** The [DAS06] simulator's grid, merged (docs/science.md §6.2), when its stage ran. */
  das06Grid?: MergedSweep;
  /** Both simulators with the fitted server, Azur's and an ideal one (docs/science.md §6.6): the user's report. */
  serverComparison?: ServerComparison;
}

/** "the traces data/traces/x.csv" — how captions name the ingested data. */
function tracesLabel(artifact: ObservationsArtifact): string {
  const files = artifact.inputs.map((i) => i.path);
  const synthetic = files.some((f) => /synthetic/i.test(f)) ? " (synthetic)" : "";
  return files.length === 0 ? "the ingested traces" : `the traces ${files.join(", ")}${synthetic}`;
}

export interface ReportSection {
  id: string;
  title: string;
  /** One paragraph of plain text. */
  intro: string;
  figures: Figure[];
  tables: Table[];
  /** What a reader must know before reading the figures: scenarios not applicable, figures not drawn. */
  notes: string[];
}

/** One line of the summary: a label and what to know. */
export interface SummaryItem {
  label: string;
  text: string;
}

export interface ReportContent {
  title: string;
  /** The cluster the traces describe, or null without traces. */
  cluster: string | null;
  summary: SummaryItem[];
  sections: ReportSection[];
  reproduction: ReproductionRow[];
}

const PAPER_LABEL = "published model ([Y11] eq. 4)";

/**
 * The reproduction table's rows from whatever artifacts exist: the published model's peaks,
 * the ScheduleCkpt campaign (when it ran with the published model, as the papers did), Daly's
 * periods (with the place stage), [BKT]'s laws and grid, [DAS06]'s grid.
 */
export function reproductionRows(
  inputs: Pick<ReportInputs, "paperModel" | "campaign" | "placements" | "bktGrid" | "das06Grid">,
  parameters: Pick<ReportParameters, "reproduction"> = DEFAULT_REPORT_PARAMETERS,
): ReproductionRow[] {
  const paperCampaign = inputs.campaign !== undefined && inputs.campaign.settings.model === inputs.paperModel.name;
  return [
    ...modelReproductionRows(inputs.paperModel, { modelLabel: "published model", ...parameters.reproduction }),
    ...(inputs.campaign && paperCampaign ? scheduleReproductionRows(inputs.campaign) : []),
    ...(inputs.placements ? dalyReproductionRows() : []),
    ...bktLawReproductionRows(),
    ...(inputs.bktGrid ? bktReproductionRows(inputs.bktGrid) : []),
    ...(inputs.das06Grid ? das06ReproductionRows(inputs.das06Grid) : []),
  ];
}

export function buildReportContent(inputs: ReportInputs, parameters: ReportParameters = DEFAULT_REPORT_PARAMETERS): ReportContent {
  const cluster = inputs.observations ? clusterName(inputs.observations, parameters.cluster) : parameters.cluster || null;
  const onCluster = cluster === null ? "" : ` of ${cluster}`;
  const reproduction = reproductionRows(inputs, parameters);
  const paperCampaign = inputs.campaign !== undefined && inputs.campaign.settings.model === inputs.paperModel.name;
  const paperCard = modelCard(inputs.paperModel, "paper-model");
  const sections: ReportSection[] = [];
  if (inputs.observations) {
    const label = tracesLabel(inputs.observations);
    const measured = measuredFigures(inputs.observations, label);
    sections.push({
      id: "measured",
      title: `Measured bandwidth${onCluster}`,
      intro:
        `What ingest read from ${label}: per size series the mean aggregated bandwidth of the runs at each m, its spread and ` +
        `its peak — the input of the fit (docs/science.md §3.1).`,
      figures: measured.figures,
      tables: measured.tables,
      notes: [],
    });
    if (inputs.fit) {
      const modelLabel = cluster === null ? "fitted model" : `model fitted to ${cluster}`;
      const fitted = fitFigures(inputs.fit, inputs.observations.observations, inputs.paperModel, label, modelLabel);
      const card = modelCard(inputs.fit.model, "fitted-model", cluster ?? undefined);
      sections.push({
        id: "fitted-model",
        title: `The bandwidth model fitted${cluster === null ? "" : ` to ${cluster}`}`,
        intro:
          `bw(m, V) fitted by ordinary least squares to ${label} (${String(inputs.fit.model.provenance.fitPoints ?? "")}), ` +
          `with its statistics, its residuals and its predictions of the measured peaks. This is the model ` +
          `artifact (artifacts/model.json) the later stages can use; it answers only on the domain it was fitted on ` +
          `(${domainText(inputs.fit.model)}).`,
        figures: fitted.figures,
        tables: [...fitted.tables, card.properties],
        notes: inputs.fit.model.notes ?? [],
      });
    }
  }
  if (inputs.measured && inputs.measured.length > 0) {
    const paperFigures = modelFigures(inputs.paperModel, { idPrefix: "paper-model", modelLabel: PAPER_LABEL });
    for (const measured of inputs.measured) {
      const drawn = machineFigures(measured, inputs.paperModel, paperFigures);
      sections.push({ id: measured.key, title: measured.title, intro: measured.intro, figures: drawn.figures, tables: drawn.tables, notes: measured.fit.model.notes ?? [] });
    }
  }
  if (inputs.campaign) {
    const example = inputs.scheduleExample ?? null;
    const drawn = scheduleFigures(example, inputs.campaign);
    const timed = inputs.scheduleTimings ? schedulerTimeFigure(mergeTimings(inputs.campaign, inputs.scheduleTimings.campaign)) : null;
    const notApplicable = inputs.campaign.notApplicable ?? [];
    sections.push({
      id: "schedule",
      title: "What to checkpoint before the release: ScheduleCkpt",
      intro:
        `ScheduleCkpt ([Y11] §5, docs/science.md §4.3) with the ${inputs.campaign.settings.model} model and the ${inputs.campaign.settings.estimator} ` +
        `time estimator: one run in detail, then the papers' campaigns over seeded instances` +
        (paperCampaign ? ` next to the published values (docs/science.md §4.5–§4.6). ${inputs.campaign.notes[0]}` : ` (the papers' instance families, planned with this cluster's model).`),
      figures: [...drawn.figures, ...(timed ? [timed] : [])],
      tables: drawn.tables,
      notes: [...(example?.notes ?? []), ...drawn.notes, ...notApplicable.map(notApplicableText)],
    });
  }
  const placeNotApplicable = inputs.placeNotApplicable ?? [];
  if ((inputs.placements && inputs.placements.length > 0) || placeNotApplicable.length > 0) {
    const placements = inputs.placements ?? [];
    const place = placements.length > 0 ? placeFigures(placements) : { figures: [], tables: [] };
    sections.push({
      id: "place",
      title: "Where to checkpoint a job: the DP placer",
      intro:
        "The optimal checkpoint placement of [BTW10] / [BKT] (docs/science.md §5.2) against Young's and Daly's periods and no checkpoint, " +
        "in each scenario of the place stage: " +
        placements.map((s) => `${s.name}: ${s.scenario.description}`).join("; ") +
        ". Every policy is also simulated, so each analytic value can be checked against its Monte Carlo interval.",
      figures: place.figures,
      tables: place.tables,
      notes: placeNotApplicable.map(notApplicableText),
    });
  }
  if (inputs.serverComparison) {
    const who = cluster ?? "this cluster";
    const part = serverComparisonFigures(inputs.serverComparison, who);
    sections.push({
      id: "server-policies",
      title: `Which checkpoint policy with ${who}'s server`,
      intro:
        `The two desktop-grid simulators run with the checkpoint server fitted to ${who} (artifacts/model.json; concurrent transfers share its bw(m, V), each capped by its machine's link), ` +
        `next to the published Azur model ([Y11] eq. 4) and an ideal server, on grids scaled down to run in seconds (docs/science.md §6.6). ` +
        `${part.findings.join(" ")} A change of rank between servers means something only where the intervals do not overlap ("clearly first" in the table).`,
      figures: part.figures,
      tables: part.tables,
      notes: part.notes,
    });
  }
  if (inputs.bktGrid && inputs.bktGrid.groups.length > 0) {
    const bkt = bktFigures(inputs.bktGrid);
    const trace = bktGridTrace(inputs.bktGrid);
    sections.push({
      id: "desktop-grid",
      title: "Checkpointing a bag of jobs on a desktop grid ([BKT])",
      intro:
        "The [BKT] simulator (docs/science.md §6.1): volunteer clients that come and go pull a bag of jobs from one server (100 connections, " +
        "blind duplication once every job is handed out), and checkpoint to it by one of three policies — none, Daly's period, or the DP " +
        "placement with [BKT]'s objective (PCkP). " +
        (trace === null
          ? "The paper gives figures and stated trends, no table: the reproduction table checks the trends (RB rows). "
          : `Here the clients follow the real availability trace ${trace.file} (from day ${trace.startDays}), not the paper's laws, so the RB rows that check the paper's trends on them (RB1–RB9) are not computed. `) +
        "Numbers under \"suspend\" rest on the project's calibration of what a transient failure does; \"abort\" is the paper's literal reading.",
      figures: bkt.figures,
      tables: bkt.tables,
      notes: [],
    });
  }
  if (inputs.das06Grid && inputs.das06Grid.groups.length > 0) {
    const das06 = das06Figures(inputs.das06Grid);
    sections.push({
      id: "classroom-grid",
      title: "Fast turnaround on a classroom grid ([DAS06])",
      intro:
        "The [DAS06] simulator (docs/science.md §6.2): a bag of tasks on a school's classroom PCs, scheduled by FCFS, FCFS with an adaptive timeout " +
        "(AT), with end-of-run replication (TR), and with checkpoint on demand from an availability predictor (TR-PRDCT-DMD), each with private or shared " +
        "checkpoints, from every starting hour of a week window. Every run here uses the SYNTHETIC classroom trace matched to [DAS06] §3.1 statistics " +
        "(54.44 % mean availability, closures at night and at weekends): the paper's trace is not public, so its orderings are checked as findings about " +
        "that substitute (RD rows). The predictor is perfect (an upper bound).",
      figures: das06.figures,
      tables: das06.tables,
      notes: [],
    });
  }
  sections.push({
    id: "paper-model",
    title: "The published bandwidth model (Grid5000 Azur)",
    intro:
      "The aggregated checkpoint bandwidth model bw(m, V) of [Y11] / [Y-thesis] with its published coefficients " +
      "(docs/science.md §3.2), against the peaks measured on the Grid5000 Azur cluster ([Y-thesis] Table 4.1) and the validation " +
      "data sets D1–D3 ([Y11] Table 1).",
    figures: modelFigures(inputs.paperModel, { idPrefix: "paper-model", modelLabel: PAPER_LABEL }),
    tables: [paperCard.coefficients, paperCard.properties],
    notes: [],
  });
  sections.push({
    id: "reproduction",
    title: "Reproduction of the papers",
    intro:
      "Each published number the project can recompute, with the value as printed, ours, and a verdict computed at report time: " +
      VERDICTS.map((v) => `${v} (${VERDICT_MEANINGS[v]})`).join("; ") +
      ". First per paper, with the published tables not transcribed yet; then every row. The same summary, with the open questions, is reproduction.md.",
    figures: [],
    tables: [reproductionSummaryTable(reproduction), reproductionTable(reproduction)],
    notes: [],
  });
  const summary = summaryItems(inputs, cluster, reproduction, placeNotApplicable);
  return { title: cluster === null ? "ckpt-lab report" : `Checkpointing on ${cluster}: ckpt-lab report`, cluster, summary, sections, reproduction };
}

function domainText(model: BandwidthModel): string {
  const d = model.domain;
  return `m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${readableNumber(d.vGbMin)}, ${readableNumber(d.vGbMax)}] GB`;
}

function notApplicableText(entry: NotApplicable): string {
  return `Not applicable: ${entry.scenario} — ${entry.reason}.`;
}

function percent(share: number): string {
  return `${(100 * share).toFixed(1)} %`;
}

/** The report's first screen: what was measured, what the model says and cannot say, and the headline results. */
function summaryItems(inputs: ReportInputs, cluster: string | null, reproduction: ReproductionRow[], placeNotApplicable: readonly NotApplicable[]): SummaryItem[] {
  const items: SummaryItem[] = [];
  if (inputs.observations) {
    const o = inputs.observations;
    const runs = o.observations.runs;
    const maxM = runs.reduce((max, run) => Math.max(max, run.m), 0);
    const maxV = runs.reduce((max, run) => Math.max(max, run.vGb), 0);
    items.push({
      label: "Cluster",
      text:
        `${cluster ?? "(unnamed)"}: ${tracesLabel(o)}; ${o.counts.read} rows read, ${o.counts.accepted} accepted, ${o.counts.rejected} rejected (rejects.csv); ` +
        `${runs.length} runs of up to m = ${maxM} simultaneous checkpoints and V = ${readableNumber(maxV)} GB, ${o.observations.series.length} size series.`,
    });
  }
  if (inputs.fit) {
    const m = inputs.fit.metrics;
    items.push({
      label: "Fitted model",
      text:
        `${inputs.fit.model.form} form, fitted on ${m.pointCount} points (${String(inputs.fit.model.provenance.fitPoints ?? "")}): ` +
        `R² = ${m.rSquared.toFixed(3)}, E_global = ${m.eGlobalPercent.toFixed(1)} %, RMSE = ${readableNumber(m.rmseMbPerS)} MB/s` +
        `${m.crossValidation?.rmseMbPerS != null ? `, ${m.crossValidation.folds}-fold CV RMSE = ${readableNumber(m.crossValidation.rmseMbPerS)} MB/s` : ""}; ` +
        `usable on ${domainText(inputs.fit.model)} only.`,
    });
    for (const note of inputs.fit.model.notes ?? []) items.push({ label: "Note on the fit", text: note });
  }
  if (inputs.campaign) {
    const example = inputs.scheduleExample ?? null;
    if (example) {
      const run = example.scheduleCkpt;
      items.push({
        label: "ScheduleCkpt",
        text:
          `on the example (${example.apps}; T = ${example.deadlineS} s, ${example.model} model) it checkpoints ${run.checkpointed.length} of ${run.apps.length} applications ` +
          `and saves ${percent(run.ctnysShare)} of the unsaved computation; one at a time (sequential greedy): ${percent(example.sequentialGreedy.ctnysShare)}; ` +
          `all at once: ${percent(example.allInParallel.ctnysShare)}.`,
      });
      for (const note of example.notes ?? []) items.push({ label: "Note on ScheduleCkpt", text: note });
    }
    for (const entry of inputs.campaign.notApplicable ?? []) items.push({ label: "Not applicable", text: `${entry.scenario}: ${entry.reason}.` });
  }
  for (const s of inputs.placements ?? []) {
    const objective = s.placement.objective;
    const dp = s.placement.policies.find((policy) => policy.policy === "dp");
    const baselines = s.placement.policies.filter((policy) => policy.policy !== "dp");
    if (dp === undefined || baselines.length === 0) continue;
    const best = baselines.reduce((a, b) => (b.expectedWaste[objective] < a.expectedWaste[objective] ? b : a));
    items.push({
      label: `DP placer (${s.name})`,
      text:
        `expected waste ${readableNumber(dp.expectedWaste[objective] / 3600)} h with the DP's ${dp.checkpoints.length} checkpoints against ` +
        `${readableNumber(best.expectedWaste[objective] / 3600)} h for the best baseline (${best.label}); ${objective} objective, law ${s.placement.law.string}.`,
    });
  }
  for (const entry of placeNotApplicable) items.push({ label: "Not applicable", text: `DP placer, ${entry.scenario}: ${entry.reason}.` });
  const bktSuspend = (inputs.bktGrid?.groups ?? []).filter((g) => (g.parameters.transient ?? "suspend") === "suspend");
  const trace = inputs.bktGrid ? bktGridTrace(inputs.bktGrid) : null;
  if (bktSuspend.length > 0) {
    const largest = bktSuspend.reduce((a, b) => (Number(b.parameters.jobs) * 1e6 + -Number(b.parameters.clients) > Number(a.parameters.jobs) * 1e6 + -Number(a.parameters.clients) ? b : a));
    const makespan = (policy: string) => largest.policies?.[policy]?.makespanH?.mean;
    items.push({
      label: "Desktop grid ([BKT])",
      text:
        `with ${String(largest.parameters.clients)} clients and ${String(largest.parameters.jobs)} jobs (${trace === null ? "the paper's grid scaled down" : `hosts from the trace ${trace.file}`}; suspend), makespan ` +
        Object.keys(largest.policies ?? {}).map((p) => `${p} ${readableNumber(makespan(p) ?? NaN)} h`).join(", ") +
        ` (mean of ${largest.seeds.length} seeds)${trace === null ? "; the RB rows of the reproduction table check the paper's stated trends" : ""}.`,
    });
  }
  if (inputs.serverComparison) {
    const part = serverComparisonFigures(inputs.serverComparison, cluster ?? "this cluster");
    items.push({ label: "Policies with this server", text: `${part.findings.join(" ")} (desktop-grid simulators, docs/science.md §6.6).` });
  }
  items.push({
    label: "Reproduction",
    text: `${reproduction.length} published numbers compared: ${verdictCountsText(reproduction)}; per paper and the open questions in the last section.`,
  });
  return items;
}
