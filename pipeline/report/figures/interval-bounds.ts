/**
 * Intervals of quantities that cannot leave a range — a time, a waste or a count is ≥ 0, a
 * share lies in [0, 1]. A Student-t interval of a mean over a few replications, mean ± t·s/√n,
 * reaches past the bound when the sample is skewed (one seed's makespan ten times the
 * others'), and a figure must not draw values the quantity cannot take. Such intervals are
 * cut at the bound, and the figure's caption says how many were (`clippedText`): the
 * interval drawn is then the part of the t interval the quantity can take.
 */
export interface QuantityBounds {
  low?: number;
  high?: number;
}

/** The bounds of a non-negative quantity, and of a share. */
export const NON_NEGATIVE: QuantityBounds = { low: 0 };
export const SHARE: QuantityBounds = { low: 0, high: 1 };

/** `points` with `low` and `high` cut at the bounds, and how many intervals were cut. */
export function clipToBounds<T extends { low?: number | null; high?: number | null }>(points: readonly T[], bounds: QuantityBounds): { points: T[]; clipped: number } {
  let clipped = 0;
  const out = points.map((p) => {
    let { low, high } = p;
    let cut = false;
    if (bounds.low !== undefined && low != null && low < bounds.low) [low, cut] = [bounds.low, true];
    if (bounds.high !== undefined && high != null && high > bounds.high) [high, cut] = [bounds.high, true];
    if (cut) clipped++;
    return cut ? { ...p, low, high } : p;
  });
  return { points: out, clipped };
}

/** The caption's sentence for cut intervals ("" when none was cut). */
export function clippedText(clipped: number, total: number, bounds: QuantityBounds, noun = "intervals"): string {
  if (clipped === 0) return "";
  const where = [bounds.low !== undefined ? `below ${bounds.low}` : "", bounds.high !== undefined ? `above ${bounds.high}` : ""].filter(Boolean).join(" or ");
  const at = [bounds.low, bounds.high].filter((b) => b !== undefined).join(" or ");
  return ` ${clipped} of ${total} ${noun} reached ${where}, which the quantity cannot take: they are drawn cut at ${at}.`;
}
