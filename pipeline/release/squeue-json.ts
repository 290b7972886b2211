/**
 * `squeue --json` as every Slurm since 21.08 prints it, read into one shape (pure). The
 * shapes, from Slurm's sources (test/release/fixtures/squeue-json/README.md lists each
 * file and line):
 *
 * - 21.08 and 22.05 (openapi plugins v0.0.37, v0.0.38; `meta.plugin.type`): numbers are
 *   plain (`null` when unset), `job_state` a string, allocated memory per node in
 *   `job_resources.allocated_nodes` — a dict keyed by node index with `memory` (21.08), a
 *   list with `nodename` and `memory_allocated` (22.05). These ignore squeue's filters:
 *   every job of the cluster is printed.
 * - 23.02 (data_parser v0.0.39; `meta.plugins.data_parser`): most numbers become
 *   `{"set", "infinite", "number"}`; `job_state` is still a string; `start_time` is plain.
 * - 23.11 (v0.0.40): `job_state` becomes a list of the base state and its flags
 *   (`["RUNNING"]`, `["COMPLETED", "REQUEUED"]`); `start_time` is `{set, infinite, number}`.
 * - 24.05 to 26.05 (v0.0.41–v0.0.45): the allocation moves to
 *   `job_resources.nodes.allocation[]` with `name` and `memory.allocated`. From 24.05.1
 *   squeue applies its filters (`--nodelist`, `--states`) to the JSON too.
 *   `--json=…+complex` prints numbers plain again, "Infinity" for infinite.
 *
 * Every field is read by what it is, not by the version announced, and anything that is
 * none of these shapes is refused, naming the job and the field: a Slurm whose JSON this
 * code does not know must stop the hook, not make it see no jobs. A non-empty `errors[]`
 * is refused too; `warnings[]` are passed on.
 */
import { InputError } from "../shared/errors";
import { expandHostlist } from "./hostlist";

/** One job record (an array task, a heterogeneous job's component) as squeue printed it. Memory in MiB, as Slurm counts it. */
export interface SqueueJob {
  jobId: number;
  /** The array's id and this task's index (both null when not an array task). */
  arrayJobId: number | null;
  arrayTaskId: number | null;
  /** The heterogeneous job's id (its leader's job id), this component's offset, and the ids of all its components (null when not heterogeneous). */
  hetJobId: number | null;
  hetJobOffset: number | null;
  hetJobIdSet: string | null;
  /** The base state first, then its flags: ["RUNNING"], ["COMPLETED", "REQUEUED"]. */
  state: string[];
  name: string | null;
  userName: string | null;
  userId: number | null;
  nodes: string[];
  /** Epoch s; null when Slurm has none (0 or unset). */
  startTimeS: number | null;
  /** Memory allocated on each node, summed (MiB); null when the listing has no allocation. */
  allocatedMib: number | null;
  memoryPerNodeMib: number | null;
  memoryPerCpuMib: number | null;
  nodeCount: number | null;
  cpus: number | null;
  /** A batch job (it has a batch script to trap a signal); null when not printed. */
  batch: boolean | null;
  /** May be requeued; null when not printed. */
  requeue: boolean | null;
}

export interface SqueueListing {
  /** The plugin that printed it, e.g. "openapi/v0.0.38", "data_parser/v0.0.41" ("unknown" when meta does not say). */
  dataParser: string;
  slurmRelease: string | null;
  jobs: SqueueJob[];
  warnings: string[];
}

type Json = unknown;
const isObject = (value: Json): value is Record<string, Json> => typeof value === "object" && value !== null && !Array.isArray(value);

