/**
 * The input kit (pipeline/input/): file:line:column of a JSON error, the one wording of its
 * messages, the field checks, the nested merge of a scenario file over the defaults (lists
 * replaced whole, the same for both simulators' scenarios) and the flag-mapping builder.
 * Expected positions are counted by hand in the texts written here.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkFields, integer, nullOr, oneOf, positive, range } from "../../pipeline/input/checks";
import { mergeFields } from "../../pipeline/input/merge-fields";
import { cannotRead, mustBe, notValidJson, unknownField } from "../../pipeline/input/messages";
import { jsonPosition, parseJson } from "../../pipeline/input/parse-json";
import { readInputFile } from "../../pipeline/input/read-input";
import { scenarioFlags } from "../../pipeline/input/scenario-flags";
import { fieldPosition, lineColumn, lineFinder } from "../../pipeline/input/text-position";
import { loadModel } from "../../pipeline/fit/load-model";
import { readObservations } from "../../pipeline/fit/read-observations";
import { parseSweep } from "../../pipeline/harness/parse-sweep";
import { parseJsonObject } from "../../pipeline/ingest/benchmark-json";
import { readBktScenario } from "../../pipeline/simulate/bkt/bkt-scenario";
import { parseSweepSpec } from "../../pipeline/simulate/sweep/sweep-spec";
import { DAS06_DEFAULTS, readDas06Scenario } from "../../pipeline/simulate/das06/das06-scenario";
import { refusal } from "../helpers";

const scratch = mkdtempSync(join(tmpdir(), "input-kit-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("JSON positions", () => {
  it("give the line and column of the first error", () => {
    // Line 3 is `}`: the trailing comma is only an error when the object closes there.
    expect(jsonPosition('{\n  "clients": 100,\n}')).toBe(":3:1");
    // `  "m": [1,]` is line 2: its `]` is the 11th character.
    expect(jsonPosition('{\n  "m": [1,]\n}')).toBe(":2:11");
    expect(jsonPosition('{"a": 1} x')).toBe(":1:10");
    expect(jsonPosition('{"a": [1, {"b": null}]}')).toBe("");
  });

  it("count lines and columns in the whole text when the JSON starts later", () => {
    // A benchmark's output: a text line and a blank one, then the object from line 3 on; `]` at line 4, column 11.
    const text = "host: ok\n\n{\n  \"a\": [1,]\n}";
    expect(jsonPosition(text, text.indexOf("{"))).toBe(":4:11");
    expect(refusal(() => parseJson(text, "out.json", "is the file cut short?", text.indexOf("{")))).toMatch(/^out\.json:4:11: not valid JSON \(.+\); is the file cut short\?$/s);
  });

  it("line helpers agree with a count by hand", () => {
    const text = "ab\ncd\n\nef";
    const line = lineFinder(text);
    expect([0, 2, 3, 6, 7, 9].map(line)).toEqual([1, 1, 2, 3, 4, 4]);
    expect(lineColumn(text, 8)).toBe(":4:2");
    expect(fieldPosition('{\n"a": 1,\n"b": 2}', "b")).toBe(":3");
    expect(fieldPosition('{"a": 1}', "b")).toBe("");
  });
});

describe("the wording of the kit's messages", () => {
  it("says what, where and how to fix it, one way for each kind of refusal", () => {
    expect(cannotRead("the scenario", "s.json", "EACCES: permission denied", "Give a readable file.")).toBe('cannot read the scenario "s.json": EACCES: permission denied. Give a readable file.');
    expect(cannotRead("the scenario", "s.json", "EACCES")).toBe('cannot read the scenario "s.json": EACCES');
    expect(notValidJson("s.json:3:1", "Unexpected token", "expected a scenario")).toBe("s.json:3:1: not valid JSON (Unexpected token); expected a scenario");
    expect(unknownField("s.json:2", "colour", "a [BKT] scenario", ["clients", "jobs"])).toBe('s.json:2: unknown field "colour"; a [BKT] scenario has clients, jobs');
    expect(mustBe("s.json:2", "clients", "an integer in [1, 5]", 0)).toBe("s.json:2: clients must be an integer in [1, 5], found 0");
    expect(mustBe("scenario", "trace", "a file", undefined)).toBe("scenario: trace must be a file, found undefined");
  });

  it("readInputFile names the file and keeps the system's reason", () => {
    const missing = join(scratch, "missing.json");
    expect(refusal(() => readInputFile(missing, "the scenario", "Give a scenario file."))).toMatch(/^cannot read the scenario ".*missing\.json": ENOENT: no such file or directory.*\. Give a scenario file\.$/);
  });

  it("parseJson refuses with file:line:column and the fix, the parser's own words kept", () => {
    expect(refusal(() => parseJson('{\n  "a": 1\n  "b": 2\n}', "x.json", "a scenario is a JSON object"))).toMatch(/^x\.json:3:3: not valid JSON \(.*JSON.*\); a scenario is a JSON object$/);
    expect(parseJson('{"a": [1, 2]}', "x.json")).toEqual({ a: [1, 2] });
  });
});

describe("field checks", () => {
  const CHECKS = { clients: integer(1, 10), rate: positive, mode: oneOf("a", "b"), span: range(positive), trace: nullOr(oneOf("x")) };
  const where = (field: string) => `s.json(${field})`;

  it("refuse an unknown field first, then each field in order, a missing one included", () => {
    expect(refusal(() => checkFields({ colour: 1, clients: 0 }, CHECKS, "a test scenario", where))).toBe('s.json(colour): unknown field "colour"; a test scenario has clients, rate, mode, span, trace');
    expect(refusal(() => checkFields({ clients: 0, rate: -1 }, CHECKS, "a test scenario", where))).toBe("s.json(clients): clients must be an integer in [1, 10], found 0");
    expect(refusal(() => checkFields({ clients: 2, rate: 1, mode: "a", span: [1, 2] }, CHECKS, "a test scenario", where))).toBe('s.json(trace): trace must be one of "x", found undefined');
    expect(refusal(() => checkFields({ clients: 2, rate: 1, mode: "c", span: [2, 1], trace: null }, CHECKS, "a test scenario", where))).toBe('s.json(mode): mode must be one of "a", "b", found "c"');
    expect(refusal(() => checkFields({ clients: 2, rate: 1, mode: "a", span: [2, 1], trace: null }, CHECKS, "a test scenario", where))).toBe("s.json(span): span must be [min, max] with min ≤ max, each a finite number > 0, found [2,1]");
    expect(checkFields({ clients: 2, rate: 1, mode: "a", span: [1, 2], trace: null }, CHECKS, "a test scenario", where)).toEqual({ clients: 2, rate: 1, mode: "a", span: [1, 2], trace: null });
  });

  it("word a bound that is not there as such", () => {
    expect(integer(1)(0)).toBe("an integer ≥ 1");
    expect(integer(1)(2 ** 40)).toBeNull();
    expect(integer(0, 3)(1.5)).toBe("an integer in [0, 3]");
  });
});

describe("the nested merge of an override over defaults", () => {
  it("merges objects field by field, replaces lists whole and changes neither input", () => {
    const defaults = { server: { mbps: 1000, connections: 100 }, policies: ["none", "pckp"], window: null, span: [1, 5] };
    const override = { server: { model: "paper" }, policies: ["none"], window: { from: 0 }, span: { 0: 3 } };
    const before = structuredClone({ defaults, override });
    expect(mergeFields(defaults, override)).toEqual({ server: { mbps: 1000, connections: 100, model: "paper" }, policies: ["none"], window: { from: 0 }, span: { 0: 3 } });
    expect({ defaults, override }).toEqual(before);
  });

  it("never merges an object into a list of a [BKT] scenario: the field's check refuses what was written", () => {
    // slicesPerJob defaults to [1, 50]; merged into, it would become { 0: 1, 1: 10 } and hide the mistake.
    expect(refusal(() => readBktScenario('{\n  "slicesPerJob": { "1": 10 }\n}', "b.json"))).toBe('b.json:2: slicesPerJob must be [min, max] with min ≤ max, each an integer ≥ 1, found {"1":10}');
    expect(readBktScenario('{ "server": { "connections": 7 } }', "b.json").server).toEqual({ mbps: 1000, connections: 7 });
  });

  it("never merges an object into a list of a [DAS06] scenario either (it used to)", () => {
    // The default policies are a list of four; the old merge spread it into { 0: …, 1: …, 2: …, 3: … }.
    expect(refusal(() => readDas06Scenario('{\n  "policies": { "0": "FCFS" }\n}', "d.json"))).toBe('d.json:2: policies must be a non-empty list of distinct policies among FCFS, FCFS-AT, FCFS-TR, FCFS-PRDCT-DMD, found {"0":"FCFS"}');
    expect(readDas06Scenario('{ "tolerance": { "night": 0.3 } }', "d.json").tolerance).toEqual({ ...DAS06_DEFAULTS.tolerance, night: 0.3 });
  });

  it("refuses a scenario that is not an object, in one wording for both", () => {
    expect(refusal(() => readBktScenario("[1]", "b.json"))).toBe('b.json: a scenario is a JSON object of fields, e.g. { "clients": 5000, "jobs": 1000 }');
    expect(refusal(() => readDas06Scenario("3", "d.json"))).toBe('d.json: a scenario is a JSON object of fields, e.g. { "machineSet": "M04", "tasks": 75 }');
  });
});

describe("the flag-mapping builder", () => {
  type Field = "clients" | "sliceHours" | "server" | "policyModules" | "trace";
  const flags = scenarioFlags<Field>({
    fields: ["clients", "sliceHours", "server", "policyModules", "trace"],
    defaults: { clients: 5, sliceHours: [1, 5], server: { mbps: 10 }, policyModules: [], trace: null },
    nested: { server: ["mbps", "model"] },
    renamed: { policyModules: "policy-module" },
    value: (field, text) => (field === "sliceHours" || field === "policyModules" ? text.split(",").map((x) => (field === "sliceHours" ? Number(x) : x)) : field === "model" || field === "trace" ? text : Number(text)),
    nullText: { trace: "none", "server-model": "none: the link" },
  });

  it("has one flag a field in kebab-case, one a leaf of a nested field, renamed ones as named", () => {
    expect(flags.flags).toEqual(["clients", "slice-hours", "policy-module", "trace", "server-mbps", "server-model"]);
    expect(flags.flagOf("policyModules")).toBe("policy-module");
    expect(flags.flagOf("sliceHours")).toBe("slice-hours");
  });

  it("turns flags into the fields they set, a repeatable flag's values joined", () => {
    expect(flags.overrides({ clients: "7", "slice-hours": "2,3", "server-model": "paper", "policy-module": ["a.mjs", "b.mjs,c.mjs"], unrelated: "x" })).toEqual({
      clients: 7,
      sliceHours: [2, 3],
      server: { model: "paper" },
      policyModules: ["a.mjs", "b.mjs", "c.mjs"],
    });
  });

  it("states each flag's default as the flag takes it, null and absent ones in words", () => {
    expect(flags.defaultTexts).toEqual({ clients: "5", "slice-hours": "1,5", "policy-module": "", trace: "none", "server-mbps": "10", "server-model": "none: the link" });
  });
});

describe("the readers that use the kit", () => {
  // The same broken text everywhere: line 3 is `  "b": 2`, whose `"` (column 3) follows a line with no comma.
  const broken = '{\n  "a": 1\n  "b": 2\n}';

  it("all refuse a syntax error at file:line:column, each with what the file should be", () => {
    const model = join(scratch, "model.json");
    const observations = join(scratch, "observations.json");
    writeFileSync(model, broken);
    writeFileSync(observations, broken);
    expect(refusal(() => loadModel(model))).toMatch(/model\.json:3:3: not valid JSON \(.*\); is it a model written by `ckpt fit`\?$/s);
    expect(refusal(() => readObservations(observations))).toMatch(/observations\.json:3:3: not valid JSON \(.*\); expected the observations written by `ckpt ingest --out`\.$/s);
    expect(refusal(() => parseSweep(broken, "sweep.json"))).toMatch(/^sweep\.json:3:3: not valid JSON \(.*\); a sweep file is a JSON object, e\.g\. \{ "backend": "emulate"/s);
    expect(refusal(() => parseSweepSpec(broken, "spec.json"))).toMatch(/^spec\.json:3:3: not valid JSON \(.*\); a sweep spec is a JSON object with simulator, parameters, axes, seeds$/s);
    expect(refusal(() => readBktScenario(broken, "b.json"))).toMatch(/^b\.json:3:3: not valid JSON/);
    expect(refusal(() => readDas06Scenario(broken, "d.json"))).toMatch(/^d\.json:3:3: not valid JSON/);
    // A benchmark's output with two lines before its JSON: the position counts them.
    expect(refusal(() => parseJsonObject(`fio: started\nhost1 ok\n${broken}`, "fio.json"))).toMatch(/^fio\.json:5:3: not valid JSON \(.*\); is the file cut short, or was it written by two runs at once\?$/s);
  });

  it("all refuse a missing file in one wording, with what to give instead", () => {
    expect(refusal(() => loadModel(join(scratch, "absent.json")))).toMatch(/^cannot read model ".*absent\.json": ENOENT.*\. Give "paper" for the published model/);
    expect(refusal(() => readObservations(join(scratch, "absent.json")))).toMatch(/^cannot read observations ".*absent\.json": ENOENT.*\. Give the file written by `ckpt ingest --out`\.$/);
  });
});
