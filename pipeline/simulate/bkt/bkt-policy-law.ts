/**
 * The failure law a copy's policy plans with (docs/science.md §6.1.4, B10; scenario field
 * `failureLawForPolicy`), from the host's state when the copy starts on it:
 *
 * - `availability` ([BKT] §IV-A-2's "client's failure density", the default): the availability
 *   law from the copy's start, whatever the age of the host's current availability interval —
 *   the same law for every copy;
 * - `availability-aged`: the residual availability law at that age (a host up for 10 h is less
 *   likely to leave in the next hour than one just up, under a Weibull of shape < 1);
 * - `lifetime`: the residual lifetime law at the host's age in the grid — the only loss event
 *   under `transient = "suspend"`;
 * - `competing`: both, whichever ends first — the loss events under `transient = "abort"`.
 *
 * Periodic takes its MTTF from this law's mean and the DP its density, so the two policies
 * always plan with the same law.
 */
import { competingLaw } from "../../place/laws/competing";
import type { FailureLaw } from "../../place/laws/failure-law";
import { residualLaw } from "../../place/laws/residual";
import type { FailureLawForPolicy } from "./bkt-scenario";

export interface PolicyLawInputs {
  /** The availability law (or a trace's available intervals as an empirical law). */
  availability: FailureLaw;
  /** The lifetime law; null for clients that never leave. */
  lifetime: FailureLaw | null;
  /** Age of the host's current availability interval, and the host's age in the grid, at the copy's start (s). */
  availabilityAgeS: number;
  lifetimeAgeS: number;
}

/** Whether the law depends on the copy (its host's ages), so that plans cannot be shared between copies. */
export function lawDependsOnCopy(kind: FailureLawForPolicy): boolean {
  return kind !== "availability";
}

export function policyLawForCopy(kind: FailureLawForPolicy, inputs: PolicyLawInputs): FailureLaw {
  if (kind === "availability") return inputs.availability;
  const availability = () => residualLaw(inputs.availability, reachableAge(inputs.availability, inputs.availabilityAgeS));
  const lifetime = () => {
    if (inputs.lifetime === null) throw new Error(`failureLawForPolicy "${kind}" needs a lifetime law (the scenario's validation refuses "none")`);
    return residualLaw(inputs.lifetime, reachableAge(inputs.lifetime, inputs.lifetimeAgeS));
  };
  if (kind === "availability-aged") return availability();
  if (kind === "lifetime") return lifetime();
  return competingLaw([availability(), lifetime()]);
}

/**
 * The age itself, unless the law gives no chance of reaching it (S = 0: only an empirical law
 * at its largest observation, or a survival that underflows): then the largest age below it
 * the law can reach, so that a run never stops on a host the law says cannot exist.
 */
function reachableAge(law: FailureLaw, ageS: number): number {
  let age = Math.max(0, ageS);
  while (age > 0 && !(law.survival(age) > 0)) age /= 2;
  return age;
}
