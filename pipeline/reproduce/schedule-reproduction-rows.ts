/**
 * Reproduction rows of the published ScheduleCkpt numbers of [Y11] Tables 4–9 (docs/science.md
 * §4.5) against a campaign of ours. (The [Y-thesis] tables, transcribed in data/published/, have
 * their own rows: identical-size-rows.ts, thesis-family-rows.ts, waves-rows.ts.)
 *
 * Each family (A, B, C) came from one unpublished random instance, so a printed share is
 * `close` when it lies within two standard deviations of our instances' shares (where ~95 %
 * of single instances fall). RCTNYS is recomputable from the printed table itself: all rows
 * of a family ran the same instance, so CTNYS + RCTNYS is its Σ p in every row, and a row
 * that breaks this identity is an `erratum`. The printed scheduling times are `not
 * recomputable` (C code on another machine). Σ p of each published instance is compared
 * with what the stated p law makes likely.
 */
import { FAMILIES, publishedFamilyTotalP, publishedTableOf, type CampaignResult, type FamilyName } from "../schedule";
import { cite, compareWithPublished, round4, type ReproductionRow } from "./reproduction";
import { FLAT_IN_K0, SHARE_TOLERANCE_RATIONALE, offLaw, schedulerTimeRow, shareOf, totalPRow } from "./schedule-comparisons";

export function scheduleReproductionRows(campaign: CampaignResult): ReproductionRow[] {
  const rows: ReproductionRow[] = [];
  const model = `${campaign.settings.model} model`;
  const familiesSeen = new Set<FamilyName>();
  for (const r of campaign.families) {
    const published = r.published;
    if (!published) continue;
    const table = publishedTableOf(r.family, r.criterion);
    const where = (column: string) => cite("[Y11]", table, `k0 = ${r.k0}`, column);
    const key = `schedule/${r.family}/${r.criterion}/k0=${r.k0}`;
    const label = `family ${r.family}, criterion ${r.criterion}, k0 = ${r.k0}`;
    const totalP = publishedFamilyTotalP(r.family);
    const erratum = published.note !== undefined;
    if (!familiesSeen.has(r.family)) {
      familiesSeen.add(r.family);
      const spec = FAMILIES[r.family];
      const tables = `${publishedTableOf(r.family, "p")} and ${publishedTableOf(r.family, "density").slice("Table ".length)}`;
      rows.push(totalPRow(`schedule/${r.family}/total-p`, `family ${r.family}`, cite("[Y11]", `${tables.replace("Table", "Tables")}`, "every k0", "CTNYS + RCTNYS"), totalP, spec.n, spec.pMinS, spec.pMaxS));
    }
    rows.push(
      compareWithPublished({
        id: `${key}/share`,
        quantity: `${label}: CTNYS share, CTNYS / (CTNYS + RCTNYS)`,
        source: where("CTNYS, RCTNYS"),
        ...shareOf(published.printedShare),
        ours: round4(r.share.mean),
        unit: "share",
        how: `mean over ${r.share.n} seeded instances of family ${r.family}, ScheduleCkpt with the ${model}`,
        tolerance: { absolute: 2 * r.share.sd, rationale: SHARE_TOLERANCE_RATIONALE },
        whenDiffers: familyGapReason(r.family),
        ...(erratum ? { erratum: { corrected: round4(published.share), evidence: `${published.note}, so the share is CTNYS / ${totalP}` } } : {}),
      }),
      compareWithPublished({
        id: `${key}/rctnys`,
        quantity: `${label}: RCTNYS = Σ p − CTNYS of the published instance`,
        source: where("RCTNYS"),
        paper: published.rctnys,
        ours: totalP - published.ctnys,
        unit: "s",
        how: `Σ p of family ${r.family}'s published instance (${totalP}: the CTNYS + RCTNYS its rows print) minus this row's CTNYS (${published.ctnys})`,
        selfCheck: true,
        ...(erratum ? { erratum: { corrected: totalP - published.ctnys, evidence: published.note! } } : {}),
      }),
      schedulerTimeRow(`${key}/scheduler-time`, label, where("time"), published.schedulerMicros, "the papers' C code on a 2 GHz Opteron; ours runs other code on another machine (see the scheduler-time figure)"),
    );
  }
  return rows;
}

/** Why a family's published share can differ from ours: the k0 finding, and the p law where the published Σ p rules it out. */
function familyGapReason(family: FamilyName): string {
  const spec = FAMILIES[family];
  return (
    FLAT_IN_K0 +
    (offLaw(publishedFamilyTotalP(family), spec.n, spec.pMinS, spec.pMaxS) ? `; and the published instance's Σ p (${publishedFamilyTotalP(family)}) is not from the stated p law (row schedule/${family}/total-p)` : "")
  );
}

