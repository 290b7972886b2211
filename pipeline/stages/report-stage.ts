/**
 * The report stage: every artifact upstream → figures (Vega-Lite, SVG, PNG, PDF), tables
 * (CSV, LaTeX), the reproduction table and `index.html`. Its inputs are optional so that
 * the report grows as the stages that feed it are registered.
 */
import { PAPER_MODEL } from "../fit/model";
import { DEFAULT_REPORT_PARAMETERS, FIGURE_WIDTHS, type ReportParameters } from "../report/page/report-parameters";
import { InputError } from "../shared/errors";
import type { ObservationsArtifact } from "../ingest/observations-artifact";
import type { FitReportArtifact } from "../report/figures/fit-figures";
import type { ScenarioPlacement } from "../report/figures/place-figures";
import type { ScheduleExample } from "../report/figures/schedule-figures";
import type { CampaignResult } from "../schedule";
import type { Stage } from "../runner/stage";
import { MEASURED_CLUSTERS } from "./measured-clusters";
import { projectPath } from "./project-path";
import { PUBLISHED_DIR } from "../report/reproduction/published-tables";
import { TOOL_VERSION } from "../shared/version";
import type { NotApplicable } from "../shared/not-applicable";
import type { MergedSweep } from "../simulate/sweep/merge-sweep";
import type { Investigations } from "./investigation-grids-stage";
import type { ServerComparison } from "../simulate/server/compare-servers";

export const reportStage: Stage<ReportParameters> = {
  name: "report",
  summary: "figures, tables, reproduction table and index.html",
  inputs: [
    "observations?",
    "fit?",
    ...MEASURED_CLUSTERS.flatMap((c) => [`${c.key}-observations?`, `${c.key}-fit?`]),
    "schedule-example?",
    "campaign?",
    "schedule-timings?",
    "paper-campaign?",
    "placements?",
    "place-not-applicable?",
    "bkt-grid?",
    "das06-grid?",
    "investigations?",
    "server-comparison?",
  ],
  outputs: ["report"],
  module: __filename,
  defaults: DEFAULT_REPORT_PARAMETERS,
  // The papers' tables as transcribed: the reference values of the reproduction rows.
  inputFiles: () => [projectPath(PUBLISHED_DIR)],
  async run(context) {
    const figureWidth = context.parameters.figureWidth as (typeof FIGURE_WIDTHS)[number];
    if (!FIGURE_WIDTHS.includes(figureWidth)) {
      throw new InputError(`report.figureWidth: expected ${FIGURE_WIDTHS.join(", ")} (a paper column of 3.5 in, both columns of 7.16 in), got ${JSON.stringify(figureWidth)}`);
    }
    // Loaded here, not at the top: the report's content (its figures, tables, every stage's
    // types of results) and its renderers (vega, resvg, pdfkit, ~150 ms more) are needed only
    // when the report is drawn, not by every `ckpt` command that lists the stages.
    const { buildReportContent } = await import("../report/page/report-content.js");
    const { renderReport } = await import("../report/page/render-report.js");
    const { readPublishedTables } = await import("../report/reproduction/published-tables.js");
    const inputs = context.inputs as {
      observations?: ObservationsArtifact;
      fit?: FitReportArtifact;
      [measured: string]: unknown;
      "schedule-example"?: ScheduleExample | null;
      campaign?: CampaignResult;
      "paper-campaign"?: CampaignResult;
      "schedule-timings"?: { campaign: Record<string, number> };
      placements?: ScenarioPlacement[];
      "place-not-applicable"?: NotApplicable[];
      "bkt-grid"?: MergedSweep;
      "das06-grid"?: MergedSweep;
      investigations?: Investigations;
      "server-comparison"?: ServerComparison;
    };
    const content = buildReportContent(
      {
        paperModel: PAPER_MODEL,
        ...(inputs.observations ? { observations: inputs.observations } : {}),
        ...(inputs.fit ? { fit: inputs.fit } : {}),
        measured: MEASURED_CLUSTERS.flatMap((cluster) => {
          const observations = inputs[`${cluster.key}-observations`] as ObservationsArtifact | undefined;
          const fit = inputs[`${cluster.key}-fit`] as FitReportArtifact | undefined;
          if (!observations || !fit) return [];
          return [{ key: cluster.key, who: cluster.who, title: cluster.title, intro: cluster.intro(observations.inputs.map((i) => i.path).join(", ")), observations, fit }];
        }),
        ...(inputs["schedule-example"] !== undefined ? { scheduleExample: inputs["schedule-example"] } : {}),
        ...(inputs.campaign ? { campaign: inputs.campaign } : {}),
        ...(inputs["paper-campaign"] ? { paperCampaign: inputs["paper-campaign"] } : {}),
        ...(inputs["schedule-timings"] ? { scheduleTimings: inputs["schedule-timings"] } : {}),
        ...(inputs.placements ? { placements: inputs.placements } : {}),
        ...(inputs["place-not-applicable"] ? { placeNotApplicable: inputs["place-not-applicable"] } : {}),
        ...(inputs["bkt-grid"] ? { bktGrid: inputs["bkt-grid"] } : {}),
        ...(inputs["das06-grid"] ? { das06Grid: inputs["das06-grid"] } : {}),
        published: readPublishedTables(projectPath(PUBLISHED_DIR)),
        ...(inputs.investigations ? { investigations: inputs.investigations } : {}),
        ...(inputs["server-comparison"] ? { serverComparison: inputs["server-comparison"] } : {}),
      },
      context.parameters,
    );
    const { files, content: drawn } = await renderReport(
      content,
      { inputs: context.provenance, parameters: context.parameters, toolVersion: TOOL_VERSION, stages: context.stageNames },
      {
        cache: { dir: context.cache.dir, salt: context.cache.codeHash },
        figureWidth,
        onFigure: (id, index, total, warnings) => {
          context.progress(`figure ${index}/${total}: ${id}`);
          for (const warning of warnings) context.progress(`  warning (${id}): ${warning}`);
        },
      },
    );
    return {
      artifacts: {
        report: {
          title: drawn.title,
          cluster: drawn.cluster,
          summary: drawn.summary,
          sections: drawn.sections.map((s) => ({ id: s.id, title: s.title, figures: s.figures.map((f) => f.id), tables: s.tables.map((t) => t.id), notes: s.notes })),
          reproduction: drawn.reproduction,
        },
      },
      files,
    };
  },
};
