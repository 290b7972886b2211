/**
 * A measured device as a bandwidth function: bw(m, V) read off one replayed release's cells
 * (one aggregated bandwidth per measured (m, v)), not off a model — what a replay plays a
 * plan against (docs/science.md §4.7).
 *
 * How it reads between cells: the cells must form a full grid of the measured m values
 * × per-process sizes v (a campaign's sweep does). A state (m, V) of the fluid execution
 * is read at v = V / m (the running checkpoints' mean remaining size) and interpolated
 * bilinearly in (m, log v) between the four surrounding cells: bandwidth changes with the
 * order of magnitude of an image, and the campaigns space v by factors of 2 or 4, m
 * evenly or by factors of 2. Outside the grid the value is the nearest edge's (held, not
 * extrapolated): past the largest m or v no replayed run says more, and under the
 * domain policy `refuse` the plan never goes above the fitted box anyway; below the smallest v
 * (a checkpoint's last megabytes) the smallest image's bandwidth is used, as the fluid
 * model does with the fitted form. O(log cells) per evaluation.
 */
import { InputError } from "../../shared/errors";
import type { BandwidthFunction } from "../bandwidth-oracle";

export interface MeasuredCell {
  m: number;
  /** Per-process image size v, MB. */
  sizeMb: number;
  /** The aggregated bandwidth measured there, MB/s. */
  bwMbPerS: number;
}

/** Index i with axis[i] ≤ x < axis[i + 1] (clamped to [0, length − 2]), and the weight of axis[i + 1]. */
function bracket(axis: readonly number[], x: number): [number, number] {
  if (axis.length === 1 || x <= axis[0]!) return [0, 0];
  const last = axis.length - 1;
  if (x >= axis[last]!) return [last - 1, 1];
  let low = 0;
  let high = last;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (axis[middle]! <= x) low = middle;
    else high = middle;
  }
  return [low, (x - axis[low]!) / (axis[low + 1]! - axis[low]!)];
}

export function measuredBandwidth(cells: readonly MeasuredCell[], what = "the replayed release"): BandwidthFunction {
  const ms = [...new Set(cells.map((cell) => cell.m))].sort((a, b) => a - b);
  const sizes = [...new Set(cells.map((cell) => cell.sizeMb))].sort((a, b) => a - b);
  const grid = new Float64Array(ms.length * sizes.length).fill(NaN);
  for (const cell of cells) {
    if (!(cell.bwMbPerS > 0)) throw new InputError(`${what}: the cell m = ${cell.m}, v = ${cell.sizeMb} MB has bandwidth ${cell.bwMbPerS} MB/s; a replay needs > 0`);
    const at = ms.indexOf(cell.m) * sizes.length + sizes.indexOf(cell.sizeMb);
    if (!Number.isNaN(grid[at]!)) throw new InputError(`${what}: two values for the cell m = ${cell.m}, v = ${cell.sizeMb} MB; a release replays one run per cell`);
    grid[at] = cell.bwMbPerS;
  }
  const missing: string[] = [];
  ms.forEach((m, i) => sizes.forEach((v, j) => Number.isNaN(grid[i * sizes.length + j]!) && missing.push(`(m = ${m}, v = ${v} MB)`)));
  if (missing.length > 0) {
    throw new InputError(`${what}: the measured cells do not form a full grid of m × v; missing ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}: a replay interpolates between measured cells only`);
  }
  const logSizes = sizes.map(Math.log);
  const width = sizes.length;
  return (m, vGb) => {
    if (!(m > 0) || !(vGb > 0)) return NaN;
    const [i, wm] = bracket(ms, m);
    const [j, wv] = bracket(logSizes, Math.log((vGb * 1000) / m));
    const i1 = Math.min(i + 1, ms.length - 1);
    const j1 = Math.min(j + 1, width - 1);
    const low = grid[i * width + j]! * (1 - wv) + grid[i * width + j1]! * wv;
    const high = grid[i1 * width + j]! * (1 - wv) + grid[i1 * width + j1]! * wv;
    return low * (1 - wm) + high * wm;
  };
}
