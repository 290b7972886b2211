/**
 * Read and check a sweep file (see `sweep-spec.ts` for the format). Every refusal names
 * the file, the field (with its path, e.g. `sweeps[1].sizeMb`), what was expected with an
 * example, and what was found; unknown fields are refused (a typo would otherwise silently
 * fall back to a default) with the closest known name suggested.
 *
 * Sub-sweeps inherit every top-level field and override what they set. When `sweeps` is
 * present only the sub-sweeps run: the top-level `m`/`sizeMb` are then defaults for them
 * (write `"sweeps": [{}, …]` to also run the top-level grid).
 */
import { InputError } from "../shared/errors";
import { parseJson } from "../input/parse-json";
import {
  BACKENDS,
  FIO_DEFAULTS,
  LAUNCHERS,
  SWEEP_DEFAULTS,
  SYNC_MODES,
  TEMPLATE_PLACEHOLDERS,
  type BackendName,
  type ExcludeRule,
  type SubSweep,
  type Sweep,
  type SweepFields,
} from "./sweep-spec";

const FIELD_KEYS = [
  "backend",
  "dir",
  "m",
  "sizeMb",
  "sizeSetsMb",
  "repetitions",
  "sync",
  "pagesPerWrite",
  "timeoutS",
  "pauseS",
  "keepFiles",
  "command",
  "app",
  "appReadyTimeoutS",
  "launcher",
  "nodes",
  "remoteShell",
  "processesPerNode",
  "fsyncOnClose",
  "direct",
  "blockSizeKib",
] as const satisfies readonly (keyof SweepFields)[];

const COMMAND_ONLY = ["command", "app", "appReadyTimeoutS"] as const;
const EMULATE_ONLY = ["pagesPerWrite"] as const;
const FIO_ONLY = ["fsyncOnClose", "direct", "blockSizeKib"] as const;
/** The fields that apply to each backend only (`sync` applies to emulate and fio). */
const ONLY_FOR: Record<BackendName, readonly (keyof SweepFields)[]> = { command: COMMAND_ONLY, emulate: EMULATE_ONLY, fio: FIO_ONLY };
const TOP_ONLY_KEYS = ["name", "cluster", "order", "seed", "sweeps"] as const;
const COMMENT_KEYS = ["description", "$schema", "comment"] as const;
const LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;

const MINIMAL_EXAMPLE =
  '{ "backend": "emulate", "dir": "/tmp/ckpt-target", "m": [1, 2, 4], "sizeMb": [8, 32], "repetitions": 3 }';

type Partial_ = Partial<SweepFields> & { exclude?: ExcludeRule[] };

/** Parse the text of a sweep file; `where` (its path) prefixes every message. */
export function parseSweep(text: string, where: string, defaultName = "sweep"): Sweep {
  return validateSweep(parseJson(text, where, `a sweep file is a JSON object, e.g. ${MINIMAL_EXAMPLE}`), where, defaultName);
}

