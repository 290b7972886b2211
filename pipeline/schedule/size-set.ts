/**
 * A set of checkpoints in progress or under consideration, as the time estimators need it:
 * the (remaining) sizes in ascending order, their count and their sum (MB). Preallocated
 * once per run and reused, so that the decision loops allocate nothing per iteration;
 * inserting and removing are O(count) (count ≤ a few tens: the set is bounded by the
 * bandwidth peak). The functions are parenthesised so that V8 compiles them with the
 * module, not on the first decision (see schedule-ckpt.ts, "Cold start").
 */
export interface SizeSet {
  /** Ascending sizes in `[0, count)`, MB. */
  readonly sizesMb: Float64Array;
  count: number;
  sumMb: number;
}

export function createSizeSet(capacity: number): SizeSet {
  return { sizesMb: new Float64Array(Math.max(1, capacity)), count: 0, sumMb: 0 };
}

export const clearSizeSet = (function clearSizeSet(set: SizeSet): void {
  set.count = 0;
  set.sumMb = 0;
});

/** Insert keeping ascending order (after equal sizes). */
export const insertSize = (function insertSize(set: SizeSet, sizeMb: number): void {
  const sizes = set.sizesMb;
  let i = set.count;
  while (i > 0 && sizes[i - 1]! > sizeMb) {
    sizes[i] = sizes[i - 1]!;
    i--;
  }
  sizes[i] = sizeMb;
  set.count++;
  set.sumMb += sizeMb;
});

/** Remove one occurrence of `sizeMb` (which must be present). */
export const removeSize = (function removeSize(set: SizeSet, sizeMb: number): void {
  const sizes = set.sizesMb;
  let i = set.count - 1;
  while (i >= 0 && sizes[i] !== sizeMb) i--;
  if (i < 0) throw new Error(`removeSize: ${sizeMb} MB is not in the set`);
  for (let j = i; j < set.count - 1; j++) sizes[j] = sizes[j + 1]!;
  set.count--;
  // Back to exactly 0 when the set empties, so that no rounding residue survives.
  set.sumMb = set.count === 0 ? 0 : set.sumMb - sizeMb;
});

export const copySizeSet = (function copySizeSet(from: SizeSet, to: SizeSet): void {
  const source = from.sizesMb;
  const target = to.sizesMb;
  for (let i = 0; i < from.count; i++) target[i] = source[i]!;
  to.count = from.count;
  to.sumMb = from.sumMb;
});

/** The largest size, or 0 for an empty set. */
export const largestSize = (function largestSize(set: SizeSet): number {
  return set.count === 0 ? 0 : set.sizesMb[set.count - 1]!;
});
