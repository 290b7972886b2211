/**
 * What the report says, as data: sections of figures and tables, and the reproduction
 * table, built from whatever artifacts the pipeline produced. Pure: the same inputs give
 * the same content, which render-report.ts turns into files.
 *
 * Inputs arrive stage by stage; a section appears when its artifacts exist, and the
 * report says which stages it was built from.
 */
import type { BandwidthModel } from "../../fit/model";
import type { Figure } from "../figures/figure";
import { modelCard } from "../tables/model-card";
import { modelFigures } from "../figures/model-figures";
import { modelReproductionRows } from "../reproduction/model-reproduction-rows";
import type { ObservationsArtifact } from "../../ingest/observations-artifact";
import { fitFigures, type FitReportArtifact } from "../figures/fit-figures";
import type { CampaignResult } from "../../schedule";
import { mergeTimings } from "../../shared/split-timings";
import { scheduleFigures, scheduleReproductionRows, schedulerTimeFigure, type ScheduleExample } from "../figures/schedule-figures";
import { measuredFigures } from "../figures/measured-figures";
import { machineFigures } from "../figures/machine-figures";
import { dalyReproductionRows, placeFigures, type ScenarioPlacement } from "../figures/place-figures";
import { reproductionTable, type ReproductionRow } from "../reproduction/reproduction";
import type { Table } from "../tables/table";

export interface ReportInputs {
  /** The published model of [Y11] / [Y-thesis] (always there: it is data in the code). */
  paperModel: BandwidthModel;
  /** The ingest stage's artifact, when it ran. */
  observations?: ObservationsArtifact;
  /** The fit stage's report, when it ran. */
  fit?: FitReportArtifact;
  /** This machine's observations and fit (the `ingest-machine` and `fit-machine` stages), when they ran. */
  machineObservations?: ObservationsArtifact;
  machineFit?: FitReportArtifact;
  /** The schedule stage's example run, campaign and measured times, when it ran. */
  scheduleExample?: ScheduleExample;
  campaign?: CampaignResult;
  scheduleTimings?: { campaign: Record<string, number> };
  /** The place stage's scenarios (docs/science.md §5), when it ran. */
  placements?: readonly ScenarioPlacement[];
}

/** "the traces data/traces/x.csv" — how captions name the ingested data. */
function tracesLabel(artifact: ObservationsArtifact): string {
  const files = artifact.inputs.map((i) => i.path);
  const synthetic = files.some((f) => /synthetic/i.test(f)) ? " (synthetic)" : "";
  return files.length === 0 ? "the ingested traces" : `the traces ${files.join(", ")}${synthetic}`;
}

export interface ReportParameters {
  /** Tolerances of the reproduction verdicts (see model-reproduction-rows.ts). */
  reproduction: { bandwidthRelative: number; peakM: number };
}

export const DEFAULT_REPORT_PARAMETERS: ReportParameters = {
  reproduction: { bandwidthRelative: 0.05, peakM: 1 },
};

export interface ReportSection {
  id: string;
  title: string;
  /** One paragraph of plain text. */
  intro: string;
  figures: Figure[];
  tables: Table[];
}

export interface ReportContent {
  title: string;
  sections: ReportSection[];
  reproduction: ReproductionRow[];
}

const PAPER_LABEL = "published model ([Y11] eq. 4)";

