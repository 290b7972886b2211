/**
 * A sample's mean with its 95 % Student-t confidence interval, mean ± t_{0.975, n−1} · s/√n
 * (s the n − 1 standard deviation), for the campaigns' per-seed results.
 *
 * The t quantile: for an integer number of degrees of freedom ν the CDF has a closed form,
 * a finite trigonometric series in θ = atan(t/√ν) (Abramowitz & Stegun 26.7.3–26.7.4),
 * inverted here by bisection to 1e-12 — exact, and all a campaign over seeds needs
 * (ν = seeds − 1 is an integer). Checked against scipy.stats.t.ppf in the tests.
 * Integration note: the fit stage brings a general `studentTQuantile`; once both are
 * merged this private helper should call it instead.
 */
export interface MeanWithCi {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1); 0 for n < 2. */
  sd: number;
  /** 95 % CI bounds; null when n < 2. */
  low: number | null;
  high: number | null;
}

/** P(|T| ≤ t) for Student's t with an integer ν ≥ 1 (A&S 26.7.3 odd ν, 26.7.4 even ν). */
function twoSidedCdf(t: number, dof: number): number {
  const theta = Math.atan(t / Math.sqrt(dof));
  const c2 = Math.cos(theta) ** 2;
  const s = Math.sin(theta);
  if (dof % 2 === 1) {
    if (dof === 1) return (2 * theta) / Math.PI;
    // cos θ · (1 + (2/3) cos²θ + (2·4)/(3·5) cos⁴θ + … up to cos^{ν−3})
    let term = 1;
    let sum = 1;
    for (let k = 1; 2 * k + 1 <= dof - 2; k++) {
      term *= ((2 * k) / (2 * k + 1)) * c2;
      sum += term;
    }
    return (2 / Math.PI) * (theta + s * Math.cos(theta) * sum);
  }
  // sin θ · (1 + (1/2) cos²θ + (1·3)/(2·4) cos⁴θ + … up to cos^{ν−2})
  let term = 1;
  let sum = 1;
  for (let k = 1; 2 * k <= dof - 2; k++) {
    term *= ((2 * k - 1) / (2 * k)) * c2;
    sum += term;
  }
  return s * sum;
}

/** t_{0.975, ν}: the two-sided 95 % critical value, integer ν ≥ 1. */
export function tCritical95(dof: number): number {
  if (!Number.isInteger(dof) || dof < 1) throw new RangeError(`degrees of freedom must be an integer ≥ 1, got ${dof}`);
  let low = 0;
  let high = 1;
  while (twoSidedCdf(high, dof) < 0.95) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const mid = (low + high) / 2;
    if (twoSidedCdf(mid, dof) < 0.95) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

export function meanWithCi(values: readonly number[]): MeanWithCi {
  const n = values.length;
  if (n === 0) return { n, mean: NaN, sd: 0, low: null, high: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { n, mean, sd: 0, low: null, high: null };
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (tCritical95(n - 1) * sd) / Math.sqrt(n);
  return { n, mean, sd, low: mean - half, high: mean + half };
}
