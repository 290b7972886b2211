/**
 * A Monte Carlo mean with its normal-approximation confidence interval
 * (mean ± z·s/√N, z = Φ⁻¹((1 + confidence)/2)), accumulated with Welford's update so that
 * long runs lose no precision.
 */
import { standardNormalQuantile } from "./standard-normal";

export interface MeanEstimate {
  mean: number;
  /** s/√N. */
  standardError: number;
  low: number;
  high: number;
  confidence: number;
  runs: number;
}

export interface MeanAccumulator {
  add(value: number): void;
  result(confidence: number): MeanEstimate;
}

export function meanAccumulator(): MeanAccumulator {
  let count = 0;
  let mean = 0;
  let squares = 0;
  return {
    add(value) {
      count++;
      const delta = value - mean;
      mean += delta / count;
      squares += delta * (value - mean);
    },
    result(confidence) {
      if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
      const standardError = count > 1 ? Math.sqrt(squares / (count - 1) / count) : NaN;
      const half = standardNormalQuantile((1 + confidence) / 2) * standardError;
      return { mean: count > 0 ? mean : NaN, standardError, low: mean - half, high: mean + half, confidence, runs: count };
    },
  };
}