export function buildReportContent(inputs: ReportInputs, parameters: ReportParameters = DEFAULT_REPORT_PARAMETERS): ReportContent {
  const reproduction = [
    ...modelReproductionRows(inputs.paperModel, { modelLabel: "published model", ...parameters.reproduction }),
    ...(inputs.campaign ? scheduleReproductionRows(inputs.campaign) : []),
    ...(inputs.placements ? dalyReproductionRows() : []),
  ];
  const paperCard = modelCard(inputs.paperModel, "paper-model");
  const sections: ReportSection[] = [
    {
      id: "reproduction",
      title: "Reproduction of the papers",
      intro:
        "Each published number the project can recompute, with the paper's value, ours, and a verdict computed from a " +
        "stated tolerance. Where the paper's number rests on unpublished data the row says what ours is instead.",
      figures: [],
      tables: [reproductionTable(reproduction)],
    },
    {
      id: "paper-model",
      title: "The published bandwidth model",
      intro:
        "The aggregated checkpoint bandwidth model bw(m, V) of [Y11] / [Y-thesis] with its published coefficients " +
        "(docs/science.md §3.2), against the peaks measured on the Grid5000 Azur cluster ([Y-thesis] Table 4.1) and the validation " +
        "data sets D1–D3 ([Y11] Table 1).",
      figures: modelFigures(inputs.paperModel, { idPrefix: "paper-model", modelLabel: PAPER_LABEL }),
      tables: [paperCard.coefficients, paperCard.properties],
    },
  ];
  if (inputs.observations) {
    const label = tracesLabel(inputs.observations);
    const measured = measuredFigures(inputs.observations, label);
    sections.push({
      id: "measured",
      title: "Measured bandwidth",
      intro:
        `What ingest read from ${label}: per size series the mean aggregated bandwidth of the runs at each m, its spread and ` +
        `its peak — the input of the fit (docs/science.md §3.1).`,
      figures: measured.figures,
      tables: measured.tables,
    });
    if (inputs.fit) {
      const fitted = fitFigures(inputs.fit, inputs.observations.observations, inputs.paperModel, label);
      const card = modelCard(inputs.fit.model, "fitted-model");
      sections.push({
        id: "fitted-model",
        title: "The fitted bandwidth model",
        intro:
          `bw(m, V) fitted by ordinary least squares to ${label} (${String(inputs.fit.model.provenance.fitPoints ?? "")}), ` +
          `with its statistics, its residuals and its predictions of the measured and published peaks. This is the model ` +
          `artifact (artifacts/model.json) the later stages can use.`,
        figures: fitted.figures,
        tables: [...fitted.tables, card.properties],
      });
    }
  }
  if (inputs.machineObservations && inputs.machineFit) {
    const paperFigures = sections.find((s) => s.id === "paper-model")?.figures ?? [];
    const machine = machineFigures(inputs.machineFit, inputs.machineObservations, inputs.paperModel, paperFigures);
    sections.push({
      id: "machine",
      title: "This machine against the Azur model",
      intro:
        `Checkpoint bandwidth measured with ckpt harness on a machine of this project (${inputs.machineObservations.inputs.map((i) => i.path).join(", ")}; ` +
        `its README in data/traces/ describes the machine and the sweep), fitted with the papers' method, next to the published ` +
        `model of the Azur cluster. Read the curves and the coefficients as two recalibrations of one form, not as one ` +
        `measurement: the README says how that machine differs from thirty nodes writing to one NFS server.`,
      figures: machine.figures,
      tables: machine.tables,
    });
  }
  if (inputs.scheduleExample && inputs.campaign) {
    const drawn = scheduleFigures(inputs.scheduleExample, inputs.campaign);
    const timed = inputs.scheduleTimings ? schedulerTimeFigure(mergeTimings(inputs.campaign, inputs.scheduleTimings.campaign)) : null;
    sections.push({
      id: "schedule",
      title: "What to checkpoint before the release: ScheduleCkpt",
      intro:
        `ScheduleCkpt ([Y11] §5, docs/science.md §4.3) with the ${inputs.campaign.settings.model} model and the ${inputs.campaign.settings.estimator} ` +
        `time estimator: one run in detail, then the papers' campaigns over seeded instances next to the published values (docs/science.md §4.5–§4.6). ` +
        inputs.campaign.notes[0],
      figures: [...drawn.figures, ...(timed ? [timed] : [])],
      tables: drawn.tables,
    });
  }
  if (inputs.placements && inputs.placements.length > 0) {
    const place = placeFigures(inputs.placements);
    sections.push({
      id: "place",
      title: "Where to checkpoint a job: the DP placer",
      intro:
        "The optimal checkpoint placement of [BTW10] / [BKT] (docs/science.md §5.2) against Young's and Daly's periods and no checkpoint, " +
        "in each scenario of the place stage: " +
        inputs.placements.map((s) => `${s.name}: ${s.scenario.description}`).join("; ") +
        ". Every policy is also simulated, so each analytic value can be checked against its Monte Carlo interval.",
      figures: place.figures,
      tables: place.tables,
    });
  }
  return { title: "ckpt-lab report", sections, reproduction };
}
