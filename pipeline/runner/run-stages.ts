/**
 * The engine of the pipeline: runs stages in data-flow order, each only when something it
 * depends on changed, exchanging named artifacts through files.
 *
 * For every stage it hashes (1) the external files it reads, (2) the input artifacts
 * produced upstream, (3) its parameters, (4) its code (code-identity.ts), and compares them
 * with the record of its last run. It runs the stage when anything differs, when an output
 * of the last run is missing or was edited, or with `force`; it says which of these it was
 * (`explain`). A stage whose inputs changed but whose outputs come out byte-identical stops
 * the change there: downstream stages see unchanged input hashes and are skipped.
 *
 * Outputs are written atomically, then the state, stage by stage, so an interrupted run
 * keeps what finished. Files a stage produced last time and no longer produces are
 * removed. `manifest.json` lists every output with its hash, the stage that wrote it, and
 * that stage's inputs and parameters; it holds no timestamp, so same inputs give the same
 * bytes — except outputs a stage declares volatile (measured durations), which the
 * manifest marks as such.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { writeFileAtomic, writeJsonAtomic } from "../shared/atomic-write";
import { UsageError } from "../shared/errors";
import { sha256OfBytes } from "../shared/hash";
import { TOOL_VERSION } from "../shared/version";
import { codeIdentity, type ModuleCache } from "./code-identity";
import { FileHashes } from "./file-hashes";
import { hashInputFiles } from "./input-files";
import { inProcessLane, runInLanes, WorkerLane, type Lane } from "./lanes";
import type { Stage, StageParameters } from "./stage";
import { changesSince, type PipelineState, type StageRecord } from "./stage-record";

export interface RunStagesOptions {
  /** Output folder (artifacts, report files, manifest, state). */
  out: string;
  /** How messages and the returned manifest path name the folder, when `out` is a staging copy of it. */
  displayOut?: string;
  /** External inputs handed to stages that declare `inputFiles`. */
  traces: string[];
  force?: boolean;
  /** Print every reason (otherwise the first one). */
  explain?: boolean;
  /** `"<stage>.<path>"` → value, e.g. `{"reproduce.peakM": 2}`. */
  parameterOverrides?: Record<string, unknown>;
  /** Folder the stage modules' relative names are given from, and the project root (node_modules). */
  codeRoot: string;
  projectRoot: string;
  /** Progress and explanations (stderr in the CLI). */
  log?: (line: string) => void;
  /** Clock for the elapsed times (tests pass a fake one). */
  now?: () => number;
  /**
   * Run the stages in this many worker threads, each stage as soon as the stages producing
   * its inputs are done (lanes.ts); the main thread only decides, reads and writes. Default
   * 0: every stage on the main thread, one after the other. Only for stages exported by
   * their `module` (a worker loads them from there).
   */
  workers?: number;
  /**
   * Write files without an fsync each: the caller makes `out` durable as a whole before it
   * counts (runPipeline: the build folder is synced before it is swapped in, one flush
   * instead of ~190 at ~5 ms each on a virtual disk).
   */
  deferSync?: boolean;
}

export interface StageOutcome {
  name: string;
  ran: boolean;
  /** Why it ran, or why it was skipped. */
  reasons: string[];
  seconds: number;
  outputs: string[];
}

export interface PipelineRun {
  outcomes: StageOutcome[];
  manifestPath: string;
}

export const STATE_PATH = ".cache/pipeline-state.json";
/** The runner's cache of file hashes by stat (file-hashes.ts): bookkeeping, not an output. */
export const FILE_HASHES_PATH = ".cache/file-hashes.json";
export const MANIFEST_PATH = "manifest.json";

export function artifactPath(name: string): string {
  return `artifacts/${name}.json`;
}

