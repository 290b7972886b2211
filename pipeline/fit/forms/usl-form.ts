/**
 * The Universal Scalability Law with a size factor (a project addition, docs/science.md
 * §3.5): the throughput of m clients of one shared server, after N. J. Gunther's Universal
 * Scalability Law, C(N) = N / (1 + σ(N − 1) + κN(N − 1)) (*Guerrilla Capacity Planning*,
 * Springer, 2007, ch. 4–5):
 *
 *   bw(m, V) = λ·m·s(V) / (1 + σ·(m − 1) + κ·m·(m − 1)),   s(V) = (min(max(V, V₀), V₁)/V₀)^γ
 *
 * λ: what one writer moves alone (MB/s, at the smallest measured volume V₀); σ ≥ 0:
 * contention, the share of a checkpoint serialised at the server (σ = 0: linear scaling,
 * the curve levels towards λ/σ); κ ≥ 0: coherency, the cost each writer adds to every other
 * (seeks between streams, lock traffic), which makes the curve peak at m* = √((1 − σ)/κ) and
 * fall — the papers' collapse (§3.1), and with σ ≥ 1 a device fastest with one writer. The
 * size factor s(V) is a power law of the volume written between V₀ and V₁, the smallest and
 * the largest V measured (fixed from the data, not fitted), 1 below V₀ and held at its value
 * at V₁ above it: the law is never extrapolated past the measured volumes (V = m·v grows
 * with m). bw(0, V) = 0: an idle device moves nothing.
 *
 * Decisions: σ, κ ≥ 0 as in Gunther's law (negative values would let the denominator reach 0
 * between measured m); γ ≤ 1, from the physics: for a fixed m the time to write V is
 * ∝ V^(1−γ), and a larger write cannot finish sooner than the smaller one it begins with (no
 * lower bound: a time growing faster than the volume is physical, and the held factor keeps
 * it bounded); the fit starts from the linearisation m·λ/bw − 1 = σ(m − 1) + κ m(m − 1)
 * (least squares on the cells, λ from the smallest m) and from a small grid, and keeps the best.
 */
import { logSizeRatio, sizeFactor, type BandwidthForm, type FormCells } from "./bandwidth-form";
import { largestVolumeGb, perWriterRate, shapeAndSizeGap, smallestVolumeGb } from "./form-starts";

const LAMBDA = 0;
const SIGMA = 1;
const KAPPA = 2;
const GAMMA = 3;
const V_REF = 4;
const V_MAX = 5;

// Parenthesised: compiled with the module, like the other forms' evaluations.
const evaluateUsl = (function evaluateUsl(k: Float64Array, m: number, v: number): number {
  if (!(m > 0)) return 0;
  return (k[LAMBDA]! * m * sizeFactor(v, k[V_REF]!, k[V_MAX]!, k[GAMMA]!)) / (1 + k[SIGMA]! * (m - 1) + k[KAPPA]! * m * (m - 1));
});

function gradientUsl(k: Float64Array, m: number, v: number, out: Float64Array): number {
  out.fill(0);
  if (!(m > 0)) return 0;
  const size = sizeFactor(v, k[V_REF]!, k[V_MAX]!, k[GAMMA]!);
  const denominator = 1 + k[SIGMA]! * (m - 1) + k[KAPPA]! * m * (m - 1);
  const bw = (k[LAMBDA]! * m * size) / denominator;
  out[LAMBDA] = (m * size) / denominator;
  out[SIGMA] = (-bw * (m - 1)) / denominator;
  out[KAPPA] = (-bw * m * (m - 1)) / denominator;
  out[GAMMA] = bw * logSizeRatio(v, k[V_REF]!, k[V_MAX]!);
  return bw;
}

