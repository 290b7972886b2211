/**
 * The reproduction table summed up per paper: how many printed numbers are compared, the
 * verdicts, and the open questions (every `differs` and `erratum` row), with the published
 * numbers not compared and why. Built from the rows, so it says what the table says.
 */
import type { Table } from "../tables/table";
import { NOT_COMPARED } from "../../reproduce/published-values";
import { PAPERS, VERDICTS, VERDICT_MEANINGS, verdictCounts, type PaperName, type ReproductionRow, type Verdict } from "../../reproduce/reproduction";

export interface PaperSummary {
  paper: PaperName;
  /** Rows citing the paper (a row citing two papers counts for both). */
  compared: number;
  /** Of which: checks of the paper's printed numbers against each other. */
  selfChecks: number;
  counts: Record<Verdict, number>;
  /** The rows that differ or are errata. */
  open: ReproductionRow[];
  /** Published numbers not compared, with why. */
  notCompared: (typeof NOT_COMPARED)[number][];
}

export function reproductionSummary(rows: readonly ReproductionRow[]): PaperSummary[] {
  return PAPERS.map((paper) => {
    const mine = rows.filter((r) => r.papers.includes(paper));
    return {
      paper,
      compared: mine.length,
      selfChecks: mine.filter((r) => r.selfCheck).length,
      counts: verdictCounts(mine),
      open: mine.filter((r) => r.verdict === "differs" || r.verdict === "erratum"),
      notCompared: NOT_COMPARED.filter((n) => n.paper === paper),
    };
  }).filter((s) => s.compared > 0 || s.notCompared.length > 0);
}

export function reproductionSummaryTable(rows: readonly ReproductionRow[]): Table {
  const summary = reproductionSummary(rows);
  return {
    id: "reproduction-summary",
    title: "Reproduction per paper",
    caption:
      "Per paper: the printed numbers compared (a row citing two papers counts for both; self-checks compare the paper's printed numbers " +
      "with each other), the verdicts, and what is published but not compared, with why.",
    columns: [
      { key: "paper", label: "paper" },
      { key: "compared", label: "compared" },
      { key: "selfChecks", label: "of which self-checks" },
      ...VERDICTS.map((v) => ({ key: v, label: v })),
      { key: "notCompared", label: "not compared" },
    ],
    rows: summary.map((s) => ({
      paper: s.paper,
      compared: s.compared,
      selfChecks: s.selfChecks,
      ...s.counts,
      notCompared: s.notCompared.map((n) => `${n.where}: ${n.why}`).join("; ") || null,
    })),
  };
}

/** One paper's open questions, as the report lists them under the summary. */
export interface OpenQuestions {
  heading: string;
  items: string[];
}

/**
 * Per paper with something open: every row that differs or is an erratum (what, where,
 * printed, ours, why) and every published number not compared, with why.
 */
export function openQuestions(rows: readonly ReproductionRow[]): OpenQuestions[] {
  return reproductionSummary(rows)
    .filter((s) => s.open.length > 0 || s.notCompared.length > 0)
    .map((s) => ({
      heading: `${s.paper}: ${s.open.length} of ${s.compared} compared numbers open (differs or erratum)${s.notCompared.length > 0 ? `, ${s.notCompared.length} published item(s) not compared` : ""}`,
      items: [
        ...s.open.map((r) => `${r.quantity} (${r.verdict}; ${r.source}): printed ${r.printed}, ours ${r.ours ?? "—"}${r.corrected !== null ? `, corrected ${r.corrected}` : ""}${r.unit ? ` (${r.unit})` : ""}. ${r.reason}`),
        ...s.notCompared.map((n) => `Not compared: ${n.where}: ${n.why}.`),
      ],
    }));
}

/** The summary as a Markdown page (the report's `reproduction.md`, and docs/reproduction.md). */
export function reproductionMarkdown(rows: readonly ReproductionRow[], origin: string): string {
  const summary = reproductionSummary(rows);
  const lines = [
    "# Reproduction of the papers, per paper",
    "",
    `Generated from the reproduction table (${origin}); do not edit by hand. ${rows.length} rows; papers named as in docs/science.md.`,
    "",
    "Verdicts:",
    "",
    ...VERDICTS.map((v) => `- \`${v}\`: ${VERDICT_MEANINGS[v]}.`),
    "",
    `| paper | compared | of which self-checks | ${VERDICTS.join(" | ")} |`,
    `|---|---|---|${VERDICTS.map(() => "---").join("|")}|`,
    ...summary.map((s) => `| ${s.paper} | ${s.compared} | ${s.selfChecks} | ${VERDICTS.map((v) => s.counts[v]).join(" | ")} |`),
    "",
  ];
  for (const s of summary) {
    lines.push(`## ${s.paper}`, "");
    const matchIds = rows.filter((r) => r.papers.includes(s.paper) && r.verdict === "match").map((r) => `\`${r.id}\``);
    lines.push(`${s.compared} printed numbers compared; match: ${matchIds.length > 0 ? matchIds.join(", ") : "none"}.`, "");
    if (s.open.length > 0) {
      lines.push("Open (differs or erratum):", "");
      for (const r of s.open) lines.push(`- \`${r.id}\` (${r.verdict}): ${r.quantity}. Printed ${r.printed}, ours ${r.ours ?? "—"}${r.corrected !== null ? `, corrected ${r.corrected}` : ""}. ${r.reason}`);
      lines.push("");
    }
    if (s.notCompared.length > 0) {
      lines.push("Published but not compared:", "");
      for (const n of s.notCompared) lines.push(`- ${n.paper} ${n.where}: ${n.why}.`);
      lines.push("");
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
