/**
 * The reproduction table's rows from whatever artifacts exist: the published model's peaks,
 * the transcribed tables (with the campaign where they compare with seeded instances), the
 * ScheduleCkpt campaign (when it ran with the published model, as the papers did), Daly's
 * periods (with the place stage), [BKT]'s laws and grid, [DAS06]'s grid, the investigations.
 * The reproduce stage (stages/reproduce-stage.ts) runs it; the report prints its rows.
 */
import type { BandwidthModel } from "../fit/model";
import type { ScenarioPlacement } from "../place/scenario-placement";
import type { CampaignResult } from "../schedule/campaign";
import type { MergedSweep } from "../simulate/sweep/merge-sweep";
import { bktLawReproductionRows, bktReproductionRows } from "./bkt-rows";
import { dalyReproductionRows } from "./daly-rows";
import { das06ReproductionRows } from "./das06-rows";
import { investigationRows } from "./investigation-rows";
import type { Investigations } from "./investigations";
import { modelReproductionRows } from "./model-reproduction-rows";
import { isPaperCampaign } from "./paper-campaign";
import { publishedTableRows } from "./published-table-rows";
import type { PublishedTables } from "./published-tables";
import type { ReproductionRow } from "./reproduction";
import { scheduleReproductionRows } from "./schedule-reproduction-rows";

/** The tolerances of the verdicts that compare a model with measurements (model-reproduction-rows.ts). */
export interface ReproductionTolerances {
  /** Relative tolerance on a peak bandwidth. */
  bandwidthRelative: number;
  /** Absolute tolerance on a peak's position m. */
  peakM: number;
}

export const DEFAULT_REPRODUCTION_TOLERANCES: ReproductionTolerances = { bandwidthRelative: 0.05, peakM: 1 };

/** What the rows are made of; each part is optional but the published model. */
export interface ReproductionInputs {
  /** The published model of [Y11] / [Y-thesis]. */
  paperModel: BandwidthModel;
  campaign?: CampaignResult;
  /** The papers' campaigns with the published model, when a cluster's report adds the reproduction (`schedule-paper`). */
  paperCampaign?: CampaignResult;
  placements?: readonly ScenarioPlacement[];
  bktGrid?: MergedSweep;
  das06Grid?: MergedSweep;
  /** The papers' tables transcribed in data/published/. */
  published?: PublishedTables;
  investigations?: Investigations;
}

export function reproductionRows(inputs: ReproductionInputs, tolerances: ReproductionTolerances = DEFAULT_REPRODUCTION_TOLERANCES): ReproductionRow[] {
  const campaign = [inputs.paperCampaign, inputs.campaign].find((c) => c !== undefined && isPaperCampaign(c));
  const options = { modelLabel: "published model", ...tolerances };
  return [
    ...modelReproductionRows(inputs.paperModel, options),
    ...(inputs.published ? publishedTableRows(inputs.published, inputs.paperModel, options, campaign) : []),
    ...(campaign ? scheduleReproductionRows(campaign) : []),
    ...(inputs.placements ? dalyReproductionRows() : []),
    ...bktLawReproductionRows(),
    ...(inputs.bktGrid ? bktReproductionRows(inputs.bktGrid) : []),
    ...(inputs.das06Grid ? das06ReproductionRows(inputs.das06Grid) : []),
    ...investigationRows(inputs.investigations),
  ];
}
