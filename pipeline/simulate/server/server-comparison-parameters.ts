/**
 * The parameters of the servers' comparison (compare-servers.ts) and their defaults, apart
 * from the simulators so that listing the pipeline's parameters does not load them.
 */
import type { BktPolicy } from "../bkt/bkt-scenario";
import type { Das06Policy } from "../das06/das06-scenario";
import type { OutsideDomain } from "./measured-server";

export interface ServerComparisonParameters {
  /** The [BKT] grid: clients, bag sizes, replications (seeds 1..n), and the workload that makes checkpoints count. */
  bkt: {
    clients: number;
    jobs: number[];
    seeds: number;
    sliceHours: [number, number];
    checkpointMb: [number, number];
    hostMbps: [number, number];
    policies: BktPolicy[];
  };
  /** The [DAS06] grid, on the synthetic classroom trace, shared checkpoints. */
  das06: {
    machineSets: ("M01" | "M04")[];
    tasks: number;
    taskCpuS: number;
    checkpoints: 0 | 1 | 9;
    checkpointMb: number;
    windowDays: [number, number];
    policies: Das06Policy[];
  };
  outsideDomain: OutsideDomain;
}

export const DEFAULT_SERVER_COMPARISON: ServerComparisonParameters = {
  bkt: { clients: 200, jobs: [40], seeds: 3, sliceHours: [0.05, 0.25], checkpointMb: [20, 100], hostMbps: [100, 1000], policies: ["none", "periodic", "pckp"] },
  das06: { machineSets: ["M01", "M04"], tasks: 25, taskCpuS: 1800, checkpoints: 9, checkpointMb: 80, windowDays: [0, 14], policies: ["FCFS", "FCFS-AT", "FCFS-TR", "FCFS-PRDCT-DMD"] },
  outsideDomain: "clamp",
};

