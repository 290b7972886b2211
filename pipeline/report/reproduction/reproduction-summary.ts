/**
 * The reproduction table summed up per paper: the findings (rows comparing the project's
 * computation with a paper) by verdict, the self-checks apart (rows checking the paper or the
 * project against itself, `ReproductionRow.selfCheck`: never counted as reproduced results),
 * and the open questions (every `differs` and `erratum` row), with the published numbers not
 * compared and why. Built from the rows, so it says what the table says.
 */
import type { Table } from "../tables/table";
import { NOT_COMPARED } from "../../reproduce/published-values";
import { PAPERS, VERDICTS, VERDICT_MEANINGS, findingsAndSelfChecks, verdictCounts, verdictCountsText, type PaperName, type ReproductionRow, type Verdict } from "../../reproduce/reproduction";

export interface PaperSummary {
  paper: PaperName;
  /** Rows citing the paper that are findings, not self-checks (a row citing two papers counts for both). */
  findings: number;
  /** The findings per verdict. */
  counts: Record<Verdict, number>;
  /** Rows citing the paper that check the paper or the project against itself: apart, never counted as reproduced. */
  selfChecks: number;
  /** The self-checks per verdict. */
  selfCheckCounts: Record<Verdict, number>;
  /** The rows (findings and self-checks) that differ or are errata. */
  open: ReproductionRow[];
  /** Published numbers not compared, with why. */
  notCompared: (typeof NOT_COMPARED)[number][];
}

export function reproductionSummary(rows: readonly ReproductionRow[]): PaperSummary[] {
  return PAPERS.map((paper) => {
    const mine = rows.filter((r) => r.papers.includes(paper));
    const { findings, selfChecks } = findingsAndSelfChecks(mine);
    return {
      paper,
      findings: findings.length,
      counts: verdictCounts(findings),
      selfChecks: selfChecks.length,
      selfCheckCounts: verdictCounts(selfChecks),
      open: mine.filter((r) => r.verdict === "differs" || r.verdict === "erratum"),
      notCompared: NOT_COMPARED.filter((n) => n.paper === paper),
    };
  }).filter((s) => s.findings + s.selfChecks > 0 || s.notCompared.length > 0);
}

/** "26 match, 2 erratum": a self-check tally without the verdicts it does not have ("none" when empty). */
function nonZeroCountsText(counts: Record<Verdict, number>): string {
  return VERDICTS.filter((v) => counts[v] > 0).map((v) => `${counts[v]} ${v}`).join(", ") || "none";
}

export function reproductionSummaryTable(rows: readonly ReproductionRow[]): Table {
  const summary = reproductionSummary(rows);
  return {
    id: "reproduction-summary",
    title: "Reproduction per paper",
    caption:
      "Per paper: the findings, printed numbers compared with the project's own computation, by verdict (a row citing two papers counts for both); " +
      "apart, the self-checks, which check the paper or the project against itself (ours from the paper's other printed numbers, a table against " +
      "its own text, a generator against its calibration target, the DP against our brute force) and are not counted as reproduced results; " +
      "and what is published but not compared, with why.",
    columns: [
      { key: "paper", label: "paper" },
      { key: "findings", label: "findings" },
      ...VERDICTS.map((v) => ({ key: v, label: v })),
      { key: "selfChecks", label: "self-checks (not counted)" },
      { key: "selfCheckVerdicts", label: "self-checks' verdicts" },
      { key: "notCompared", label: "not compared" },
    ],
    rows: summary.map((s) => ({
      paper: s.paper,
      findings: s.findings,
      ...s.counts,
      selfChecks: s.selfChecks,
      selfCheckVerdicts: nonZeroCountsText(s.selfCheckCounts),
      notCompared: s.notCompared.map((n) => `${n.where}: ${n.why}`).join("; ") || null,
    })),
  };
}

