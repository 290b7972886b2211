/**
 * A simulation sweep as data (docs/science.md §6.5): which simulator, its fixed
 * parameters, the axes of the grid (cartesian product, axes and values in the order
 * written), optional exclusions, and the seeds. Cells are enumerated in a canonical order —
 * first axis slowest, seed last — and each has a stable id, the hash of its parameters and
 * seed, so a cell's result never depends on the shard that ran it.
 *
 *     {
 *       "simulator": "bkt",
 *       "parameters": { "transient": "suspend" },
 *       "axes": [ { "name": "clients", "values": [5000, 10000, 20000] },
 *                 { "name": "jobs", "values": [1000, 10000] } ],
 *       "exclude": [ { "clients": 5000, "jobs": 10000 } ],
 *       "seeds": { "first": 1, "count": 10 }
 *     }
 *
 * An axis name may be a dotted path into the parameters ("server.connections"). `seeds` is
 * a list of integers or { first, count }.
 */
import { parseJson } from "../../input/parse-json";
import { fieldPosition } from "../../input/text-position";
import { InputError } from "../../shared/errors";
import { sha256OfBytes, sha256OfJson, stableStringify } from "../../shared/hash";

export interface SweepAxis {
  name: string;
  values: unknown[];
}

export interface SweepSpec {
  simulator: string;
  parameters: Record<string, unknown>;
  axes: SweepAxis[];
  exclude: Record<string, unknown>[];
  seeds: number[];
}

export interface SweepCell {
  /** Position in the canonical order, from 0. */
  index: number;
  /** sha256 (first 16 hex digits) of the canonical JSON of {parameters, seed}. */
  id: string;
  parameters: Record<string, unknown>;
  seed: number;
}

const KEYS = ["simulator", "parameters", "axes", "exclude", "seeds", "description"];

/** Parse and check a sweep spec; `where` names it in messages (a file name). */
export function parseSweepSpec(text: string, where: string): SweepSpec {
  const value = parseJson(text, where, 'a sweep spec is a JSON object with simulator, parameters, axes, seeds');
  const fail = (field: string, message: string): never => {
    throw new InputError(`${where}${fieldPosition(text, field)}: ${field}: ${message}`);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail("(top level)", "a sweep spec is a JSON object with simulator, parameters, axes, seeds");
  const spec = value as Record<string, unknown>;
  for (const key of Object.keys(spec)) if (!KEYS.includes(key)) fail(key, `unknown field; a sweep spec has ${KEYS.join(", ")}`);
  if (typeof spec.simulator !== "string" || spec.simulator === "") fail("simulator", 'the simulator to run, e.g. "bkt" or "das06"');
  const parameters = spec.parameters ?? {};
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) fail("parameters", "an object of the simulator's fixed parameters");
  const axes = spec.axes ?? [];
  if (!Array.isArray(axes)) fail("axes", 'a list of { "name": …, "values": [ … ] }');
  const names = new Set<string>();
  for (const axis of axes as unknown[]) {
    const a = axis as Partial<SweepAxis>;
    if (typeof a !== "object" || a === null || typeof a.name !== "string" || a.name === "" || !Array.isArray(a.values) || a.values.length === 0) {
      fail("axes", `each axis is { "name": "<parameter>", "values": [at least one value] }, found ${JSON.stringify(axis)}`);
    }
    if (names.has(a.name!)) fail("axes", `the axis "${a.name}" appears twice`);
    names.add(a.name!);
  }
  const exclude = spec.exclude ?? [];
  if (!Array.isArray(exclude) || exclude.some((e) => typeof e !== "object" || e === null || Array.isArray(e))) fail("exclude", "a list of objects; a cell matching every field of one is left out");
  for (const e of exclude as Record<string, unknown>[]) for (const k of Object.keys(e)) if (!names.has(k)) fail("exclude", `"${k}" is not an axis (axes: ${[...names].join(", ")})`);
  return { simulator: spec.simulator as string, parameters: parameters as Record<string, unknown>, axes: axes as SweepAxis[], exclude: exclude as Record<string, unknown>[], seeds: seedsOf(spec.seeds, fail) };
}

function seedsOf(value: unknown, fail: (field: string, message: string) => never): number[] {
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every((s) => Number.isInteger(s))) fail("seeds", "a non-empty list of integers, or { first, count }");
    if (new Set(value).size !== value.length) fail("seeds", "a seed appears twice");
    return value as number[];
  }
  const range = value as { first?: unknown; count?: unknown } | undefined;
  if (typeof range === "object" && range !== null && Number.isInteger(range.first) && Number.isInteger(range.count) && (range.count as number) >= 1) {
    return Array.from({ length: range.count as number }, (_, i) => (range.first as number) + i);
  }
  return fail("seeds", "a non-empty list of integers, or { first, count } with count ≥ 1");
}

/** The spec's identity: results of one spec are never merged with another's. */
export function sweepSpecHash(spec: SweepSpec): string {
  return sha256OfJson(spec);
}

/** Set a dotted path in a copy of the parameters. */
function withValue(parameters: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const out = structuredClone(parameters);
  const parts = path.split(".");
  let target = out;
  for (const part of parts.slice(0, -1)) {
    const next = target[part];
    target = target[part] = typeof next === "object" && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
  }
  target[parts[parts.length - 1]!] = value;
  return out;
}

/** Every cell of the sweep, in canonical order (first axis slowest, seed last). */
export function sweepCells(spec: SweepSpec): SweepCell[] {
  let combos: { parameters: Record<string, unknown>; values: Record<string, unknown> }[] = [{ parameters: structuredClone(spec.parameters), values: {} }];
  for (const axis of spec.axes) {
    combos = combos.flatMap((combo) =>
      axis.values.map((value) => ({ parameters: withValue(combo.parameters, axis.name, value), values: { ...combo.values, [axis.name]: value } })),
    );
  }
  const kept = combos.filter((combo) => !spec.exclude.some((e) => Object.entries(e).every(([k, v]) => stableStringify(combo.values[k]) === stableStringify(v))));
  const cells: SweepCell[] = [];
  for (const combo of kept) {
    for (const seed of spec.seeds) {
      cells.push({ index: cells.length, id: sha256OfBytes(stableStringify({ parameters: combo.parameters, seed })).slice(0, 16), parameters: combo.parameters, seed });
    }
  }
  return cells;
}
