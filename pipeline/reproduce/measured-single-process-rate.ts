/**
 * The rate at which one process alone was checkpointed on the cluster, per image size, from
 * [Y-thesis] Table 4.3's single-application row (BLCR 0.4.2: S MB in T s). It prices the
 * sequential greedy the thesis ran on the cluster (Table 7.2, docs/science.md §4.4–§4.5),
 * where the model's bw(1, s) is about 8.6 MB/s against the 5.0–5.6 MB/s measured.
 *
 * Decision: between two measured sizes the rate is interpolated linearly in the size, and
 * beyond the smallest or the largest the nearest measured rate is kept (a checkpoint's fixed
 * costs make a rate, not a time, the quantity to carry over). The two measured rates around
 * the size are returned with it, so that callers can show how much the choice matters.
 */
import { InputError } from "../shared/errors";
import { printedNumber, printedText, type PublishedTable } from "./published-tables";

export interface MeasuredRate {
  sizeMb: number;
  rateMbPerS: number;
  /** True when Table 4.3 measured this very size. */
  measured: boolean;
  /** The measured points around the size (the same point twice beyond the table's sizes, or at a measured size). */
  below: { sizeMb: number; timeS: number; rateMbPerS: number };
  above: { sizeMb: number; timeS: number; rateMbPerS: number };
}

const SINGLE = "single sequential application";

export function measuredSingleProcessRate(table43: PublishedTable, sizeMb: number): MeasuredRate {
  if (!(sizeMb > 0)) throw new InputError(`an image size must be > 0 MB, found ${sizeMb}`);
  const points = table43.rows
    .filter((r) => printedText(table43, r, "checkpoint_kind") === SINGLE)
    .map((r) => {
      const size = printedNumber(table43, r, "process_size_mb").paper;
      const timeS = printedNumber(table43, r, "checkpoint_time_s").paper;
      return { sizeMb: size, timeS, rateMbPerS: size / timeS };
    })
    .sort((a, b) => a.sizeMb - b.sizeMb);
  if (points.length === 0) throw new InputError(`${table43.path}: no row of kind "${SINGLE}"; Table 4.3's first row group measures one application alone`);
  const below = [...points].reverse().find((p) => p.sizeMb <= sizeMb) ?? points[0]!;
  const above = points.find((p) => p.sizeMb >= sizeMb) ?? points[points.length - 1]!;
  const rateMbPerS =
    below === above || below.sizeMb === above.sizeMb
      ? below.rateMbPerS
      : below.rateMbPerS + ((sizeMb - below.sizeMb) / (above.sizeMb - below.sizeMb)) * (above.rateMbPerS - below.rateMbPerS);
  return { sizeMb, rateMbPerS, measured: below.sizeMb === sizeMb, below, above };
}
