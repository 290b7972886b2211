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
 * The schedule commands' older words `strict` and `warn` predate this vocabulary and keep
 * working as aliases: `strict` is `refuse`, `warn` is `extrapolate`. They are read as this
 * module's words where they come in (a command line, a notebook's settings, an artifact an
 * older version recorded), so that nothing past that point speaks the older vocabulary.
 */
import type { ModelDomain } from "../fit/model";
import { InputError } from "../shared/errors";
import { wordsWithAliases } from "../shared/word-aliases";

export const OUTSIDE_DOMAIN = ["clamp", "extrapolate", "refuse"] as const;
export type OutsideDomain = (typeof OUTSIDE_DOMAIN)[number];

/**
 * The policies of a consumer that answers a load or refuses it, never prices it at another
 * one: ScheduleCkpt (a plan priced at the box's edge would be a plan for another load) and
 * `ckpt predict` (a band at the edge is not the band there). No clamp.
 */
export type ScheduleDomainPolicy = Extract<OutsideDomain, "refuse" | "extrapolate">;

/** ScheduleCkpt's policies, the default first. */
export const SCHEDULE_DOMAIN_POLICIES: readonly ScheduleDomainPolicy[] = ["refuse", "extrapolate"];

/** The older words the schedule commands accept, and what each means. */
export const DOMAIN_POLICY_ALIASES: Readonly<Record<string, ScheduleDomainPolicy>> = { strict: "refuse", warn: "extrapolate" };

/** A policy ScheduleCkpt knows, in either vocabulary, as this module's words ("strict" → "refuse", "warn" → "extrapolate"); clamp and unknown words refused, listing both vocabularies. */
export function scheduleDomainPolicy(word: unknown, where = "the domain policy"): ScheduleDomainPolicy {
  const policy = typeof word === "string" && Object.hasOwn(DOMAIN_POLICY_ALIASES, word) ? DOMAIN_POLICY_ALIASES[word]! : word;
  if (!(SCHEDULE_DOMAIN_POLICIES as readonly unknown[]).includes(policy)) {
    throw new InputError(`${where} must be one of ${wordsWithAliases(SCHEDULE_DOMAIN_POLICIES, DOMAIN_POLICY_ALIASES)}; found ${JSON.stringify(word)}`);
  }
  return policy as ScheduleDomainPolicy;
}

/** `m` clamped to the domain's [mMin, mMax]. */
export function clampCount(domain: ModelDomain, m: number): number {
  return Math.min(domain.mMax, Math.max(domain.mMin, m));
}

/** `vGb` clamped to the domain's [vGbMin, vGbMax]. */
export function clampVolumeGb(domain: ModelDomain, vGb: number): number {
  return Math.min(domain.vGbMax, Math.max(domain.vGbMin, vGb));
}
