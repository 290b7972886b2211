/**
 * Gather a sweep's cell results into one table (docs/science.md §6.5). Checks first: every
 * cell of the spec present exactly once (a cell written twice with different results, by
 * shards whose folders are merged together, is an error; twice the same bytes is not),
 * nothing from cells the spec does not have, one spec hash and one code version
 * throughout, and one content for each file the cells read (a model, a policy module, a trace). Then, in cell order, one row per cell, and per parameter combination (the
 * cells that differ only by seed) each metric's mean with its 95 % interval, and — for
 * models that compare policies on common random numbers — each policy's metrics and its
 * paired difference to the first policy, seed by seed. No timestamps, no shard numbers:
 * N = 1 and any N give the same bytes.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { meanWithCi, type MeanWithCi } from "../../stats/mean-confidence-interval";
import { csvField } from "../../shared/csv-field";
import { InputError } from "../../shared/errors";
import { stableStringify } from "../../shared/hash";
import { CELL_SCHEMA, type CellFile } from "./run-shard";
import { sweepCells, sweepSpecHash, type SweepSpec } from "./sweep-spec";

export interface MergedGroup {
  /** The cells' common parameters (the axis values and fixed parameters; not the seed). */
  parameters: Record<string, unknown>;
  seeds: number[];
  metrics: Record<string, MeanWithCi>;
  policies?: Record<string, Record<string, MeanWithCi>>;
  /** Per policy other than the first: (policy − first policy), paired by seed. */
  pairedDifferences?: Record<string, Record<string, MeanWithCi>>;
}

export interface MergedSweep {
  schema: "ckpt-lab/sweep-merged@1";
  simulator: string;
  specHash: string;
  codeVersion: string;
  axes: string[];
  cells: { index: number; id: string; seed: number; parameters: Record<string, unknown>; metrics: Record<string, number>; policies?: Record<string, Record<string, number>> }[];
  groups: MergedGroup[];
}

/** Read and check the cells of `spec` from the `cells/` folders of `folders`, and aggregate them. */
export function mergeSweep(spec: SweepSpec, folders: string[]): MergedSweep {
  const expected = sweepCells(spec);
  const specHash = sweepSpecHash(spec);
  const found = new Map<string, { path: string; text: string }[]>();
  for (const folder of folders) {
    const dir = join(folder, "cells");
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((n) => /^[0-9a-f]{16}\.json$/.test(n)).sort()) {
      const id = name.slice(0, 16);
      const list = found.get(id) ?? [];
      list.push({ path: join(dir, name), text: readFileSync(join(dir, name), "utf8") });
      found.set(id, list);
    }
  }
  const expectedIds = new Set(expected.map((c) => c.id));
  const missing = expected.filter((c) => !found.has(c.id));
  const foreign = [...found.keys()].filter((id) => !expectedIds.has(id));
  const conflicting = [...found.entries()].filter(([, copies]) => new Set(copies.map((c) => c.text)).size > 1);
  const problems: string[] = [];
  if (missing.length > 0) {
    problems.push(
      `${missing.length} of ${expected.length} cells have no result: ${missing.slice(0, 10).map((c) => `cell ${c.index} (${c.id})`).join(", ")}${missing.length > 10 ? ", …" : ""}` +
        ` — run the shards that hold them (cell c belongs to shard c mod N) and merge again`,
    );
  }
  if (foreign.length > 0) problems.push(`${foreign.length} result file(s) belong to cells this spec does not have (${foreign.slice(0, 5).join(", ")}): results of another sweep in the same folder`);
  if (conflicting.length > 0) {
    problems.push(`${conflicting.length} cell(s) have different results in several places (${conflicting.slice(0, 5).map(([, copies]) => copies.map((c) => c.path).join(" vs ")).join("; ")})`);
  }
  const files = expected.filter((c) => found.has(c.id)).map((cell) => {
    const { path, text } = found.get(cell.id)![0]!;
    let file: CellFile;
    try {
      file = JSON.parse(text) as CellFile;
    } catch (error) {
      throw new InputError(`${path}: not a cell result (invalid JSON: ${(error as Error).message}); delete it and rerun its shard`, { cause: error });
    }
    if (file.schema !== CELL_SCHEMA || file.id !== cell.id) throw new InputError(`${path}: not a cell result of cell ${cell.id}; delete it and rerun its shard`);
    return file;
  });
  const specHashes = new Set(files.map((f) => f.specHash));
  if (specHashes.size > 1 || (files.length > 0 && !specHashes.has(specHash))) {
    problems.push(`the results were written for ${specHashes.size} different spec versions (${[...specHashes].join(", ")}), not all for this spec (${specHash}): rerun the shards of this spec`);
  }
  const codeVersions = new Set(files.map((f) => f.codeVersion));
  if (codeVersions.size > 1) problems.push(`the results were written by ${codeVersions.size} different code versions (${[...codeVersions].join(", ")}): rerun every shard with one version`);
  const contents = new Map<string, Set<string>>();
  for (const f of files) for (const [input, sha256] of Object.entries(f.inputs ?? {})) contents.set(input, (contents.get(input) ?? new Set()).add(sha256));
  for (const [input, versions] of contents) {
    if (versions.size > 1) problems.push(`the cells read ${versions.size} different versions of ${input} (sha256 ${[...versions].map((v) => v.slice(0, 12)).join(", ")}): it changed while the shards ran; rerun them`);
  }
  if (problems.length > 0) throw new InputError(`cannot merge the sweep: ${problems.join("; ")}`);

  const cells = files.map((f) => ({
    index: f.index,
    id: f.id,
    seed: f.seed,
    parameters: f.parameters,
    metrics: f.result.metrics,
    ...(f.result.policies ? { policies: f.result.policies } : {}),
  }));
  return {
    schema: "ckpt-lab/sweep-merged@1",
    simulator: spec.simulator,
    specHash,
    codeVersion: files[0]?.codeVersion ?? "",
    axes: spec.axes.map((a) => a.name),
    cells,
    groups: groups(cells),
  };
}

