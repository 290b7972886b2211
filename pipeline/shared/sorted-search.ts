/**
 * Binary search in an ascending list of numbers: the index of the last value ≤ x (0 when
 * every value is above x, so that the first interval holds what precedes it). Lines of a
 * text by their start offsets, trace intervals by their starts, open-time periods by their
 * prefix sums all look up so.
 */
export function lastIndexAtOrBelow(sorted: ArrayLike<number>, x: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sorted[middle]! <= x) low = middle;
    else high = middle - 1;
  }
  return low;
}
