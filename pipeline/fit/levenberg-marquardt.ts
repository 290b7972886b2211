/**
 * Weighted nonlinear least squares by Levenberg–Marquardt, with box bounds: minimise
 * Σ_i w_i (y_i − f(k; x_i))² over the free parameters k, for the project's bandwidth forms
 * (docs/science.md §3.5; a handful of parameters, up to ~10^5 rows).
 *
 * Method: K. Levenberg (Q. Appl. Math. 2, 1944) and D. Marquardt (SIAM J. Appl. Math. 11,
 * 1963): each step solves (JᵀWJ + μ·diag(JᵀWJ)) δ = JᵀW r — Marquardt's scaling makes the
 * step invariant to the parameters' units (a rate in MB/s next to an exponent near 0) —
 * with μ updated by H. B. Nielsen's rule (*Damping parameter in Marquardt's method*, IMM
 * DTU report IMM-REP-1999-05): after an accepted step with gain ratio ρ,
 * μ ← μ·max(1/3, 1 − (2ρ − 1)³); after a rejected one μ ← μ·ν, ν ← 2ν. Bounds are kept by
 * an active set: a parameter on a bound whose gradient pushes it out is held there for the
 * step (the system is solved over the others), and every trial point is clamped into the
 * box. The system is solved by Cholesky; p ≤ 10.
 *
 * Stops when the relative decrease of the cost over an accepted step is below `costTolerance`
 * (1e-15 by default), the step is below `stepTolerance` relative to the parameters, the
 * gradient vanishes, or after `maxIterations` (then `converged` is false). Deterministic.
 *
 * Cost per iteration: O(n·p²) for JᵀWJ plus the model's value and gradient at n rows.
 * Decision: a trial point where the model is not finite is a rejected step (the damping
 * grows and the step shrinks back into where the model is defined).
 */

export interface NonlinearLeastSquaresProblem {
  /** Rows (observations). */
  rowCount: number;
  targets: ArrayLike<number>;
  /** Weight of each row (≥ 0); a mean of c runs has weight c. */
  weights: ArrayLike<number>;
  /** f(k; row) and ∂f/∂k into `gradient` (length = parameters). */
  valueAndGradient(parameters: Float64Array, row: number, gradient: Float64Array): number;
  /** f(k; row) alone (defaults to valueAndGradient). */
  value?(parameters: Float64Array, row: number): number;
  /** Which parameters vary (others stay at their start). */
  free: readonly boolean[];
  lower?: ArrayLike<number>;
  upper?: ArrayLike<number>;
}

export interface LevenbergMarquardtOptions {
  maxIterations?: number;
  costTolerance?: number;
  stepTolerance?: number;
  gradientTolerance?: number;
}

export interface LevenbergMarquardtResult {
  parameters: Float64Array;
  /** Σ w (y − f)² at `parameters`. */
  cost: number;
  iterations: number;
  converged: boolean;
  /** Why it stopped. */
  reason: "cost" | "step" | "gradient" | "iterations" | "stalled";
}

/** Σ w (y − f(k))², or Infinity when the model is not finite at some row. */
export function weightedCost(problem: NonlinearLeastSquaresProblem, parameters: Float64Array, scratch: Float64Array): number {
  let cost = 0;
  for (let i = 0; i < problem.rowCount; i++) {
    const f = problem.value ? problem.value(parameters, i) : problem.valueAndGradient(parameters, i, scratch);
    if (!Number.isFinite(f)) return Infinity;
    const r = problem.targets[i]! - f;
    cost += problem.weights[i]! * r * r;
  }
  return cost;
}

/**
 * JᵀWJ (q × q, row-major) and JᵀW r over the free parameters (indices `free`), at `parameters`.
 * @returns the cost Σ w r² at `parameters`, or Infinity when the model is not finite.
 */
