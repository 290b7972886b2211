/**
 * One new checkpoint burst of m writers, each writing `sizeMb`, under a fitted model: its
 * mean bandwidth, its prediction interval, and the quantiles of its duration (what
 * `ckpt predict` prints; docs/science.md §3.6).
 *
 * Duration = total MB / bandwidth, so its q-quantile is the total over the bandwidth's
 * (1 − q)-quantile. A point outside the fitted domain is refused, saying how far, unless
 * the caller accepts extrapolation (`domain: "extrapolate"`; `warn`, its older alias, is read
 * as it): the band is not known there.
 */
import { scheduleDomainPolicy, type ScheduleDomainPolicy } from "../bandwidth/outside-domain";
import { InputError } from "../shared/errors";
import { domainDistance } from "./domain-distance";
import type { BandwidthModel } from "./model";
import { bandwidthQuantile, predictionInterval } from "./predictive-bandwidth";

export interface BurstPrediction {
  m: number;
  sizeMb: number;
  vGb: number;
  level: number;
  /** MB/s. */
  mean: number;
  lower: number;
  upper: number;
  /** Seconds for the burst's total m·sizeMb: at the interval's bounds, the median, and the `level` one-sided bound. */
  durationS: { lower: number; median: number; upper: number; atLevel: number; atMean: number };
  inDomain: boolean;
  /** How far outside the domain, when it is (only with `domain: "extrapolate"`). */
  warning?: string;
}

/**
 * @example predictBurst(model, 8, 512, 0.95).upper // MB/s that 2.5 % of bursts exceed
 */
export function predictBurst(model: BandwidthModel, m: number, sizeMb: number, level: number, domain: ScheduleDomainPolicy = "refuse"): BurstPrediction {
  if (!Number.isInteger(m) || m < 1) throw new InputError(`m must be an integer number of writers ≥ 1, got ${m}`);
  if (!(Number.isFinite(sizeMb) && sizeMb > 0)) throw new InputError(`the size per writer must be a finite number of MB > 0, got ${sizeMb}`);
  if (!(level > 0 && level < 1)) throw new InputError(`the level must be a number strictly between 0 and 1 (e.g. 0.95), got ${level}`);
  const vGb = (m * sizeMb) / 1000;
  const outside = domainDistance(model.domain, m, vGb);
  if (outside !== null && scheduleDomainPolicy(domain) === "refuse") {
    throw new InputError(`${outside}. The model's band is not known there: measure that point and refit, or accept an extrapolation with --domain extrapolate`);
  }
  const interval = predictionInterval(model, m, vGb, level);
  const totalMb = m * sizeMb;
  return {
    m,
    sizeMb,
    vGb,
    level,
    mean: interval.mean,
    lower: interval.lower,
    upper: interval.upper,
    durationS: {
      lower: totalMb / interval.upper,
      median: totalMb / bandwidthQuantile(model, m, vGb, 0.5),
      upper: totalMb / interval.lower,
      atLevel: totalMb / bandwidthQuantile(model, m, vGb, 1 - level),
      atMean: totalMb / interval.mean,
    },
    inDomain: outside === null,
    ...(outside !== null ? { warning: `${outside}: an extrapolation, its band is not known` } : {}),
  };
}
