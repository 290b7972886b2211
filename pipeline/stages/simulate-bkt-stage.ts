/**
 * The [BKT] desktop-grid stage (docs/science.md §6.1): a grid of simulations (a sweep spec,
 * by default data/simulations/bkt-report-grid.json, the paper's grid scaled down), merged
 * with 95 % intervals for the report.
 *
 * Each cell's result is a pure function of its parameters, seed and the simulator's code,
 * so results are reused: from the stage's own cache (a `--force` rerun computes nothing
 * again) and from the results kept next to the spec (`results`), which a fresh checkout
 * brings. A cell missing from both is computed (about a second each), and the stage says
 * the kept results are stale and how to refresh them.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Stage } from "../runner/stage";
import { SIMULATORS } from "../simulate/simulator";
import { mergeSweep } from "../simulate/sweep/merge-sweep";
import { runShard } from "../simulate/sweep/run-shard";
import { parseSweepSpec } from "../simulate/sweep/sweep-spec";
import { projectPath } from "./project-path";

export interface SimulateBktStageParameters {
  /** The sweep spec, relative to the project root. */
  grid: string;
  /** A folder holding earlier results of that spec (`cells/`), reused while the code is the same. */
  results: string;
}

export const DEFAULT_SIMULATE_BKT_PARAMETERS: SimulateBktStageParameters = {
  grid: "data/simulations/bkt-report-grid.json",
  results: "data/simulations/bkt-report-grid",
};

export const simulateBktStage: Stage<SimulateBktStageParameters> = {
  name: "simulate-bkt",
  summary: "the [BKT] desktop-grid simulator on a grid of clients × bag sizes × policies (docs/science.md §6.1)",
  inputs: [],
  outputs: ["bkt-grid"],
  module: __filename,
  defaults: DEFAULT_SIMULATE_BKT_PARAMETERS,
  inputFiles: ({ parameters }) => [projectPath(parameters.grid), ...(existsSync(projectPath(parameters.results)) ? [projectPath(parameters.results)] : [])],
  async run(context) {
    const p = context.parameters;
    const spec = parseSweepSpec(readFileSync(projectPath(p.grid), "utf8"), p.grid);
    const outcome = await runShard(spec, SIMULATORS, context.cache.dir, { index: 0, count: 1 }, context.progress, [projectPath(p.results)]);
    if (outcome.ran > 0) {
      context.progress(
        `${outcome.ran} of ${outcome.cells} cells were computed: the results kept in ${p.results} are stale (the simulator's code changed); ` +
          `refresh them with: ckpt simulate sweep ${p.grid} --out ${p.results} && ckpt simulate merge ${p.grid} --out ${p.results}`,
      );
    }
    return { artifacts: { "bkt-grid": mergeSweep(spec, [context.cache.dir]) } };
  },
};
