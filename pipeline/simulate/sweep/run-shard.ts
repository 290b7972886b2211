/**
 * Run one shard of a sweep (docs/science.md §6.5): shard i of N runs the cells whose
 * canonical index c has c mod N = i (round robin spreads the expensive cells), each cell
 * written atomically as `<out>/cells/<cell id>.json`. A cell whose file exists and was
 * written for the same spec, by the same code, is skipped, so rerunning or requeueing a
 * shard (OAR's idempotent jobs, Slurm's requeue) redoes only what is missing. Files a cell
 * reads (`SimulatorModel.inputFiles`: a server model, a policy module, a trace) are recorded
 * with their SHA-256, and a cell whose files changed since is run again.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { codeIdentity } from "../../runner/code-identity";
import { writeFileAtomic, writeJsonAtomic } from "../../shared/atomic-write";
import { InputError } from "../../shared/errors";
import { sha256OfFile, sha256OfJson, stableStringify } from "../../shared/hash";
import { projectRoot } from "../../shared/version";
import type { SimulationResult, SimulatorModel, SimulatorRegistry } from "../simulator";
import { sweepCells, sweepSpecHash, type SweepCell, type SweepSpec } from "./sweep-spec";
import { mergeFields } from "../../input/merge-fields";
import { cannotRead } from "../../input/messages";

export const CELL_SCHEMA = "ckpt-lab/sweep-cell@1";

export interface CellFile {
  schema: typeof CELL_SCHEMA;
  id: string;
  index: number;
  seed: number;
  parameters: Record<string, unknown>;
  simulator: string;
  specHash: string;
  codeVersion: string;
  /** The files the cell read, as named in its parameters → SHA-256 (absent when it read none). */
  inputs?: Record<string, string>;
  result: SimulationResult;
}

export interface Shard {
  index: number;
  count: number;
}

/** "i/N" → { index: i, count: N }, 0 ≤ i < N. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || !(count >= 1) || !(index < count)) {
    throw new InputError(`--shard expects i/N with 0 ≤ i < N (shard i of N, e.g. 0/4 … 3/4), got "${text}"`);
  }
  return { index, count };
}

/**
 * The code version of a model: a hash of its module's code identity (its files and
 * packages), always taken on the TypeScript sources — a model loaded from the built
 * JavaScript (dist/) is traced back to them — so that results written by the CLI and by
 * the tests (which run the sources) carry the same version.
 */
export function modelCodeVersion(model: SimulatorModel): string {
  const root = projectRoot();
  const module = model.module.startsWith(join(root, "dist") + sep) ? join(root, relative(join(root, "dist"), model.module)).replace(/\.js$/, ".ts") : model.module;
  return sha256OfJson(codeIdentity(module, join(root, "pipeline"), root)).slice(0, 16);
}

export async function loadModel(registry: SimulatorRegistry, name: string): Promise<SimulatorModel> {
  const load = registry[name];
  if (load === undefined) throw new InputError(`unknown simulator "${name}"; known: ${Object.keys(registry).join(", ") || "none"}`);
  return load();
}

export interface ShardOutcome {
  ran: number;
  skipped: number;
  /** Cells neither done nor reusable, left undone because `compute` was false. */
  missing: number;
  cells: number;
}

