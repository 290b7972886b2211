/**
 * One scenario of the place stage (stages/place-stage.ts), as its `placements` artifact holds
 * it: the scenario as given, where its checkpoint costs came from, and the DP placer's
 * answer with every baseline's (place-job.ts).
 */
import type { Objective } from "./objective";
import type { Placement } from "./place-job";

export interface ScenarioPlacement {
  name: string;
  scenario: { description: string; slices: string; law: string; objective: Objective; nodes: number | "auto"; latencySeconds: number };
  /** Where the costs came from (the file, or the bandwidth model). */
  costSource: string;
  placement: Placement;
}