export async function runStages(stages: readonly Stage[], options: RunStagesOptions): Promise<PipelineRun> {
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => performance.now());
  const write = { sync: !(options.deferSync ?? false) };
  const parameters = resolveParameters(stages, options.parameterOverrides ?? {});
  const wiring = wire(stages, parameters);
  const { state, text: stateTextRead } = readState(options.out, log);
  const hashes = FileHashes.load(join(options.out, FILE_HASHES_PATH));
  // Files of the output folder by their path in it (the folder is rebuilt under another
  // name), others by their path from the project (no output names where it was made).
  const outputHash = (path: string) => hashes.sha256(join(options.out, path), path);
  const externalHash = (path: string) => hashes.sha256(path, `project:${relative(options.projectRoot, resolve(path))}`);
  const modules: ModuleCache = new Map();
  const outcomes: StageOutcome[] = [];
  const allInputFiles = new Map<string, string>();
  const names = stages.map((s) => s.name);
  const volatileArtifacts = new Set(stages.flatMap((s) => s.volatileOutputs ?? []));
  // The external files of every stage, hashed up front in data-flow order: a stage's
  // provenance names those of the stages before it, whichever lane ran them first.
  const inputFilesOf = stages.map((stage) => hashInputFiles(stage.inputFiles?.({ traces: options.traces, parameters: parameters[stage.name] as StageParameters }) ?? [], externalHash));
  const provenanceFilesOf = inputFilesOf.map((files) => {
    for (const f of files) allInputFiles.set(f.path, f.sha256);
    return [...allInputFiles].map(([name, sha256]) => ({ name, sha256 }));
  });

  /** Decide whether the stage at `index` runs (its upstream stages are done), and run it in `lane`. */
  const runOne = async (index: number, lane: Lane): Promise<void> => {
    const stage = stages[index]!;
    const label = `[${index + 1}/${stages.length}] ${stage.name}`;
    const start = now();
    const inputNames = wiring.get(stage.name)!;
    const inputFiles = inputFilesOf[index]!;
    const inputs: Record<string, string> = {};
    for (const name of inputNames) inputs[name] = outputHash(artifactPath(name));
    const current: Omit<StageRecord, "outputs" | "volatile"> = {
      parameters: parameters[stage.name],
      inputs,
      inputFiles: Object.fromEntries(inputFiles.map((f) => [f.path, f.sha256])),
      code: codeIdentity(stage.module, options.codeRoot, options.projectRoot, modules),
    };
    const previous = state.stages[stage.name];
    const reasons = options.force
      ? ["--force"]
      : previous === undefined
        ? [`no record of a previous run in ${options.displayOut ?? options.out}`]
        : [...changesSince(previous, current), ...outputChanges(options.out, previous.outputs, outputHash)];

    if (reasons.length === 0 && previous !== undefined) {
      const seconds = (now() - start) / 1000;
      const why = `inputs, parameters and code unchanged (${Object.keys(current.code.files).length} source files)`;
      log(`${label}: skipped in ${seconds.toFixed(1)} s: ${why}`);
      outcomes[index] = { name: stage.name, ran: false, reasons: [why], seconds, outputs: Object.keys(previous.outputs) };
      return;
    }

    log(`${label}: running${lane === inProcessLane ? "" : ` (${lane.name})`}: ${options.explain ? reasons.join("; ") : shorten(reasons[0]!)}`);
    const result = await lane.run(stage, Object.fromEntries(inputNames.map((name) => [name, join(options.out, artifactPath(name))])), {
      parameters: parameters[stage.name] as StageParameters,
      inputFiles,
      traces: options.traces,
      provenance: [
        ...provenanceFilesOf[index]!,
        ...Object.entries(inputs).map(([name, sha256]) => ({ name: artifactPath(name), sha256, ...(volatileArtifacts.has(name) ? { volatile: true as const } : {}) })),
      ],
      stageNames: names,
      cache: { dir: join(options.out, ".cache", stage.name), codeHash: sha256OfBytes(JSON.stringify(current.code)) },
    }, (message) => log(`${" ".repeat(label.length)}  ${message}`));

    const files = new Map<string, Uint8Array | string>();
    const volatile: string[] = [];
    for (const name of stage.outputs) {
      if (!(name in result.artifacts)) throw new Error(`stage "${stage.name}" did not return its declared output "${name}"`);
      files.set(artifactPath(name), `${JSON.stringify(result.artifacts[name], null, 2)}\n`);
      if (stage.volatileOutputs?.includes(name)) volatile.push(artifactPath(name));
    }
    for (const extra of Object.keys(result.artifacts)) {
      if (!stage.outputs.includes(extra)) throw new Error(`stage "${stage.name}" returned "${extra}", which it does not declare in outputs`);
    }
    for (const file of result.files ?? []) {
      if (files.has(file.path) || file.path.startsWith("artifacts/") || file.path.startsWith(".cache/") || file.path === MANIFEST_PATH) {
        throw new Error(`stage "${stage.name}" writes "${file.path}", a path reserved or already written`);
      }
      files.set(file.path, file.content);
      if (file.volatile) volatile.push(file.path);
    }
    const outputs: Record<string, string> = {};
    for (const path of [...files.keys()].sort()) {
      const content = files.get(path)!;
      const target = join(options.out, path);
      outputs[path] = sha256OfBytes(content);
      // The same bytes as the file already there (the previous run's, linked into the build
      // folder) keep that file: a forced rerun of a deterministic stage then writes, syncs
      // and, at the swap, frees nothing (~0.4 s of a forced run's ~500 files).
      if (existsSync(target) && outputHash(path) === outputs[path]) continue;
      writeFileAtomic(target, content, write);
      hashes.record(target, path, outputs[path]);
    }
    for (const path of Object.keys(previous?.outputs ?? {})) {
      if (!(path in outputs)) rmSync(join(options.out, path), { force: true });
    }
    state.stages[stage.name] = { ...current, outputs, ...(volatile.length > 0 ? { volatile: volatile.sort() } : {}) };
    writeJsonAtomic(join(options.out, STATE_PATH), inStageOrder(state, names), write);
    const seconds = (now() - start) / 1000;
    log(`${label}: done in ${seconds.toFixed(1)} s, ${Object.keys(outputs).length} files`);
    outcomes[index] = { name: stage.name, ran: true, reasons, seconds, outputs: Object.keys(outputs) };
  };

  const workers = Math.min(options.workers ?? 0, stages.length);
  const lanes: Lane[] = workers > 0 ? Array.from({ length: workers }, (_, i) => new WorkerLane(`worker ${i + 1}`)) : [inProcessLane];
  try {
    await runInLanes(stages, wiring, lanes, runOne);
  } finally {
    for (const lane of lanes) await lane.close?.();
  }

  // Forget stages that are no longer registered (their files stay: they may be someone's).
  for (const name of Object.keys(state.stages)) if (!names.includes(name)) delete state.stages[name];
  const stateText = `${JSON.stringify(inStageOrder(state, names), null, 2)}\n`;
  if (stateText !== stateTextRead) writeFileAtomic(join(options.out, STATE_PATH), stateText, write);
  hashes.save(join(options.out, FILE_HASHES_PATH), write);
  const manifest = buildManifest(stages, state, parameters, allInputFiles, volatileArtifacts);
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const manifestFile = join(options.out, MANIFEST_PATH);
  if (!existsSync(manifestFile) || readFileSync(manifestFile, "utf8") !== manifestText) writeFileAtomic(manifestFile, manifestText, write);
  return { outcomes, manifestPath: join(options.displayOut ?? options.out, MANIFEST_PATH) };
}

