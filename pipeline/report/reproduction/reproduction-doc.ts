/**
 * docs/reproduction.md: the reproduction table summed up per paper, as the pipeline's report
 * computes it with its default parameters — the published model, the tables transcribed in
 * data/published/, the schedule stage's default campaign (without the scaling part, which
 * only measures time), Daly's periods, the [BKT] and [DAS06] grids kept in
 * data/simulations/, and the investigations' kept grids and k0 counts. A test checks that
 * the committed file is what this writes; regenerate it with `npm run docs`. The report of every pipeline
 * run writes the same page for its own rows (`reproduction.md`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PAPER_MODEL } from "../../fit/model";
import { runCampaign } from "../../schedule/campaign";
import { writeFileAtomic } from "../../shared/atomic-write";
import { projectRoot } from "../../shared/version";
import type { MergedSweep } from "../../simulate/sweep/merge-sweep";
import { DEFAULT_SCHEDULE_PARAMETERS } from "../../stages/schedule-stage";
import { simulateBktStage, simulateDas06Stage } from "../../stages/simulation-grid-stage";
import { INVESTIGATION_GRIDS, refreshCommands, type Investigations } from "../../stages/investigation-grids-stage";
import { k0Investigation } from "../../schedule/readings/k0-work-growth";
import { reproductionRows } from "../page/report-content";
import { PUBLISHED_DIR, readPublishedTables } from "./published-tables";
import type { ReproductionRow } from "./reproduction";
import { reproductionMarkdown } from "./reproduction-summary";

export const REPRODUCTION_DOC_PATH = join("docs", "reproduction.md");

/** The rows of a default pipeline run (see the module docblock). */
export function defaultReproductionRows(root = projectRoot()): ReproductionRow[] {
  const schedule = DEFAULT_SCHEDULE_PARAMETERS;
  const campaign = runCampaign({
    model: PAPER_MODEL,
    domain: schedule.domain,
    estimator: schedule.estimator,
    idleStart: schedule.idleStart,
    parts: schedule.campaign.parts.filter((part) => part !== "scaling"),
    seeds: schedule.campaign.seeds,
    firstSeed: schedule.campaign.firstSeed,
    k0s: schedule.campaign.k0s,
    criteria: schedule.campaign.criteria,
    exact: null,
    scalingNs: [],
    scalingSeeds: 1,
  });
  const merged = (results: string) => JSON.parse(readFileSync(join(root, results, "merged.json"), "utf8")) as MergedSweep;
  // The investigations' grids as kept (their merged results, when a merge was written), and the k0 counts.
  const investigations: Investigations = {
    grids: Object.fromEntries(
      Object.entries(INVESTIGATION_GRIDS).map(([name, grid]) => {
        const kept = existsSync(join(root, grid.results, "merged.json"));
        return [name, { grid: grid.grid, merged: kept ? merged(grid.results) : null, cells: 0, notCurrent: 0, refresh: kept ? null : refreshCommands(grid) }];
      }),
    ),
    k0: k0Investigation(),
  };
  return reproductionRows({
    paperModel: PAPER_MODEL,
    campaign,
    placements: [],
    bktGrid: merged(simulateBktStage.defaults.results),
    das06Grid: merged(simulateDas06Stage.defaults.results),
    published: readPublishedTables(join(root, PUBLISHED_DIR)),
    investigations,
  });
}

export function reproductionDoc(root = projectRoot()): string {
  return reproductionMarkdown(defaultReproductionRows(root), "a default `ckpt pipeline` run: `npm run docs` regenerates this page");
}

if (require.main === module) {
  writeFileAtomic(join(projectRoot(), REPRODUCTION_DOC_PATH), reproductionDoc());
  console.log(`wrote ${REPRODUCTION_DOC_PATH}`);
}
