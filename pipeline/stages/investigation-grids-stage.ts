/**
 * The investigations (docs/investigations/): their simulation grids: the [BKT] claims at the paper's
 * scale and the map of where a 2× difference between PCkP and Periodic is reachable, and the
 * [DAS06] grids on the real traces and over the synthetic generator's parameters.
 *
 * They take hours of CPU (the paper-scale [BKT] cells alone ~1 min each), so unlike the report's
 * own grids (simulation-grid-stage.ts) this stage never runs a cell: it only takes the results
 * kept next to each spec, and only those the simulator's current code wrote. A grid with a
 * cell missing or written by other code is reported as not current, with the commands that
 * refresh it (in shards, e.g. as a job array), and the report says which rows it could not
 * make. `--param investigations.compute=true` runs the missing cells instead.
 *
 * It also counts, for the k0 investigation, ScheduleCkpt's work and share under each reading
 * (schedule/readings/k0-work-growth.ts): a few seconds, done here so that the runner keeps
 * the result while the code is unchanged instead of the report redoing it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Stage } from "../runner/stage";
import type { K0Investigation } from "../schedule/readings/k0-work-growth";
import type { MergedSweep } from "../simulate/sweep/merge-sweep";
import { SIMULATORS } from "../simulate/simulator";
import { projectRoot } from "../shared/version";
import { projectPath } from "./project-path";

export interface InvestigationGrid {
  /** The sweep spec, relative to the project root. */
  grid: string;
  /** The folder of its kept results (`cells/`). */
  results: string;
}

export interface InvestigationGridsParameters {
  grids: Record<string, InvestigationGrid>;
  /** Run the cells that have no current kept result (hours), instead of reporting the grid as not current. */
  compute: boolean;
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

export const investigationGridsStage: Stage<InvestigationGridsParameters> = {
  name: "investigations",
  summary: "the investigations' simulation grids (docs/investigations/), from their kept results only",
  inputs: [],
  outputs: ["investigations"],
  module: __filename,
  defaults: { grids: { ...INVESTIGATION_GRIDS }, compute: false },
  inputFiles: ({ parameters }) =>
    Object.values(parameters.grids).flatMap((g) => [projectPath(g.grid), ...(existsSync(projectPath(g.results)) ? [projectPath(g.results)] : [])]),
  async run(context) {
    // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
    const { mergeSweep } = await import("../simulate/sweep/merge-sweep.js");
    const { runShard } = await import("../simulate/sweep/run-shard.js");
    const { parseSweepSpec } = await import("../simulate/sweep/sweep-spec.js");
    const { k0Investigation } = await import("../schedule/readings/k0-work-growth.js");
    const out: Investigations["grids"] = {};
    for (const [name, grid] of Object.entries(context.parameters.grids)) {
      const spec = parseSweepSpec(readFileSync(projectPath(grid.grid), "utf8"), grid.grid);
      const folder = join(context.cache.dir, name);
      const outcome = await runShard(spec, SIMULATORS, folder, { index: 0, count: 1 }, context.progress, [projectPath(grid.results)], context.parameters.compute, projectRoot());
      const current = outcome.missing === 0;
      out[name] = {
        grid: grid.grid,
        merged: current ? mergeSweep(spec, [folder]) : null,
        cells: outcome.cells,
        notCurrent: outcome.missing,
        refresh: current ? null : refreshCommands(grid),
      };
      if (!current) {
        context.progress(
          `${name}: ${outcome.missing} of ${outcome.cells} cells have no result of the simulator's current code in ${grid.results} ` +
            `(${existsSync(join(projectPath(grid.results), "cells")) ? "the kept ones are stale" : "none kept"}); the report leaves out the rows made from it. Refresh: ${refreshCommands(grid)}`,
        );
      }
    }
    context.progress("k0 investigation: ScheduleCkpt's work and share under each reading…");
    const result: Investigations = { grids: out, k0: k0Investigation() };
    return { artifacts: { investigations: result } };
  },
};
