/**
 * What a consumer of a bandwidth model does with a load outside the model's fitted domain
 * (docs/science.md §3.2: the fitted box of (m, V), and for a one-size or empirical model
 * the sizes per writer): one vocabulary for every consumer.
 *
 * - `refuse`: the load has no bandwidth. ScheduleCkpt treats a set above the box as
 *   infeasible (never started; a running set that reaches it stalls) and still uses a point
 *   below it (the fluid progression's remaining sizes shrink to 0 below the smallest measured
 *   V: schedule/bandwidth-oracle.ts says why); a simulated server stops the run, naming the
 *   load.
 * - `extrapolate`: the form's value there is used, and the points are counted so that an
 *   output can say how much of a result rests on extrapolation.
 * - `clamp`: the bandwidth at the box's nearest point (the simulated servers' default).
 *
 * In every mode a value ≤ 0 is no bandwidth (never divided by).
 *
 * The schedule commands' `--domain strict|warn` predates this vocabulary and keeps working:
 * `strict` is `refuse`, `warn` is `extrapolate` (with the counts printed as a warning).
 */
import type { ModelDomain } from "../fit/model";

export const OUTSIDE_DOMAIN = ["clamp", "extrapolate", "refuse"] as const;
export type OutsideDomain = (typeof OUTSIDE_DOMAIN)[number];

/** The policies ScheduleCkpt knows (it has no clamp: a plan priced at the box's edge would be a plan for another load). */
export type ScheduleDomainPolicy = Extract<OutsideDomain, "refuse" | "extrapolate">;

/** The older words the schedule commands accept, and what each means. */
export const DOMAIN_POLICY_ALIASES: Readonly<Record<string, ScheduleDomainPolicy>> = { strict: "refuse", warn: "extrapolate" };

/** A policy in either vocabulary, as this module's words ("strict" → "refuse", "warn" → "extrapolate"). */
export function outsideDomainPolicy(word: string): OutsideDomain {
  const policy = DOMAIN_POLICY_ALIASES[word] ?? word;
  if (!(OUTSIDE_DOMAIN as readonly string[]).includes(policy)) throw new Error(`unknown domain policy ${JSON.stringify(word)}: one of ${[...OUTSIDE_DOMAIN, ...Object.keys(DOMAIN_POLICY_ALIASES)].join(", ")}`);
  return policy as OutsideDomain;
}

/** `m` clamped to the domain's [mMin, mMax]. */
export function clampCount(domain: ModelDomain, m: number): number {
  return Math.min(domain.mMax, Math.max(domain.mMin, m));
}

/** `vGb` clamped to the domain's [vGbMin, vGbMax]. */
export function clampVolumeGb(domain: ModelDomain, vGb: number): number {
  return Math.min(domain.vGbMax, Math.max(domain.vGbMin, vGb));
}
