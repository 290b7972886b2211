/**
 * The usual in-sample regression figures of a fit (docs/science.md §3.3: R², adjusted R², RMSE, MAE),
 * over the fit points, from observed values and predictions.
 *
 * R² = 1 − SSE/SST (both forms contain a constant term, so this is the usual centred R²);
 * adjusted R² = 1 − (1 − R²)(N − 1)/(N − p); RMSE = √(SSE/N) (the residual standard error
 * √(SSE/(N − p)) is reported by the fit itself); MAE = Σ|y − ŷ|/N.
 */
export interface GoodnessOfFit {
  rSquared: number;
  adjustedRSquared: number;
  rmseMbPerS: number;
  maeMbPerS: number;
}

export function goodnessOfFit(observed: ArrayLike<number>, predicted: ArrayLike<number>, parameterCount: number): GoodnessOfFit {
  const n = observed.length;
  if (n !== predicted.length || n === 0) throw new RangeError(`goodnessOfFit: need as many predictions as observations (> 0), got ${n} and ${predicted.length}`);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += (observed[i]! - mean) / (i + 1);
  let totalSumOfSquares = 0;
  let residualSumOfSquares = 0;
  let absoluteSum = 0;
  for (let i = 0; i < n; i++) {
    const deviation = observed[i]! - mean;
    const residual = observed[i]! - predicted[i]!;
    totalSumOfSquares += deviation * deviation;
    residualSumOfSquares += residual * residual;
    absoluteSum += Math.abs(residual);
  }
  const rSquared = 1 - residualSumOfSquares / totalSumOfSquares;
  return {
    rSquared,
    adjustedRSquared: 1 - ((1 - rSquared) * (n - 1)) / (n - parameterCount),
    rmseMbPerS: Math.sqrt(residualSumOfSquares / n),
    maeMbPerS: absoluteSum / n,
  };
}

/** Below this R², or above this E_global, a fit is reported as poor (a warning, not a refusal), and `--form auto` passes it over while another form is not poor. */
export const POOR_FIT_R_SQUARED = 0.9;
export const POOR_FIT_E_GLOBAL_PERCENT = 15;
