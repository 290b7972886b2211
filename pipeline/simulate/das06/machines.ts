/**
 * [DAS06]'s machines and the ideal execution time of a bag of tasks on them
 * (docs/science.md §6.2.4, §6.2.6).
 *
 * Machine types ([DAS06] Table 1): performance index (mean of Bytemark INT and FP) and its
 * ratio to the reference machine (a P4 1.6 GHz, index 25.008); a task of R seconds of
 * reference CPU takes R / ratio seconds on a machine. Sets (§3.2): M01 = 32 machines of type
 * D; M04 = 8 of each type, trace machine i being of type "ABCD"[i mod 4] (a project choice).
 *
 * IET (§4.2): the makespan of N identical indivisible tasks of R reference seconds on the
 * set, all machines dedicated and available at 0 — the smallest C among {m·R/r_k} such that
 * Σ_k floor(C·r_k/R) ≥ N (a 1e-9 relative tolerance in the floor). O(N·K) candidates.
 */
import { InputError } from "../../shared/errors";

export type MachineType = "A" | "B" | "C" | "D";

export const MACHINE_TYPES: Record<MachineType, { cpu: string; index: number; ratio: number }> = {
  A: { cpu: "PIII 650 MHz", index: 12.952, ratio: 0.518 },
  B: { cpu: "PIII 1.1 GHz", index: 21.533, ratio: 0.861 },
  C: { cpu: "P4 2.4 GHz", index: 37.791, ratio: 1.511 },
  D: { cpu: "P4 3.0 GHz", index: 42.32, ratio: 1.692 },
};

/** The reference machine's performance index (Table 1). */
export const REFERENCE_INDEX = 25.008;

export type MachineSetName = "M01" | "M04";
export const MACHINE_SETS: readonly MachineSetName[] = ["M01", "M04"];

/** The types of a set's machines, in trace-machine order. */
export function machineTypes(set: MachineSetName, machines = 32): MachineType[] {
  if (set === "M01") return new Array<MachineType>(machines).fill("D");
  if (set === "M04") return Array.from({ length: machines }, (_, i) => (["A", "B", "C", "D"] as const)[i % 4]!);
  throw new InputError(`unknown machine set "${String(set)}"; [DAS06] has M01 (32 × D) and M04 (8 of each type)`);
}

/** Speed ratios of a set's machines: Table 1's printed ratios, or index / 25.008 ("index"). */
export function machineRatios(set: MachineSetName, machines = 32, from: "ratio" | "index" = "ratio"): Float64Array {
  return Float64Array.from(machineTypes(set, machines), (t) => (from === "ratio" ? MACHINE_TYPES[t].ratio : MACHINE_TYPES[t].index / REFERENCE_INDEX));
}

/** The ideal execution time, seconds, of `tasks` tasks of `taskCpuS` reference seconds on machines of these ratios. */
export function idealExecutionTime(ratios: ArrayLike<number>, tasks: number, taskCpuS: number): number {
  if (!Number.isInteger(tasks) || tasks < 1) throw new InputError(`tasks must be an integer ≥ 1, got ${tasks}`);
  if (!(taskCpuS > 0 && Number.isFinite(taskCpuS))) throw new InputError(`the task length must be a finite number of seconds > 0, got ${taskCpuS}`);
  if (ratios.length === 0) throw new InputError("no machines");
  let best = Infinity;
  for (let k = 0; k < ratios.length; k++) {
    for (let m = 1; m <= tasks; m++) {
      const c = (m * taskCpuS) / ratios[k]!;
      if (c >= best) break;
      let done = 0;
      for (let i = 0; i < ratios.length; i++) done += Math.floor((c * ratios[i]!) / taskCpuS + 1e-9);
      if (done >= tasks) best = c;
    }
  }
  return best;
}

/** [DAS06] Table 2: the published IET, minutes, of each (machine set, tasks, task length in s). */
export const TABLE_2_IET_MIN: readonly (readonly [MachineSetName, number, number, number])[] = [
  ["M01", 25, 1800, 17.73],
  ["M01", 25, 7200, 70.91],
  ["M01", 75, 1800, 53.19],
  ["M01", 75, 7200, 212.74],
  ["M04", 25, 1800, 35.46],
  ["M04", 25, 7200, 141.83],
  ["M04", 75, 1800, 70.91],
  ["M04", 75, 7200, 283.66],
];

/** The IET [DAS06] Table 2 prints for this bag on this set, minutes, or null when the table has no such cell. */
export function publishedIetMin(set: MachineSetName, tasks: number, taskCpuS: number): number | null {
  return TABLE_2_IET_MIN.find(([s, n, r]) => s === set && n === tasks && r === taskCpuS)?.[3] ?? null;
}