export function parseSqueueJson(text: string): SqueueListing {
  let root: Json;
  try {
    root = JSON.parse(text);
  } catch {
    throw new InputError(`squeue --json printed no JSON (${text.length} bytes, starting "${text.slice(0, 80).replace(/\s+/g, " ")}"): the hook needs Slurm ≥ 21.08 built with its JSON plugins`);
  }
  if (!isObject(root)) throw new InputError("squeue --json printed JSON that is not an object: this Slurm's output is of a shape the hook does not know");
  const meta = isObject(root.meta) ? root.meta : {};
  const dataParser = pluginOf(meta);
  const where = `squeue --json (${dataParser})`;
  const errors = root.errors;
  if (errors !== undefined && !Array.isArray(errors)) throw new InputError(`${where}: "errors" is not a list: a shape the hook does not know`);
  if (Array.isArray(errors) && errors.length > 0) {
    throw new InputError(`${where} reported ${errors.length} error(s): ${errors.map(describeProblem).join("; ")} — the job list cannot be trusted, nothing was done`);
  }
  const warnings = Array.isArray(root.warnings) ? root.warnings.map((w) => `${where} warned: ${describeProblem(w)}`) : [];
  if (!Array.isArray(root.jobs)) throw new InputError(`${where} has no "jobs" list: a shape the hook does not know`);
  const jobs = root.jobs.map((job, index) => readJob(job, `${where}, jobs[${index}]`));
  return { dataParser, slurmRelease: releaseOf(meta), jobs, warnings };
}

function pluginOf(meta: Record<string, Json>): string {
  const plugin = isObject(meta.plugin) ? meta.plugin : {};
  const plugins = isObject(meta.plugins) ? meta.plugins : {};
  const name = plugin.data_parser ?? plugins.data_parser ?? plugin.type;
  return typeof name === "string" && name !== "" ? name : "unknown";
}

function releaseOf(meta: Record<string, Json>): string | null {
  const slurm = isObject(meta.Slurm) ? meta.Slurm : isObject(meta.slurm) ? meta.slurm : {};
  return typeof slurm.release === "string" ? slurm.release : null;
}

function describeProblem(problem: Json): string {
  if (!isObject(problem)) return JSON.stringify(problem).slice(0, 200);
  const parts = [problem.description, problem.error, problem.source].filter((p) => typeof p === "string" && p !== "");
  return (parts.length > 0 ? parts.join(", ") : JSON.stringify(problem)).slice(0, 300);
}

function readJob(job: Json, where: string): SqueueJob {
  if (!isObject(job)) throw new InputError(`${where} is not an object: a shape the hook does not know`);
  const jobId = number(job, "job_id", where);
  if (jobId === null || !Number.isInteger(jobId) || jobId <= 0) throw new InputError(`${where}: job_id ${JSON.stringify(job.job_id)} is not a job id`);
  const at = `${where} (job ${jobId})`;
  const arrayJobId = positive(number(job, "array_job_id", at));
  const arrayTaskId = number(job, "array_task_id", at);
  const hetJobId = positive(number(job, "het_job_id", at));
  return {
    jobId,
    arrayJobId,
    arrayTaskId: arrayJobId === null ? null : arrayTaskId,
    hetJobId,
    hetJobOffset: hetJobId === null ? null : number(job, "het_job_offset", at),
    hetJobIdSet: hetJobId === null ? null : string(job, "het_job_id_set", at),
    state: jobState(job.job_state, at),
    name: string(job, "name", at),
    userName: string(job, "user_name", at),
    userId: number(job, "user_id", at),
    nodes: nodesOf(job, at),
    startTimeS: positive(number(job, "start_time", at)),
    allocatedMib: allocatedMemory(job.job_resources, at),
    memoryPerNodeMib: positive(number(job, "memory_per_node", at)),
    memoryPerCpuMib: positive(number(job, "memory_per_cpu", at)),
    nodeCount: positive(number(job, "node_count", at)),
    cpus: positive(number(job, "cpus", at)),
    batch: boolean(job, "batch_flag", at),
    requeue: boolean(job, "requeue", at),
  };
}

const positive = (value: number | null) => (value !== null && value > 0 && Number.isFinite(value) ? value : null);

/**
 * A number in any of Slurm's shapes: plain, null, `{"set", "infinite", "number"}`
 * (data_parser ≥ v0.0.39), "Infinity" (`+complex`). Absent: null. Infinite: Infinity.
 */
