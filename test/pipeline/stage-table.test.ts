/**
 * run.ts is the map of the pipeline: one stage table, both reports' stage lists filtered
 * from it, and a diagram that names every stage and every artifact. Here: every input of
 * every stage is written by a stage before it (an optional input may be missing from a
 * report, a required one never), every artifact is the catalog's (stages/catalog.ts), and
 * the diagram leaves none out.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALL_STAGES, pipelinePlan, STAGE_TABLE, STAGES, stagesUpTo } from "../../pipeline/run";
import { ARTIFACTS, isArtifactName } from "../../pipeline/stages/catalog";
import { MEASURED_CLUSTERS } from "../../pipeline/stages/measured-clusters";

const plans = {
  reproduction: pipelinePlan("reproduction", false).stages,
  cluster: pipelinePlan("cluster", false).stages,
  "cluster --with reproduction": pipelinePlan("cluster", true).stages,
};

describe("the stage table", () => {
  it("lists each stage once; the reproduction's stages are those of its rows, in the table's order", () => {
    const names = ALL_STAGES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(STAGES.map((s) => s.name)).toEqual(STAGE_TABLE.filter((r) => r.reproduction).map((r) => r.stage.name));
    for (const stages of Object.values(plans)) {
      const order = stages.map((s) => names.indexOf(s.name));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });

  it("in every report, a stage's required inputs are written by a stage before it", () => {
    for (const [plan, stages] of Object.entries(plans)) {
      const written = new Set<string>();
      for (const stage of stages) {
        for (const input of stage.inputs.filter((i) => !i.endsWith("?"))) expect(written.has(input), `${plan}: ${stage.name} reads ${input}`).toBe(true);
        for (const output of stage.outputs) written.add(output);
      }
    }
  });

  it("every optional input is written by some stage, before the reader in the table", () => {
    const before = new Set<string>();
    for (const { stage } of STAGE_TABLE) {
      for (const input of stage.inputs) expect(before.has(input.replace(/\?$/, "")), `${stage.name} reads ${input}`).toBe(true);
      for (const output of stage.outputs) before.add(output);
    }
  });

  it("names every artifact from the catalog, and the catalog holds no artifact no stage writes", () => {
    const outputs = ALL_STAGES.flatMap((s) => s.outputs);
    for (const name of [...outputs, ...ALL_STAGES.flatMap((s) => s.inputs.map((i) => i.replace(/\?$/, "")))]) expect(isArtifactName(name), name).toBe(true);
    expect(Object.keys(ARTIFACTS).sort()).toEqual([...new Set(outputs)].sort());
    for (const stage of ALL_STAGES) for (const name of stage.volatileOutputs ?? []) expect(ARTIFACTS[name as keyof typeof ARTIFACTS].volatile, name).toBe(true);
    expect(Object.values(ARTIFACTS).filter((a) => a.volatile).map((a) => a.name).sort()).toEqual(ALL_STAGES.flatMap((s) => s.volatileOutputs ?? []).sort());
  });

  it("the docs generator runs the stages up to the reproduction, not the report", () => {
    const names = stagesUpTo(STAGES, "reproduction").map((s) => s.name);
    expect(names).toEqual(["ingest", "fit", "schedule", "place", "simulate-bkt", "simulate-das06", "investigations", "reproduce"]);
    expect(() => stagesUpTo(STAGES, "nothing")).toThrow(/no stage makes the artifact "nothing"/);
  });
});

describe("run.ts's diagram", () => {
  const text = readFileSync("pipeline/run.ts", "utf8");
  const docblock = text.slice(0, text.indexOf("*/"));
  const keyed = (name: string) => {
    for (const { key } of MEASURED_CLUSTERS) name = name.replace(new RegExp(`(^|-)${key}(-|$)`), "$1<key>$2");
    return name;
  };

  it("names every stage and every artifact (a measured cluster's as <key>)", () => {
    for (const stage of ALL_STAGES) expect(docblock.includes(stage.name) || docblock.includes(keyed(stage.name)), stage.name).toBe(true);
    for (const name of Object.keys(ARTIFACTS)) expect(docblock.includes(name) || docblock.includes(keyed(name)), name).toBe(true);
  });
});
