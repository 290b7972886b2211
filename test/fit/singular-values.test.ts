import { describe, expect, it } from "vitest";
import { singularValues } from "../../pipeline/fit/singular-values";
import { expectClose } from "../helpers";

describe("singularValues", () => {
  it("finds the singular values and vectors of a known matrix", () => {
    // A = [[3, 0], [4, 5]]: AᵀA = [[25, 20], [20, 25]], eigenvalues 45 and 5, so
    // σ = √45, √5 with right vectors (1, 1)/√2 and (1, −1)/√2.
    const { values, rightVectors } = singularValues(Float64Array.of(3, 0, 4, 5), 2, 2);
    expectClose(values[0]!, Math.sqrt(45), 1e-15);
    expectClose(values[1]!, Math.sqrt(5), 1e-15);
    expectClose(Math.abs(rightVectors[0]![0]!), Math.SQRT1_2, 1e-15);
    expectClose(rightVectors[0]![0]! * rightVectors[1]![0]!, 0.5, 1e-15);
    expectClose(rightVectors[0]![1]! * rightVectors[1]![1]!, -0.5, 1e-15);
  });

  it("sees an exact dependency in a tall matrix, and its null vector", () => {
    // Columns 1, t, 2 + 3t over 6 rows: rank 2, null vector ∝ (2, 3, −1).
    const rows = 6;
    const matrix = new Float64Array(rows * 3);
    for (let i = 0; i < rows; i++) matrix.set([1, i, 2 + 3 * i], i * 3);
    const { values, rightVectors } = singularValues(matrix, rows, 3);
    expect(values[2]! / values[0]!).toBeLessThan(1e-15);
    const nullVector = rightVectors.map((row) => row[2]!);
    const scale = nullVector[2]! / -1;
    expectClose(nullVector[0]! / scale, 2, 1e-12);
    expectClose(nullVector[1]! / scale, 3, 1e-12);
  });

  it("refuses a wide matrix", () => {
    expect(() => singularValues(new Float64Array(6), 2, 3)).toThrow(/at least as many rows as columns/);
  });
});
