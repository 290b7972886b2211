import { PAPER_MODEL } from "../fit/model";
import type { CampaignResult } from "../schedule/campaign";

/** Whether the campaign was planned with the published model: only then are the papers' values beside it. */
export function isPaperCampaign(campaign: CampaignResult): boolean {
  return campaign.settings.model === PAPER_MODEL.name;
}
