/**
 * Singular values (and right singular vectors) of a tall matrix, for the fit's rank and
 * conditioning checks.
 *
 * Method: Householder QR (X = QR, R is p × p, O(n·p²)), then one-sided Jacobi
 * (Hestenes) on R until every pair of columns is orthogonal to working precision
 * (Demmel & Veselić, "Jacobi's method is more accurate than QR", SIAM J. Matrix Anal.
 * Appl. 13(4), 1992). X and R have the same singular values and right singular vectors;
 * the QR step keeps the cost linear in n. Smallest singular values are accurate to about
 * ε·σ_max (absolute), which is what a condition-number threshold needs.
 *
 * The matrix is given as a row-major Float64Array (n rows × p columns) and is not
 * modified.
 */

export interface SingularValueDecomposition {
  /** σ_1 ≥ σ_2 ≥ … ≥ σ_p ≥ 0. */
  values: number[];
  /** Column k is the right singular vector of values[k] (p × p, row-major arrays). */
  rightVectors: number[][];
}

/** R of the Householder QR of an n × p row-major matrix (n ≥ p), as p × p row-major. */
function householderR(matrix: Float64Array, rows: number, columns: number): Float64Array {
  const a = Float64Array.from(matrix);
  for (let k = 0; k < columns; k++) {
    let norm = 0;
    for (let i = k; i < rows; i++) norm = Math.hypot(norm, a[i * columns + k]!);
    if (norm === 0) continue;
    const alpha = a[k * columns + k]! > 0 ? -norm : norm;
    // v = x − alpha·e1, stored in column k from row k down; H = I − 2vvᵀ/(vᵀv).
    a[k * columns + k] = a[k * columns + k]! - alpha;
    let vv = 0;
    for (let i = k; i < rows; i++) vv += a[i * columns + k]! ** 2;
    for (let j = k + 1; j < columns; j++) {
      let dot = 0;
      for (let i = k; i < rows; i++) dot += a[i * columns + k]! * a[i * columns + j]!;
      const factor = (2 * dot) / vv;
      for (let i = k; i < rows; i++) a[i * columns + j] = a[i * columns + j]! - factor * a[i * columns + k]!;
    }
    a[k * columns + k] = alpha;
  }
  const r = new Float64Array(columns * columns);
  for (let i = 0; i < columns; i++) for (let j = i; j < columns; j++) r[i * columns + j] = a[i * columns + j]!;
  return r;
}

/**
 * @example singularValues(Float64Array.of(3, 0, 0, 4), 2, 2).values // [4, 3]
 */
export function singularValues(matrix: Float64Array, rows: number, columns: number): SingularValueDecomposition {
  if (matrix.length !== rows * columns) throw new RangeError(`singularValues: expected ${rows}×${columns} values, got ${matrix.length}`);
  if (rows < columns) throw new RangeError(`singularValues: needs at least as many rows as columns, got ${rows}×${columns}`);
  const p = columns;
  const u = householderR(matrix, rows, columns); // columns of u are rotated in place
  const v = new Float64Array(p * p);
  for (let i = 0; i < p; i++) v[i * p + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let rotated = false;
    for (let j = 0; j < p - 1; j++) {
      for (let k = j + 1; k < p; k++) {
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < p; i++) {
          const x = u[i * p + j]!;
          const y = u[i * p + k]!;
          alpha += x * x;
          beta += y * y;
          gamma += x * y;
        }
        if (gamma === 0 || Math.abs(gamma) <= Number.EPSILON * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        for (let i = 0; i < p; i++) {
          const x = u[i * p + j]!;
          const y = u[i * p + k]!;
          u[i * p + j] = c * x - s * y;
          u[i * p + k] = s * x + c * y;
          const vx = v[i * p + j]!;
          const vy = v[i * p + k]!;
          v[i * p + j] = c * vx - s * vy;
          v[i * p + k] = s * vx + c * vy;
        }
      }
    }
    if (!rotated) break;
  }
  const norms = Array.from({ length: p }, (_, j) => {
    let sum = 0;
    for (let i = 0; i < p; i++) sum = Math.hypot(sum, u[i * p + j]!);
    return sum;
  });
  const order = norms.map((_, j) => j).sort((x, y) => norms[y]! - norms[x]! || x - y);
  return {
    values: order.map((j) => norms[j]!),
    rightVectors: Array.from({ length: p }, (_, i) => order.map((j) => v[i * p + j]!)),
  };
}
