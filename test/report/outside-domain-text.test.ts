/**
 * The report's "Outside the fitted domain" line names the domain policy in the project's one
 * vocabulary (refuse | extrapolate, bandwidth/outside-domain.ts), and reads a campaign that
 * an older version recorded with its words strict | warn as the same policy.
 */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { buildReportContent } from "../../pipeline/report/page/report-content";
import {
  allInParallel,
  resolveScheduleOptions,
  runCampaign,
  scheduleCkpt,
  sequentialGreedy,
  type Application,
  type CampaignResult,
  type ScheduleDomainPolicy,
} from "../../pipeline/schedule";
import type { ScheduleExample } from "../../pipeline/schedule/schedule-example";

// Eight 700 MB images: five of them weigh 3.5 GB, above the paper model's fitted V ≤ 3.42 GB
// (its first set above the box is m = 5, V = 3.5 GB), so the example asks about a set above it.
const large: Application[] = Array.from({ length: 8 }, (_, i) => ({ id: `big${i}`, pS: 1000 - i, sizeMb: 700 }));

function example(domain: ScheduleDomainPolicy): ScheduleExample {
  const options = resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 600, k0: 1, domain });
  return {
    apps: "large.csv", model: PAPER_MODEL.name, deadlineS: 600, k0: 1, criterion: "p", estimator: "static",
    scheduleCkpt: scheduleCkpt(large, options), sequentialGreedy: sequentialGreedy(large, options), allInParallel: allInParallel(large, options),
  };
}

// The published campaigns stay inside the paper model's box (index_bw_max stops before m = 18),
// so the campaign plans with the same coefficients on a box of m ≤ 4, V ≤ 1 GB: family A's 25
// applications of 100–500 MB reach above it.
const smallBox = { ...PAPER_MODEL, name: "paper on a small box", domain: { ...PAPER_MODEL.domain, mMax: 4, vGbMax: 1 } };
function campaign(domain: ScheduleDomainPolicy): CampaignResult {
  return runCampaign({ model: smallBox, domain, estimator: "static", parts: ["A"], seeds: 1, firstSeed: 1, k0s: [0], criteria: ["p"], exact: null, scalingNs: [], scalingSeeds: 1 });
}

function outsideText(scheduleExample: ScheduleExample, result: CampaignResult): string {
  const summary = buildReportContent({ paperModel: PAPER_MODEL, scheduleExample, campaign: result }).summary;
  return summary.find((item) => item.label === "Outside the fitted domain")!.text;
}

describe("the report's words for the domain policy", () => {
  const refused = { example: example("refuse"), campaign: campaign("refuse") };
  const extrapolated = { example: example("extrapolate"), campaign: campaign("extrapolate") };

  it("says refuse or extrapolate, never the older strict or warn", () => {
    const refuse = outsideText(refused.example, refused.campaign);
    expect(refuse).toMatch(/ScheduleCkpt's example asked the .* about \d+ of \d+ sets above its fitted domain \(first at m = 5, V = 3\.5 GB\), treated as infeasible \(domain policy refuse\)/);
    expect(refuse).toMatch(/the campaigns asked the .* about sets above its fitted domain in 1 of 1 runs of A \(treated as infeasible\)/);
    const extrapolate = outsideText(extrapolated.example, extrapolated.campaign);
    expect(extrapolate).toMatch(/sets above its fitted domain \(first at m = 5, V = 3\.5 GB\), answered by extrapolation \(domain policy extrapolate\)/);
    expect(extrapolate).toMatch(/in 1 of 1 runs of A \(answered by extrapolation\)/);
    for (const text of [refuse, extrapolate]) expect(text).not.toMatch(/\b(strict|warn)\b/);
  });

  it("reads a campaign recorded by an older version (strict, warn) as the same policy", () => {
    expect(refused.campaign.settings.domain).toBe("refuse");
    for (const [older, current] of [["strict", refused], ["warn", extrapolated]] as const) {
      const recorded: CampaignResult = { ...current.campaign, settings: { ...current.campaign.settings, domain: older as ScheduleDomainPolicy } };
      expect(outsideText(current.example, recorded)).toBe(outsideText(current.example, current.campaign));
    }
    const wrong: CampaignResult = { ...refused.campaign, settings: { ...refused.campaign.settings, domain: "clamp" as ScheduleDomainPolicy } };
    expect(() => outsideText(refused.example, wrong)).toThrow(`the campaign's settings.domain must be one of refuse (alias strict), extrapolate (alias warn); found "clamp"`);
  });
});
