/**
 * An empirical law built from observed durations (e.g. availability intervals of the
 * hosts, docs/science.md §5.5: "an empirical law fitted from availability traces").
 *
 * Decision: the law is the *linearly interpolated* empirical CDF, i.e. F passes through
 * (0, 0) and through (v_j, #{x ≤ v_j}/m) at every distinct observed value v_j, linear in
 * between. It has a density (piecewise constant), so it is a continuous law like the
 * parametric ones and the placement's integrals keep their meaning; the plain step ECDF
 * would put atoms exactly at observed durations. Its mean is Σ_j ΔF_j (v_{j−1} + v_j)/2,
 * slightly below the sample mean (each observation's mass is spread over the interval that
 * ends at it); the description states both. All functions are closed forms on the segment
 * found by binary search, O(log d); prefix and suffix sums keep both tails exact.
 */
import { InputError } from "../../shared/errors";
import type { Random } from "../../shared/random";
import type { EmpiricalSpec, FailureLaw } from "./failure-law";

export function empiricalLaw(spec: EmpiricalSpec): FailureLaw {
  const observations = spec.durationsSeconds;
  const where = spec.source ? ` (${spec.source})` : "";
  if (observations.length === 0) throw new InputError(`empirical law${where}: no durations; give at least one observed duration > 0`);
  observations.forEach((x, i) => {
    if (!(x > 0) || !Number.isFinite(x)) {
      throw new InputError(`empirical law${where}: duration ${i + 1} is ${x}; every observed duration must be a finite number > 0 seconds`);
    }
  });
  const sorted = [...observations].sort((a, b) => a - b);
  const m = sorted.length;
  // Knots v_0 = 0 < v_1 < … < v_d with the count of observations ≤ v_j.
  const knots: number[] = [0];
  const counts: number[] = [0];
  for (const x of sorted) {
    if (x === knots[knots.length - 1]) counts[counts.length - 1]! += 1;
    else {
      knots.push(x);
      counts.push(counts[counts.length - 1]! + 1);
    }
  }
  const d = knots.length - 1;
  const v = Float64Array.from(knots);
  const cdfAt = Float64Array.from(counts, (c) => c / m);
  const survivalAt = Float64Array.from(counts, (c) => (m - c) / m);
  const density = new Float64Array(d + 1); // density[j] on (v_{j−1}, v_j]
  const segmentMass = new Float64Array(d + 1); // ∫ over segment j of t f(t) dt
  for (let j = 1; j <= d; j++) {
    const probability = (counts[j]! - counts[j - 1]!) / m;
    density[j] = probability / (v[j]! - v[j - 1]!);
    segmentMass[j] = (probability * (v[j]! + v[j - 1]!)) / 2;
  }
  const lowerAt = new Float64Array(d + 1);
  for (let j = 1; j <= d; j++) lowerAt[j] = lowerAt[j - 1]! + segmentMass[j]!;
  const upperAt = new Float64Array(d + 1);
  for (let j = d - 1; j >= 0; j--) upperAt[j] = upperAt[j + 1]! + segmentMass[j + 1]!;
  const mean = upperAt[0]!;
  const sampleMean = sorted.reduce((s, x) => s + x, 0) / m;

  /** The segment j ∈ [1, d] with v_{j−1} < t ≤ v_j (t in (0, v_d]). */
  const segmentOf = (t: number): number => {
    let lo = 1;
    let hi = d;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const last = v[d]!;
  return {
    spec,
    description: `empirical(${m} durations${where}, linear ECDF, mean ${Number(mean.toPrecision(6))} s; sample mean ${Number(
      sampleMean.toPrecision(6),
    )} s)`,
    meanSeconds: mean,
    cdf(t) {
      if (t <= 0) return 0;
      if (t >= last) return 1;
      const j = segmentOf(t);
      return cdfAt[j - 1]! + density[j]! * (t - v[j - 1]!);
    },
    survival(t) {
      if (t <= 0) return 1;
      if (t >= last) return 0;
      const j = segmentOf(t);
      return survivalAt[j]! + density[j]! * (v[j]! - t);
    },
    pdf(t) {
      if (t <= 0 || t > last) return 0;
      return density[segmentOf(t)]!;
    },
    partialExpectation(t) {
      if (t <= 0) return 0;
      if (t >= last) return mean;
      const j = segmentOf(t);
      const a = v[j - 1]!;
      return lowerAt[j - 1]! + (density[j]! * (t - a) * (t + a)) / 2;
    },
    upperPartialExpectation(t) {
      if (t <= 0) return mean;
      if (t >= last) return 0;
      const j = segmentOf(t);
      const b = v[j]!;
      return upperAt[j]! + (density[j]! * (b - t) * (b + t)) / 2;
    },
    sample(random: Random) {
      const u = random.next();
      // First j with cdfAt[j] > u; the sample lies in segment j.
      let lo = 1;
      let hi = d;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cdfAt[mid]! <= u) lo = mid + 1;
        else hi = mid;
      }
      return v[lo - 1]! + (u - cdfAt[lo - 1]!) / density[lo]!;
    },
  };
}