/** Check an already parsed sweep value. */
export function validateSweep(value: unknown, where: string, defaultName = "sweep"): Sweep {
  const fail = (path: string, expected: string, found: unknown, example?: string): never => {
    throw new InputError(
      `${where}: ${path ? `"${path}"` : "the sweep"} must be ${expected}; found ${describe(found)}.${example ? ` Example: ${example}` : ""}`,
    );
  };
  if (!isObject(value)) fail("", "a JSON object", value, MINIMAL_EXAMPLE);
  const top = value as Record<string, unknown>;
  checkKeys(top, [...FIELD_KEYS, "exclude", ...TOP_ONLY_KEYS, ...COMMENT_KEYS], "", where);

  const name = top.name === undefined ? sanitizeLabel(defaultName) : top.name;
  if (typeof name !== "string" || !LABEL_PATTERN.test(name)) {
    fail("name", "a label of letters, digits, '.', '_' or '-' (it names the runs)", top.name, '"name": "azur-like"');
  }
  const cluster = top.cluster ?? null;
  if (cluster !== null && (typeof cluster !== "string" || !LABEL_PATTERN.test(cluster))) {
    fail("cluster", "a label of letters, digits, '.', '_' or '-' (written to the trace's cluster column)", cluster, '"cluster": "azur"');
  }
  const order = top.order ?? SWEEP_DEFAULTS.order;
  if (order !== "random" && order !== "grid") {
    fail("order", '"random" (default: seeded shuffle, so slow drifts of the machine do not line up with m) or "grid"', order, '"order": "grid"');
  }
  const seed = top.seed ?? SWEEP_DEFAULTS.seed;
  if (typeof seed !== "number" || !Number.isInteger(seed)) fail("seed", "an integer", seed, '"seed": 42');

  const base = readFields(top, "", fail);
  let subSweeps: SubSweep[];
  if (top.sweeps === undefined) {
    subSweeps = [complete(base, "", where)];
  } else {
    if (!Array.isArray(top.sweeps) || top.sweeps.length === 0) {
      fail("sweeps", "a non-empty array of sub-sweeps (objects overriding top-level fields)", top.sweeps, '"sweeps": [{}, { "sizeMb": [256], "m": [1, 2] }]');
    }
    subSweeps = (top.sweeps as unknown[]).map((entry, index) => {
      const path = `sweeps[${index}]`;
      if (!isObject(entry)) fail(path, "an object overriding top-level fields", entry, '{ "sizeMb": [256], "m": [1, 2] }');
      const own = entry as Record<string, unknown>;
      for (const key of TOP_ONLY_KEYS) {
        if (key in own) fail(`${path}.${key}`, `absent: "${key}" is only allowed at the top level`, own[key]);
      }
      checkKeys(own, [...FIELD_KEYS, "exclude", ...COMMENT_KEYS], path, where);
      const fields = readFields(own, `${path}.`, fail);
      const merged: Partial_ = { ...base, ...fields, exclude: [...(base.exclude ?? []), ...(fields.exclude ?? [])] };
      return complete(merged, path, where, own);
    });
  }
  return { name: name as string, cluster: cluster as string | null, order: order as Sweep["order"], seed: seed as number, subSweeps };
}