/** The state with its stages in data-flow order, whichever finished first (then any no longer registered): the same runs give the same bytes. */
function inStageOrder(state: PipelineState, names: readonly string[]): PipelineState {
  const stages: Record<string, StageRecord> = {};
  for (const name of [...names, ...Object.keys(state.stages)]) if (state.stages[name] !== undefined) stages[name] ??= state.stages[name]!;
  return { ...state, stages };
}

/** Each stage's input artifact names (under its parameters), after checking that every input has a producer upstream. */
function wire(stages: readonly Stage[], parameters: Record<string, unknown>): Map<string, string[]> {
  const produced = new Map<string, string>();
  const wiring = new Map<string, string[]>();
  const all = new Set(stages.flatMap((s) => s.outputs));
  for (const stage of stages) {
    if (wiring.has(stage.name)) throw new Error(`two stages are named "${stage.name}"`);
    const names: string[] = [];
    const used = stage.inputsUsed?.(parameters[stage.name] as StageParameters) ?? stage.inputs;
    for (const input of stage.inputs) {
      if (!used.includes(input)) continue;
      const optional = input.endsWith("?");
      const name = optional ? input.slice(0, -1) : input;
      if (produced.has(name)) names.push(name);
      else if (all.has(name)) throw new Error(`stage "${stage.name}" reads "${name}", which is produced by a later stage; reorder the stages`);
      else if (!optional) throw new Error(`stage "${stage.name}" reads "${name}", which no stage produces`);
    }
    for (const output of stage.outputs) {
      if (produced.has(output)) throw new Error(`"${output}" is produced by both "${produced.get(output)}" and "${stage.name}"`);
      produced.set(output, stage.name);
    }
    wiring.set(stage.name, names);
  }
  return wiring;
}