function groups(cells: MergedSweep["cells"]): MergedGroup[] {
  const byParameters = new Map<string, MergedSweep["cells"]>();
  for (const cell of cells) {
    const key = stableStringify(cell.parameters);
    byParameters.set(key, [...(byParameters.get(key) ?? []), cell]);
  }
  return [...byParameters.values()].map((members) => {
    const metricNames = [...new Set(members.flatMap((m) => Object.keys(m.metrics)))];
    const group: MergedGroup = {
      parameters: members[0]!.parameters,
      seeds: members.map((m) => m.seed),
      metrics: Object.fromEntries(metricNames.map((name) => [name, meanWithCi(members.map((m) => m.metrics[name]!).filter(Number.isFinite))])),
    };
    const policyNames = [...new Set(members.flatMap((m) => Object.keys(m.policies ?? {})))];
    if (policyNames.length > 0) {
      const names = [...new Set(members.flatMap((m) => Object.values(m.policies ?? {}).flatMap((p) => Object.keys(p))))];
      const value = (m: MergedSweep["cells"][number], policy: string, name: string) => m.policies?.[policy]?.[name];
      group.policies = Object.fromEntries(
        policyNames.map((policy) => [policy, Object.fromEntries(names.map((name) => [name, meanWithCi(members.map((m) => value(m, policy, name)).filter((v): v is number => Number.isFinite(v)))]))]),
      );
      const base = policyNames[0]!;
      group.pairedDifferences = Object.fromEntries(
        policyNames.slice(1).map((policy) => [
          `${policy} − ${base}`,
          Object.fromEntries(
            names.map((name) => [
              name,
              meanWithCi(
                members
                  .map((m) => {
                    const a = value(m, policy, name);
                    const b = value(m, base, name);
                    return a === undefined || b === undefined ? NaN : a - b;
                  })
                  .filter(Number.isFinite),
              ),
            ]),
          ),
        ]),
      );
    }
    return group;
  });
}

/** The merged groups as CSV: one row per parameter combination (axes first), each metric's mean and interval. */
export function mergedCsv(merged: MergedSweep): string {
  // The axes first, in the spec's order, then the fixed parameters.
  const parameterKeys = [...new Set([...merged.axes, ...merged.groups.flatMap((g) => Object.keys(flatten(g.parameters)))])];
  const columns: { header: string; value: (g: MergedGroup) => unknown }[] = [
    ...parameterKeys.map((key) => ({ header: key, value: (g: MergedGroup) => flatten(g.parameters)[key] })),
    { header: "seeds", value: (g: MergedGroup) => g.seeds.length },
  ];
  const statistic = (header: string, pick: (g: MergedGroup) => MeanWithCi | undefined) => {
    columns.push({ header: `${header} mean`, value: (g) => pick(g)?.mean }, { header: `${header} ci95 low`, value: (g) => pick(g)?.low }, { header: `${header} ci95 high`, value: (g) => pick(g)?.high });
  };
  for (const name of [...new Set(merged.groups.flatMap((g) => Object.keys(g.metrics)))]) statistic(name, (g) => g.metrics[name]);
  for (const group of [merged.groups[0]]) {
    for (const [policy, metrics] of Object.entries(group?.policies ?? {})) for (const name of Object.keys(metrics)) statistic(`${policy} ${name}`, (g) => g.policies?.[policy]?.[name]);
    for (const [pair, metrics] of Object.entries(group?.pairedDifferences ?? {})) for (const name of Object.keys(metrics)) statistic(`${pair} ${name}`, (g) => g.pairedDifferences?.[pair]?.[name]);
  }
  const cell = (v: unknown) => {
    if (v === undefined || v === null || (typeof v === "number" && !Number.isFinite(v))) return "";
    return csvField(typeof v === "number" || typeof v === "string" ? v : JSON.stringify(v));
  };
  return [columns.map((c) => cell(c.header)).join(","), ...merged.groups.map((g) => columns.map((c) => cell(c.value(g))).join(","))].join("\n") + "\n";
}

function flatten(value: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, key));
    else out[key] = v;
  }
  return out;
}
