/**
 * How transfers in progress share an aggregate bandwidth (docs/science.md §4.2, §6.1, §6.6):
 * the one sharing model of ScheduleCkpt's fluid device (schedule/fluid-device.ts), the
 * measured server (simulate/server/fluid-server.ts) and the [BKT] link server
 * (simulate/bkt/bkt-server.ts). The callers differ in what the aggregate is (bw(m, V) of
 * a model, or a link's Mbit/s) and in how they keep time; the sharing rule is here.
 *
 * The rule: max-min fairness (water-filling) under each transfer's own link. In increasing
 * link order, each transfer gets the smaller of its link and an equal part of what is left;
 * so with no link binding every one gets aggregate / m — the equal shares [Y-thesis] ch. 4
 * observed (§3.1) — and a transfer its link holds below that leaves the rest to the others,
 * as TCP flows share a bottleneck. Rates are held until the set changes (a start, an end),
 * then recomputed: between changes every transfer progresses linearly, and the next event is
 * the soonest completion.
 *
 * The arithmetic is written once and in a fixed order, because the simulators' kept results
 * depend on it to the last bit (a different order of the same sums moves a makespan by an ulp).
 * Every function is O(m) and allocation-free.
 */

/**
 * Max-min fair rates: `order[0..count)` lists the transfers by increasing link (ties by id:
 * `compareByLink`), `linkMbPerS[id]` caps transfer `id`, `aggregateMbPerS` is shared;
 * `rateMbPerS[id]` is written for every listed id. Units are the caller's (MB/s or Mbit/s),
 * the same for all three.
 *
 * @example 3 transfers on links 10, 50, 50 sharing 60: rates 10, 25, 25.
 */
export function maxMinFairRates(order: ArrayLike<number>, count: number, linkMbPerS: ArrayLike<number>, aggregateMbPerS: number, rateMbPerS: { [id: number]: number }): void {
  let left = aggregateMbPerS;
  for (let k = 0; k < count; k++) {
    const id = order[k]!;
    const fair = left / (count - k);
    const link = linkMbPerS[id]!;
    const rate = link < fair ? link : fair;
    rateMbPerS[id] = rate;
    left -= rate;
  }
}

/** The water-filling order: by increasing link, then by id. */
export function compareByLink(linkMbPerS: ArrayLike<number>): (a: number, b: number) => number {
  return (a, b) => linkMbPerS[a]! - linkMbPerS[b]! || a - b;
}

/** Seconds until a transfer with `remaining` left finishes at `rate` (a remaining size float noise took below 0 counts as 0). */
export function timeToFinishS(remaining: number, rate: number): number {
  return Math.max(0, remaining) / rate;
}

/**
 * Equal shares with no link binding (every transfer gets aggregate / m): every one moves
 * the smallest remaining size until the next completion, which is smallest · m / aggregate
 * seconds away. Written as one product and one quotient (not smallest / (aggregate / m)):
 * ScheduleCkpt's published numbers are computed this way.
 *
 * @example 3 transfers of 100, 200, 300 MB on 60 MB/s: the first ends after 100 · 3 / 60 = 5 s.
 */
export function equalSharesIntervalS(smallestRemaining: number, m: number, aggregate: number): number {
  return (smallestRemaining * m) / aggregate;
}

/** A remaining size at or below this fraction of the transfer counts as finished (float noise). */
export const FINISHED_FRACTION = 1e-10;

/** Is a transfer of `size` with `remaining` left finished (up to float noise)? */
export function isFinished(remaining: number, size: number): boolean {
  return remaining <= FINISHED_FRACTION * size;
}
