/**
 * A pipeline stage: a function from named input artifacts and parameters to named output
 * artifacts (kedro's node/catalog design). The runner (run-stages.ts) reads and writes the
 * artifacts, hashes everything, and decides whether the stage must run at all.
 */

/** JSON-serialisable parameters of a stage (an object of numbers, strings, booleans, nested objects). */
export type StageParameters = object;

export interface StageContext<P extends StageParameters = StageParameters> {
  parameters: P;
  /** Input artifacts by name, parsed from their JSON files. Optional inputs may be absent. */
  inputs: Record<string, unknown>;
  /** The external files the stage declared, with their content hashes (a directory's files one by one). */
  inputFiles: { path: string; sha256: string }[];
  /** The traces given to the pipeline (`--traces`), as given: files or host-logs directories. */
  traces: string[];
  /**
   * What the run is built from, by content hash (provenance): the external files read by
   * this stage and the stages before it, and this stage's input artifacts.
   */
  provenance: { name: string; sha256: string; volatile?: true }[];
  /** Names of the stages registered in this pipeline, in data-flow order. */
  stageNames: string[];
  /** Report progress of a long stage (printed on stderr, never written to an output). */
  progress(message: string): void;
  /**
   * A folder the stage may keep a cache in across runs (under the output's `.cache/`), and a
   * hash of the stage's code identity to key it with, so that changed code never reads an
   * entry written by other code. Only for work whose result depends on nothing else.
   */
  cache: { dir: string; codeHash: string };
}

/**
 * A file a stage writes beside its artifacts (a figure, a table, rejects.csv). The report's
 * renderer makes files of this shape without importing the runner (and the runner knows
 * nothing of reports): the two agree by shape.
 */
export interface StageFile {
  /** Relative to the output folder, with "/" separators. */
  path: string;
  content: Uint8Array | string;
  /** Holds measured durations, which differ between runs (see Stage.volatileOutputs). */
  volatile?: boolean;
}

export interface StageResult {
  /** One JSON value per declared output name, stored as `artifacts/<name>.json`. */
  artifacts: Record<string, unknown>;
  /** Other files, relative to the output folder (figures, tables, index.html…). */
  files?: StageFile[];
}

export interface Stage<P extends StageParameters = StageParameters> {
  name: string;
  /** One line for `--explain` and `--help`. */
  summary: string;
  /**
   * Artifacts read, produced by earlier stages. A name ending in "?" is optional: used when
   * a registered stage produces it, left out otherwise (so stages can land one by one).
   */
  inputs: readonly string[];
  /**
   * Those of `inputs` a run with these parameters reads, when the parameters decide
   * (ScheduleCkpt reads the fitted model only when asked to plan with it); default all. An
   * input not read is neither waited for nor a reason to rerun.
   */
  inputsUsed?(parameters: P): readonly string[];
  /** Artifacts written. */
  outputs: readonly string[];
  /**
   * Outputs holding measurements that differ from run to run however seeded (elapsed
   * times): marked `"volatile": true` in the manifest, and the only outputs allowed to
   * differ between two runs on the same inputs.
   */
  volatileOutputs?: readonly string[];
  /**
   * The file that defines the stage (its `__filename`): the stage's code is every project
   * module this file imports, directly or not, plus the versions of the packages they import.
   */
  module: string;
  /** Parameters and their defaults; `--param <stage>.<key>=<value>` overrides them. */
  defaults: P;
  /**
   * Words a parameter takes besides values of its default's type, by its path in `defaults`
   * (`fit.capMbPerS`: a number, or "measured"). Any other value of another type is refused.
   */
  parameterWords?: Readonly<Record<string, readonly string[]>>;
  /**
   * Files read from outside the pipeline: the traces given by `--traces`, or files named by
   * the stage's parameters. Their content hashes decide whether the stage reruns.
   */
  inputFiles?(options: { traces: string[]; parameters: P }): string[];
  run(context: StageContext<P>): Promise<StageResult>;
}
