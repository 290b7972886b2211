/**
 * What a checkpoint policy of the [BKT] simulator is (docs/science.md §6.7): a name and a plan
 * — plain functions over plain data, as Rollup and Vite plugins are — that both the built-in
 * policies and users' modules implement, so that the simulator calls every policy the same way
 * and a module equal to a built-in gives the built-in's results bit for bit.
 *
 * `plan` is called once for each copy of a job a client starts, with the copy's remaining
 * slices on that client and returns the 1-based indices of those slices after which to
 * checkpoint; the last slice is always saved (its upload is the result). examples/policies/
 * shows two modules and documents the interface for users.
 */
import type { FailureLaw } from "../../place/laws/failure-law";
import { InputError } from "../../shared/errors";
import type { BktPlanner } from "./bkt-policies";
import type { BktPolicy } from "./bkt-scenario";

/** The availability law the policies plan with (docs/science.md §6.1.4), times in seconds. */
export interface PolicyLaw {
  /** Mean time to failure (the law's mean), s. */
  mean: number;
  /** P(T ≤ t). */
  cdf(t: number): number;
  /** P(T > t), accurate in its own tail. */
  survival(t: number): number;
  /** One line naming the law, e.g. "Weibull(shape 0.431, scale 6055 s)". */
  description: string;
}

export interface CheckpointPolicyInput {
  /** The copy's remaining slices on this client, in order: compute seconds of each. */
  sliceSeconds: number[];
  /** The cost of a checkpoint after each of them (image / the client's link + latency), s. */
  checkpointSeconds: number[];
  /** A restart download the copy makes before its first slice (0 when it starts from scratch), s. */
  downloadSeconds: number;
  law: PolicyLaw;
}

export interface CheckpointPolicy {
  name: string;
  /** 1-based indices into `input.sliceSeconds` of the slices after which to checkpoint. */
  plan(input: CheckpointPolicyInput): number[];
}

/** The FailureLaw behind each PolicyLaw, for the built-in policies, which plan with it directly. */
const failureLaws = new WeakMap<PolicyLaw, FailureLaw>();

/** A FailureLaw as policies see it. */
export function policyLaw(law: FailureLaw): PolicyLaw {
  const seen: PolicyLaw = { mean: law.meanSeconds, cdf: (t) => law.cdf(t), survival: (t) => law.survival(t), description: law.description };
  failureLaws.set(seen, law);
  return seen;
}

/** A built-in policy through the interface: the planner's flags as indices. */
export function builtInPolicy(name: BktPolicy, planner: BktPlanner): CheckpointPolicy {
  return {
    name,
    plan(input) {
      // The slice durations identify what the DP sees (its cache key); the costs and download are added by the planner.
      const flags = planner.plan(name, {
        key: input.sliceSeconds.join(","),
        slicesSeconds: Float64Array.from(input.sliceSeconds),
        costsSeconds: Float64Array.from(input.checkpointSeconds),
        downloadSeconds: input.downloadSeconds,
        // The copy's own law (failureLawForPolicy); the run's law is the planner's and may be cached.
        law: failureLaws.get(input.law),
      });
      const indices: number[] = [];
      for (let i = 0; i < flags.length; i++) if (flags[i] === 1) indices.push(i + 1);
      return indices;
    },
  };
}

/**
 * A plan as checkpoint flags over the copy's `slices` (the last always set), or an InputError
 * naming the policy (`who`), the copy (`copy`) and what it returned.
 */
export function planFlags(plan: unknown, slices: number, who: string, copy: () => string): Uint8Array {
  const flags = new Uint8Array(slices);
  const wrong = (why: string): never => {
    throw new InputError(`${who} returned ${describeValue(plan)} for ${copy()} (${slices} slice${slices === 1 ? "" : "s"}): ${why}`);
  };
  if (!Array.isArray(plan)) wrong("plan(input) must return an array of slice indices (number[]), synchronously");
  for (const index of plan as unknown[]) {
    if (typeof index !== "number" || !Number.isInteger(index)) wrong(`${describeValue(index)} is not an integer index`);
    if ((index as number) < 1 || (index as number) > slices) wrong(`${index as number} is not a slice: indices are 1-based, in 1..${slices}`);
    flags[(index as number) - 1] = 1;
  }
  flags[slices - 1] = 1;
  return flags;
}

/** A value as a message shows it: JSON where it has one, else its kind; at most 200 characters. */
export function describeValue(value: unknown): string {
  let text: string;
  if (value === undefined) text = "undefined";
  else if (typeof value === "function") text = "a function";
  else if (typeof value === "bigint") text = `${value}n`;
  else if (typeof value === "number" && !Number.isFinite(value)) text = String(value);
  else if (value instanceof Promise || (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function")) text = "a Promise";
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}
