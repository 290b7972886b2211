/**
 * The desktop-grid stages (docs/science.md §6): a grid of simulations — a sweep spec, by
 * default the paper's grid or a scaled-down one — merged with 95 % intervals for the report.
 *
 * Each cell's result is a pure function of its parameters, seed and the simulator's code,
 * so results are reused: from the stage's own cache (a `--force` rerun computes nothing
 * again) and from the results kept next to the spec (`results`), which a fresh checkout
 * brings. A cell missing from both is computed, and the stage says the kept results are
 * stale and how to refresh them.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Stage } from "../runner/stage";
import { SIMULATORS } from "../simulate/simulator";
import { projectRoot } from "../shared/version";
import { projectPath } from "./project-path";

export interface SimulationGridParameters {
  /** The sweep spec, relative to the project root. */
  grid: string;
  /** A folder holding earlier results of that spec (`cells/`), reused while the code is the same. */
  results: string;
}

function simulationGridStage(name: string, summary: string, output: string, defaults: SimulationGridParameters): Stage<SimulationGridParameters> {
  return {
    name,
    summary,
    inputs: [],
    outputs: [output],
    module: __filename,
    defaults,
    inputFiles: ({ parameters }) => [projectPath(parameters.grid), ...(existsSync(projectPath(parameters.results)) ? [projectPath(parameters.results)] : [])],
    async run(context) {
      // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
      const { mergeSweep } = await import("../simulate/sweep/merge-sweep.js");
      const { runShard } = await import("../simulate/sweep/run-shard.js");
      const { parseSweepSpec } = await import("../simulate/sweep/sweep-spec.js");
      const p = context.parameters;
      const spec = parseSweepSpec(readFileSync(projectPath(p.grid), "utf8"), p.grid);
      const outcome = await runShard(spec, SIMULATORS, context.cache.dir, { index: 0, count: 1 }, context.progress, [projectPath(p.results)], true, projectRoot());
      if (outcome.ran > 0) {
        // A grid run for the first time (e.g. a trace's grid) has nothing kept yet: not stale, only new.
        const kept = existsSync(join(projectPath(p.results), "cells"));
        context.progress(
          `${outcome.ran} of ${outcome.cells} cells were computed: ${kept ? `the results kept in ${p.results} are stale (the simulator's code changed)` : `no results are kept in ${p.results} yet`}; ` +
            `${kept ? "refresh" : "keep"} them with: ckpt simulate sweep ${p.grid} --out ${p.results} && ckpt simulate merge ${p.grid} --out ${p.results}`,
        );
      }
      return { artifacts: { [output]: mergeSweep(spec, [context.cache.dir]) } };
    },
  };
}

export const simulateBktStage = simulationGridStage(
  "simulate-bkt",
  "the [BKT] desktop-grid simulator on a grid of clients × bag sizes × policies (docs/science.md §6.1)",
  "bkt-grid",
  { grid: "data/simulations/bkt-report-grid.json", results: "data/simulations/bkt-report-grid" },
);

export const simulateDas06Stage = simulationGridStage(
  "simulate-das06",
  "the [DAS06] classroom-grid simulator on the paper's grid, on the synthetic classroom trace (docs/science.md §6.2)",
  "das06-grid",
  { grid: "data/simulations/das06-paper-grid.json", results: "data/simulations/das06-paper-grid" },
);
