/**
 * Which node runs each process of a command-backend run: process i goes to node
 * i mod |nodes| (so a run of m ≤ |nodes| processes has one process per node, as in docs/science.md
 * §3.1), at most `processesPerNode` per node. Its label — the trace's `node` column — is
 * the host name, with `.p<k>` for the k-th process (k ≥ 2) of one host; `local-<i>` when
 * the processes run on this machine.
 */
import { InputError } from "../shared/errors";

export interface ProcessPlacement {
  index: number;
  host: string;
  label: string;
}

export function placeProcesses(m: number, launcher: "local" | "ssh" | "srun", nodes: readonly string[], processesPerNode: number, runId: string): ProcessPlacement[] {
  if (launcher === "local") return Array.from({ length: m }, (_, i) => ({ index: i + 1, host: "localhost", label: `local-${i + 1}` }));
  if (nodes.length === 0) {
    throw new InputError(`run ${runId}: the "${launcher}" launcher needs nodes; set "nodes" in the sweep or pass --nodes-file (one host per line)`);
  }
  if (m > nodes.length * processesPerNode) {
    throw new InputError(
      `run ${runId} has m = ${m} processes but only ${nodes.length} node(s) × ${processesPerNode} process(es) per node; add nodes, raise "processesPerNode", or lower "m"`,
    );
  }
  return Array.from({ length: m }, (_, i) => {
    const host = nodes[i % nodes.length]!;
    const k = Math.floor(i / nodes.length) + 1;
    return { index: i + 1, host, label: k === 1 ? host : `${host}.p${k}` };
  });
}