export async function runShard(
  spec: SweepSpec,
  registry: SimulatorRegistry,
  out: string,
  shard: Shard = { index: 0, count: 1 },
  log: (line: string) => void = () => {},
  /** Folders whose `cells/` may already hold results of this spec and code (copied, not rerun). */
  reuseFrom: string[] = [],
  /** False: only reuse, never run a cell (grids that take hours); the cells left are counted as missing. */
  compute = true,
  /**
   * The folder the cells' input files (a trace, a server model) are named from: the working
   * folder for a user's spec, the project root for the grids the project keeps (so that they
   * read the same files from any folder; a cell still names its files as the spec does).
   */
  filesFrom = ".",
): Promise<ShardOutcome> {
  const model = await loadModel(registry, spec.simulator);
  const specHash = sweepSpecHash(spec);
  const codeVersion = modelCodeVersion(model);
  const mine = sweepCells(spec).filter((cell) => cell.index % shard.count === shard.index);
  // Check every cell's parameters before running any: a bad value fails at once, not hours in.
  for (const cell of mine) validateCell(model, cell);
  let ran = 0;
  let skipped = 0;
  let missing = 0;
  const hashes = new Map<string, string>();
  for (const [k, cell] of mine.entries()) {
    const path = join(out, "cells", `${cell.id}.json`);
    const inputs = cellInputs(model, cell, hashes, filesFrom);
    if (isDone(path, cell, specHash, codeVersion, inputs)) {
      skipped++;
      continue;
    }
    const reusable = reuseFrom.map((folder) => join(folder, "cells", `${cell.id}.json`)).find((from) => isDone(from, cell, specHash, codeVersion, inputs));
    if (reusable !== undefined) {
      writeFileAtomic(path, readFileSync(reusable));
      skipped++;
      continue;
    }
    if (!compute) {
      missing++;
      continue;
    }
    const started = performance.now();
    const result = await model.run(withFilesFrom(model, mergeFields(model.defaults, cell.parameters), filesFrom), cell.seed, (message) => log(`  cell ${cell.index}: ${message}`));
    const file: CellFile = { schema: CELL_SCHEMA, id: cell.id, index: cell.index, seed: cell.seed, parameters: cell.parameters, simulator: spec.simulator, specHash, codeVersion, ...(inputs !== undefined ? { inputs } : {}), result };
    writeJsonAtomic(path, file);
    ran++;
    log(`cell ${cell.index} (${k + 1}/${mine.length} of shard ${shard.index}/${shard.count}, seed ${cell.seed}) done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return { ran, skipped, missing, cells: mine.length };
}

function validateCell(model: SimulatorModel, cell: SweepCell): void {
  try {
    model.validate(mergeFields(model.defaults, cell.parameters));
  } catch (error) {
    if (error instanceof InputError) throw new InputError(`cell ${cell.index} (${JSON.stringify(cell.parameters)}, seed ${cell.seed}): ${error.message}`, { cause: error });
    throw error;
  }
}

/** `parameters` with each file the model reads (named relative to `filesFrom`) as a path from the working folder. */
export function withFilesFrom(model: SimulatorModel, parameters: Record<string, unknown>, filesFrom: string): Record<string, unknown> {
  const files = new Set(model.inputFiles?.(parameters) ?? []);
  const map = (value: unknown): unknown =>
    typeof value === "string" && files.has(value) ? fromWorkingFolder(value, filesFrom)
    : Array.isArray(value) ? value.map(map)
    : typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v)]))
    : value;
  return map(parameters) as Record<string, unknown>;
}

function fromWorkingFolder(file: string, filesFrom: string): string {
  return relative(process.cwd(), resolve(filesFrom, file)) || ".";
}

/** The files a cell reads with their hashes (each file hashed once per shard), or undefined when it reads none. */
export function cellInputs(model: SimulatorModel, cell: SweepCell, hashes: Map<string, string>, filesFrom: string): Record<string, string> | undefined {
  const files = model.inputFiles?.(mergeFields(model.defaults, cell.parameters)) ?? [];
  if (files.length === 0) return undefined;
  const inputs: Record<string, string> = {};
  for (const file of [...new Set(files)].sort()) {
    let sha256 = hashes.get(file);
    if (sha256 === undefined) {
      try {
        sha256 = sha256OfFile(fromWorkingFolder(file, filesFrom));
      } catch (error) {
        throw new InputError(`cell ${cell.index} (${JSON.stringify(cell.parameters)}): ${cannotRead("the input file", file, (error as Error).message)}`, { cause: error });
      }
      hashes.set(file, sha256);
    }
    inputs[file] = sha256;
  }
  return inputs;
}

function isDone(path: string, cell: SweepCell, specHash: string, codeVersion: string, inputs: Record<string, string> | undefined): boolean {
  if (!existsSync(path)) return false;
  try {
    const file = JSON.parse(readFileSync(path, "utf8")) as CellFile;
    return (
      file.schema === CELL_SCHEMA &&
      file.id === cell.id &&
      file.specHash === specHash &&
      file.codeVersion === codeVersion &&
      stableStringify(file.inputs ?? null) === stableStringify(inputs ?? null) &&
      typeof file.result === "object"
    );
  } catch {
    return false;
  }
}
