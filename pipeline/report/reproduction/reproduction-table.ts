/**
 * The reproduction table as the report prints it: one row per published number the
 * reproduce stage compared (pipeline/reproduce/reproduction.ts), with its verdict.
 */
import { VERDICTS, VERDICT_MEANINGS, reproductionCountsText, type ReproductionRow } from "../../reproduce/reproduction";
import type { Table } from "../tables/table";

export function reproductionTable(rows: ReproductionRow[]): Table {
  return {
    id: "reproduction",
    title: "Reproduction of the published numbers",
    caption:
      `Every published number the project recomputes: the value as printed (source as in docs/science.md), ours, and the verdict ` +
      `(${reproductionCountsText(rows)}). A self-check (column "self-check") checks the paper or the project against itself ` +
      `and is not a reproduced result. Verdicts: ${VERDICTS.map((v) => `${v}: ${VERDICT_MEANINGS[v]}`).join("; ")}.`,
    columns: [
      { key: "quantity", label: "quantity" },
      { key: "source", label: "source" },
      { key: "unit", label: "unit" },
      { key: "printed", label: "printed" },
      { key: "ours", label: "ours" },
      { key: "corrected", label: "corrected" },
      { key: "verdict", label: "verdict" },
      { key: "selfCheck", label: "self-check" },
      { key: "reason", label: "reason" },
      { key: "how", label: "how ours is computed" },
    ],
    rows: rows.map(({ papers, selfCheck, ...r }) => ({ ...r, papers: papers.join(" "), selfCheck: selfCheck ? "yes" : "no" })),
  };
}
