/**
 * The user's report's desktop grids (docs/science.md §6.6): the [DAS06] classroom grid and
 * the [BKT] grid, scaled down to run in seconds, with the checkpoint server the fit stage
 * fitted to the user's traces, next to the published Azur model and an ideal server — which
 * policy comes first with each (simulate/server/compare-servers.ts). Runs in the report about
 * a user's cluster (`ckpt pipeline --traces …`), where the fitted model is the cluster's.
 */
import { artifactPath } from "../runner/run-stages";
import type { Stage } from "../runner/stage";
import { readRequired } from "./catalog";
import { DEFAULT_SERVER_COMPARISON, type ServerComparisonParameters } from "../simulate/server/server-comparison-parameters";

export const simulateServersStage: Stage<ServerComparisonParameters> = {
  name: "simulate-servers",
  summary: "the desktop-grid simulators with the fitted checkpoint server, Azur's and an ideal one: which policy comes first with each (docs/science.md §6.6)",
  inputs: ["model"],
  outputs: ["server-comparison"],
  module: __filename,
  defaults: DEFAULT_SERVER_COMPARISON,
  async run(context) {
    // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
    const { compareServers } = await import("../simulate/server/compare-servers.js");
    const file = artifactPath("model");
    const sha256 = context.provenance.find((p) => p.name === file)!.sha256;
    const comparison = await compareServers({ model: readRequired(context.inputs, ["model"]).model, file, sha256 }, context.parameters, context.progress);
    return { artifacts: { "server-comparison": comparison } };
  },
};
