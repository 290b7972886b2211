/**
 * The simple-statistics functions the fit stage uses, typed here and loaded through the
 * package's CommonJS build.
 *
 * Why not `import { gammaln } from "simple-statistics"`: simple-statistics 7.12 declares its
 * types for ES modules only (`"type": "module"`), and TypeScript before 5.8 refuses an ES
 * module import from a CommonJS file (TS1479) although Node ≥ 20.19 and the package's
 * `require` export load it fine. Loading it with `require` type-checks under every
 * TypeScript the toolchain may pick up; the signatures below are the package's own.
 */
interface SimpleStatistics {
  /** ln Γ(n) for n > 0 (Lanczos, g = 607/128, 15 terms). */
  gammaln(n: number): number;
  /** The standard normal quantile (an approximation, used only as a starting point). */
  probit(p: number): number;
  /** Fisher–Yates shuffle in place, drawing from `randomSource` ∈ [0, 1). */
  shuffleInPlace<A extends { length: number; [index: number]: unknown }>(values: A, randomSource?: () => number): A;
}

const simpleStatistics = require("simple-statistics") as SimpleStatistics;

export const { gammaln, probit, shuffleInPlace } = simpleStatistics;