function readFields(
  raw: Record<string, unknown>,
  prefix: string,
  fail: (path: string, expected: string, found: unknown, example?: string) => never,
): Partial_ {
  const out: Partial_ = {};
  const at = (key: string) => `${prefix}${key}`;
  if (raw.backend !== undefined) {
    if (!(BACKENDS as readonly unknown[]).includes(raw.backend)) fail(at("backend"), `one of ${BACKENDS.map((b) => `"${b}"`).join(", ")}`, raw.backend, '"backend": "emulate"');
    out.backend = raw.backend as SweepFields["backend"];
  }
  if (raw.dir !== undefined) {
    if (typeof raw.dir !== "string" || raw.dir.trim() === "") fail(at("dir"), "a directory path (where the images are written)", raw.dir, '"dir": "/tmp/ckpt-target"');
    out.dir = raw.dir as string;
  }
  if (raw.m !== undefined) out.m = readCounts(raw.m, at("m"), fail);
  // [] is allowed: in a sub-sweep it drops the inherited sizes (e.g. for mixed-size runs only).
  if (raw.sizeMb !== undefined) out.sizeMb = Array.isArray(raw.sizeMb) && raw.sizeMb.length === 0 ? [] : readSizes(raw.sizeMb, at("sizeMb"), fail);
  if (raw.sizeSetsMb !== undefined) {
    const sets = raw.sizeSetsMb;
    if (!Array.isArray(sets) || sets.length === 0 || !sets.every((s) => Array.isArray(s) && s.length > 0)) {
      fail(at("sizeSetsMb"), "a non-empty array of non-empty arrays of sizes in MB (one size per process of a run)", sets, '"sizeSetsMb": [[105, 451, 135], [20, 390]]');
    }
    out.sizeSetsMb = (sets as unknown[][]).map((set, i) => readSizes(set, `${at("sizeSetsMb")}[${i}]`, fail));
  }
  if (raw.repetitions !== undefined) out.repetitions = readInteger(raw.repetitions, at("repetitions"), 1, 100_000, fail, '"repetitions": 3');
  if (raw.sync !== undefined) {
    const list = Array.isArray(raw.sync) ? raw.sync : [raw.sync];
    if (list.length === 0 || !list.every((s) => (SYNC_MODES as readonly unknown[]).includes(s))) {
      fail(at("sync"), `one of ${SYNC_MODES.map((s) => `"${s}"`).join(", ")} or an array of them`, raw.sync, '"sync": ["fsync", "dsync"]');
    }
    out.sync = unique(list as SweepFields["sync"]);
  }
  if (raw.pagesPerWrite !== undefined) out.pagesPerWrite = readInteger(raw.pagesPerWrite, at("pagesPerWrite"), 1, 512, fail, '"pagesPerWrite": 1');
  if (raw.timeoutS !== undefined) out.timeoutS = readNumber(raw.timeoutS, at("timeoutS"), false, fail, '"timeoutS": 600');
  if (raw.pauseS !== undefined) out.pauseS = readNumber(raw.pauseS, at("pauseS"), true, fail, '"pauseS": 2');
  if (raw.appReadyTimeoutS !== undefined) out.appReadyTimeoutS = readNumber(raw.appReadyTimeoutS, at("appReadyTimeoutS"), false, fail, '"appReadyTimeoutS": 120');
  for (const key of ["keepFiles", "fsyncOnClose", "direct"] as const) {
    if (raw[key] === undefined) continue;
    if (typeof raw[key] !== "boolean") fail(at(key), "true or false", raw[key], `"${key}": true`);
    out[key] = raw[key] as boolean;
  }
  if (raw.blockSizeKib !== undefined) out.blockSizeKib = readInteger(raw.blockSizeKib, at("blockSizeKib"), 4, 65536, fail, '"blockSizeKib": 1024');
  for (const key of ["command", "app"] as const) {
    if (raw[key] === undefined) continue;
    const template = raw[key];
    const example = key === "command" ? '"command": "cr_checkpoint --file {dir}/context.{pid} {pid}"' : '"app": "cr_run ./memhog {size_mb}"';
    if (typeof template !== "string" || template.trim() === "") fail(at(key), "a shell command template", template, example);
    const unknown = templatePlaceholders(template as string).filter((p) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(p));
    if (unknown.length > 0) {
      fail(at(key), `a template whose placeholders are among ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(" ")}`, `{${unknown[0]}} in ${JSON.stringify(template)}`, example);
    }
    if (key === "app" && templatePlaceholders(template as string).includes("pid")) {
      fail(at(key), "a template without {pid} (the app's pid is what {pid} means in the command)", template, example);
    }
    out[key] = template as string;
  }
  if (raw.launcher !== undefined) {
    if (!(LAUNCHERS as readonly unknown[]).includes(raw.launcher)) fail(at("launcher"), `one of ${LAUNCHERS.map((l) => `"${l}"`).join(", ")}`, raw.launcher, '"launcher": "ssh"');
    out.launcher = raw.launcher as SweepFields["launcher"];
  }
  if (raw.nodes !== undefined) {
    const nodes = raw.nodes;
    if (!Array.isArray(nodes) || nodes.length === 0 || !nodes.every((n) => typeof n === "string" && NODE_PATTERN.test(n))) {
      fail(at("nodes"), "a non-empty array of host names", nodes, '"nodes": ["node-1", "node-2"] (or pass --nodes-file)');
    }
    if (new Set(nodes as string[]).size !== (nodes as string[]).length) fail(at("nodes"), "a list without repeated hosts", nodes);
    out.nodes = nodes as string[];
  }
  if (raw.remoteShell !== undefined) {
    const argv = raw.remoteShell;
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string" && a !== "") || !argv.some((a) => (a as string).includes("{node}"))) {
      fail(at("remoteShell"), 'a non-empty array of arguments, one of them containing {node}', argv, '"remoteShell": ["oarsh", "{node}"]');
    }
    out.remoteShell = argv as string[];
  }
  if (raw.processesPerNode !== undefined) out.processesPerNode = readInteger(raw.processesPerNode, at("processesPerNode"), 1, 1024, fail, '"processesPerNode": 1');
  if (raw.exclude !== undefined) {
    const rules = raw.exclude;
    const example = '"exclude": [{ "m": [8], "sizeMb": [256] }]';
    if (!Array.isArray(rules)) fail(at("exclude"), "an array of matchers", rules, example);
    out.exclude = (rules as unknown[]).map((rule, i) => {
      const path = `${at("exclude")}[${i}]`;
      if (!isObject(rule) || Object.keys(rule as object).length === 0) fail(path, "an object with some of m, sizeMb, sync", rule, example);
      const r = rule as Record<string, unknown>;
      const extra = Object.keys(r).find((k) => !["m", "sizeMb", "sync"].includes(k));
      if (extra !== undefined) fail(`${path}.${extra}`, "absent: a matcher has only m, sizeMb and sync", r[extra], example);
      const parsed: ExcludeRule = {};
      if (r.m !== undefined) parsed.m = readCounts(r.m, `${path}.m`, fail);
      if (r.sizeMb !== undefined) parsed.sizeMb = readSizes(r.sizeMb, `${path}.sizeMb`, fail);
      if (r.sync !== undefined) {
        const list = Array.isArray(r.sync) ? r.sync : [r.sync];
        if (!list.every((s) => (SYNC_MODES as readonly unknown[]).includes(s))) fail(`${path}.sync`, `one of ${SYNC_MODES.join(", ")} or an array of them`, r.sync);
        parsed.sync = list as ExcludeRule["sync"];
      }
      return parsed;
    });
  }
  return out;
}

