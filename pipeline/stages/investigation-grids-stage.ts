/**
 * The investigations (docs/investigations/): their simulation grids: the [BKT] claims at the paper's
 * scale and the map of where a 2× difference between PCkP and Periodic is reachable, and the
 * [DAS06] grids on the real traces and over the synthetic generator's parameters.
 *
 * They take hours of CPU (the paper-scale [BKT] cells alone ~1 min each), so unlike the report's
 * own grids (simulation-grid-stage.ts) this stage never runs a cell: it only takes the results
 * kept next to each spec, and only those the simulator's current code wrote. A grid with a
 * cell missing or written by other code is reported as not current, with the commands that
 * refresh it (in shards, e.g. as a job array), and the report says which rows it could not
 * make. `--param investigations.compute=true` runs the missing cells instead.
 *
 * It also counts, for the k0 investigation, ScheduleCkpt's work and share under each reading
 * (schedule/readings/k0-work-growth.ts): a few seconds, done here so that the runner keeps
 * the result while the code is unchanged instead of the report redoing it.
 */
import { existsSync } from "node:fs";
import type { Stage } from "../runner/stage";
import { INVESTIGATION_GRIDS, type InvestigationGrid } from "../reproduce/investigations";
import { projectPath } from "./project-path";

export interface InvestigationGridsParameters {
  grids: Record<string, InvestigationGrid>;
  /** Run the cells that have no current kept result (hours), instead of reporting the grid as not current. */
  compute: boolean;
}

export const investigationGridsStage: Stage<InvestigationGridsParameters> = {
  name: "investigations",
  summary: "the investigations' simulation grids (docs/investigations/), from their kept results only",
  inputs: [],
  outputs: ["investigations"],
  module: __filename,
  defaults: { grids: { ...INVESTIGATION_GRIDS }, compute: false },
  inputFiles: ({ parameters }) =>
    Object.values(parameters.grids).flatMap((g) => [projectPath(g.grid), ...(existsSync(projectPath(g.results)) ? [projectPath(g.results)] : [])]),
  async run(context) {
    // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
    const { collectInvestigations } = await import("../reproduce/investigations.js");
    const investigations = await collectInvestigations(context.parameters.grids, {
      cacheDir: context.cache.dir,
      compute: context.parameters.compute,
      progress: context.progress,
      projectPath,
    });
    return { artifacts: { investigations } };
  },
};
