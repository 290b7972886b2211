/**
 * The reproduce stage: every published number the project recomputes, against the papers'
 * printed value, with its verdict (pipeline/reproduce/). It reads the artifacts the numbers
 * come from — the papers' campaigns planned with the published model, the place stage's
 * scenarios (Daly's periods come with them), the [BKT] and [DAS06] grids, the investigations
 * — and the papers' tables as transcribed in data/published/; the report prints its rows
 * and computes none, and `npm run docs` writes docs/reproduction.md from the same artifact.
 */
import { PAPER_MODEL } from "../fit/model";
import { DEFAULT_REPRODUCTION_TOLERANCES, type ReproductionTolerances } from "../reproduce/reproduction-rows";
import { PUBLISHED_DIR } from "../reproduce/published-tables";
import type { Stage } from "../runner/stage";
import { ARTIFACTS, readInputs } from "./catalog";
import { projectPath } from "./project-path";

export const reproduceStage: Stage<ReproductionTolerances> = {
  name: "reproduce",
  summary: "the reproduction table: each published number, ours, the verdict and why",
  inputs: ["campaign?", "paper-campaign?", "placements?", "bkt-grid?", "das06-grid?", "investigations?"],
  outputs: [ARTIFACTS.reproduction.name],
  module: __filename,
  defaults: DEFAULT_REPRODUCTION_TOLERANCES,
  // The papers' tables as transcribed: the reference values of the rows.
  inputFiles: () => [projectPath(PUBLISHED_DIR)],
  async run(context) {
    // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
    const { reproductionRows } = await import("../reproduce/reproduction-rows.js");
    const { readPublishedTables } = await import("../reproduce/published-tables.js");
    const inputs = readInputs(context.inputs, ["campaign", "paper-campaign", "placements", "bkt-grid", "das06-grid", "investigations"]);
    const rows = reproductionRows(
      {
        paperModel: PAPER_MODEL,
        ...(inputs.campaign ? { campaign: inputs.campaign } : {}),
        ...(inputs["paper-campaign"] ? { paperCampaign: inputs["paper-campaign"] } : {}),
        ...(inputs.placements ? { placements: inputs.placements } : {}),
        ...(inputs["bkt-grid"] ? { bktGrid: inputs["bkt-grid"] } : {}),
        ...(inputs["das06-grid"] ? { das06Grid: inputs["das06-grid"] } : {}),
        published: readPublishedTables(projectPath(PUBLISHED_DIR)),
        ...(inputs.investigations ? { investigations: inputs.investigations } : {}),
      },
      context.parameters,
    );
    return { artifacts: { reproduction: rows } };
  },
};
