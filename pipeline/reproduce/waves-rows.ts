/**
 * [Y-thesis] Tables 7.9 and 7.10 (§6.4; docs/science.md §4.6): ScheduleCkpt by waves on 25
 * dual-processor dual-core nodes with 4 applications each, T = 600 s, k0 = 2, by criterion
 * p_i (7.9) and p_i/s_i (7.10), one unpublished instance (both tables print the same Σ p).
 * CTNYS, a sum over the unpublished instance, is not recomputable; its share is compared with
 * our seeded instances, as for the families; RCTNYS from the other table's
 * Σ p (a self-check); Σ p against the stated p law; the scheduling time, one k0 only, not
 * recomputable.
 */
import { WAVES_CAMPAIGN, type CampaignResult, type Criterion } from "../schedule";
import { InputError } from "../shared/errors";
import { printedNumber, printedText, type PublishedTables } from "./published-tables";
import { cite, compareWithPublished, round4, type ReproductionRow } from "./reproduction";
import { SHARE_TOLERANCE_RATIONALE, instanceTotalP, schedulerTimeRow, shareOf, totalPRow } from "./schedule-comparisons";

const TABLES = [
  { name: "table79", label: "Table 7.9", criterion: "p" },
  { name: "table710", label: "Table 7.10", criterion: "density" },
] as const satisfies readonly { name: keyof PublishedTables; label: string; criterion: Criterion }[];

export function wavesRows(published: PublishedTables, campaign?: CampaignResult): ReproductionRow[] {
  const printed = TABLES.map((t) => {
    const table = published[t.name];
    if (table.rows.length !== 1) throw new InputError(`${table.path}: expected one row (k0 = ${WAVES_CAMPAIGN.k0}), found ${table.rows.length}`);
    const row = table.rows[0]!;
    const criterion = printedText(table, row, "criterion");
    if (criterion !== (t.criterion === "p" ? "p" : "p/s")) throw new InputError(`${table.path}:${row.line}: criterion "${criterion}", where ${t.label} is the criterion ${t.criterion === "p" ? "p" : "p/s"}`);
    return { ...t, table, row, ctnys: printedNumber(table, row, "ctnys_s"), rctnys: printedNumber(table, row, "rctnys_s"), micros: printedNumber(table, row, "sched_time_us") };
  });
  const totalP = instanceTotalP(printed.map((p) => p.ctnys.paper + p.rctnys.paper));
  const rows: ReproductionRow[] = [];
  for (const p of printed) {
    const where = (column: string) => cite("[Y-thesis]", p.label, `k0 = ${WAVES_CAMPAIGN.k0}`, column);
    const label = `waves (${WAVES_CAMPAIGN.nodes} nodes × ${WAVES_CAMPAIGN.appsPerNode} applications, T = ${WAVES_CAMPAIGN.deadlineS} s, k0 = ${WAVES_CAMPAIGN.k0}), criterion ${p.criterion}`;
    const ours = campaign?.waves?.find((w) => w.criterion === p.criterion);
    if (ours !== undefined) {
      rows.push(
        compareWithPublished({
          id: `schedule/waves/${p.criterion}/share`,
          quantity: `${label}: CTNYS share`,
          source: where("TCCAS, TCCANS"),
          ...shareOf(p.ctnys.paper / (p.ctnys.paper + p.rctnys.paper)),
          ours: round4(ours.share.mean),
          unit: "share",
          how: `mean over ${ours.share.n} seeded instances, ScheduleCkpt by waves with the ${campaign!.settings.model} model`,
          tolerance: { absolute: 2 * ours.share.sd, rationale: SHARE_TOLERANCE_RATIONALE },
          whenDiffers:
            `Waves: ${WAVES_CAMPAIGN.sizeAssumption}. Under the faithful reading (wave j = each node's j-th application in input order); forming the waves ` +
            "in criterion order reproduces the published shares (pipeline/schedule/README.md, the waves investigation)",
        }),
      );
    }
    const other = printed.find((o) => o !== p)!;
    rows.push(
      compareWithPublished({
        id: `schedule/waves/${p.criterion}/ctnys`,
        quantity: `${label}: CTNYS`,
        source: where("TCCAS"),
        ...p.ctnys,
        ours: null,
        unit: "s",
        how: "a Σ p of one unpublished instance: ours are other instances",
        notRecomputable: `the instance (its p, and sizes the thesis does not state) is not published; its share CTNYS / Σ p is compared with our seeded instances instead (row schedule/waves/${p.criterion}/share)`,
      }),
      compareWithPublished({
        id: `schedule/waves/${p.criterion}/rctnys`,
        quantity: `${label}: RCTNYS = Σ p − CTNYS of the published instance`,
        source: where("TCCANS"),
        ...p.rctnys,
        ours: other.ctnys.paper + other.rctnys.paper - p.ctnys.paper,
        unit: "s",
        how: `Σ p of the published instance from ${other.label} (CTNYS + RCTNYS = ${other.ctnys.paper + other.rctnys.paper}) minus this row's CTNYS`,
        selfCheck: true,
      }),
      schedulerTimeRow(`schedule/waves/${p.criterion}/scheduler-time`, label, where("sche_time"), p.micros.paper, "the thesis's C code on its machine; ours runs other code on another machine", p.micros.printed),
    );
  }
  rows.push(
    totalPRow("schedule/waves/total-p", "the waves instance", cite("[Y-thesis]", "Tables 7.9 and 7.10", `k0 = ${WAVES_CAMPAIGN.k0}`, "CTNYS + RCTNYS"), totalP, WAVES_CAMPAIGN.nodes * WAVES_CAMPAIGN.appsPerNode, WAVES_CAMPAIGN.pMinS, WAVES_CAMPAIGN.pMaxS),
  );
  return rows;
}
