/** Float comparison with an explicit relative tolerance (and an absolute floor near zero). */
import { expect } from "vitest";

export function expectClose(actual: number, expected: number, relative = 1e-9, absolute = 1e-12): void {
  const tolerance = Math.max(absolute, relative * Math.abs(expected));
  if (!(Math.abs(actual - expected) <= tolerance)) {
    expect.fail(`expected ${actual} to be within ${tolerance} of ${expected} (relative ${relative})`);
  }
}
