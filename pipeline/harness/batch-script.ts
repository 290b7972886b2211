/**
 * Batch scripts for a cluster's scheduler, generated for the user: an OAR script (Grid5000,
 * submit with `oarsub -S ./job.oar.sh`) or a Slurm one (`sbatch job.slurm.sh`). Inside the
 * reservation the script writes the job's node list to `<out>/nodes.txt` and runs
 * `ckpt harness run <sweep> --out <out> --resume --nodes-file <out>/nodes.txt` with the
 * scheduler's way of reaching the nodes (`srun` steps for Slurm; for OAR `oarsh`, or `ssh`
 * where oarsh cannot be used because OAR's cpuset job manager is off). Because it always
 * resumes, resubmitting the same script after a walltime kill continues the sweep.
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
function checkValues(input: Pick<BatchScriptInput, "outDir" | "queue" | "jobName" | "sweepPath" | "ckpt">): void {
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
      "# oarsh reaches the job's nodes only where OAR's cpuset job manager is on (Grid5000);",
      "# elsewhere it fails (\"Cannot retrieve the job cpuset name\") and the nodes are reached with",
      "# ssh, which needs the user's key on them. CKPT_REMOTE_SHELL chooses (\"ssh -p 2222 {node}\").",
      'remote_shell="oarsh {node}"',
      `first_node=$(head -n 1 ${shellQuote(nodesFile)})`,
      'if ! oarsh "$first_node" true </dev/null >/dev/null 2>&1; then',
      '  remote_shell="ssh -o BatchMode=yes {node}"',
      '  echo "oarsh cannot reach $first_node (is the cpuset job manager off?): reaching the nodes with ssh" >&2',
      "fi",
      'remote_shell=${CKPT_REMOTE_SHELL:-$remote_shell}',
      `exec ${run(["--launcher", "ssh"])} --remote-shell "$remote_shell"`,
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

export interface ArrayScriptInput {
  scheduler: Scheduler;
  jobName: string;
  /** Absolute path of the simulation sweep spec, as the nodes see it. */
  sweepPath: string;
  outDir: string;
  /** N: array tasks, one shard i/N each. */
  tasks: number;
  walltime: string;
  queue: string | null;
  ckpt: string[];
}

/** The OAR array's parameter file, next to the script: one line `i/N` per array task. */
export const OAR_SHARDS_FILE = "shards.txt";

/**
 * A job array running a simulation sweep in N shards (`ckpt simulate sweep … --shard i/N`,
 * docs/science.md §6.5): Slurm's `--array=0-(N-1)`, or OAR's `--array-param-file` whose
 * lines (`paramFile`, to write as <out>/shards.txt) are the shards themselves, so the script
 * does not depend on where OAR starts its array index (1 on OAR 2.5, 0 in some manuals).
 * A requeued or resubmitted task redoes only its missing cells. Merge afterwards with
 * `ckpt simulate merge`.
 */
export function arrayScript(input: ArrayScriptInput): { script: string; paramFile: string | null } {
  checkValues(input);
  if (!(Number.isInteger(input.tasks) && input.tasks >= 1 && input.tasks <= 100_000)) throw new InputError(`the number of array tasks must be an integer from 1 to 100000, got ${input.tasks}`);
  const sweep = (shard: string) => `${shellJoin([...input.ckpt, "simulate", "sweep", input.sweepPath, "--out", input.outDir, "--quiet"])} --shard "${shard}"`;
  const merge = shellJoin([...input.ckpt, "simulate", "merge", input.sweepPath, "--out", input.outDir]);
  if (input.scheduler === "oar") {
    const script = [
      "#!/bin/bash",
      `# ckpt-lab simulation sweep "${input.jobName}" as an OAR array of ${input.tasks} tasks, one per line of ${OAR_SHARDS_FILE}. Submit with:  oarsub -S ./$(basename "$0")`,
      `# When every task has ended:  ${merge}`,
      `#OAR -n ${input.jobName}`,
      `#OAR --array-param-file ${input.outDir}/${OAR_SHARDS_FILE}`,
      `#OAR -l /resource_id=1,walltime=${input.walltime}`,
      ...(input.queue ? [`#OAR -q ${input.queue}`] : []),
      `#OAR -O ${input.outDir}/oar-%jobid%.stdout`,
      `#OAR -E ${input.outDir}/oar-%jobid%.stderr`,
      "set -euo pipefail",
      `exec ${sweep("$1")}`,
      "",
    ].join("\n");
    const paramFile = Array.from({ length: input.tasks }, (_, i) => `${i}/${input.tasks}\n`).join("");
    return { script, paramFile };
  }
  const script = [
    "#!/bin/bash",
    `# ckpt-lab simulation sweep "${input.jobName}" as a Slurm array of ${input.tasks} tasks. Submit with:  sbatch ./$(basename "$0")`,
    `# When every task has ended:  ${merge}`,
    `#SBATCH --job-name=${input.jobName}`,
    `#SBATCH --array=0-${input.tasks - 1}`,
    "#SBATCH --ntasks=1",
    `#SBATCH --time=${input.walltime}`,
    ...(input.queue ? [`#SBATCH --partition=${input.queue}`] : []),
    `#SBATCH --output=${input.outDir}/slurm-%A_%a.out`,
    "set -euo pipefail",
    `exec ${sweep(`$SLURM_ARRAY_TASK_ID/${input.tasks}`)}`,
    "",
  ].join("\n");
  return { script, paramFile: null };
}
