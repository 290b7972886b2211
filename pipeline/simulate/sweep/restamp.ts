/**
 * Re-stamp a kept grid with the simulator's current code version (docs/science.md §6.5). A
 * refactor of the simulators' code changes their code version (a hash of the files a model
 * imports: run-shard.ts's `modelCodeVersion`), and every kept cell then counts as stale and
 * would be recomputed — hours for the paper-scale grids. When the refactor did not change
 * what the simulators compute, a sample of the cells is recomputed with the current code and
 * compared with the kept results; only if every sampled result is identical (the result
 * fields, to the last digit: the cell's JSON) is the new code version written into every
 * cell and into merged.json. A result that differs stops it before anything is written,
 * naming the cell and the first field that differs: the grid must then be recomputed
 * (`ckpt simulate sweep`), not re-stamped.
 *
 * The sample: `sample` cells spread evenly over the grid's cell order (the first, the last,
 * and evenly between), so that every axis's range is touched. Cells whose spec hash or input
 * files differ from the spec's and the files' current ones are refused too: their results
 * are stale for another reason than the code.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../shared/atomic-write";
import { InputError } from "../../shared/errors";
import { stableStringify } from "../../shared/hash";
import type { SimulatorRegistry } from "../simulator";
import { mergeFields } from "../../input/merge-fields";
import { cellInputs, CELL_SCHEMA, loadModel, modelCodeVersion, withFilesFrom, type CellFile } from "./run-shard";
import { sweepCells, sweepSpecHash, type SweepSpec } from "./sweep-spec";

export interface RestampOutcome {
  grid: string;
  cells: number;
  sampled: { index: number; id: string }[];
  /** The code version the cells carried before (one, or several when a grid was mixed). */
  previousCodeVersions: string[];
  codeVersion: string;
  /** Files rewritten (cells and merged.json); 0 when they already carried the current version. */
  rewritten: number;
}

/** Indices into a list of `count` items: `sample` of them evenly spread, first and last included. */
export function evenSample(count: number, sample: number): number[] {
  if (count === 0) return [];
  if (sample >= count) return Array.from({ length: count }, (_, i) => i);
  if (sample === 1) return [0];
  return [...new Set(Array.from({ length: sample }, (_, i) => Math.round((i * (count - 1)) / (sample - 1))))];
}

/** The first place two JSON values differ, as a path ("metrics.makespanH"), or null when they are the same. */
export function firstDifference(kept: unknown, now: unknown, path = ""): string | null {
  if (stableStringify(kept) === stableStringify(now)) return null;
  if (typeof kept === "object" && kept !== null && typeof now === "object" && now !== null && Array.isArray(kept) === Array.isArray(now)) {
    const keys = [...new Set([...Object.keys(kept), ...Object.keys(now)])].sort();
    for (const key of keys) {
      const inner = firstDifference((kept as Record<string, unknown>)[key], (now as Record<string, unknown>)[key], path === "" ? key : `${path}.${key}`);
      if (inner !== null) return inner;
    }
  }
  return `${path || "(the whole result)"}: kept ${JSON.stringify(kept) ?? "nothing"}, recomputed ${JSON.stringify(now) ?? "nothing"}`;
}

const CODE_VERSION_FIELD = /("codeVersion":\s*)"([0-9a-f]*)"/g;

/** `text` with its one top-level "codeVersion" set to `version` (the rest of the bytes untouched). */
function withCodeVersion(text: string, version: string, path: string): string {
  const matches = [...text.matchAll(CODE_VERSION_FIELD)];
  if (matches.length !== 1) throw new InputError(`${path}: expected one "codeVersion" field, found ${matches.length}; the file is not a cell or merged result of a sweep`);
  return text.replace(CODE_VERSION_FIELD, `$1"${version}"`);
}

