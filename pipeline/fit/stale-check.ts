/**
 * Is a model stale? `ckpt fit --check model.json new-trace`: each run of the new trace is one
 * burst at (m, V); inside the model's fitted domain, count the bursts whose aggregated
 * bandwidth falls outside the model's `level` prediction interval for one new burst
 * (predictive-bandwidth.ts). While the model holds, each burst is outside with probability
 * 1 − level, so the count outside of n is Binomial(n, 1 − level); the model is called stale
 * when the count is improbably high: the one-sided p-value
 *
 *     P(X ≥ k | n, p = 1 − level) = I_p(k, n − k + 1)     (k ≥ 1; 1 when k = 0)
 *
 * (the regularised incomplete beta, incomplete-beta.ts) is below `significance`. One-sided
 * because too few bursts outside is no sign of a changed cluster (the interval may be
 * cautious), too many is. The test takes the bursts as independent; bursts of one release
 * share its server's state (one factor per release, schedule/confident-plan.ts), so runs of
 * one release count as several where they are partly one: a cluster that changed shows
 * in every release, one bad release can make the model look stale — the counts below and
 * above say which way the bursts went.
 */
import type { RunObservation } from "../ingest/observations";
import { InputError } from "../shared/errors";
import { domainDistance } from "./domain-distance";
import { regularizedIncompleteBeta } from "../stats/incomplete-beta";
import { inModelDomain, type BandwidthModel } from "./model";
import { hasPredictive, predictionInterval } from "./predictive-bandwidth";
import { noPredictiveError } from "./predictive-distribution";

export interface StaleCheckOptions {
  /** Of the prediction intervals, in (0, 1). */
  level: number;
  /** Of the binomial test, in (0, 1): stale when its p-value is below. */
  significance: number;
}

export interface StaleCheck {
  model: string;
  level: number;
  significance: number;
  /** Runs of the check trace, and those inside the fitted domain (the ones checked). */
  runs: number;
  checked: number;
  outsideDomain: number;
  /** Checked bursts outside the interval, below its lower bound and above its upper. */
  outside: number;
  below: number;
  above: number;
  /** (1 − level) · checked: the count outside expected while the model holds. */
  expectedOutside: number;
  /** P(X ≥ outside | checked, 1 − level). */
  pValue: number;
  stale: boolean;
}

function requireProbability(flag: string, value: number): void {
  if (!(value > 0 && value < 1)) throw new InputError(`${flag} must be a number strictly between 0 and 1 (e.g. ${flag === "--level" ? "0.95" : "0.05"}), got ${value}`);
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  return regularizedIncompleteBeta(p, k, n - k + 1);
}

/**
 * Check `runs` against `model`'s prediction intervals. Throws an InputError for a level or
 * significance outside (0, 1), a model without the replicate variance an interval needs, and
 * runs of which none lies inside the model's fitted domain.
 */
export function checkStaleness(model: BandwidthModel, runs: readonly RunObservation[], { level, significance }: StaleCheckOptions): StaleCheck {
  requireProbability("--level", level);
  requireProbability("--significance", significance);
  if (!hasPredictive(model)) throw noPredictiveError(model.name);
  const inside = runs.filter((run) => inModelDomain(model, run.m, run.vGb));
  if (inside.length === 0) {
    const example = runs[0] === undefined ? "" : ` — the first, run ${JSON.stringify(runs[0].runId)}: ${domainDistance(model.domain, runs[0].m, runs[0].vGb) ?? "outside the sizes per writer the model was fitted on"}`;
    throw new InputError(
      `none of the ${runs.length} run(s) of the check trace lies inside the model's fitted domain${example}; ` +
        `the model says nothing of bursts it was not fitted on: check it with a trace of the same (m, V) range, or refit on the new trace (\`ckpt fit <new trace> --out model.json\`)`,
    );
  }
  let below = 0;
  let above = 0;
  for (const run of inside) {
    const interval = predictionInterval(model, run.m, run.vGb, level);
    if (run.aggregatedBwMbPerS < interval.lower) below++;
    else if (run.aggregatedBwMbPerS > interval.upper) above++;
  }
  const outside = below + above;
  const pValue = binomialUpperTail(outside, inside.length, 1 - level);
  return {
    model: model.name,
    level,
    significance,
    runs: runs.length,
    checked: inside.length,
    outsideDomain: runs.length - inside.length,
    outside,
    below,
    above,
    expectedOutside: (1 - level) * inside.length,
    pValue,
    stale: pValue < significance,
  };
}

const percent = (x: number) => `${Number((x * 100).toPrecision(4))} %`;

/** The check in words, ending with what to do. */
export function formatStaleCheck(check: StaleCheck, refit: string): string {
  const lines = [
    `check of model "${check.model}": ${check.checked} of ${check.runs} burst(s) inside its fitted domain${check.outsideDomain > 0 ? ` (${check.outsideDomain} outside it, not checked)` : ""}`,
    `outside the ${percent(check.level)} prediction interval: ${check.outside} (${check.below} below, ${check.above} above); expected while the model holds: ${check.expectedOutside.toFixed(2)} (${percent(1 - check.level)})`,
    `binomial test: P(≥ ${check.outside} outside of ${check.checked} | the model holds) = ${check.pValue.toPrecision(3)}; at significance ${check.significance}: ${check.stale ? "STALE" : "not stale"}`,
  ];
  if (check.stale) {
    const way = check.below > check.above ? "slower than the model says" : check.above > check.below ? "faster than the model says" : "more spread than the model says";
    lines.push(`the cluster's bursts are ${way}: refit the model on the new measurements, e.g. ${refit}`);
  } else {
    lines.push("the new bursts are within what the model predicts: no refit needed");
  }
  return lines.join("\n");
}
