/**
 * Writers' links into one server's capacity (a project addition, docs/science.md §3.5): m
 * writers each push their checkpoint at most at their link's rate r, and the server absorbs
 * at most its capacity C, so the aggregate is the smaller of m·r and C — the papers' setting
 * of many nodes behind Gigabit Ethernet writing to one NFS server (§1), before any collapse.
 * The corner is rounded by a generalised (power) mean of exponent −k:
 *
 *   bw(m, V) = ((m·r·(v/v₀)^α)^(−k) + (C·(V/V₀)^β)^(−k))^(−1/k),   v = V/m
 *
 * k = 1 is the series law 1/bw = 1/(m·r) + 1/C (the time through the links plus the time
 * through the server); k → ∞ the hard minimum. α: how a writer's rate changes with its own
 * checkpoint's size v (per-checkpoint costs amortised, or not); β: how the server's capacity
 * changes with the volume V written together (a write-back cache filling). Both are power
 * laws between the smallest and the largest measured size (v₀, v₁ = smallest and largest
 * V/m; V₀, V₁ = smallest and largest V; fixed from the data) and held outside them: 1 below,
 * so nothing diverges as V → 0, and their value at v₁ (V₁) above, so that neither the links'
 * rate nor the server's capacity grows or collapses without bound past the measured sizes
 * (V = m·v grows with m). bw(0, V) = 0.
 *
 * Decisions: 1 ≤ k ≤ 64 (below 1 the corner would be rounder than two resources in series;
 * above 64 the curve is the hard minimum to within 1 %, and k's gradient vanishes); r, C ≥ 0;
 * α, β ≤ 1, from the physics, not the data: a writer's time for its v is v/(r·(v/v₀)^α) ∝
 * v^(1−α) and the server's for V is ∝ V^(1−β), and a larger write cannot finish sooner than
 * the smaller one it begins with, so 1 − α ≥ 0 and 1 − β ≥ 0 (with both, V/bw does not
 * decrease with V at any m). No lower bound: a time growing faster than the size is physical
 * (a write-back cache filling), and the held factors keep any such law bounded.
 * Evaluated as lo·(1 + (lo/hi)^k)^(−1/k) with lo ≤ hi, which cannot overflow at any k.
 */
import { logSizeRatio, sizeFactor, type BandwidthForm, type FormCells, type MaximumOverV } from "./bandwidth-form";
import { largestBandwidth, largestVolumeGb, perWriterRate, shapeAndSizeGap, smallestVolumeGb } from "./form-starts";

const RATE = 0;
const ALPHA = 1;
const CAPACITY = 2;
const BETA = 3;
const SHARPNESS = 4;
const V_REF = 5;
const WRITER_REF = 6;
const V_MAX = 7;
const WRITER_MAX = 8;

// Parenthesised: compiled with the module, like the other forms' evaluations.
const evaluateLinkCapacity = (function evaluateLinkCapacity(k: Float64Array, m: number, v: number): number {
  if (!(m > 0)) return 0;
  const links = m * k[RATE]! * sizeFactor(v / m, k[WRITER_REF]!, k[WRITER_MAX]!, k[ALPHA]!);
  const server = k[CAPACITY]! * sizeFactor(v, k[V_REF]!, k[V_MAX]!, k[BETA]!);
  const low = links < server ? links : server;
  const high = links < server ? server : links;
  if (low <= 0) return 0;
  const sharpness = k[SHARPNESS]!;
  return low * Math.pow(1 + Math.pow(low / high, sharpness), -1 / sharpness);
});

