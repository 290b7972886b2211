/** Where a sweep folder stands: how many runs are done, failed, in progress, to do, and why runs failed. */
import { join } from "node:path";
import { InputError } from "../shared/errors";
import { readAllStates, type CombinationState } from "./combination-state";
import { leaseIsDead, readLease, type Lease } from "./lease";
import { readStoredPlan } from "./stored-plan";

export interface SweepStatus {
  sweepName: string;
  total: number;
  counts: Record<CombinationState["status"], number>;
  /** The runner working on the folder now, if any (a live lease). */
  runner: Lease | null;
  states: CombinationState[];
}

export function sweepStatus(outDir: string, nowMs = Date.now()): SweepStatus {
  const plan = readStoredPlan(outDir);
  if (plan === null) throw new InputError(`${outDir} holds no sweep (no plan.json); give the --out folder of a \`ckpt harness run\``);
  const states = readAllStates(outDir, plan.combinations.map((c) => c.id));
  const counts = { todo: 0, running: 0, done: 0, failed: 0 };
  for (const s of states) counts[s.status] += 1;
  const lease = readLease(join(outDir, "lease.json"));
  return { sweepName: plan.sweepName, total: plan.combinations.length, counts, runner: lease !== null && !leaseIsDead(lease, nowMs) ? lease : null, states };
}