/** Fill defaults, then check what only the whole (merged) sub-sweep can tell. */
function complete(fields: Partial_, path: string, where: string, own: Record<string, unknown> = {}): SubSweep {
  const label = path === "" ? "the sweep" : `"${path}"`;
  const missing = (what: string, example: string): never => {
    throw new InputError(`${where}: ${label} has no ${what}. Example: ${example}. The smallest sweep file is ${MINIMAL_EXAMPLE}`);
  };
  if (fields.backend === undefined) missing('"backend" ("emulate", "command" or "fio")', '"backend": "emulate"');
  if ((fields.sizeMb?.length ?? 0) + (fields.sizeSetsMb?.length ?? 0) === 0) missing('"sizeMb" (application sizes in MB) nor "sizeSetsMb"', '"sizeMb": [8, 32]');
  if ((fields.sizeMb?.length ?? 0) > 0 && fields.m === undefined) missing('"m" (process counts) to go with "sizeMb"', '"m": [1, 2, 4]');
  const backend = fields.backend!;
  // A field that does not apply to the backend is refused where it is written; inherited
  // from the top level (shared by sub-sweeps of both backends) it is ignored.
  const setHere = (key: keyof Partial_) => (path === "" ? fields[key] !== undefined : key in own);
  for (const other of BACKENDS) {
    if (other === backend) continue;
    for (const key of ONLY_FOR[other]) {
      if (!setHere(key)) continue;
      const why = backend === "command" ? " (the command does its own I/O)" : "";
      throw new InputError(`${where}: ${label}: "${key}" applies to the "${other}" backend only, and this one uses "${backend}"${why}; remove it or set "backend": "${other}".`);
    }
  }
  if (backend === "command" && setHere("sync")) {
    throw new InputError(`${where}: ${label}: "sync" applies to the "emulate" and "fio" backends only (the command does its own I/O); remove it.`);
  }
  if (backend === "command") {
    if (fields.command === undefined) missing('"command" (the backend is "command")', '"command": "cr_checkpoint --file {dir}/context.{pid} {pid}"');
    const usesPid = templatePlaceholders(fields.command!).includes("pid");
    if (usesPid && fields.app === undefined) {
      throw new InputError(`${where}: ${label}: "command" uses {pid} but there is no "app" to start and checkpoint; add e.g. "app": "cr_run ./memhog {size_mb}" (or "ckpt harness hold --size-mb {size_mb}").`);
    }
  }
  return {
    backend,
    dir: fields.dir ?? SWEEP_DEFAULTS.dir,
    m: fields.m ?? [],
    sizeMb: fields.sizeMb ?? [],
    sizeSetsMb: fields.sizeSetsMb ?? [],
    repetitions: fields.repetitions ?? SWEEP_DEFAULTS.repetitions,
    sync: backend === "command" ? [] : (fields.sync ?? SWEEP_DEFAULTS.sync),
    pagesPerWrite: fields.pagesPerWrite ?? SWEEP_DEFAULTS.pagesPerWrite,
    timeoutS: fields.timeoutS ?? SWEEP_DEFAULTS.timeoutS,
    pauseS: fields.pauseS ?? SWEEP_DEFAULTS.pauseS,
    keepFiles: fields.keepFiles ?? SWEEP_DEFAULTS.keepFiles,
    command: backend === "command" ? fields.command! : null,
    app: backend === "command" ? (fields.app ?? null) : null,
    appReadyTimeoutS: fields.appReadyTimeoutS ?? SWEEP_DEFAULTS.appReadyTimeoutS,
    launcher: fields.launcher ?? SWEEP_DEFAULTS.launcher,
    nodes: fields.nodes ?? [],
    remoteShell: fields.remoteShell ?? SWEEP_DEFAULTS.remoteShell,
    processesPerNode: fields.processesPerNode ?? SWEEP_DEFAULTS.processesPerNode,
    ...(backend === "fio"
      ? { fsyncOnClose: fields.fsyncOnClose ?? FIO_DEFAULTS.fsyncOnClose, direct: fields.direct ?? FIO_DEFAULTS.direct, blockSizeKib: fields.blockSizeKib ?? FIO_DEFAULTS.blockSizeKib }
      : {}),
    exclude: fields.exclude ?? [],
  };
}