/** The linearised start: λ from the smallest m, then σ, κ ≥ 0 by least squares on m·λ/bw − 1. */
function linearisedStart(cells: FormCells, vRef: number, vMax: number): Float64Array {
  const lambda = perWriterRate(cells);
  let s11 = 0, s12 = 0, s22 = 0, t1 = 0, t2 = 0;
  for (let i = 0; i < cells.m.length; i++) {
    const m = cells.m[i]!;
    const bw = cells.meanBwMbPerS[i]!;
    if (!(bw > 0)) continue;
    const x1 = m - 1;
    const x2 = m * (m - 1);
    const y = (m * lambda) / bw - 1;
    const w = cells.count[i]!;
    s11 += w * x1 * x1;
    s12 += w * x1 * x2;
    s22 += w * x2 * x2;
    t1 += w * x1 * y;
    t2 += w * x2 * y;
  }
  const det = s11 * s22 - s12 * s12;
  let sigma = det > 0 ? (t1 * s22 - t2 * s12) / det : 0;
  let kappa = det > 0 ? (s11 * t2 - s12 * t1) / det : 0;
  if (!(sigma >= 0)) sigma = 0;
  if (!(kappa >= 0)) kappa = 0;
  return Float64Array.of(lambda, sigma, kappa, 0, vRef, vMax);
}

export const USL_FORM: BandwidthForm = {
  name: "usl",
  title: "Gunther's Universal Scalability Law of a shared server, with a power-law size factor",
  source: "project addition: Gunther, Guerrilla Capacity Planning (2007) ch. 4",
  origin: "project",
  formula: "bw(m, V) = λ·m·(V/V₀)^γ / (1 + σ·(m − 1) + κ·m·(m − 1)), the size factor held outside the measured volumes: 1 for V ≤ V₀, (V₁/V₀)^γ for V ≥ V₁",
  parameters: [
    { name: "lambda", symbol: "λ", unit: "MB/s", meaning: "one writer alone, at the smallest measured volume", lower: 0 },
    { name: "sigma", symbol: "σ", unit: "1", meaning: "contention: share serialised at the server", lower: 0 },
    { name: "kappa", symbol: "κ", unit: "1", meaning: "coherency: cost each writer adds to every other", lower: 0 },
    { name: "gamma", symbol: "γ", unit: "1", meaning: "size exponent of the volume written", upper: 1, sizeExponent: true },
    { name: "vRefGb", symbol: "V₀", unit: "GB", meaning: "smallest measured volume (fixed from the data)", fixed: true },
    // Added after models were saved without it: such a model keeps the unbounded law it was fitted with.
    { name: "vMaxGb", symbol: "V₁", unit: "GB", meaning: "largest measured volume (fixed from the data)", fixed: true, whenAbsent: Infinity, atLeast: "vRefGb" },
  ],
  evaluate: evaluateUsl,
  gradient: gradientUsl,
  fixedFromData: (cells) => ({ vRefGb: smallestVolumeGb(cells), vMaxGb: largestVolumeGb(cells) }),
  starts(cells, fixed) {
    const vRef = fixed.vRefGb!;
    const vMax = fixed.vMaxGb!;
    const lambda = perWriterRate(cells);
    const grid = [
      [0.1, 0.001],
      [0.5, 0.01],
      [2, 0.05],
    ].map(([sigma, kappa]) => Float64Array.of(lambda, sigma!, kappa!, 0, vRef, vMax));
    return [linearisedStart(cells, vRef, vMax), ...grid];
  },
  structuralGap: (cells) => shapeAndSizeGap(cells, 4, "the USL form"),
  maximumOverV(k, m, vGbMax, capMbPerS) {
    // For a fixed m, bw is monotone in V (the power law's sign, held outside [V₀, V₁]): an end of [0, vMax] is the supremum.
    const atZero = Math.min(evaluateUsl(k, m, 0), capMbPerS);
    const atMax = Math.min(evaluateUsl(k, m, vGbMax), capMbPerS);
    if (atMax > atZero && atMax > 0) return { bwMbPerS: atMax, vGb: vGbMax };
    return atZero > 0 ? { bwMbPerS: atZero, vGb: 0 } : { bwMbPerS: 0, vGb: 0 };
  },
  // bw/m = λ·s(V)/D(m): D(m + 1) − D(m) = σ + 2κm ≥ 0, and s is non-increasing when γ ≤ 0 (held outside [V₀, V₁] too).
  perProcessRateNonIncreasing: (k) => k[SIGMA]! >= 0 && k[KAPPA]! >= 0 && k[GAMMA]! <= 0,
};
