/** fast-check generators shared by the place tests: laws, jobs, weights. */
import fc from "fast-check";
import type { LawSpec } from "../../pipeline/place/laws";

export const QUANTUM_SECONDS = 60;

/** Laws whose means are of the order of the jobs' lengths, so failures matter. */
export const lawSpecArbitrary: fc.Arbitrary<LawSpec> = fc.oneof(
  fc.double({ min: 2e3, max: 2e5, noNaN: true }).map((mean): LawSpec => ({ kind: "exponential", ratePerSecond: 1 / mean })),
  fc
    .record({ shape: fc.double({ min: 0.3, max: 3, noNaN: true }), scale: fc.double({ min: 2e3, max: 2e5, noNaN: true }) })
    .map(({ shape, scale }): LawSpec => ({ kind: "weibull", shape, scaleSeconds: scale })),
  fc
    .record({ p: fc.double({ min: 0.05, max: 0.95, noNaN: true }), a: fc.double({ min: 1e3, max: 1e5, noNaN: true }), b: fc.double({ min: 1e4, max: 1e6, noNaN: true }) })
    .map(({ p, a, b }): LawSpec => ({ kind: "hyperexponential", probabilities: [p, 1 - p], ratesPerSecond: [1 / a, 1 / b], reading: "rate" })),
  fc
    .record({ mu: fc.double({ min: 7, max: 11, noNaN: true }), sigma: fc.double({ min: 0.3, max: 2, noNaN: true }) })
    .map(({ mu, sigma }): LawSpec => ({ kind: "lognormal", mu, sigma })),
  fc
    .array(fc.double({ min: 100, max: 1e5, noNaN: true }), { minLength: 1, maxLength: 30 })
    .map((durationsSeconds): LawSpec => ({ kind: "empirical", durationsSeconds })),
);

/** A job of n slices with costs in whole quanta (0..maxQuanta). */
export function quantizedJobArbitrary(minSlices: number, maxSlices: number, maxQuanta = 10) {
  return fc.integer({ min: minSlices, max: maxSlices }).chain((n) =>
    fc.record({
      slicesSeconds: fc.array(fc.double({ min: 60, max: 20_000, noNaN: true }), { minLength: n, maxLength: n }),
      costsQuanta: fc.array(fc.integer({ min: 0, max: maxQuanta }), { minLength: n, maxLength: n }),
    }),
  );
}

export const weightsArbitrary = fc.record({
  alpha: fc.oneof(fc.constant(1), fc.double({ min: 0.05, max: 1, noNaN: true })),
  beta: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
});

export const objectiveArbitrary = fc.constantFrom("paper" as const, "complete" as const, "bkt" as const);
