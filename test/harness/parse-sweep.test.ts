import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { jsonErrorOffset } from "../../pipeline/input/json-error-offset";
import { parseSweep } from "../../pipeline/harness/parse-sweep";
import { InputError } from "../../pipeline/shared/errors";

const MINIMAL = '{ "backend": "emulate", "dir": "/tmp/ckpt-target", "m": [1, 2, 4], "sizeMb": [8, 32], "repetitions": 3 }';

function refusal(text: string): string {
  try {
    parseSweep(text, "sweep.json");
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error(`expected ${text} to be refused`);
}

describe("parseSweep", () => {
  it("refuses durations Node's timers cannot wait (#12.11: a timeoutS of 3e6 fired at once)", () => {
    const base = JSON.parse(MINIMAL);
    for (const field of ["timeoutS", "pauseS"]) {
      expect(refusal(JSON.stringify({ ...base, [field]: 3e6 }))).toMatch(new RegExp(`${field}.*at most 1000000 \\(11\\.5 days`));
    }
    expect(parseSweep(JSON.stringify({ ...base, timeoutS: 1e6 }), "sweep.json").subSweeps[0]!.timeoutS).toBe(1e6);
  });

  it("reads the issue's minimal sweep file with every default filled", () => {
    const sweep = parseSweep(MINIMAL, "sweep.json", "minimal");
    expect(sweep.name).toBe("minimal");
    expect(sweep.order).toBe("random");
    expect(sweep.subSweeps).toHaveLength(1);
    const sub = sweep.subSweeps[0]!;
    expect(sub).toMatchObject({ backend: "emulate", dir: "/tmp/ckpt-target", m: [1, 2, 4], sizeMb: [8, 32], repetitions: 3, sync: ["fsync"], launcher: "local" });
    expect(sub.command).toBeNull();
  });

  it("lets sub-sweeps inherit top-level fields and override some", () => {
    const sweep = parseSweep(
      JSON.stringify({
        backend: "emulate",
        m: { from: 1, to: 4 },
        sizeMb: [8],
        sync: "fsync",
        exclude: [{ m: [4] }],
        sweeps: [{}, { sizeMb: [64], m: [1, 2], sync: ["fsync", "dsync"], repetitions: 2 }],
      }),
      "s.json",
    );
    expect(sweep.subSweeps.map((s) => s.m)).toEqual([[1, 2, 3, 4], [1, 2]]);
    expect(sweep.subSweeps[1]).toMatchObject({ sizeMb: [64], sync: ["fsync", "dsync"], repetitions: 2 });
    expect(sweep.subSweeps[1]!.exclude).toEqual([{ m: [4] }]);
  });

  it("names the field, the expected form and what it found", () => {
    expect(refusal('{ "backend": "emulate", "m": [1, 2], "sizeMb": "32" }')).toMatch(/"sizeMb" must be a size in MB .* found "32"\. Example: "sizeMb": \[8, 32\]/);
    expect(refusal('{ "backend": "emulate", "m": [0], "sizeMb": [8] }')).toMatch(/"m" must be a process count \(integer ≥ 1\)/);
    expect(refusal('{ "backend": "emulate", "m": [1], "sizeMb": [8], "repetitions": 1.5 }')).toMatch(/"repetitions" must be an integer from 1/);
    expect(refusal('{ "backend": "emulate", "m": [1], "sizeMb": [8], "sync": "fdatasync" }')).toMatch(/"sync" must be one of "fsync", "dsync", "none"/);
    expect(refusal('{ "backend": "blcr", "m": [1], "sizeMb": [8] }')).toMatch(/"backend" must be one of "emulate", "command", "fio"; found "blcr"/);
    expect(refusal('{ "backend": "emulate", "m": [1], "sizeMb": [8], "sweeps": [{ "sizeMb": [-1] }] }')).toMatch(/"sweeps\[0\]\.sizeMb" must be/);
  });

  it("refuses unknown fields and suggests the closest one", () => {
    expect(refusal('{ "backend": "emulate", "m": [1], "sizemb": [8] }')).toMatch(/unknown field "sizemb"; did you mean "sizeMb"\?/);
    expect(refusal('{ "backend": "emulate", "m": [1], "sizeMb": [8], "sweeps": [{ "repetition": 2 }] }')).toMatch(/unknown field "sweeps\[0\]\.repetition"; did you mean "repetitions"\?/);
  });

  it("says what is missing, with the smallest sweep as an example", () => {
    expect(refusal('{ "backend": "emulate", "sizeMb": [8] }')).toMatch(/has no "m" \(process counts\).*The smallest sweep file is \{ "backend": "emulate"/);
    expect(refusal('{ "m": [1], "sizeMb": [8] }')).toMatch(/has no "backend"/);
    expect(refusal('{ "backend": "command", "m": [1], "sizeMb": [8] }')).toMatch(/has no "command"/);
    expect(refusal('{ "backend": "emulate", "m": [1], "sizeMb": [8], "sweeps": [{ "sizeMb": [] }] }')).toMatch(/"sweeps\[0\]" has no "sizeMb"/);
  });

  it("points at the line and column of a JSON syntax error", () => {
    expect(refusal('{\n  "backend": "emulate",\n  "m": [1,]\n}')).toMatch(/^sweep\.json:3:\d+: not valid JSON/);
  });

  it("checks templates and the fields of the other backend", () => {
    expect(refusal('{ "backend": "command", "m": [1], "sizeMb": [8], "command": "cr_checkpoint {pid}" }')).toMatch(/uses \{pid\} but there is no "app"/);
    expect(refusal('{ "backend": "command", "m": [1], "sizeMb": [8], "command": "x {host}" }')).toMatch(/"command" must be a template whose placeholders are among \{node\} \{pid\}.*found \{host\}/);
    expect(refusal('{ "backend": "emulate", "m": [1], "sizeMb": [8], "command": "true" }')).toMatch(/"command" applies to the "command" backend only/);
    expect(refusal('{ "backend": "command", "m": [1], "sizeMb": [8], "command": "true", "sync": "dsync" }')).toMatch(/"sync" applies to the "emulate" and "fio" backends only/);
    expect(refusal('{ "backend": "command", "m": [1], "sizeMb": [8], "command": "true", "launcher": "ssh", "remoteShell": ["ssh"] }')).toMatch(/"remoteShell" must be a non-empty array of arguments, one of them containing \{node\}/);
  });

  it("the fio backend: sync as the emulator's, its own options, the others' refused", () => {
    const sweep = parseSweep('{ "backend": "fio", "m": [1, 2], "sizeMb": [8], "sync": ["fsync", "none"], "direct": true }', "s.json");
    expect(sweep.subSweeps[0]).toMatchObject({ backend: "fio", sync: ["fsync", "none"], direct: true, fsyncOnClose: false, blockSizeKib: 1024, command: null });
    // The other backends' sweeps get no fio fields (their plans hash as before).
    expect(parseSweep('{ "backend": "emulate", "m": [1], "sizeMb": [8] }', "s.json").subSweeps[0]).not.toHaveProperty("direct");
    expect(refusal('{ "backend": "fio", "m": [1], "sizeMb": [8], "pagesPerWrite": 1 }')).toMatch(/"pagesPerWrite" applies to the "emulate" backend only, and this one uses "fio"; remove it or set "backend": "emulate"/);
    expect(refusal('{ "backend": "emulate", "m": [1], "sizeMb": [8], "direct": true }')).toMatch(/"direct" applies to the "fio" backend only, and this one uses "emulate"/);
    expect(refusal('{ "backend": "fio", "m": [1], "sizeMb": [8], "command": "true" }')).toMatch(/"command" applies to the "command" backend only/);
    expect(refusal('{ "backend": "fio", "m": [1], "sizeMb": [8], "blockSizeKib": 2 }')).toMatch(/"blockSizeKib" must be/);
    expect(refusal('{ "backend": "fio", "m": [1], "sizeMb": [8], "fsyncOnClose": "yes" }')).toMatch(/"fsyncOnClose" must be true or false/);
  });

  it("ignores inherited fields that do not apply to a sub-sweep's backend", () => {
    const sweep = parseSweep(
      JSON.stringify({ backend: "emulate", m: [1], sizeMb: [8], sync: "dsync", sweeps: [{}, { backend: "command", command: "true" }] }),
      "s.json",
    );
    expect(sweep.subSweeps[1]).toMatchObject({ backend: "command", sync: [], command: "true" });
  });
});

describe("jsonErrorOffset", () => {
  it("finds where JSON stops being valid, and nothing in valid JSON", () => {
    const cases: [string, number | null][] = [
      ['{"a": [1, 2]}', null],
      ['  {"a": "x\\u00e9\\n", "b": -1.5e3, "c": [true, false, null, {}]} ', null],
      ['{"a": [1,]}', 9],
      ['{"a" 1}', 5],
      ['{"a": tru}', 6],
      ['{"a": 1} x', 9],
      ['{"a": "open', 11],
      ['', 0],
    ];
    for (const [text, offset] of cases) {
      expect(jsonErrorOffset(text), text).toBe(offset);
      // Cross-check validity with the built-in parser.
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(offset === null, text).toBe(valid);
    }
  });
});

describe("jsonErrorOffset (property)", () => {
  it("agrees with JSON.parse on valid JSON and on mangled JSON", () => {
    const agrees = (text: string) => {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      return (jsonErrorOffset(text) === null) === valid;
    };
    fc.assert(fc.property(fc.jsonValue(), (value) => agrees(JSON.stringify(value, null, 1))), { seed: 1, numRuns: 300 });
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom("", ",", "]", "}", '"', ":", "x", "-", "\\"), (value, at, junk) => {
        const text = JSON.stringify(value);
        const cut = at % (text.length + 1);
        return agrees(text.slice(0, cut) + junk + text.slice(cut));
      }),
      { seed: 2, numRuns: 500 },
    );
  });
});

describe("the documented example sweeps", () => {
  it("are valid sweep files (docs/sweeps/*.json, and the recalibration sweep in data/traces)", () => {
    const root = join(__dirname, "..", "..");
    const files = [
      ...readdirSync(join(root, "docs", "sweeps")).map((f) => join(root, "docs", "sweeps", f)),
      ...readdirSync(join(root, "data", "traces")).filter((f) => f.endsWith(".sweep.json")).map((f) => join(root, "data", "traces", f)),
    ].filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) expect(() => parseSweep(readFileSync(file, "utf8"), file), file).not.toThrow();
    expect(readFileSync(join(root, "docs", "sweeps", "minimal.json"), "utf8").trim()).toBe(MINIMAL);
  });
});
