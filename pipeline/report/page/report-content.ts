/**
 * What the report says, as data: a summary, sections of figures and tables, and the
 * reproduction table, built from whatever artifacts the pipeline produced. Pure: the same
 * inputs give the same content, which render-report.ts turns into files.
 *
 * It reads like a results section: the summary first (the cluster, the fitted model and
 * its error, the headline schedule and placement results, what the model cannot be used
 * for, the reproduction score), then the cluster's own sections, then the published Azur
 * model, and the reproduction of the papers last. The report names the cluster it
 * describes (`clusterName`) in its title, section titles and model card, and the model
 * behind every number of its summary.
 *
 * Two kinds of report (`ReportParameters.mode`). "reproduction": the papers' reproduction on
 * the shipped traces, with the clusters this project measured. "cluster": a report about the
 * user's traces alone — their fitted model (and the forms it was chosen among), the cluster
 * against the published Azur model once, ScheduleCkpt and the DP placer with that model; the
 * published model's section, the desktop grids and the reproduction table only with
 * `withReproduction`. Either way the summary lists every use of a model outside the domain
 * it was fitted on, and names a fitted curve that turns down where the measurements do not
 * as an artefact of its form (turn-down-artefacts.ts).
 *
 * Inputs arrive stage by stage; a section appears when its artifacts exist, and the
 * report says which stages it was built from.
 */
import type { BandwidthModel } from "../../fit/model";
import type { Figure } from "../figures/figure";
import { modelCard } from "../tables/model-card";
import { readableNumber } from "../tables/table";
import { DEFAULT_MODEL_AXES, modelFigures } from "../figures/model-figures";
import type { ObservationsArtifact } from "../../ingest/observations-artifact";
import { fitFigures } from "../figures/fit-figures";
import type { FitReportArtifact } from "../../fit/fit-report-artifact";
import type { TurnDownFindings } from "../../fit/turn-down-findings";
import type { CampaignResult } from "../../schedule/campaign";
import { scheduleDomainPolicy, type ScheduleDomainPolicy } from "../../bandwidth/outside-domain";
import { mergeTimings } from "../../shared/split-timings";
import { scheduleFigures, schedulerTimeFigure } from "../figures/schedule-figures";
import type { ScheduleExample } from "../../schedule/schedule-example";
import { measuredFigures } from "../figures/measured-figures";
import { machineFigures, type MeasuredClusterInput } from "../figures/machine-figures";
import { placeFigures } from "../figures/place-figures";
import { plansThatHoldFigures } from "../figures/plans-that-hold-figures";
import type { PlansThatHold } from "../../schedule/plans-that-hold";
import type { ScenarioPlacement } from "../../place/scenario-placement";
import { VERDICTS, VERDICT_MEANINGS, reproductionCountsText, type ReproductionRow } from "../../reproduce/reproduction";
import { reproductionTable } from "../reproduction/reproduction-table";
import { openQuestions, reproductionSummaryTable, type OpenQuestions } from "../reproduction/reproduction-summary";
import { bktFigures } from "../figures/bkt-figures";
import { bktGridTrace } from "../../reproduce/bkt-grid-cells";
import { das06Figures } from "../figures/das06-figures";
import { serverComparisonFigures } from "../figures/server-comparison-figures";
import type { ServerComparison } from "../../simulate/server/compare-servers";
import type { MergedSweep } from "../../simulate/sweep/merge-sweep";
import type { Table } from "../tables/table";
import type { NotApplicable } from "../../shared/not-applicable";
import { clusterName } from "./cluster-name";
import { modelAxes, type ModelAxes } from "../figures/model-axes";
import { azurComparison } from "../figures/machine-figures";
import { isPaperCampaign } from "../../reproduce/paper-campaign";
import { DEFAULT_REPORT_PARAMETERS, type ReportParameters } from "./report-parameters";

