/**
 * Read an observations file: the artifact `ckpt ingest --out` writes (schema
 * "ckpt-lab/observations@1", recognised by the ingest stage's `parseObservationsArtifact`),
 * or a bare `Observations` object (what a notebook or a test builds). Every value the fit
 * uses is checked, so that a truncated or hand-edited file is refused with the path of the
 * first wrong value instead of producing a meaningless fit.
 */
import { integer, nonNegative as isNonNegative, positive as isPositive, text as isText, type Check } from "../input/checks";
import { parseJson } from "../input/parse-json";
import { readInputFile } from "../input/read-input";
import { parseObservationsArtifact } from "../ingest/observations-artifact";
import type { Observations, RunObservation, SeriesPoint, SizeSeries } from "../ingest/observations";
import { InputError } from "../shared/errors";

type Json = Record<string, unknown>;

function checker(file: string) {
  const fail = (where: string, expected: string, found: unknown): never => {
    throw new InputError(
      `${file}: ${where}: expected ${expected}, found ${JSON.stringify(found) ?? String(found)}. An observations file is the JSON written by \`ckpt ingest --out\`.`,
    );
  };
  const object = (value: unknown, where: string): Json =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : fail(where, "an object", value);
  const array = (value: unknown, where: string): unknown[] => (Array.isArray(value) ? value : fail(where, "an array", value));
  /** A kit check (what a value must be) as a checker that returns the value or refuses it at `where`. */
  const checked = <T>(check: Check) => (value: unknown, where: string): T => {
    const expected = check(value);
    return expected === null ? (value as T) : fail(where, expected, value);
  };
  const positive = checked<number>(isPositive);
  const nonNegative = checked<number>(isNonNegative);
  const count = checked<number>(integer(1));
  const text = checked<string>(isText);
  const texts = (value: unknown, where: string, nullable: boolean): Record<string, string | null> => {
    const record = object(value, where);
    for (const [key, item] of Object.entries(record)) {
      if (!(typeof item === "string" || (nullable && item === null))) fail(`${where}.${key}`, nullable ? "a string or null" : "a string", item);
    }
    return record as Record<string, string | null>;
  };
  /** An object's fields, each checked by its check (at `where.field`); an optional one left out when absent. */
  const fields = (value: unknown, where: string, shape: Record<string, FieldCheck>): Json => {
    const record = object(value, where);
    const out: Json = {};
    for (const [key, check] of Object.entries(shape)) {
      if (optional.has(check) && record[key] === undefined) continue;
      out[key] = check(record[key], `${where}.${key}`);
    }
    return out;
  };
  return { fail, object, array, positive, nonNegative, count, text, texts, fields };
}

type FieldCheck = (value: unknown, where: string) => unknown;
const optional = new WeakSet<FieldCheck>();
/** A field that may be absent (then left out), checked by `check` when present. */
const ifPresent = (check: FieldCheck): FieldCheck => {
  const wrapped: FieldCheck = (value, where) => check(value, where);
  optional.add(wrapped);
  return wrapped;
};
const orNull = (check: FieldCheck): FieldCheck => (value, where) => (value === null ? null : check(value, where));

/** Check that a parsed value is `Observations`; `file` names it in messages. */
export function validateObservations(value: unknown, file = "observations"): Observations {
  const check = checker(file);
  const root = check.object(value, "observations");
  const run = (item: unknown, where: string): RunObservation =>
    check.fields(item, where, {
      runId: check.text,
      m: check.count,
      vGb: check.positive,
      aggregatedBwMbPerS: check.positive,
      uniformSizeMb: orNull(check.positive),
      source: ifPresent(check.text),
      attributes: ifPresent((value, at) => check.texts(value, at, false)),
    }) as unknown as RunObservation;
  const point = (item: unknown, where: string): SeriesPoint =>
    check.fields(item, where, {
      sizeMb: check.positive,
      m: check.count,
      vGb: check.positive,
      count: check.count,
      meanBwMbPerS: check.positive,
      sdBwMbPerS: check.nonNegative,
    }) as unknown as SeriesPoint;
  const series = check.array(root.series, "series").map((item, i): SizeSeries => {
    const where = `series[${i}]`;
    const s = check.object(item, where);
    const peak = check.object(s.peak, `${where}.peak`);
    return {
      sizeMb: check.positive(s.sizeMb, `${where}.sizeMb`),
      ...(s.group !== undefined ? { group: check.texts(s.group, `${where}.group`, true) } : {}),
      points: check.array(s.points, `${where}.points`).map((p, j) => point(p, `${where}.points[${j}]`)),
      peak: { m: check.count(peak.m, `${where}.peak.m`), bwMbPerS: check.positive(peak.bwMbPerS, `${where}.peak.bwMbPerS`) },
    };
  });
  const groupBy = root.groupBy === undefined ? undefined : check.array(root.groupBy, "groupBy").map((name, i) => check.text(name, `groupBy[${i}]`));
  return {
    runs: check.array(root.runs, "runs").map((item, i) => run(item, `runs[${i}]`)),
    series,
    validationRuns: check.array(root.validationRuns, "validationRuns").map((item, i) => run(item, `validationRuns[${i}]`)),
    ...(groupBy !== undefined ? { groupBy } : {}),
  };
}

export interface ObservationsFile {
  observations: Observations;
  /** The traces the observations were ingested from (artifact files only). */
  upstreamInputs: { path: string; sha256: string }[];
}

/** Read and check an observations file (ingest artifact or bare `Observations`). */
export function readObservations(path: string): ObservationsFile {
  const value = parseJson(readInputFile(path, "observations", "Give the file written by `ckpt ingest --out`."), path, "expected the observations written by `ckpt ingest --out`.");
  const isBare = typeof value === "object" && value !== null && !("schema" in value) && "series" in value;
  if (isBare) return { observations: validateObservations(value, path), upstreamInputs: [] };
  const artifact = parseObservationsArtifact(value, path);
  return { observations: validateObservations(artifact.observations, path), upstreamInputs: Array.isArray(artifact.inputs) ? artifact.inputs : [] };
}