/** The open rows among a paper's findings, or among its self-checks. */
function openCount(summary: PaperSummary, selfCheck: boolean): number {
  return summary.open.filter((r) => (r.selfCheck === true) === selfCheck).length;
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
      heading: `${s.paper}: ${openCount(s, false)} of ${s.findings} findings open (differs or erratum)${s.selfChecks > 0 ? `, and ${openCount(s, true)} of ${s.selfChecks} self-checks` : ""}${s.notCompared.length > 0 ? `, ${s.notCompared.length} published item(s) not compared` : ""}`,
      items: [
        ...s.open.map((r) => `${r.quantity} (${r.verdict}${r.selfCheck ? ", self-check" : ""}; ${r.source}): printed ${r.printed}, ours ${r.ours ?? "—"}${r.corrected !== null ? `, corrected ${r.corrected}` : ""}${r.unit ? ` (${r.unit})` : ""}. ${r.reason}`),
        ...s.notCompared.map((n) => `Not compared: ${n.where}: ${n.why}.`),
      ],
    }));
}

/** The summary as a Markdown page (the report's `reproduction.md`, and docs/reproduction.md). */
export function reproductionMarkdown(rows: readonly ReproductionRow[], origin: string): string {
  const summary = reproductionSummary(rows);
  const { findings, selfChecks } = findingsAndSelfChecks(rows);
  const lines = [
    "# Reproduction of the papers, per paper",
    "",
    `Generated from the reproduction table (${origin}); do not edit by hand. ${rows.length} rows; papers named as in docs/science.md.`,
    "",
    `Findings, rows that compare the project's own computation with a printed number: ${findings.length} (${verdictCountsText(findings)}). ` +
      `Self-checks, rows that check the paper or the project against itself (ours from the paper's other printed numbers, a table against its own text, ` +
      `a generator against the value it was calibrated to, the DP against our own brute force): ${selfChecks.length} (${verdictCountsText(selfChecks)}), ` +
      "shown apart and never counted as reproduced results.",
    "",
    "Verdicts:",
    "",
    ...VERDICTS.map((v) => `- \`${v}\`: ${VERDICT_MEANINGS[v]}.`),
    "",
    `| paper | findings | ${VERDICTS.join(" | ")} | self-checks (not counted) | self-checks' verdicts |`,
    `|---|---|${VERDICTS.map(() => "---").join("|")}|---|---|`,
    ...summary.map((s) => `| ${s.paper} | ${s.findings} | ${VERDICTS.map((v) => s.counts[v]).join(" | ")} | ${s.selfChecks} | ${nonZeroCountsText(s.selfCheckCounts)} |`),
    "",
  ];
  const ids = (list: readonly ReproductionRow[]) => (list.length > 0 ? list.map((r) => `\`${r.id}\``).join(", ") : "none");
  for (const s of summary) {
    lines.push(`## ${s.paper}`, "");
    const mine = rows.filter((r) => r.papers.includes(s.paper));
    const own = findingsAndSelfChecks(mine);
    lines.push(`${s.findings} findings compared; match: ${ids(own.findings.filter((r) => r.verdict === "match"))}.`, "");
    if (s.open.length > 0) {
      lines.push("Open (differs or erratum):", "");
      for (const r of s.open) lines.push(`- \`${r.id}\` (${r.verdict}${r.selfCheck ? ", self-check" : ""}): ${r.quantity}. Printed ${r.printed}, ours ${r.ours ?? "—"}${r.corrected !== null ? `, corrected ${r.corrected}` : ""}. ${r.reason}`);
      lines.push("");
    }
    if (s.selfChecks > 0) {
      lines.push(`Self-checks (${s.selfChecks}, not counted as reproduced):`, "");
      for (const v of VERDICTS.filter((v) => s.selfCheckCounts[v] > 0)) lines.push(`- ${v}: ${ids(own.selfChecks.filter((r) => r.verdict === v))}.`);
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
