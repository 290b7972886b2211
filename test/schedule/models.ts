/** Bandwidth models for the schedule tests. */
import { PAPER_MODEL, type BandwidthModel } from "../../pipeline/fit/model";

/** bw(m, V) = `bandwidthMbPerS` everywhere (full form, only a00), with an unbounded domain. */
export function constantModel(bandwidthMbPerS: number, name = "constant"): BandwidthModel {
  const coefficients: Record<string, number> = {};
  for (let i = 0; i <= 2; i++) for (let j = 0; j <= 2; j++) coefficients[`a${i}${j}`] = 0;
  coefficients.a00 = bandwidthMbPerS;
  return { ...PAPER_MODEL, name, form: "full", coefficients, domain: { mMin: 0, mMax: 1e9, vGbMin: 0, vGbMax: 1e9 } };
}

/** The paper model with every coefficient scaled: a device `factor` times as fast. */
export function scaledPaperModel(factor: number, name = `paper×${factor}`): BandwidthModel {
  const coefficients = Object.fromEntries(Object.entries(PAPER_MODEL.coefficients).map(([k, v]) => [k, v * factor]));
  return { ...PAPER_MODEL, name, coefficients };
}

/**
 * A device that gets faster per process as more checkpoint together (bw = 3 + 2m + m²
 * − 0.05V² MB/s, so bw/m = 3/m + 2 + m − …): static feasibility is not monotone and the
 * exact solver must not cut infeasible sets.
 */
export function superlinearModel(): BandwidthModel {
  const model = constantModel(3, "superlinear");
  return { ...model, coefficients: { ...model.coefficients, a10: 2, a20: 1, a02: -0.05 } };
}
