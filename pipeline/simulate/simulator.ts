/**
 * What a simulation model provides to the sweep machinery (docs/science.md §6.5): its name,
 * its defaults, a check of its parameters, and a run from (parameters, seed) to a result —
 * a pure function of those two, so a cell's result never depends on the shard or the
 * machine that ran it. The engine (engine/) knows nothing of models; models know nothing of
 * sweeps.
 *
 * A result holds plain numbers the merge can average over seeds: `metrics` (one value per
 * name) and, for models that compare policies on common random numbers, `policies` (per
 * policy, one value per name), from which the merge also computes paired differences.
 */

export interface SimulationResult {
  metrics: Record<string, number>;
  policies?: Record<string, Record<string, number>>;
  /** Anything else worth keeping with the cell (not aggregated). */
  details?: unknown;
  /** Engine counters. */
  events?: number;
}

export interface SimulatorModel {
  name: string;
  /** The model's defaults (a preset), which a sweep's parameters override. */
  defaults: Record<string, unknown>;
  /** The module that defines the model: its code identity is the results' code version. */
  module: string;
  /** Refuse impossible parameters (throw an InputError saying which field and how to fix it). */
  validate(parameters: Record<string, unknown>): void;
  /**
   * The files a run with these parameters reads (a model, a policy module, a trace): a sweep
   * records their hashes with each cell and redoes a cell whose files changed.
   */
  inputFiles?(parameters: Record<string, unknown>): string[];
  run(parameters: Record<string, unknown>, seed: number, progress?: (message: string) => void): Promise<SimulationResult> | SimulationResult;
}

/** Simulator name → its model, loaded on demand. */
export type SimulatorRegistry = Record<string, () => Promise<SimulatorModel>>;

/** The simulators `ckpt simulate` knows; the models register here as they land. */
export const SIMULATORS: SimulatorRegistry = {
  bkt: async () => (await import("./bkt/bkt-simulator.js")).bktModel,
  das06: async () => (await import("./das06/das06-simulator.js")).das06Model,
};
