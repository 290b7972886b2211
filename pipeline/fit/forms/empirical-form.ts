/**
 * The empirical form (a project addition, docs/science.md §3.5.2): the measured means
 * themselves, interpolated. Its parameters are the measured cells — for each, its number of
 * writers m_i, its size per writer w_i = V/m, its mean aggregated bandwidth bw_i (the one
 * fitted parameter of the cell, the mean of its runs), the runs' sample standard deviation
 * and their number — so that a device no smooth form follows (a Lustre shared-file run that
 * rises to ~10 GB/s at 16 writers and falls to ~1.4 GB/s at 24, lock contention) still has a
 * model that plans correctly where it was measured:
 *
 *   bw(m, V) = within the size series of w = V/m: linear in m between the measured m,
 *              held at the series' first (last) mean below (above) them;
 *              between two measured sizes w_a < w < w_b: linear in w between the two
 *              series' values at m; held at the nearest series outside [w_min, w_max].
 *   bw(0, V) = 0: an idle device moves nothing.
 *
 * Valid only inside the measured cells: the model's domain is their box of m and of V/m
 * (`ModelDomain.writerGbMin/Max`), and every use outside it is flagged as an extrapolation
 * (the held values are what it answers there, never a trend). Its uncertainty is the
 * replicates' spread: bw_i ± t·sd_i/√n_i (fit-empirical.ts).
 *
 * Evaluation reads the cells from the coefficients array — [n, then per cell (m, w, bw, sd,
 * runs)], cells sorted by w then m, the sizes found by bisection — with no allocation:
 * ScheduleCkpt's loops call it. A model file whose cells are not in that order is refused
 * (load-model.ts).
 */
import type { BandwidthForm, FormParameter, MaximumOverV } from "./bandwidth-form";

/** Values per cell in the coefficients array, and the offsets of each. */
const STRIDE = 5;
const M = 1;
const W = 2;
const BW = 3;

/** The cell's interpolated bandwidth in the series starting at cell `start` (its cells share w, sorted by m). */
function seriesAt(k: Float64Array, n: number, start: number, m: number): number {
  const w = k[start * STRIDE + W]!;
  if (m <= k[start * STRIDE + M]!) return k[start * STRIDE + BW]!;
  let previous = start;
  for (let i = start + 1; i < n && k[i * STRIDE + W] === w; i++) {
    const mi = k[i * STRIDE + M]!;
    if (m <= mi) {
      const m0 = k[previous * STRIDE + M]!;
      const b0 = k[previous * STRIDE + BW]!;
      return b0 + ((k[i * STRIDE + BW]! - b0) * (m - m0)) / (mi - m0);
    }
    previous = i;
  }
  return k[previous * STRIDE + BW]!;
}

/**
 * How many of the n cells, from the first, satisfy `w_i <= w` (`orEqual`) or `w_i < w`: the
 * cells are sorted by w, so these form a prefix, found by bisection — O(log n) per
 * evaluation rather than a scan of every cell, which made cross-validating the form on
 * 10,000 cells cost seconds (bench/fit.bench.ts). With w NaN neither comparison holds and
 * the prefix is empty.
 */
function prefixAtOrBelow(k: Float64Array, n: number, w: number, orEqual: boolean): number {
  let low = 0;
  let high = n;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const wi = k[middle * STRIDE + W]!;
    if (orEqual ? wi <= w : wi < w) low = middle + 1;
    else high = middle;
  }
  return low;
}

// Parenthesised: compiled with the module, like the other forms' evaluations.
const evaluateEmpirical = (function evaluateEmpirical(k: Float64Array, m: number, v: number): number {
  const n = k[0]!;
  if (!(m > 0) || !(n >= 1)) return 0;
  const w = v / m;
  // The series just below and just above w, each by its first cell: the last series with
  // w_s ≤ w and the first with w_s ≥ w (-1 when none).
  const atOrBelow = prefixAtOrBelow(k, n, w, true);
  let low = atOrBelow === 0 ? -1 : prefixAtOrBelow(k, n, k[(atOrBelow - 1) * STRIDE + W]!, false);
  const below = w === w ? prefixAtOrBelow(k, n, w, false) : n;
  let high = below < n ? below : -1;
  if (low < 0) low = high;
  if (high < 0) high = low;
  const bwBelow = seriesAt(k, n, low, m);
  if (high === low) return bwBelow;
  const wLow = k[low * STRIDE + W]!;
  const wHigh = k[high * STRIDE + W]!;
  return bwBelow + ((seriesAt(k, n, high, m) - bwBelow) * (w - wLow)) / (wHigh - wLow);
});

/**
 * ∂bw/∂bw_i: the interpolation's weight of each measured mean (bw is linear in them), by
 * evaluating with one mean at 1 and the others at 0 — O(n²), for the predictive
 * distribution's parameter variance (pipeline/fit/predictive-bandwidth.ts), not hot loops.
 */