export interface ReportInputs {
  /** The published model of [Y11] / [Y-thesis] (always there: it is data in the code). */
  paperModel: BandwidthModel;
  /** The ingest stage's artifact, when it ran. */
  observations?: ObservationsArtifact;
  /** The fit stage's report, when it ran. */
  fit?: FitReportArtifact;
  /** The turn-down stage's findings on that fit, when it ran. */
  turnDown?: TurnDownFindings;
  /** The clusters this project measured (`ingest-<key>` and `fit-<key>` stages), each when its stages ran. */
  measured?: readonly MeasuredClusterInput[];
  /** The schedule stage's example run (null when the model could not price it), campaign and measured times, when it ran. */
  scheduleExample?: ScheduleExample | null;
  campaign?: CampaignResult;
  /** The papers' campaigns with the published model, when a cluster's report adds the reproduction (`schedule-paper`). */
  paperCampaign?: CampaignResult;
  scheduleTimings?: { campaign: Record<string, number> };
  /** The example's mean and confident plans, the fitted model's band and the replay (schedule stage; null without a predictive model). */
  plansThatHold?: PlansThatHold | null;
  /** The place stage's scenarios (docs/science.md §5), when it ran. */
  placements?: readonly ScenarioPlacement[];
  /** Scenarios the place stage could not answer with its model. */
  placeNotApplicable?: readonly NotApplicable[];
  /** The [BKT] simulator's grid, merged (docs/science.md §6.1), when its stage ran. */
  bktGrid?: MergedSweep;
  /** The [DAS06] simulator's grid, merged (docs/science.md §6.2), when its stage ran. */
  das06Grid?: MergedSweep;
  /** The reproduce stage's rows: every published number against ours, with its verdict, when it ran. */
  reproduction?: readonly ReproductionRow[];
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
  /** Lists after the tables, each under its heading (the reproduction's open questions, per paper). */
  lists?: OpenQuestions[];
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

export function buildReportContent(inputs: ReportInputs, parameters: ReportParameters = DEFAULT_REPORT_PARAMETERS): ReportContent {
  const cluster = inputs.observations ? clusterName(inputs.observations, parameters.cluster) : parameters.cluster || null;
  const clusterReport = parameters.mode === "cluster";
  const withReproduction = !clusterReport || parameters.withReproduction;
  const onCluster = cluster === null ? "" : ` of ${cluster}`;
  const reproduction = withReproduction ? [...(inputs.reproduction ?? [])] : [];
  const paperCampaign = inputs.campaign !== undefined && isPaperCampaign(inputs.campaign);
  const paperCard = modelCard(inputs.paperModel, "paper-model");
  const paperFigures = modelFigures(inputs.paperModel, { idPrefix: "paper-model", modelLabel: PAPER_LABEL });
  const models = modelLabels(inputs, cluster);
  const sections: ReportSection[] = [];
  let fittedFigures: Figure[] = [];
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
      fittedFigures = fitted.figures;
      const card = modelCard(inputs.fit.model, "fitted-model", cluster ?? undefined);
      const selection = inputs.fit.selection;
      sections.push({
        id: "fitted-model",
        title: `The bandwidth model fitted${cluster === null ? "" : ` to ${cluster}`}`,
        intro:
          (selection
            ? `Every form of bw(m, V) — the papers' (paper, full) and the project's additions (usl, link-capacity; docs/science.md §3.5) — fitted to ` +
              `${label} (${String(inputs.fit.model.provenance.fitPoints ?? "")}) and scored by ${selection.folds}-fold cross-validation; the ${selection.chosen} form is kept (${selection.rule}). Then that model `
            : `bw(m, V) fitted by least squares to ${label} (${String(inputs.fit.model.provenance.fitPoints ?? "")}), `) +
          `with its statistics, its residuals and its predictions of the measured peaks. This is the model ` +
          `artifact (artifacts/model.json) the later stages ${clusterReport ? "use" : "can use"}; it answers only on the domain it was fitted on ` +
          `(${domainText(inputs.fit.model)}): its curves are drawn with their own dash there and dotted beyond.`,
        figures: fitted.figures,
        tables: [...fitted.tables, card.properties],
        notes: inputs.fit.model.notes ?? [],
      });
      if (clusterReport && cluster !== null) {
        const comparison = azurComparison(cluster, inputs.fit, label, inputs.paperModel, paperFigures, fitted.figures);
        sections.push({
          id: "azur-comparison",
          title: `${cluster} against the published Azur model`,
          intro:
            `The one place the Azur cluster appears in this report: the published model of [Y11] / [Y-thesis] (Grid5000 Azur, 30 nodes, ` +
            `Gigabit Ethernet, one NFS server; docs/science.md §3.2) next to the model fitted to ${cluster}, for comparison only. ` +
            `Nothing else in this report is computed with it.`,
          figures: comparison.figures,
          tables: comparison.tables,
          notes: [],
        });
      }
    }
  }
  if (!clusterReport && inputs.measured && inputs.measured.length > 0) {
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
        `ScheduleCkpt ([Y11] §5, docs/science.md §4.3) with the ${models.of(inputs.campaign.settings.model)} and the ${inputs.campaign.settings.estimator} ` +
        `time estimator: one run in detail, then the papers' campaigns over seeded instances` +
        (paperCampaign
          ? ` next to the published values (docs/science.md §4.5–§4.6). ${inputs.campaign.notes[0]}`
          : ` (the papers' instance families, planned with ${cluster === null ? "this cluster's" : `${cluster}'s`} model; the papers' published values are Azur's and are not drawn next to them).`),
      figures: [...drawn.figures, ...(timed ? [timed] : [])],
      tables: drawn.tables,
      notes: [...(example?.notes ?? []), ...drawn.notes, ...notApplicable.map(notApplicableText)],
    });
  }
  if (inputs.plansThatHold) {
    const drawn = plansThatHoldFigures(inputs.plansThatHold, cluster === null ? "fitted model" : `model fitted to ${cluster}`);
    sections.push({
      id: "plans-that-hold",
      title: "Plans that hold: the prediction band and the confident plan",
      intro:
        `A plan made on the mean bandwidth misses T whenever the next release runs a little slower than the mean. The fitted model's prediction band says how much ` +
        `one burst varies; the confident plan (\`ckpt schedule --confidence ${inputs.plansThatHold.confidence}\`) plans on it, and the replay plays both plans against measured runs the model was not fitted on (docs/science.md §4.7).`,
      figures: drawn.figures,
      tables: drawn.tables,
      notes: drawn.notes,
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
  if (withReproduction) sections.push(...simulationSections(inputs, reproduction));
  if (withReproduction) {
    sections.push({
      id: "paper-model",
      title: "The published bandwidth model (Grid5000 Azur)",
      intro:
        "The aggregated checkpoint bandwidth model bw(m, V) of [Y11] / [Y-thesis] with its published coefficients " +
        "(docs/science.md §3.2), against the peaks measured on the Grid5000 Azur cluster ([Y-thesis] Table 4.1) and the validation " +
        "data sets D1–D3 ([Y11] Table 1).",
      figures: paperFigures,
      tables: [paperCard.coefficients, paperCard.properties],
      notes: [],
    });
    sections.push({
      id: "reproduction",
      title: "Reproduction of the papers",
      intro:
        "Each published number the project can recompute, with the value as printed, ours, and a verdict computed at report time: " +
        VERDICTS.map((v) => `${v} (${VERDICT_MEANINGS[v]})`).join("; ") +
        ". Rows that check the paper or the project against itself (self-checks) are shown apart and never counted as reproduced results. " +
        "Per paper here, with what is published but not compared and why, and its open questions; every row on a page of its own (reproduction.html). The same summary is reproduction.md.",
      figures: [],
      tables: [reproductionSummaryTable(reproduction), { ...reproductionTable(reproduction), page: "reproduction.html" }],
      notes: [],
      lists: openQuestions(reproduction),
    });
  }
  const axes = inputs.fit && inputs.observations ? modelAxes(inputs.fit.model, inputs.observations.observations) : null;
  const drawnPast = [
    { model: inputs.fit?.model, axes, figures: fittedFigures },
    ...(withReproduction ? [{ model: inputs.paperModel, axes: DEFAULT_MODEL_AXES, figures: paperFigures }] : []),
  ].flatMap((d) => (d.model && d.axes ? [{ model: d.model, axes: d.axes, figures: d.figures }] : []));
  const summary = summaryItems(inputs, cluster, withReproduction ? reproduction : null, placeNotApplicable, models, axes, drawnPast);
  return { title: cluster === null ? "ckpt-lab report" : `Checkpointing on ${cluster}: ckpt-lab report`, cluster, summary, sections, reproduction };
}

/** The desktop-grid simulators' sections, when their stages ran. */
function simulationSections(inputs: ReportInputs, reproduction: readonly ReproductionRow[]): ReportSection[] {
  const sections: ReportSection[] = [];
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
    const das06 = das06Figures(inputs.das06Grid, reproduction);
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
  return sections;
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

/** How the summary and the sections name each model a result was computed with. */
interface ModelLabels {
  /** "the model fitted to NAME (usl form)", "the published Azur model ([Y11] eq. 4)". */
  of(name: string): string;
}

function modelLabels(inputs: ReportInputs, cluster: string | null): ModelLabels {
  const fitted = inputs.fit?.model;
  return {
    of: (name) =>
      name === inputs.paperModel.name
        ? "published Azur model ([Y11] eq. 4)"
        : fitted !== undefined && name === fitted.name
          ? `model fitted to ${cluster ?? "the traces"} (${fitted.form} form)`
          : `model "${name}"`,
  };
}

/** The report's first screen: what was measured, what the model says and cannot say, and the headline results, each with the model behind it. */
function summaryItems(
  inputs: ReportInputs,
  cluster: string | null,
  reproduction: ReproductionRow[] | null,
  placeNotApplicable: readonly NotApplicable[],
  models: ModelLabels,
  axes: ModelAxes | null,
  drawnPast: readonly DrawnModel[],
): SummaryItem[] {
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
    const selection = inputs.fit.selection;
    items.push({
      label: "Fitted model",
      text:
        `${inputs.fit.model.form} form${selection ? (selection.tieBelowMbPerS === null ? ", the simplest that fits (too few points to cross-validate)" : `, chosen by ${selection.folds}-fold cross-validation`) : ""}, fitted on ${m.pointCount} points (${String(inputs.fit.model.provenance.fitPoints ?? "")}): ` +
        `R² = ${m.rSquared.toFixed(3)}, E_global = ${m.eGlobalPercent.toFixed(1)} %, RMSE = ${readableNumber(m.rmseMbPerS)} MB/s` +
        `${m.crossValidation?.rmseMbPerS != null ? `, ${m.crossValidation.folds}-fold CV RMSE = ${readableNumber(m.crossValidation.rmseMbPerS)} MB/s` : ""}; ` +
        `usable on ${domainText(inputs.fit.model)} only. Below, "${models.of(inputs.fit.model.name)}" is this model.`,
    });
    if (selection) {
      const scored = selection.candidates.filter((c) => c.cvRmseMbPerS !== null).sort((a, b) => a.cvRmseMbPerS! - b.cvRmseMbPerS!);
      items.push({
        label: "Forms compared",
        text:
          `CV RMSE (MB/s) on the same points and folds: ${scored.map((c) => `${c.form} ${readableNumber(c.cvRmseMbPerS!)} ± ${readableNumber(c.cvStandardErrorMbPerS ?? 0)}`).join(", ")}` +
          `${selection.candidates.some((c) => c.cvRmseMbPerS === null) ? `; not scored: ${selection.candidates.filter((c) => c.cvRmseMbPerS === null).map((c) => c.form).join(", ")}` : ""}. ${selection.rule}.`,
      });
    }
    // The choice and the forms not scored are in "Forms compared".
    for (const note of (inputs.fit.model.notes ?? []).filter((n) => !/^(form chosen (by|without) cross-validation|not scored:)/.test(n))) items.push({ label: "Note on the fit", text: note });
    if (inputs.observations && axes) items.push(...artefactItems(inputs));
  }
  if (inputs.campaign) {
    const example = inputs.scheduleExample ?? null;
    if (example) {
      const run = example.scheduleCkpt;
      items.push({
        label: "ScheduleCkpt",
        text:
          `with the ${models.of(example.model)}, on the example (${example.apps}${example.apps.includes("T = ") ? "" : `; T = ${example.deadlineS} s`}) it checkpoints ${run.checkpointed.length} of ${run.apps.length} applications ` +
          `and saves ${percent(run.ctnysShare)} of the unsaved computation; one at a time (sequential greedy): ${percent(example.sequentialGreedy.ctnysShare)}; ` +
          `all at once: ${percent(example.allInParallel.ctnysShare)}.`,
      });
      for (const note of example.notes ?? []) items.push({ label: "Note on ScheduleCkpt", text: note });
    }
    const families = inputs.campaign.families.filter((f) => f.k0 === Math.max(...inputs.campaign!.settings.k0s) && f.criterion === inputs.campaign!.settings.criteria[0]);
    if (families.length > 0) {
      items.push({
        label: "ScheduleCkpt campaigns",
        text:
          `with the ${models.of(inputs.campaign.settings.model)}, mean CTNYS share over ${inputs.campaign.settings.seeds} instances (k0 = ${families[0]!.k0}, criterion ${families[0]!.criterion}): ` +
          `${families.map((f) => `family ${f.family} ${percent(f.share.mean)}`).join(", ")}` +
          (isPaperCampaign(inputs.campaign) ? "; the published values beside them in the schedule section." : "; the papers' published values are Azur's and are not compared with them."),
      });
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
        `${readableNumber(best.expectedWaste[objective] / 3600)} h for the best baseline (${best.label}); ${objective} objective, law ${s.placement.law.string}; ` +
        `${s.costSource.includes("bandwidth model") ? `checkpoint costs from the ${placeModelLabel(s.costSource, models)}` : `checkpoint ${s.costSource} (no bandwidth model)`}.`,
    });
  }
  for (const entry of placeNotApplicable) items.push({ label: "Not applicable", text: `DP placer, ${entry.scenario}: ${entry.reason}.` });
  const outside = outsideDomainUses(inputs, drawnPast, models);
  items.push({
    label: "Outside the fitted domain",
    text: outside.length === 0 ? "no result of this report uses a model outside the domain it was fitted on." : `${outside.join("; ")}.`,
  });
  const bktSuspend = (inputs.bktGrid?.groups ?? []).filter((g) => (g.parameters.transient ?? "suspend") === "suspend");
  const trace = inputs.bktGrid ? bktGridTrace(inputs.bktGrid) : null;
  if (reproduction !== null && bktSuspend.length > 0) {
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
  if (reproduction !== null) {
    items.push({
      label: "Reproduction",
      text: `${reproduction.length} published numbers compared: ${reproductionCountsText(reproduction)}; per paper and the open questions in the last section.`,
    });
  }
  return items;
}

/** "model fitted to NAME (usl form)" for a placement whose costs came from a bandwidth model. */
function placeModelLabel(costSource: string, models: ModelLabels): string {
  const name = /through the (.*) bandwidth model/.exec(costSource)?.[1];
  return name === undefined ? "bandwidth model" : models.of(name);
}

/**
 * A fitted curve that turns down where the measured means do not, named as an artefact of
 * its form, with the form that follows the data (the turn-down stage's findings).
 */
function artefactItems(inputs: ReportInputs): SummaryItem[] {
  const fit = inputs.fit!;
  const findings = inputs.turnDown;
  if (findings === undefined || findings.artefacts.length === 0) return [];
  const { artefacts, followers } = findings;
  const d = fit.model.domain;
  const shown = artefacts.slice(0, 3).map(
    (a) =>
      `v = ${a.sizeMb} MB peaks at m = ${a.peak.m} (${readableNumber(a.peak.bwMbPerS)} MB/s) and falls to ${readableNumber(a.end.bwMbPerS)} MB/s at m = ${a.end.m}` +
      `${a.pastDomain ? ` (past the fitted domain, m ≤ ${d.mMax})` : ""}, while its measured means stay within 5 % of their highest up to m = ${a.measured.lastM}`,
  );
  const follower = followers[0];
  return [
    {
      label: "Artefact of the form",
      text:
        `the ${fit.model.form} form's curves turn down where the measurements do not: ${shown.join("; ")}` +
        `${artefacts.length > 3 ? ` (and ${artefacts.length - 3} more sizes)` : ""}. That fall is the form's, not the cluster's. ` +
        (follower
          ? `The ${follower.form} form follows the data (${fit.selection ? "" : "fitted on every point, "}CV RMSE ${readableNumber(follower.cvRmseMbPerS!)} MB/s; ` +
            `ckpt fit --form ${follower.form}, or --form auto; pipeline --param fit.form=${follower.form}).`
          : "None of the other forms avoids it: read the curves only where they were fitted."),
    },
  ];
}

/** A model the report draws, the range its figures cover, and those figures. */
interface DrawnModel {
  model: BandwidthModel;
  axes: ModelAxes;
  figures: readonly Figure[];
}

/** The campaign's domain policy in this version's words: an artifact recorded by an older version says strict or warn. */
function campaignDomainPolicy(campaign: CampaignResult | undefined): ScheduleDomainPolicy {
  return scheduleDomainPolicy(campaign?.settings.domain ?? "refuse", "the campaign's settings.domain");
}

/** Every downstream use of a model outside the domain it was fitted on, in words (with the model's name). */
function outsideDomainUses(inputs: ReportInputs, drawnPast: readonly DrawnModel[], models: ModelLabels): string[] {
  const uses: string[] = [];
  const example = inputs.scheduleExample ?? null;
  if (example) {
    const counts = example.scheduleCkpt.evaluations;
    const policy = campaignDomainPolicy(inputs.campaign);
    if (counts.aboveDomain > 0) {
      const at = counts.firstAboveDomain!;
      uses.push(
        `ScheduleCkpt's example asked the ${models.of(example.model)} about ${counts.aboveDomain} of ${counts.evaluations} sets above its fitted domain ` +
          `(first at m = ${at.m}, V = ${readableNumber(at.vGb)} GB), ${policy === "refuse" ? "treated as infeasible (domain policy refuse)" : "answered by extrapolation (domain policy extrapolate)"}`,
      );
    }
    if (counts.belowDomain > 0) {
      uses.push(`ScheduleCkpt's example evaluated the ${models.of(example.model)} ${counts.belowDomain} times below its fitted domain (the volume still to write, shrinking to 0 as each checkpoint ends)`);
    }
  }
  if (inputs.campaign) {
    const byPart = new Map<string, { above: number; runs: number }>();
    for (const run of inputs.campaign.runs) {
      const entry = byPart.get(run.part) ?? { above: 0, runs: 0 };
      entry.runs += 1;
      if ((run.aboveDomain ?? 0) > 0) entry.above += 1;
      byPart.set(run.part, entry);
    }
    const parts = [...byPart].filter(([, e]) => e.above > 0);
    if (parts.length > 0) {
      uses.push(
        `the campaigns asked the ${models.of(inputs.campaign.settings.model)} about sets above its fitted domain in ${parts.map(([part, e]) => `${e.above} of ${e.runs} runs of ${part}`).join(", ")} ` +
          `(${campaignDomainPolicy(inputs.campaign) === "refuse" ? "treated as infeasible" : "answered by extrapolation"})`,
      );
    }
    for (const entry of inputs.campaign.notApplicable ?? []) uses.push(`${entry.scenario} not run: ${entry.reason}`);
  }
  for (const entry of inputs.placeNotApplicable ?? []) uses.push(`DP placer scenario ${entry.scenario} not run: ${entry.reason}`);
  for (const { model, axes, figures } of drawnPast) {
    const d = model.domain;
    const drawn = figures.filter((f) => /-(size-curves|candidates|datasets)$/.test(f.id)).map((f) => `"${f.title}"`);
    if (axes.mMax > d.mMax || axes.vMaxGb > d.vGbMax) {
      uses.push(
        `the figures draw the ${models.of(model.name)} up to m = ${axes.mMax} and V = ${readableNumber(axes.vMaxGb)} GB, past its domain (m ≤ ${d.mMax}, V ≤ ${readableNumber(d.vGbMax)} GB): ` +
          `dotted and labelled "extrapolated" in ${drawn.join(", ")}, veiled on the surface`,
      );
    }
  }
  const fit = inputs.fit;
  const outsideRuns = fit ? fit.validation.runs.filter((run) => !run.inDomain).length : 0;
  if (fit && outsideRuns > 0) uses.push(`${outsideRuns} of the ${fit.validation.runCount} mixed-size validation runs lie outside the domain of the ${models.of(fit.model.name)}: its error on them is an extrapolation's`);
  return uses;
}
