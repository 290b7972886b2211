/**
 * The investigations' results (docs/investigations/): each grid's kept simulation results
 * (only those the simulator's current code wrote), or the commands that refresh it, and the
 * k0 investigation's counts of ScheduleCkpt's work and share under each reading
 * (schedule/readings/k0-work-growth.ts). The investigations stage
 * (stages/investigation-grids-stage.ts) runs this; the reproduce stage makes rows of it
 * (investigation-rows.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { K0Investigation } from "../schedule/readings/k0-work-growth";
import type { MergedSweep } from "../simulate/sweep/merge-sweep";
import { SIMULATORS } from "../simulate/simulator";
import { projectRoot } from "../shared/version";

export interface InvestigationGrid {
  /** The sweep spec, relative to the project root. */
  grid: string;
  /** The folder of its kept results (`cells/`). */
  results: string;
}

export interface InvestigationGridResult {
  grid: string;
  /** The merged results, or null when some cell has no current result. */
  merged: MergedSweep | null;
  cells: number;
  /** Cells without a result of the current code (missing, or kept from other code). */
  notCurrent: number;
  /** How to make it current, when it is not. */
  refresh: string | null;
}

export interface Investigations {
  grids: Record<string, InvestigationGridResult>;
  /** The k0 investigation's counts (no simulation: ScheduleCkpt under each reading, seconds of CPU). */
  k0: K0Investigation;
}

/** The grids of docs/investigations/, by the name the report's rows use. */
export const INVESTIGATION_GRIDS: Readonly<Record<string, InvestigationGrid>> = {
  "bkt-cost-map": { grid: "data/simulations/bkt-claims-map.json", results: "data/simulations/bkt-claims-map" },
  "bkt-paper-scale": { grid: "data/simulations/bkt-claims-paper-scale.json", results: "data/simulations/bkt-claims-paper-scale" },
  "das06-traces": { grid: "data/simulations/das06-claims-traces.json", results: "data/simulations/das06-claims-traces" },
  "das06-generator": { grid: "data/simulations/das06-claims-generator.json", results: "data/simulations/das06-claims-generator" },
};

/** The shell commands that compute a grid's missing cells in N shards (one per core or job-array task) and merge them. */
export function refreshCommands(grid: InvestigationGrid, shards = 4): string {
  const shardList = Array.from({ length: shards }, (_, i) => `ckpt simulate sweep ${grid.grid} --out ${grid.results} --shard ${i}/${shards}`).join("; ");
  return `${shardList}; ckpt simulate merge ${grid.grid} --out ${grid.results}`;
}

/**
 * Every grid from its kept results (computing the missing cells only when `compute`), in
 * `cacheDir/<name>`, and the k0 counts. Loads the simulators' sweep code when called, not
 * when imported (the stage list is loaded by every `ckpt` command).
 */
export async function collectInvestigations(
  grids: Readonly<Record<string, InvestigationGrid>>,
  options: { cacheDir: string; compute: boolean; progress(message: string): void; projectPath(path: string): string },
): Promise<Investigations> {
  const { mergeSweep } = await import("../simulate/sweep/merge-sweep.js");
  const { runShard } = await import("../simulate/sweep/run-shard.js");
  const { parseSweepSpec } = await import("../simulate/sweep/sweep-spec.js");
  const { k0Investigation } = await import("../schedule/readings/k0-work-growth.js");
  const { projectPath, progress } = options;
  const out: Investigations["grids"] = {};
  for (const [name, grid] of Object.entries(grids)) {
    const spec = parseSweepSpec(readFileSync(projectPath(grid.grid), "utf8"), grid.grid);
    const folder = join(options.cacheDir, name);
    const outcome = await runShard(spec, SIMULATORS, folder, { index: 0, count: 1 }, progress, [projectPath(grid.results)], options.compute, projectRoot());
    const current = outcome.missing === 0;
    out[name] = {
      grid: grid.grid,
      merged: current ? mergeSweep(spec, [folder]) : null,
      cells: outcome.cells,
      notCurrent: outcome.missing,
      refresh: current ? null : refreshCommands(grid),
    };
    if (!current) {
      progress(
        `${name}: ${outcome.missing} of ${outcome.cells} cells have no result of the simulator's current code in ${grid.results} ` +
          `(${existsSync(join(projectPath(grid.results), "cells")) ? "the kept ones are stale" : "none kept"}); the report leaves out the rows made from it. Refresh: ${refreshCommands(grid)}`,
      );
    }
  }
  progress("k0 investigation: ScheduleCkpt's work and share under each reading…");
  return { grids: out, k0: k0Investigation() };
}