export function normalEquations(
  problem: NonlinearLeastSquaresProblem,
  parameters: Float64Array,
  freeIndex: readonly number[],
  normal: Float64Array,
  gradientOut: Float64Array,
  scratch: Float64Array,
): number {
  const q = freeIndex.length;
  normal.fill(0);
  gradientOut.fill(0);
  let cost = 0;
  for (let i = 0; i < problem.rowCount; i++) {
    const f = problem.valueAndGradient(parameters, i, scratch);
    if (!Number.isFinite(f)) return Infinity;
    const w = problem.weights[i]!;
    const r = problem.targets[i]! - f;
    cost += w * r * r;
    for (let a = 0; a < q; a++) {
      const ja = scratch[freeIndex[a]!]!;
      if (!Number.isFinite(ja)) return Infinity;
      const wja = w * ja;
      gradientOut[a] = gradientOut[a]! + wja * r;
      for (let b = 0; b <= a; b++) normal[a * q + b] = normal[a * q + b]! + wja * scratch[freeIndex[b]!]!;
    }
  }
  for (let a = 0; a < q; a++) for (let b = 0; b < a; b++) normal[b * q + a] = normal[a * q + b]!;
  return cost;
}

/** Solve A x = b for a symmetric positive definite q × q A (Cholesky); false when A is not. */
export function solveCholesky(a: Float64Array, b: Float64Array, q: number, x: Float64Array): boolean {
  const l = new Float64Array(q * q);
  for (let i = 0; i < q; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * q + j]!;
      for (let k = 0; k < j; k++) sum -= l[i * q + k]! * l[j * q + k]!;
      if (i === j) {
        if (!(sum > 0)) return false;
        l[i * q + i] = Math.sqrt(sum);
      } else {
        l[i * q + j] = sum / l[j * q + j]!;
      }
    }
  }
  for (let i = 0; i < q; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[i * q + k]! * x[k]!;
    x[i] = sum / l[i * q + i]!;
  }
  for (let i = q - 1; i >= 0; i--) {
    let sum = x[i]!;
    for (let k = i + 1; k < q; k++) sum -= l[k * q + i]! * x[k]!;
    x[i] = sum / l[i * q + i]!;
  }
  return true;
}

/**
 * Minimise the problem's weighted sum of squares from `start`.
 * @example levenbergMarquardt(problem, Float64Array.of(1, 0.1)).parameters
 */
