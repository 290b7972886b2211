/**
 * The report stage: every artifact upstream → figures (Vega-Lite, SVG, PNG, PDF), tables
 * (CSV, LaTeX), the reproduction table (the reproduce stage's rows) and `index.html`. It
 * draws and computes nothing: each number it prints is in an artifact. Its inputs are
 * optional so that the report grows as the stages that feed it are registered.
 */
import { PAPER_MODEL } from "../fit/model";
import { DEFAULT_REPORT_PARAMETERS, FIGURE_WIDTHS, type ReportParameters } from "../report/page/report-parameters";
import { InputError } from "../shared/errors";
import type { Stage } from "../runner/stage";
import { readInputs, measuredArtifactNames, type ArtifactName } from "./catalog";
import { MEASURED_CLUSTERS } from "./measured-clusters";
import { TOOL_VERSION } from "../shared/version";

const MEASURED = MEASURED_CLUSTERS.map((cluster) => ({ cluster, names: measuredArtifactNames(cluster.key) }));

const READ = [
  "observations",
  "fit",
  "turn-down",
  "schedule-example",
  "campaign",
  "schedule-timings",
  "plans-that-hold",
  "paper-campaign",
  "placements",
  "place-not-applicable",
  "bkt-grid",
  "das06-grid",
  "server-comparison",
  "reproduction",
] as const satisfies readonly ArtifactName[];

export const reportStage: Stage<ReportParameters> = {
  name: "report",
  summary: "figures, tables, reproduction table and index.html",
  inputs: [
    "observations?",
    "fit?",
    "turn-down?",
    ...MEASURED.flatMap(({ names }) => [`${names.observations}?`, `${names.fit}?`]),
    "schedule-example?",
    "campaign?",
    "schedule-timings?",
    "plans-that-hold?",
    "paper-campaign?",
    "placements?",
    "place-not-applicable?",
    "bkt-grid?",
    "das06-grid?",
    "server-comparison?",
    "reproduction?",
  ],
  outputs: ["report"],
  module: __filename,
  defaults: DEFAULT_REPORT_PARAMETERS,
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
    const { reportArtifact } = await import("../report/page/report-artifact.js");
    const inputs = readInputs(context.inputs, READ);
    const content = buildReportContent(
      {
        paperModel: PAPER_MODEL,
        ...(inputs.observations ? { observations: inputs.observations } : {}),
        ...(inputs.fit ? { fit: inputs.fit } : {}),
        ...(inputs["turn-down"] ? { turnDown: inputs["turn-down"] } : {}),
        measured: MEASURED.flatMap(({ cluster, names }) => {
          const { [names.observations]: observations, [names.fit]: fit } = readInputs(context.inputs, [names.observations, names.fit]);
          if (!observations || !fit) return [];
          return [{ key: cluster.key, who: cluster.who, title: cluster.title, intro: cluster.intro(observations.inputs.map((i) => i.path).join(", ")), observations, fit }];
        }),
        ...("schedule-example" in inputs ? { scheduleExample: inputs["schedule-example"] } : {}),
        ...(inputs.campaign ? { campaign: inputs.campaign } : {}),
        ...(inputs["paper-campaign"] ? { paperCampaign: inputs["paper-campaign"] } : {}),
        ...(inputs["schedule-timings"] ? { scheduleTimings: inputs["schedule-timings"] } : {}),
        ...(inputs["plans-that-hold"] ? { plansThatHold: inputs["plans-that-hold"] } : {}),
        ...(inputs.placements ? { placements: inputs.placements } : {}),
        ...(inputs["place-not-applicable"] ? { placeNotApplicable: inputs["place-not-applicable"] } : {}),
        ...(inputs["bkt-grid"] ? { bktGrid: inputs["bkt-grid"] } : {}),
        ...(inputs["das06-grid"] ? { das06Grid: inputs["das06-grid"] } : {}),
        ...(inputs["server-comparison"] ? { serverComparison: inputs["server-comparison"] } : {}),
        ...(inputs.reproduction ? { reproduction: inputs.reproduction } : {}),
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
    return { artifacts: { report: reportArtifact(drawn) }, files };
  },
};
