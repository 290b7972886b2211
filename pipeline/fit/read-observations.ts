/**
 * Read an observations file: the artifact `ckpt ingest --out` writes (schema
 * "ckpt-lab/observations@1", recognised by the ingest stage's `parseObservationsArtifact`),
 * or a bare `Observations` object (what a notebook or a test builds). Every value the fit
 * uses is checked, so that a truncated or hand-edited file is refused with the path of the
 * first wrong value instead of producing a meaningless fit.
 */
import { readFileSync } from "node:fs";
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
  const positive = (value: unknown, where: string): number =>
    typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fail(where, "a finite number > 0", value);
  const nonNegative = (value: unknown, where: string): number =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fail(where, "a finite number ≥ 0", value);
  const count = (value: unknown, where: string): number =>
    typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : fail(where, "an integer ≥ 1", value);
  const text = (value: unknown, where: string): string => (typeof value === "string" ? value : fail(where, "a string", value));
  const texts = (value: unknown, where: string, nullable: boolean): Record<string, string | null> => {
    const record = object(value, where);
    for (const [key, item] of Object.entries(record)) {
      if (!(typeof item === "string" || (nullable && item === null))) fail(`${where}.${key}`, nullable ? "a string or null" : "a string", item);
    }
    return record as Record<string, string | null>;
  };
  return { fail, object, array, positive, nonNegative, count, text, texts };
}

/** Check that a parsed value is `Observations`; `file` names it in messages. */
export function validateObservations(value: unknown, file = "observations"): Observations {
  const check = checker(file);
  const root = check.object(value, "observations");
  const run = (item: unknown, where: string): RunObservation => {
    const r = check.object(item, where);
    return {
      runId: check.text(r.runId, `${where}.runId`),
      m: check.count(r.m, `${where}.m`),
      vGb: check.positive(r.vGb, `${where}.vGb`),
      aggregatedBwMbPerS: check.positive(r.aggregatedBwMbPerS, `${where}.aggregatedBwMbPerS`),
      uniformSizeMb: r.uniformSizeMb === null ? null : check.positive(r.uniformSizeMb, `${where}.uniformSizeMb`),
      ...(r.source !== undefined ? { source: check.text(r.source, `${where}.source`) } : {}),
      ...(r.attributes !== undefined ? { attributes: check.texts(r.attributes, `${where}.attributes`, false) as Record<string, string> } : {}),
    };
  };
  const point = (item: unknown, where: string): SeriesPoint => {
    const p = check.object(item, where);
    return {
      sizeMb: check.positive(p.sizeMb, `${where}.sizeMb`),
      m: check.count(p.m, `${where}.m`),
      vGb: check.positive(p.vGb, `${where}.vGb`),
      count: check.count(p.count, `${where}.count`),
      meanBwMbPerS: check.positive(p.meanBwMbPerS, `${where}.meanBwMbPerS`),
      sdBwMbPerS: check.nonNegative(p.sdBwMbPerS, `${where}.sdBwMbPerS`),
    };
  };
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
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new InputError(`cannot read observations "${path}": ${(error as Error).message}. Give the file written by \`ckpt ingest --out\`.`, {
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path}: not valid JSON (${(error as Error).message}); expected the observations written by \`ckpt ingest --out\`.`, {
      cause: error,
    });
  }
  const isBare = typeof value === "object" && value !== null && !("schema" in value) && "series" in value;
  if (isBare) return { observations: validateObservations(value, path), upstreamInputs: [] };
  const artifact = parseObservationsArtifact(value, path);
  return { observations: validateObservations(artifact.observations, path), upstreamInputs: Array.isArray(artifact.inputs) ? artifact.inputs : [] };
}