/** Defaults with `--param stage.path=value` applied; unknown names are a usage error. */
function resolveParameters(stages: readonly Stage[], overrides: Record<string, unknown>): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const stage of stages) resolved[stage.name] = structuredClone(stage.defaults);
  for (const [key, value] of Object.entries(overrides)) {
    const [stageName, ...path] = key.split(".");
    const known = listParameters(stages);
    if (!(stageName! in resolved) || path.length === 0) {
      throw new UsageError(`unknown parameter "${key}"; parameters are ${known.join(", ")}`);
    }
    let target = resolved[stageName!] as Record<string, unknown>;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      if (typeof next !== "object" || next === null || Array.isArray(next)) throw new UsageError(`unknown parameter "${key}"; parameters are ${known.join(", ")}`);
      target = next as Record<string, unknown>;
    }
    const last = path[path.length - 1]!;
    if (!(last in target)) throw new UsageError(`unknown parameter "${key}"; parameters are ${known.join(", ")}`);
    const words = stages.find((stage) => stage.name === stageName)!.parameterWords?.[path.join(".")] ?? [];
    if (typeof target[last] !== typeof value && !(typeof value === "string" && words.includes(value))) {
      const or = words.length > 0 ? ` or one of ${words.map((word) => JSON.stringify(word)).join(", ")}` : "";
      throw new UsageError(`parameter "${key}" expects a ${typeof target[last]}${or} (default ${JSON.stringify(target[last])}), got ${JSON.stringify(value)}`);
    }
    target[last] = value;
  }
  return resolved;
}

/** Every parameter as "stage.path=default". */
export function listParameters(stages: readonly Stage[]): string[] {
  const out: string[] = [];
  const walk = (prefix: string, value: unknown) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(`${prefix}.${k}`, v);
    } else out.push(`${prefix}=${JSON.stringify(value)}`);
  };
  for (const stage of stages) walk(stage.name, stage.defaults);
  return out;
}

/** The state of the last run, and its file's text ("" without one) so that an unchanged state is not written again. */
function readState(out: string, log: (line: string) => void): { state: PipelineState; text: string } {
  const path = join(out, STATE_PATH);
  const empty: PipelineState = { schema: "ckpt-lab/pipeline-state@1", stages: {} };
  if (!existsSync(path)) return { state: empty, text: "" };
  try {
    const text = readFileSync(path, "utf8");
    const state = JSON.parse(text) as PipelineState;
    if (state.schema !== empty.schema || typeof state.stages !== "object") throw new Error(`unexpected schema ${JSON.stringify(state.schema)}`);
    return { state, text };
  } catch (error) {
    log(`note: ignoring ${path} (${(error as Error).message}); every stage will run`);
    return { state: empty, text: "" };
  }
}

function outputChanges(out: string, outputs: Record<string, string>, sha256Of: (path: string) => string): string[] {
  const missing: string[] = [];
  const edited: string[] = [];
  for (const [path, sha256] of Object.entries(outputs)) {
    const file = join(out, path);
    if (!existsSync(file)) missing.push(path);
    else if (sha256Of(path) !== sha256) edited.push(path);
  }
  const reasons: string[] = [];
  if (missing.length > 0) reasons.push(`outputs missing: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""}`);
  if (edited.length > 0) reasons.push(`outputs edited since the last run: ${edited.slice(0, 3).join(", ")}${edited.length > 3 ? ` and ${edited.length - 3} more` : ""}`);
  return reasons;
}

function buildManifest(
  stages: readonly Stage[],
  state: PipelineState,
  parameters: Record<string, unknown>,
  inputFiles: Map<string, string>,
  volatileArtifacts: ReadonlySet<string>,
) {
  // A volatile output's hash changes from run to run: the manifest names it without one,
  // so that the manifest itself stays byte-identical.
  const outputs: ({ path: string; sha256: string; stage: string } | { path: string; stage: string; volatile: true })[] = [];
  for (const stage of stages) {
    const record = state.stages[stage.name];
    for (const [path, sha256] of Object.entries(record?.outputs ?? {})) {
      outputs.push(record?.volatile?.includes(path) ? { path, stage: stage.name, volatile: true } : { path, sha256, stage: stage.name });
    }
  }
  outputs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    schema: "ckpt-lab/report-manifest@1",
    tool: { name: "ckpt-lab", version: TOOL_VERSION },
    inputs: [...inputFiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, sha256]) => ({ path, sha256 })),
    stages: stages.map((stage) => {
      const record = state.stages[stage.name];
      return {
        name: stage.name,
        summary: stage.summary,
        inputs: Object.fromEntries(Object.entries(record?.inputs ?? {}).map(([name, sha256]) => [name, volatileArtifacts.has(name) ? "volatile" : sha256])),
        inputFiles: record?.inputFiles ?? {},
        parameters: parameters[stage.name],
        outputs: Object.keys(record?.outputs ?? {}),
      };
    }),
    outputs,
  };
}

function shorten(reason: string, max = 140): string {
  return reason.length <= max ? reason : `${reason.slice(0, max - 1)}… (--explain for all)`;
}