/** The `{name}` placeholders of a template, in order of appearance. */
export function templatePlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}\s]*)\}/g)].map((match) => match[1]!);
}

function readCounts(value: unknown, path: string, fail: (path: string, expected: string, found: unknown, example?: string) => never): number[] {
  const expected = 'a process count (integer ≥ 1), an array of them, or a range { "from": 1, "to": 30, "step": 1 }';
  const example = '"m": [1, 2, 4] or "m": { "from": 1, "to": 30 }';
  if (isObject(value)) {
    const range = value as Record<string, unknown>;
    const extra = Object.keys(range).find((k) => !["from", "to", "step"].includes(k));
    if (extra !== undefined || !isCount(range.from) || !isCount(range.to) || (range.step !== undefined && !isCount(range.step)) || (range.to as number) < (range.from as number)) {
      fail(path, expected, value, example);
    }
    const step = (range.step as number | undefined) ?? 1;
    const counts: number[] = [];
    for (let m = range.from as number; m <= (range.to as number); m += step) counts.push(m);
    return counts;
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every(isCount)) fail(path, expected, value, example);
  return unique(list as number[]);
}

function readSizes(value: unknown, path: string, fail: (path: string, expected: string, found: unknown, example?: string) => never): number[] {
  const list = Array.isArray(value) ? value : [value];
  const ok = list.length > 0 && list.every((v) => typeof v === "number" && Number.isFinite(v) && v > 0 && v <= 1_000_000);
  if (!ok) fail(path, "a size in MB (10^6 bytes, > 0) or a non-empty array of them", value, '"sizeMb": [8, 32]');
  return path.includes("sizeSetsMb") ? (list as number[]) : unique(list as number[]);
}

function readInteger(
  value: unknown,
  path: string,
  min: number,
  max: number,
  fail: (path: string, expected: string, found: unknown, example?: string) => never,
  example: string,
): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) fail(path, `an integer from ${min} to ${max}`, value, example);
  return value as number;
}

function readNumber(
  value: unknown,
  path: string,
  zeroAllowed: boolean,
  fail: (path: string, expected: string, found: unknown, example?: string) => never,
  example: string,
): number {
  const ok = typeof value === "number" && Number.isFinite(value) && (zeroAllowed ? value >= 0 : value > 0) && value <= MAX_DURATION_S;
  if (!ok) fail(path, `a number of seconds ${zeroAllowed ? "≥ 0" : "> 0"} and at most ${MAX_DURATION_S} (11.5 days; see MAX_DURATION_S)`, value, example);
  return value as number;
}

/**
 * The longest duration a sweep may ask for. Node's timers fire at once past 2^31 − 1 ms
 * (24.8 days), and a run's time limit adds "timeoutS", "appReadyTimeoutS" and 30 s, so
 * each stays at or below 10^6 s.
 */
export const MAX_DURATION_S = 1_000_000;

function checkKeys(raw: Record<string, unknown>, allowed: readonly string[], path: string, where: string): void {
  for (const key of Object.keys(raw)) {
    if (allowed.includes(key)) continue;
    const suggestion = closest(key, allowed);
    throw new InputError(
      `${where}: unknown field "${path ? `${path}.` : ""}${key}"${suggestion ? `; did you mean "${suggestion}"?` : ""} Known fields: ${allowed.filter((k) => !k.startsWith("$")).join(", ")}.`,
    );
  }
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = candidate.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 4096;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = typeof value === "string" && value.startsWith("{") ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function sanitizeLabel(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  return cleaned === "" ? "sweep" : cleaned;
}
