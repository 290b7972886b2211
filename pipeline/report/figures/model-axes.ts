/**
 * The axes of a fitted model's figures, from the data: m up to a quarter past the largest m
 * measured or fitted, V up to a tenth past the largest V, on a grid of about 60 V steps —
 * so a 32-writer, 65 GB cluster gets figures that reach m = 40 and V = 72 GB, and Azur's
 * campaign keeps its m ≤ 30, V ≤ 6 GB picture. Never an Azur constant.
 */
import type { BandwidthModel } from "../../fit/model";
import type { Observations } from "../../ingest/observations";

export interface ModelAxes {
  mMax: number;
  vMaxGb: number;
  vStepGb: number;
}

/** 1, 2 or 5 times a power of ten, at least `x`: steps and bounds people read at a glance. */
export function niceCeil(x: number): number {
  if (!(x > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(x));
  for (const factor of [1, 2, 2.5, 5, 10]) if (factor * power >= x * (1 - 1e-12)) return factor * power;
  return 10 * power;
}

export function modelAxes(model: BandwidthModel, observations?: Observations): ModelAxes {
  let mMax = model.domain.mMax;
  let vMaxGb = model.domain.vGbMax;
  for (const run of observations?.runs ?? []) {
    if (run.m > mMax) mMax = run.m;
    if (run.vGb > vMaxGb) vMaxGb = run.vGb;
  }
  const vStepGb = niceCeil((1.1 * vMaxGb) / 60);
  return {
    mMax: Math.max(2, Math.ceil(1.25 * mMax)),
    vMaxGb: Math.ceil((1.1 * vMaxGb) / vStepGb) * vStepGb,
    vStepGb,
  };
}
