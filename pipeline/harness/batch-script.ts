/**
 * Batch scripts for a cluster's scheduler, generated for the user: an OAR script (Grid5000,
 * submit with `oarsub -S ./job.oar.sh`) or a Slurm one (`sbatch job.slurm.sh`). Inside the
 * reservation the script writes the job's node list to `<out>/nodes.txt` and runs
 * `ckpt harness run <sweep> --out <out> --resume --nodes-file <out>/nodes.txt` with the
 * scheduler's way of reaching the nodes (`oarsh` for OAR, `srun` steps for Slurm). Because
 * it always resumes, resubmitting the same script after a walltime kill continues the sweep.
 */
import { InputError } from "../shared/errors";
import { shellJoin, shellQuote } from "./shell-quote";

export type Scheduler = "oar" | "slurm";

export interface BatchScriptInput {
  scheduler: Scheduler;
  jobName: string;
  /** Absolute path of the sweep file, as the nodes see it. */
  sweepPath: string;
  /** Absolute path of the sweep folder, as the nodes see it. */
  outDir: string;
  nodes: number;
  /** HH:MM:SS */
  walltime: string;
  /** OAR queue or Slurm partition, if any. */
  queue: string | null;
  /** The command that runs ckpt on the nodes (argv). */
  ckpt: string[];
}

/** Control characters (a newline would end a `#SBATCH` / `#OAR` line and start a command). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Values that reach the scheduler's header lines are one token there: no control
 * characters and no white space (neither scheduler quotes header values), and nothing in
 * the script may hold a control character.
 */
function checkValues(input: BatchScriptInput): void {
  const header: [string, string | null][] = [
    ["--out", input.outDir],
    ["--queue", input.queue],
    ["the job name", input.jobName],
  ];
  for (const [what, value] of header) {
    if (value !== null && /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value)) {
      throw new InputError(`${what} ${JSON.stringify(value)} goes into the scheduler's header lines, which cannot hold spaces or control characters; choose one without`);
    }
  }
  for (const [what, value] of [["the sweep path", input.sweepPath], ...input.ckpt.map((a) => ["--ckpt", a] as const)] as const) {
    if (CONTROL.test(value)) throw new InputError(`${what} ${JSON.stringify(value)} has a control character; it cannot go into a batch script`);
  }
}

export function batchScript(input: BatchScriptInput): string {
  checkValues(input);
  const out = shellQuote(input.outDir);
  const nodesFile = `${input.outDir}/nodes.txt`;
  const run = (extra: string[]) =>
    shellJoin([...input.ckpt, "harness", "run", input.sweepPath, "--out", input.outDir, "--resume", "--nodes-file", nodesFile, ...extra]);
  if (input.scheduler === "oar") {
    return [
      "#!/bin/bash",
      `# ckpt-lab harness sweep "${input.jobName}" on OAR (Grid5000). Submit with:  oarsub -S ./$(basename "$0")`,
      "# Resubmitting after a walltime kill resumes the sweep where it stopped.",
      `#OAR -n ${input.jobName}`,
      `#OAR -l /nodes=${input.nodes},walltime=${input.walltime}`,
      ...(input.queue ? [`#OAR -q ${input.queue}`] : []),
      `#OAR -O ${input.outDir}/oar-%jobid%.stdout`,
      `#OAR -E ${input.outDir}/oar-%jobid%.stderr`,
      "set -euo pipefail",
      `mkdir -p ${out}`,
      "# OAR lists a node once per core: keep each host once, in order.",
      `awk '!seen[$0]++' "\${OAR_NODE_FILE:-$OAR_NODEFILE}" > ${shellQuote(nodesFile)}`,
      `exec ${run(["--launcher", "ssh", "--remote-shell", "oarsh {node}"])}`,
      "",
    ].join("\n");
  }
  return [
    "#!/bin/bash",
    `# ckpt-lab harness sweep "${input.jobName}" on Slurm. Submit with:  sbatch ./$(basename "$0")`,
    "# Resubmitting after a time-limit kill resumes the sweep where it stopped.",
    `#SBATCH --job-name=${input.jobName}`,
    `#SBATCH --nodes=${input.nodes}`,
    "#SBATCH --ntasks-per-node=1",
    "#SBATCH --exclusive",
    "#SBATCH --mem=0",
    `#SBATCH --time=${input.walltime}`,
    ...(input.queue ? [`#SBATCH --partition=${input.queue}`] : []),
    `#SBATCH --output=${input.outDir}/slurm-%j.out`,
    "set -euo pipefail",
    `mkdir -p ${out}`,
    `scontrol show hostnames "$SLURM_JOB_NODELIST" > ${shellQuote(nodesFile)}`,
    `exec ${run(["--launcher", "srun"])}`,
    "",
  ].join("\n");
}