function gradientEmpirical(k: Float64Array, m: number, v: number, out: Float64Array): number {
  out.fill(0);
  const n = k[0]!;
  const unit = Float64Array.from(k);
  for (let i = 0; i < n; i++) unit[i * STRIDE + BW] = 0;
  for (let i = 0; i < n; i++) {
    unit[i * STRIDE + BW] = 1;
    out[i * STRIDE + BW] = evaluateEmpirical(unit, m, v);
    unit[i * STRIDE + BW] = 0;
  }
  return evaluateEmpirical(k, m, v);
}

/** The coefficient names of cell i (1-based). */
export function empiricalCellNames(i: number): { m: string; writerGb: string; bw: string; sd: string; runs: string } {
  return { m: `m_${i}`, writerGb: `writerGb_${i}`, bw: `bw_${i}`, sd: `sd_${i}`, runs: `runs_${i}` };
}

const CELL_COUNT: FormParameter = { name: "cellCount", symbol: "n", unit: "count", meaning: "measured cells", fixed: true, internal: true };

/** Cells' count from the coefficients; 0 when it is not a usable count (load-model.ts then says so). */
export function empiricalCellCount(coefficients: Readonly<Record<string, number>>): number {
  const n = coefficients.cellCount;
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 0;
}

function parametersFor(coefficients: Readonly<Record<string, number>>): FormParameter[] {
  const parameters: FormParameter[] = [CELL_COUNT];
  const n = empiricalCellCount(coefficients);
  for (let i = 1; i <= n; i++) {
    const names = empiricalCellNames(i);
    const m = coefficients[names.m];
    const writerMb = (coefficients[names.writerGb] ?? NaN) * 1000;
    const at = `m = ${m}, V/m = ${Number(writerMb.toPrecision(6))} MB`;
    parameters.push(
      { name: names.m, symbol: `m_${i}`, unit: "count", meaning: `writers of cell ${i}`, fixed: true, internal: true },
      { name: names.writerGb, symbol: `w_${i}`, unit: "GB", meaning: `size per writer of cell ${i}`, fixed: true, internal: true },
      { name: names.bw, symbol: `bw_${i}`, unit: "MB/s", meaning: `measured mean at ${at}` },
      { name: names.sd, symbol: `sd_${i}`, unit: "MB/s", meaning: `runs' standard deviation at ${at}`, fixed: true, internal: true },
      { name: names.runs, symbol: `n_${i}`, unit: "count", meaning: `runs at ${at}`, fixed: true, internal: true },
    );
  }
  return parameters;
}

/** `parametersFor`'s values in its order, [n, then per cell (m, w, bw, sd, runs)], read by name alone. */
function evaluationCoefficients(coefficients: Readonly<Record<string, number>>): Float64Array {
  const n = empiricalCellCount(coefficients);
  const k = new Float64Array(1 + STRIDE * n);
  k[0] = coefficients.cellCount ?? 0;
  for (let i = 1; i <= n; i++) {
    const names = empiricalCellNames(i);
    const cell = (i - 1) * STRIDE;
    k[cell + M] = coefficients[names.m] ?? 0;
    k[cell + W] = coefficients[names.writerGb] ?? 0;
    k[cell + BW] = coefficients[names.bw] ?? 0;
    k[cell + BW + 1] = coefficients[names.sd] ?? 0;
    k[cell + BW + 2] = coefficients[names.runs] ?? 0;
  }
  return k;
}

/** The supremum over V ∈ [0, vMax] for one m: linear in w between measured sizes, held outside, so at a measured size or an end. */
function maximumOverV(k: Float64Array, m: number, vGbMax: number, capMbPerS: number): MaximumOverV {
  const n = k[0]!;
  let best: MaximumOverV = { bwMbPerS: 0, vGb: 0 };
  const consider = (v: number) => {
    const bw = Math.min(evaluateEmpirical(k, m, v), capMbPerS);
    if (bw > best.bwMbPerS) best = { bwMbPerS: bw, vGb: v };
  };
  consider(0);
  for (let i = 0; i < n; i++) {
    const v = m * k[i * STRIDE + W]!;
    if (v < vGbMax) consider(v);
  }
  consider(vGbMax);
  return best;
}

export const EMPIRICAL_FORM: BandwidthForm = {
  name: "empirical",
  title: "the measured means, interpolated between the measured cells (valid only inside them)",
  source: "project addition",
  origin: "project",
  formula: "bw(m, V) = the measured means bw_i at (m_i, V/m = w_i), linear in m within a size series and in V/m between sizes, held at the nearest cell outside them",
  parameters: [CELL_COUNT],
  parametersFor,
  evaluationCoefficients,
  evaluate: evaluateEmpirical,
  gradient: gradientEmpirical,
  maximumOverV,
  // Not proven for measured data (a rate can rise between cells): the exact solver does not cut.
  perProcessRateNonIncreasing: () => false,
};
