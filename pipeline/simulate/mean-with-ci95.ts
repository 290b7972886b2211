/**
 * A mean over runs as the simulators report it: the sample's mean with its 95 % Student-t
 * interval (schedule/mean-confidence-interval.ts), plus the interval as one field, `ci95`
 * = [low, high] (null below two runs), as the fit reports its coefficients' intervals.
 */
import type { MeanWithCi } from "../schedule/mean-confidence-interval";

export interface MeanWithCi95 extends MeanWithCi {
  ci95: [number, number] | null;
}

export function withCi95(m: MeanWithCi): MeanWithCi95 {
  return { ...m, ci95: m.low === null || m.high === null ? null : [m.low, m.high] };
}
