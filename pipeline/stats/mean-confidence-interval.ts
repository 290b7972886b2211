/**
 * A sample's mean with its 95 % Student-t confidence interval, mean ± t_{0.975, n−1} · s/√n
 * (s the n − 1 standard deviation), for the campaigns' per-seed results and the simulators'
 * means over runs.
 */
import { studentTQuantile } from "./student-t";

export interface MeanWithCi {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1); 0 for n < 2. */
  sd: number;
  /** 95 % CI bounds; null when n < 2. */
  low: number | null;
  high: number | null;
}

export function meanWithCi(values: readonly number[]): MeanWithCi {
  const n = values.length;
  if (n === 0) return { n, mean: NaN, sd: 0, low: null, high: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { n, mean, sd: 0, low: null, high: null };
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (studentTQuantile(0.975, n - 1) * sd) / Math.sqrt(n);
  return { n, mean, sd, low: mean - half, high: mean + half };
}

/** The mean as the simulators report it: the interval also as one field, `ci95` = [low, high] (null below two runs), as the fit reports its coefficients' intervals. */
export interface MeanWithCi95 extends MeanWithCi {
  ci95: [number, number] | null;
}

export function withCi95(m: MeanWithCi): MeanWithCi95 {
  return { ...m, ci95: m.low === null || m.high === null ? null : [m.low, m.high] };
}
