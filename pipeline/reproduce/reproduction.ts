/**
 * The reproduction table: every published number the project can recompute, the paper's
 * value as printed with its source, ours with how it was obtained, and a verdict.
 *
 * A verdict is computed, never written by hand, from a fixed vocabulary (`VERDICT_MEANINGS`):
 *
 * - `match`: ours, rounded to the printed precision, is the printed value (|ours − paper| ≤
 *   half a unit of the printed last digit);
 * - `close`: not a match, but within the row's stated tolerance, whose rationale the row
 *   gives (a model's accuracy, the spread of random instances, a value given as a range);
 * - `differs`: outside the tolerance; the reason says by how much and, when known, why;
 * - `erratum`: the printed number disagrees with the paper's own formula or another of its
 *   tables; the row gives the evidence and the corrected value (`corrected`), while the
 *   printed value stays the compared one (`paper`);
 * - `not recomputable`: the printed number rests on something not published (raw
 *   measurements, another machine's clock); the reason says what, and `ours`, when given,
 *   is only for reference.
 *
 * A row whose own inputs are approximate (e.g. a rate known only as a range) can be at best
 * `close`, never `match`: `approximate` caps it and says why.
 */

export type Verdict = "match" | "close" | "differs" | "erratum" | "not recomputable";
export const VERDICTS: readonly Verdict[] = ["match", "close", "differs", "erratum", "not recomputable"];

/** What each verdict means (the report and docs print these). */
export const VERDICT_MEANINGS: Readonly<Record<Verdict, string>> = {
  match: "ours, rounded to the printed precision, equals the printed value",
  close: "within the row's stated tolerance (the row says why that tolerance), not equal at the printed precision",
  differs: "outside the tolerance; the reason gives the gap and, where known, its cause",
  erratum: "the printed value contradicts the paper's own formula or another of its tables; the row gives the evidence and the corrected value",
  "not recomputable": "the printed value rests on data or hardware that is not available; the reason says what",
};

/** How close "ours" must be to be `close`: |ours − paper| ≤ absolute + relative·|paper|. */
export interface Tolerance {
  absolute?: number;
  relative?: number;
  /** Why this tolerance (e.g. "the papers' own mean error, 4.02 %"). */
  rationale: string;
}

/** The papers as docs/science.md names them (Daly's paper is cited by name). */
export const PAPERS = ["[Y11]", "[Y-thesis]", "[BTW10]", "[BKT]", "[DAS06]", "Daly 2006"] as const;
export type PaperName = (typeof PAPERS)[number];

/** "[Y-thesis] Table 7.2, row 400 MB, column CTNYS": where a printed number is. */
export function cite(paper: PaperName, where: string, row?: string, column?: string): string {
  return [`${paper} ${where}`, row !== undefined ? `row ${row}` : null, column !== undefined ? `column ${column}` : null].filter((x) => x !== null).join(", ");
}

/** The papers a source text names (a row citing [Y11] and [Y-thesis] counts for both). */
export function papersOf(source: string): PaperName[] {
  return PAPERS.filter((paper) => (paper === "Daly 2006" ? /\bDaly\b/.test(source) : source.includes(paper)));
}

export interface ReproductionRow {
  /** Stable key, e.g. "table-4.1/15MB/peak-m". */
  id: string;
  quantity: string;
  /** Where the paper's value is published: paper (named as in docs/science.md), table or section, row, column. */
  source: string;
  /** The papers `source` names. */
  papers: PaperName[];
  /** The value exactly as printed ("31.20"): its digits are the printed precision. */
  printed: string;
  /** The printed value as a number: the compared one. */
  paper: number;
  /** For an erratum: the value the paper's own formula or tables give instead; else null. */
  corrected: number | null;
  ours: number | null;
  unit: string;
  /** How ours was computed (the code path and its inputs). */
  how: string;
  /**
   * A self-check, not a finding: the row checks the paper or the project against itself —
   * ours computed from the paper's other printed numbers, a table against the paper's own
   * text, a generator against the value it was calibrated to, our DP against our own brute
   * force. Its verdict is kept, but it is shown apart and never counted as a reproduced result.
   */
  selfCheck: boolean;
  verdict: Verdict;
  reason: string;
}

/** A row before its verdict: the published value, ours, and how close they must be. */
export interface ComparisonInput {
  id: string;
  quantity: string;
  source: string;
  paper: number;
  /** As printed, when its digits are not those of `String(paper)` (e.g. "31.20"). */
  printed?: string;
  ours: number | null;
  unit: string;
  how: string;
  /** Absent: only an exact match (at the printed precision) passes. */
  tolerance?: Tolerance;
  /** Reason given when ours differs (known cause), before the measured gap. */
  whenDiffers?: string;
  /** Set when the printed value cannot be recomputed: says why (and what ours is instead). */
  notRecomputable?: string;
  /** Set when the printed value is wrong by the paper's own evidence. */
  erratum?: { corrected: number; evidence: string };
  /** Set when ours rests on approximate inputs: the verdict is then at best `close`, and this says why. */
  approximate?: string;
  /** The row checks the paper or the project against itself (see `ReproductionRow.selfCheck`). */
  selfCheck?: boolean;
}