function gradientLinkCapacity(k: Float64Array, m: number, v: number, out: Float64Array): number {
  out.fill(0);
  if (!(m > 0)) return 0;
  const links = m * k[RATE]! * sizeFactor(v / m, k[WRITER_REF]!, k[WRITER_MAX]!, k[ALPHA]!);
  const server = k[CAPACITY]! * sizeFactor(v, k[V_REF]!, k[V_MAX]!, k[BETA]!);
  if (!(links > 0 && server > 0)) return 0;
  const sharpness = k[SHARPNESS]!;
  // As evaluateLinkCapacity, keeping (low/high)^k: each resource's share of the generalised
  // mean, w_a = a^−k / (a^−k + c^−k), is 1/(1 + ratio) for the lower one.
  const linksLower = links <= server;
  const ratio = Math.pow(linksLower ? links / server : server / links, sharpness);
  const bw = (linksLower ? links : server) * Math.pow(1 + ratio, -1 / sharpness);
  const wLow = 1 / (1 + ratio);
  const wLinks = linksLower ? wLow : 1 - wLow;
  const wServer = 1 - wLinks;
  out[RATE] = (bw * wLinks) / k[RATE]!;
  out[ALPHA] = bw * wLinks * logSizeRatio(v / m, k[WRITER_REF]!, k[WRITER_MAX]!);
  out[CAPACITY] = (bw * wServer) / k[CAPACITY]!;
  out[BETA] = bw * wServer * logSizeRatio(v, k[V_REF]!, k[V_MAX]!);
  out[SHARPNESS] = (bw * (wLinks * Math.log(links / bw) + wServer * Math.log(server / bw))) / sharpness;
  return bw;
}

/**
 * The supremum over V ∈ [0, vMax] for one m. Between the size factors' breakpoints (V = m·v₀,
 * m·v₁, V₀ and V₁) each resource is a power law of V — of exponent α (β) between its own
 * references, 0 outside them — and bw^−k = A·V^(−kα') + B·V^(−kβ') is convex in ln V: bw
 * peaks at the segment's ends or, when the exponents α', β' in force have opposite signs, at
 * its one stationary point, in closed form.
 */
function maximumOverV(k: Float64Array, m: number, vGbMax: number, capMbPerS: number): MaximumOverV {
  const sharpness = k[SHARPNESS]!;
  const writerLow = m * k[WRITER_REF]!;
  const writerHigh = m * k[WRITER_MAX]!;
  const serverLow = k[V_REF]!;
  const serverHigh = k[V_MAX]!;
  const breaks = [writerLow, writerHigh, serverLow, serverHigh].filter((b) => b > 0 && b < vGbMax);
  const ends = [0, vGbMax, ...breaks].sort((a, b) => a - b);
  const candidates = [...ends];
  for (let i = 1; i < ends.length; i++) {
    const low = ends[i - 1]!;
    const high = ends[i]!;
    if (!(low > 0 && high > low)) continue;
    const middle = Math.sqrt(low * high);
    const alpha = middle > writerLow && middle < writerHigh ? k[ALPHA]! : 0;
    const beta = middle > serverLow && middle < serverHigh ? k[BETA]! : 0;
    if (!(alpha * beta < 0)) continue;
    const links = m * k[RATE]! * sizeFactor(low / m, k[WRITER_REF]!, k[WRITER_MAX]!, k[ALPHA]!);
    const server = k[CAPACITY]! * sizeFactor(low, serverLow, serverHigh, k[BETA]!);
    const logDistance = -(Math.log(-beta / alpha) + sharpness * Math.log(links / server)) / (sharpness * (alpha - beta));
    const stationary = low * Math.exp(logDistance);
    if (stationary > low && stationary < high) candidates.push(stationary);
  }
  let best: MaximumOverV = { bwMbPerS: 0, vGb: 0 };
  for (const v of candidates) {
    const bw = Math.min(evaluateLinkCapacity(k, m, v), capMbPerS);
    if (bw > best.bwMbPerS) best = { bwMbPerS: bw, vGb: v };
  }
  return best;
}

function starts(cells: FormCells, fixed: Record<string, number>): Float64Array[] {
  const rate = perWriterRate(cells);
  const capacity = largestBandwidth(cells);
  return [2, 8, 32].map((sharpness) => Float64Array.of(rate, 0, capacity, 0, sharpness, fixed.vRefGb!, fixed.writerSizeRefGb!, fixed.vMaxGb!, fixed.writerSizeMaxGb!));
}

