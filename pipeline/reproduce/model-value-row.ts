/**
 * A number the paper computed with the model whose coefficients it prints (an estimated
 * peak, a bandwidth of index_bw_max's walk): ours, computed with the same model, must give
 * it back. Equal at the printed precision is a `match`; one unit of the last printed digit
 * off is a rounding (`close`, and the row says how ours rounds: [Y-thesis] Table 5.1 prints
 * 28.78 where the model gives 28.7852); further off, the paper's own model contradicts the
 * printed value: an `erratum`, with the model's value at the printed precision as the
 * corrected one and the evidence the caller gives.
 */
import { compareWithPublished, printedDecimals, round4, type ReproductionRow } from "./reproduction";

export interface ModelValueInput {
  id: string;
  quantity: string;
  source: string;
  printed: { printed: string; paper: number };
  /** The model's value, unrounded. */
  ours: number;
  unit: string;
  how: string;
  /** Why the printed value is wrong and what it changes; asked for only when it is. */
  evidence: () => string;
}

export function modelValueRow(input: ModelValueInput): ReproductionRow {
  const unit = unitOf(input.printed.printed);
  const rounded = roundTo(input.ours, input.printed.printed);
  const base = {
    id: input.id,
    quantity: input.quantity,
    source: input.source,
    ...input.printed,
    ours: round4(input.ours),
    unit: input.unit,
    how: input.how,
    tolerance: {
      absolute: unit,
      rationale: `one unit of the printed last digit: the paper computed it with the same model, so a last digit off by one is a rounding (ours rounds to ${rounded.toFixed(printedDecimals(input.printed.printed))})`,
    },
  };
  return Math.abs(input.ours - input.printed.paper) <= unit * (1 + 1e-9) ? compareWithPublished(base) : compareWithPublished({ ...base, erratum: { corrected: rounded, evidence: input.evidence() } });
}

/** One unit of a printed number's last digit ("28.78" → 0.01). */
export function unitOf(printed: string): number {
  return 10 ** -printedDecimals(printed);
}

/** `value` at the precision of `printed`. */
export function roundTo(value: number, printed: string): number {
  return Number(value.toFixed(printedDecimals(printed)));
}
