/**
 * What the nonlinear forms' starting points and structural checks share: the per-writer
 * rate and the largest bandwidth the data show, and the distinct m and application sizes
 * behind the cells.
 */
import type { FormCells } from "./bandwidth-form";

/** The cells' smallest volume V > 0 (GB): the project forms' reference volume. */
export function smallestVolumeGb(cells: FormCells): number {
  let smallest = Infinity;
  for (let i = 0; i < cells.vGb.length; i++) if (cells.vGb[i]! > 0 && cells.vGb[i]! < smallest) smallest = cells.vGb[i]!;
  return Number.isFinite(smallest) ? smallest : 1;
}

/** The cells' largest volume V (GB): the project forms' upper reference volume, above which their size factors are held. */
export function largestVolumeGb(cells: FormCells): number {
  let largest = 0;
  for (let i = 0; i < cells.vGb.length; i++) if (cells.vGb[i]! > largest) largest = cells.vGb[i]!;
  return largest > 0 ? largest : 1;
}

/** The median of bw/m over the cells at the smallest m: what one writer moves. */
export function perWriterRate(cells: FormCells): number {
  let mMin = Infinity;
  for (let i = 0; i < cells.m.length; i++) mMin = Math.min(mMin, cells.m[i]!);
  const rates: number[] = [];
  for (let i = 0; i < cells.m.length; i++) if (cells.m[i] === mMin) rates.push(cells.meanBwMbPerS[i]! / Math.max(1, mMin));
  rates.sort((a, b) => a - b);
  const middle = rates.length >> 1;
  const median = rates.length % 2 === 1 ? rates[middle]! : (rates[middle - 1]! + rates[middle]!) / 2;
  return median > 0 ? median : 1;
}

export function largestBandwidth(cells: FormCells): number {
  let largest = 0;
  for (let i = 0; i < cells.meanBwMbPerS.length; i++) largest = Math.max(largest, cells.meanBwMbPerS[i]!);
  return largest > 0 ? largest : 1;
}

/**
 * Why the cells cannot identify a form of `parameterCount` fitted parameters with an m-shape
 * and a size exponent, or null: at least 3 distinct m (a rise, a bend and a level need three),
 * 2 application sizes V/m (with one size V ∝ m, and a size exponent is only told apart from
 * the m-shape by its curvature), and one distinct (m, V) more than parameters.
 */
export function shapeAndSizeGap(cells: FormCells, parameterCount: number, what: string): string | null {
  const ms = new Set<number>();
  const sizes = new Set<number>();
  const points = new Set<string>();
  for (let i = 0; i < cells.m.length; i++) {
    ms.add(cells.m[i]!);
    sizes.add(Number((cells.vGb[i]! / cells.m[i]!).toPrecision(12)));
    points.add(`${cells.m[i]} ${cells.vGb[i]}`);
  }
  if (ms.size < 3) return `the points have only ${ms.size} distinct number${ms.size === 1 ? "" : "s"} of processes, and ${what} needs at least 3`;
  if (sizes.size < 2) return `the points have one application size V/m, and ${what}'s size exponent needs at least 2`;
  if (points.size < parameterCount + 1) {
    return `the points have ${points.size} distinct (m, V), and ${what}'s ${parameterCount} parameters need at least ${parameterCount + 1}`;
  }
  return null;
}