/** The smallest and the largest size per writer V/m (GB) of the cells: the writer's size factor's references. */
function writerSizeRangeGb(cells: FormCells): { smallest: number; largest: number } {
  let smallest = Infinity;
  let largest = 0;
  for (let i = 0; i < cells.m.length; i++) {
    if (!(cells.m[i]! > 0)) continue;
    const writerGb = cells.vGb[i]! / cells.m[i]!;
    smallest = Math.min(smallest, writerGb);
    largest = Math.max(largest, writerGb);
  }
  if (!(Number.isFinite(smallest) && smallest > 0)) return { smallest: 1, largest: Math.max(1, largest) };
  return { smallest, largest };
}

export const LINK_CAPACITY_FORM: BandwidthForm = {
  name: "link-capacity",
  title: "m writers' links into one server's capacity, a rounded minimum, with power-law size factors",
  source: "project addition",
  origin: "project",
  formula: "bw(m, V) = ((m·r·(v/v₀)^α)^(−k) + (C·(V/V₀)^β)^(−k))^(−1/k), v = V/m, each size factor held outside its measured sizes (v within [v₀, v₁], V within [V₀, V₁])",
  parameters: [
    { name: "rate", symbol: "r", unit: "MB/s", meaning: "one writer's link rate, at the smallest measured size", lower: 0 },
    { name: "alpha", symbol: "α", unit: "1", meaning: "size exponent of a writer's own checkpoint v = V/m", upper: 1, sizeExponent: true },
    { name: "capacity", symbol: "C", unit: "MB/s", meaning: "the server's capacity, at the smallest measured volume", lower: 0 },
    { name: "beta", symbol: "β", unit: "1", meaning: "size exponent of the volume V written together", upper: 1, sizeExponent: true },
    { name: "sharpness", symbol: "k", unit: "1", meaning: "how sharp the corner is (1: in series; 64: a hard minimum)", lower: 1, upper: 64 },
    { name: "vRefGb", symbol: "V₀", unit: "GB", meaning: "smallest measured volume (fixed from the data)", fixed: true },
    { name: "writerSizeRefGb", symbol: "v₀", unit: "GB", meaning: "smallest measured size per writer (fixed from the data)", fixed: true },
    // Added after models were saved without them: such a model keeps the unbounded law it was fitted with.
    { name: "vMaxGb", symbol: "V₁", unit: "GB", meaning: "largest measured volume (fixed from the data)", fixed: true, whenAbsent: Infinity, atLeast: "vRefGb" },
    { name: "writerSizeMaxGb", symbol: "v₁", unit: "GB", meaning: "largest measured size per writer (fixed from the data)", fixed: true, whenAbsent: Infinity, atLeast: "writerSizeRefGb" },
  ],
  evaluate: evaluateLinkCapacity,
  gradient: gradientLinkCapacity,
  fixedFromData: (cells) => {
    const writer = writerSizeRangeGb(cells);
    return { vRefGb: smallestVolumeGb(cells), writerSizeRefGb: writer.smallest, vMaxGb: largestVolumeGb(cells), writerSizeMaxGb: writer.largest };
  },
  starts,
  structuralGap: (cells) => shapeAndSizeGap(cells, 5, "the link-capacity form"),
  maximumOverV,
  // bw/m = softmin(r·s_r(V/m), C·s_C(V)/m): with α = 0 the links' share is constant, and C·s_C(V)/m
  // does not increase with m, nor with V when β ≤ 0 (held above V₁, it stays non-increasing).
  // With α ≠ 0 a smaller mean size can raise a writer's rate: unproven.
  perProcessRateNonIncreasing: (k) => k[ALPHA] === 0 && k[BETA]! <= 0,
};