export async function restampGrid(
  spec: SweepSpec,
  registry: SimulatorRegistry,
  grid: string,
  options: {
    sample: number;
    /** The folder the cells' input files are named from (the project root for the kept grids). */
    filesFrom: string;
    log?: (line: string) => void;
  },
): Promise<RestampOutcome> {
  const log = options.log ?? (() => {});
  if (!Number.isInteger(options.sample) || options.sample < 1) throw new InputError(`--sample must be a whole number ≥ 1 (cells to recompute), got ${options.sample}`);
  const cellsDir = join(grid, "cells");
  if (!existsSync(cellsDir)) throw new InputError(`${grid}: no cells/ folder; give the folder of a kept grid (data/simulations/<grid>), the one that holds cells/ and merged.json`);
  const model = await loadModel(registry, spec.simulator);
  const codeVersion = modelCodeVersion(model);
  const specHash = sweepSpecHash(spec);
  const expected = sweepCells(spec);
  const files = expected.map((cell) => {
    const path = join(cellsDir, `${cell.id}.json`);
    if (!existsSync(path)) throw new InputError(`${path}: cell ${cell.index} of the spec has no result; run the sweep (ckpt simulate sweep) before re-stamping`);
    const text = readFileSync(path, "utf8");
    let file: CellFile;
    try {
      file = JSON.parse(text) as CellFile;
    } catch (error) {
      throw new InputError(`${path}: not a cell result (invalid JSON: ${(error as Error).message})`, { cause: error });
    }
    if (file.schema !== CELL_SCHEMA || file.id !== cell.id) throw new InputError(`${path}: not the result of cell ${cell.index} (${cell.id}) of this spec`);
    if (file.specHash !== specHash) throw new InputError(`${path}: cell ${cell.index} was computed for another version of the spec (spec hash ${file.specHash.slice(0, 12)}…, now ${specHash.slice(0, 12)}…); recompute the grid, do not re-stamp it`);
    return { cell, path, text, file };
  });
  const known = new Set(expected.map((c) => `${c.id}.json`));
  const foreign = readdirSync(cellsDir).filter((name) => name.endsWith(".json") && !known.has(name));
  if (foreign.length > 0) throw new InputError(`${cellsDir}: ${foreign.length} file(s) that are no cell of this spec (${foreign.slice(0, 3).join(", ")}); remove them first`);

  const hashes = new Map<string, string>();
  for (const { cell, path, file } of files) {
    const inputs = cellInputs(model, cell, hashes, options.filesFrom);
    if (stableStringify(file.inputs ?? null) !== stableStringify(inputs ?? null)) {
      throw new InputError(`${path}: cell ${cell.index} read other versions of its input files (${stableStringify(file.inputs ?? {})}) than the ones there now (${stableStringify(inputs ?? {})}); recompute the grid, do not re-stamp it`);
    }
  }

  const sampled = evenSample(files.length, options.sample).map((i) => files[i]!);
  for (const [k, { cell, path, file }] of sampled.entries()) {
    const started = performance.now();
    const parameters = withFilesFrom(model, mergeFields(model.defaults, cell.parameters), options.filesFrom);
    const now = JSON.parse(JSON.stringify(await model.run(parameters, cell.seed))) as unknown;
    const difference = firstDifference(file.result, now);
    if (difference !== null) {
      throw new InputError(
        `${path}: cell ${cell.index} (${JSON.stringify(cell.parameters)}, seed ${cell.seed}) gives another result with the current code (${codeVersion}) than the kept one (${file.codeVersion}) — ${difference}. ` +
          `Nothing was re-stamped: the code change alters what the simulator computes, so recompute the grid (ckpt simulate sweep) instead`,
      );
    }
    log(`cell ${cell.index} (${k + 1}/${sampled.length} sampled, seed ${cell.seed}) recomputed in ${((performance.now() - started) / 1000).toFixed(1)} s: identical`);
  }

  const previousCodeVersions = [...new Set(files.map((f) => f.file.codeVersion))].sort();
  let rewritten = 0;
  for (const { path, text, file } of files) {
    if (file.codeVersion === codeVersion) continue;
    writeFileAtomic(path, withCodeVersion(text, codeVersion, path));
    rewritten++;
  }
  const mergedPath = join(grid, "merged.json");
  if (existsSync(mergedPath)) {
    const text = readFileSync(mergedPath, "utf8");
    const next = withCodeVersion(text, codeVersion, mergedPath);
    if (next !== text) {
      writeFileAtomic(mergedPath, next);
      rewritten++;
    }
  }
  log(`${grid}: ${rewritten} file(s) re-stamped with code version ${codeVersion}`);
  return { grid, cells: files.length, sampled: sampled.map(({ cell }) => ({ index: cell.index, id: cell.id })), previousCodeVersions, codeVersion, rewritten };
}