export function levenbergMarquardt(problem: NonlinearLeastSquaresProblem, start: Float64Array, options: LevenbergMarquardtOptions = {}): LevenbergMarquardtResult {
  const { maxIterations = 500, costTolerance = 1e-12, stepTolerance = 1e-13, gradientTolerance = 1e-15 } = options;
  const p = start.length;
  const freeIndex = problem.free.flatMap((free, j) => (free ? [j] : []));
  const q = freeIndex.length;
  const lower = (j: number) => problem.lower?.[j] ?? -Infinity;
  const upper = (j: number) => problem.upper?.[j] ?? Infinity;
  const parameters = Float64Array.from(start, (value, j) => Math.min(upper(j), Math.max(lower(j), value)));
  const scratch = new Float64Array(p);
  const normal = new Float64Array(q * q);
  const gradient = new Float64Array(q);
  const damped = new Float64Array(q * q);
  const reducedGradient = new Float64Array(q);
  const reducedStep = new Float64Array(q);
  const step = new Float64Array(q);
  const trial = new Float64Array(p);

  let cost = normalEquations(problem, parameters, freeIndex, normal, gradient, scratch);
  if (!Number.isFinite(cost)) return { parameters, cost, iterations: 0, converged: false, reason: "stalled" };
  if (q === 0) return { parameters, cost, iterations: 0, converged: true, reason: "step" };
  let maxDiagonal = 0;
  for (let a = 0; a < q; a++) maxDiagonal = Math.max(maxDiagonal, normal[a * q + a]!);
  let mu = 1e-3;
  let nu = 2;
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    // Held on a bound: the parameters the gradient pushes out of the box (moving along +g lowers the cost).
    const active: number[] = [];
    for (let a = 0; a < q; a++) {
      const j = freeIndex[a]!;
      const pinned = (parameters[j] === lower(j) && gradient[a]! < 0) || (parameters[j] === upper(j) && gradient[a]! > 0);
      if (!pinned) active.push(a);
    }
    // Gradient test, scaled like the step (Marquardt's diagonal): nothing left to gain.
    let gradientSize = 0;
    for (const a of active) gradientSize = Math.max(gradientSize, Math.abs(gradient[a]!) / Math.sqrt(Math.max(normal[a * q + a]!, 1e-300)));
    if (gradientSize <= gradientTolerance * Math.sqrt(Math.max(cost, 1e-300))) return { parameters, cost, iterations: iteration - 1, converged: true, reason: "gradient" };

    const r = active.length;
    let accepted = false;
    for (let attempt = 0; attempt < 60 && !accepted; attempt++) {
      for (let x = 0; x < r; x++) {
        const a = active[x]!;
        reducedGradient[x] = gradient[a]!;
        for (let y = 0; y < r; y++) damped[x * r + y] = normal[a * q + active[y]!]!;
        const diagonal = normal[a * q + a]! > 0 ? normal[a * q + a]! : 1e-12 * Math.max(maxDiagonal, 1);
        damped[x * r + x] = damped[x * r + x]! + mu * diagonal;
      }
      if (!solveCholesky(damped, reducedGradient, r, reducedStep)) {
        mu *= nu;
        nu *= 2;
        continue;
      }
      step.fill(0);
      for (let x = 0; x < r; x++) step[active[x]!] = reducedStep[x]!;
      trial.set(parameters);
      let stepSize = 0;
      let parameterSize = 0;
      for (let a = 0; a < q; a++) {
        const j = freeIndex[a]!;
        trial[j] = Math.min(upper(j), Math.max(lower(j), parameters[j]! + step[a]!));
        step[a] = trial[j]! - parameters[j]!;
        stepSize = Math.hypot(stepSize, step[a]!);
        parameterSize = Math.hypot(parameterSize, parameters[j]!);
      }
      if (stepSize <= stepTolerance * (parameterSize + stepTolerance)) return { parameters, cost, iterations: iteration, converged: true, reason: "step" };
      const trialCost = weightedCost(problem, trial, scratch);
      // Predicted decrease of the linearised model: 2δᵀg − δᵀAδ (= δᵀ(μ·D·δ + g) for the unclamped step).
      let predicted = 0;
      for (let a = 0; a < q; a++) {
        let aStep = 0;
        for (let b = 0; b < q; b++) aStep += normal[a * q + b]! * step[b]!;
        predicted += step[a]! * (2 * gradient[a]! - aStep);
      }
      const rho = predicted > 0 ? (cost - trialCost) / predicted : -1;
      if (Number.isFinite(trialCost) && trialCost < cost) {
        accepted = true;
        const decrease = (cost - trialCost) / Math.max(cost, 1e-300);
        parameters.set(trial);
        cost = normalEquations(problem, parameters, freeIndex, normal, gradient, scratch);
        mu *= Math.max(1 / 3, 1 - (2 * Math.min(rho, 1) - 1) ** 3);
        nu = 2;
        if (decrease <= costTolerance) return { parameters, cost, iterations: iteration, converged: true, reason: "cost" };
      } else {
        mu *= nu;
        nu *= 2;
      }
      if (!Number.isFinite(mu) || mu > 1e300) return { parameters, cost, iterations: iteration, converged: false, reason: "stalled" };
    }
    if (!accepted) return { parameters, cost, iterations: iteration, converged: false, reason: "stalled" };
  }
  return { parameters, cost, iterations: maxIterations, converged: false, reason: "iterations" };
}
