/**
 * The reproduction rows of every table transcribed in data/published/ beyond Table 4.1 and
 * the measured peaks (model-reproduction-rows.ts), in the papers' order: [Y11] Table 1 /
 * [Y-thesis] Table 4.2's estimated peaks, Table 4.3, §5.4.2 with Tables 5.1–5.3, Tables 7.1–7.10.
 * Rows that compare with our seeded instances need the campaign (run with the published
 * model); the others are computed here, from the transcription and the model.
 */
import type { BandwidthModel } from "../fit";
import type { CampaignResult } from "../schedule";
import { checkpointTimeRows } from "./checkpoint-time-rows";
import { identicalSizeRows } from "./identical-size-rows";
import { peakEstimateRows } from "./peak-estimate-rows";
import type { PublishedTables } from "./published-tables";
import type { ReproductionRow } from "./reproduction";
import { thesisFamilyRows } from "./thesis-family-rows";
import { wavesRows } from "./waves-rows";
import { workedExampleRows } from "./worked-example-rows";

export function publishedTableRows(
  published: PublishedTables,
  model: BandwidthModel,
  options: { bandwidthRelative: number; modelLabel: string },
  campaign?: CampaignResult,
): ReproductionRow[] {
  return [
    ...peakEstimateRows(model, published, options.modelLabel),
    ...checkpointTimeRows(model, published.table43, options),
    ...workedExampleRows(model, published, options),
    ...identicalSizeRows(model, published, options.modelLabel),
    ...thesisFamilyRows(published, campaign),
    ...wavesRows(published, campaign),
  ];
}