export function slurmNumber(value: Json, field: string, where: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (value === "Infinity" || value === "infinite") return Infinity;
  if (isObject(value) && typeof value.set === "boolean") {
    if (value.infinite === true) return Infinity;
    if (!value.set) return null;
    if (typeof value.number === "number" && Number.isFinite(value.number)) return value.number;
  }
  throw new InputError(`${where}: ${field} is ${JSON.stringify(value).slice(0, 100)}, not a number in any shape Slurm's JSON has had (plain, or {"set", "infinite", "number"}); this Slurm's output is not one the hook knows`);
}

function number(job: Record<string, Json>, field: string, where: string): number | null {
  return slurmNumber(job[field], field, where);
}

function string(job: Record<string, Json>, field: string, where: string): string | null {
  const value = job[field];
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string") return value;
  throw new InputError(`${where}: ${field} is ${JSON.stringify(value).slice(0, 100)}, not a string: a shape the hook does not know`);
}

function boolean(job: Record<string, Json>, field: string, where: string): boolean | null {
  const value = job[field];
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value;
  throw new InputError(`${where}: ${field} is ${JSON.stringify(value).slice(0, 100)}, not true or false: a shape the hook does not know`);
}

/** "RUNNING" (≤ v0.0.39) or ["RUNNING", …flags] (≥ v0.0.40). */
function jobState(value: Json, where: string): string[] {
  if (typeof value === "string" && value !== "") return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((s) => typeof s === "string")) return value as string[];
  throw new InputError(`${where}: job_state is ${JSON.stringify(value)}, neither a state ("RUNNING") nor a list of them (["RUNNING"]): a shape the hook does not know`);
}

function nodesOf(job: Record<string, Json>, where: string): string[] {
  const nodes = string(job, "nodes", where);
  if (nodes === null || nodes === "None assigned") return [];
  return expandHostlist(nodes);
}

/** Σ memory allocated per node (MiB), from whichever allocation shape is printed; null when none. */
function allocatedMemory(resources: Json, where: string): number | null {
  if (resources === undefined || resources === null) return null;
  if (!isObject(resources)) throw new InputError(`${where}: job_resources is ${JSON.stringify(resources).slice(0, 100)}, not an object: a shape the hook does not know`);
  let perNode: Json[];
  let field: "memory" | "memory_allocated" | "memory.allocated";
  if (isObject(resources.nodes)) {
    // ≥ v0.0.41: nodes: {count, list, allocation: [{name, memory: {used, allocated}}]}
    const allocation = resources.nodes.allocation;
    if (allocation === undefined) return null;
    if (!Array.isArray(allocation)) throw new InputError(`${where}: job_resources.nodes.allocation is not a list: a shape the hook does not know`);
    perNode = allocation;
    field = "memory.allocated";
  } else if (Array.isArray(resources.allocated_nodes)) {
    // v0.0.38–v0.0.40: [{nodename, memory_allocated}]
    perNode = resources.allocated_nodes;
    field = "memory_allocated";
  } else if (isObject(resources.allocated_nodes)) {
    // v0.0.37: {"0": {memory, cpus}}
    perNode = Object.values(resources.allocated_nodes);
    field = "memory";
  } else if (resources.allocated_nodes === undefined) {
    return null;
  } else {
    throw new InputError(`${where}: job_resources.allocated_nodes is ${JSON.stringify(resources.allocated_nodes).slice(0, 100)}: a shape the hook does not know`);
  }
  let total = 0;
  for (const [index, node] of perNode.entries()) {
    if (!isObject(node)) throw new InputError(`${where}: job_resources node ${index} is not an object: a shape the hook does not know`);
    const value = field === "memory.allocated" ? (isObject(node.memory) ? node.memory.allocated : node.memory) : node[field];
    total += slurmNumber(value, `job_resources node ${index} ${field}`, where) ?? 0;
  }
  return total > 0 ? total : null;
}
