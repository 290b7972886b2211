/**
 * The reproduction table: every published number the project can recompute, the paper's
 * value with its source, ours with how it was obtained, and a verdict.
 *
 * A verdict is computed, never written by hand: "matches" when ours is within the row's
 * tolerance of the paper's value, "differs" otherwise (with the reason when it is known),
 * "not comparable" when the paper's number rests on data that is not published (we then
 * say what ours is instead).
 */
import type { Table } from "../tables/table";

export type Verdict = "matches" | "differs" | "not comparable";

/** How close "ours" must be to count as a match: |ours − paper| ≤ absolute + relative·|paper|. */
export interface Tolerance {
  absolute?: number;
  relative?: number;
  /** Why this tolerance (e.g. "the papers' own mean error, 4.02 %"). */
  rationale: string;
}

export interface ReproductionRow {
  /** Stable key, e.g. "table-4.1/15MB/peak-m". */
  id: string;
  quantity: string;
  /** Where the paper's value is published, named as in docs/science.md. */
  source: string;
  paper: number;
  ours: number | null;
  unit: string;
  /** How ours was computed (the code path and its inputs). */
  how: string;
  verdict: Verdict;
  reason: string;
}

/** A row before its verdict: the published value, ours, and how close they must be. */
export interface ComparisonInput extends Omit<ReproductionRow, "verdict" | "reason"> {
  tolerance: Tolerance;
  /** Reason given when ours differs (known cause), appended to the measured gap. */
  whenDiffers?: string;
  /** Set when the paper's value cannot be recomputed from published data: explains what ours is. */
  notComparable?: string;
}

export function compareWithPublished(input: ComparisonInput): ReproductionRow {
  const { tolerance } = input;
  const base = { id: input.id, quantity: input.quantity, source: input.source, paper: input.paper, ours: input.ours, unit: input.unit, how: input.how };
  if (input.notComparable !== undefined) return { ...base, verdict: "not comparable", reason: input.notComparable };
  if (input.ours === null || !Number.isFinite(input.ours)) {
    return { ...base, verdict: "differs", reason: `no value computed${input.whenDiffers ? `: ${input.whenDiffers}` : ""}` };
  }
  const gap = input.ours - input.paper;
  const allowed = (tolerance.absolute ?? 0) + (tolerance.relative ?? 0) * Math.abs(input.paper);
  const relativeGap = input.paper !== 0 ? ` (${signed((100 * gap) / Math.abs(input.paper), 1)} %)` : "";
  const gapText = `ours − paper = ${signed(gap, 3)}${relativeGap}; tolerance ±${trim(allowed)} (${tolerance.rationale})`;
  if (Math.abs(gap) <= allowed + 1e-12) return { ...base, verdict: "matches", reason: gapText };
  return { ...base, verdict: "differs", reason: input.whenDiffers ? `${input.whenDiffers}: ${gapText}` : gapText };
}

export function reproductionTable(rows: ReproductionRow[]): Table {
  const counts = { matches: 0, differs: 0, "not comparable": 0 };
  for (const r of rows) counts[r.verdict] += 1;
  return {
    id: "reproduction",
    title: "Reproduction of the published numbers",
    caption:
      `Every published number the project recomputes: the paper's value (source as in docs/science.md), ours, and the verdict ` +
      `(${counts.matches} match, ${counts.differs} differ, ${counts["not comparable"]} not comparable).`,
    columns: [
      { key: "quantity", label: "quantity" },
      { key: "source", label: "source" },
      { key: "unit", label: "unit" },
      { key: "paper", label: "paper" },
      { key: "ours", label: "ours", decimals: 2 },
      { key: "verdict", label: "verdict" },
      { key: "reason", label: "reason" },
      { key: "how", label: "how ours is computed" },
    ],
    rows: rows.map((r) => ({ ...r })),
  };
}

function signed(value: number, decimals: number): string {
  const text = trim(Math.abs(value), decimals);
  return value < 0 ? `−${text}` : `+${text}`;
}

function trim(value: number, decimals = 3): string {
  return String(Number(value.toFixed(decimals)));
}