/** Decimals of a printed number ("31.20" → 2, "117" → 0). */
export function printedDecimals(printed: string): number {
  const dot = printed.indexOf(".");
  return dot < 0 ? 0 : printed.length - dot - 1;
}

/** Ours as the rows print it: four decimals, enough for every printed precision of the papers. */
export function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

export function compareWithPublished(input: ComparisonInput): ReproductionRow {
  const printed = input.printed ?? String(input.paper);
  if (Number(printed) !== input.paper) throw new Error(`reproduction row ${input.id}: printed "${printed}" is not the value ${input.paper}`);
  const base = {
    id: input.id, quantity: input.quantity, source: input.source, papers: papersOf(input.source), printed, paper: input.paper,
    corrected: input.erratum?.corrected ?? null, ours: input.ours, unit: input.unit, how: input.how, selfCheck: input.selfCheck ?? false,
  };
  if (input.notRecomputable !== undefined) return { ...base, verdict: "not recomputable", reason: input.notRecomputable };
  if (input.erratum !== undefined) {
    const against = input.ours === null ? "" : `; against the corrected value: ${gapText(input.ours, input.erratum.corrected, input.tolerance, "corrected")}`;
    return { ...base, verdict: "erratum", reason: `${input.erratum.evidence}${against}` };
  }
  if (input.ours === null || !Number.isFinite(input.ours)) {
    return { ...base, verdict: "differs", reason: `no value computed${input.whenDiffers ? `: ${withoutFullStop(input.whenDiffers)}` : ""}` };
  }
  const gap = input.ours - input.paper;
  const halfUnit = 0.5 * 10 ** -printedDecimals(printed);
  const text = gapText(input.ours, input.paper, input.tolerance);
  if (Math.abs(gap) <= halfUnit * (1 + 1e-9) && input.approximate === undefined) {
    return { ...base, verdict: "match", reason: `equal at the printed precision (${text})` };
  }
  const allowed = Math.max(halfUnit, (input.tolerance?.absolute ?? 0) + (input.tolerance?.relative ?? 0) * Math.abs(input.paper));
  if (Math.abs(gap) <= allowed * (1 + 1e-9) + 1e-12 && (input.tolerance !== undefined || input.approximate !== undefined)) {
    return { ...base, verdict: "close", reason: input.approximate ? `${input.approximate}: ${text}` : text };
  }
  return { ...base, verdict: "differs", reason: input.whenDiffers ? `${withoutFullStop(input.whenDiffers)}: ${text}` : text };
}

function withoutFullStop(text: string): string {
  return text.replace(/\.$/, "");
}

/** A stated trend of a paper (1 = it holds): `match` when it holds in our results, `differs` when not. */
export function trendRow(input: { id: string; quantity: string; source: string; holds: boolean; evidence: string; how: string; where: string }): ReproductionRow {
  return {
    id: input.id,
    quantity: input.quantity,
    source: input.source,
    papers: papersOf(input.source),
    printed: "1",
    paper: 1,
    corrected: null,
    ours: input.holds ? 1 : 0,
    unit: "holds (1 = yes)",
    how: input.how,
    selfCheck: false,
    verdict: input.holds ? "match" : "differs",
    reason: `${input.holds ? "holds" : "does not hold"} ${input.where}: ${input.evidence}`,
  };
}

function gapText(ours: number, paper: number, tolerance: Tolerance | undefined, against = "paper"): string {
  const gap = ours - paper;
  const relativeGap = paper !== 0 ? ` (${signed((100 * gap) / Math.abs(paper), 1)} %)` : "";
  const allowed = (tolerance?.absolute ?? 0) + (tolerance?.relative ?? 0) * Math.abs(paper);
  return `ours − ${against} = ${signed(gap, 3)}${relativeGap}${tolerance ? `; tolerance ±${trim(allowed)} (${tolerance.rationale})` : ""}`;
}

/** Rows per verdict, every verdict present (0 when none). */
export function verdictCounts(rows: readonly ReproductionRow[]): Record<Verdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of rows) counts[r.verdict] += 1;
  return counts;
}

export function verdictCountsText(rows: readonly ReproductionRow[]): string {
  const counts = verdictCounts(rows);
  return VERDICTS.map((v) => `${counts[v]} ${v}`).join(", ");
}

/** The rows that compare the project with a paper (findings), and the self-checks apart. */
export function findingsAndSelfChecks(rows: readonly ReproductionRow[]): { findings: ReproductionRow[]; selfChecks: ReproductionRow[] } {
  return { findings: rows.filter((r) => !r.selfCheck), selfChecks: rows.filter((r) => r.selfCheck) };
}

/**
 * "350 findings (… match, …); 54 self-checks, not counted as reproduced (… match, …)": the
 * totals as the report and the docs print them, self-checks never among the findings.
 */
export function reproductionCountsText(rows: readonly ReproductionRow[]): string {
  const { findings, selfChecks } = findingsAndSelfChecks(rows);
  return `${findings.length} findings (${verdictCountsText(findings)}); ${selfChecks.length} self-checks, not counted as reproduced (${verdictCountsText(selfChecks)})`;
}

function signed(value: number, decimals: number): string {
  const text = trim(Math.abs(value), decimals);
  return value < 0 ? `−${text}` : `+${text}`;
}

function trim(value: number, decimals = 3): string {
  return String(Number(value.toFixed(decimals)));
}
