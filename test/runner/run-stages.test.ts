import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runStages, type RunStagesOptions } from "../../pipeline/runner/run-stages";
import type { Stage } from "../../pipeline/runner/stage";

/**
 * A three-stage pipeline over a temporary folder: "parse" reads an external file,
 * "square" reads parse's artifact, "render" writes a report file. Each stage's code is a
 * small module file, so that editing it can be simulated.
 */
let dir: string;
let runs: string[];

function moduleFile(name: string, body = "export const x = 1;\n"): string {
  const path = join(dir, "src", `${name}.ts`);
  writeFileSync(path, body);
  return path;
}

function stages(): Stage[] {
  const parse: Stage = {
    name: "parse",
    summary: "reads numbers",
    inputs: [],
    outputs: ["numbers"],
    module: join(dir, "src", "parse.ts"),
    defaults: { scale: 1 },
    inputFiles: (options) => options.traces,
    async run(context) {
      runs.push("parse");
      const values = context.inputFiles.flatMap((f) => readFileSync(f.path, "utf8").trim().split(/\s+/).map(Number));
      return { artifacts: { numbers: values.map((v) => v * (context.parameters as { scale: number }).scale) } };
    },
  };
  const square: Stage = {
    name: "square",
    summary: "squares them",
    inputs: ["numbers", "missing-upstream?"],
    outputs: ["squares"],
    module: join(dir, "src", "square.ts"),
    defaults: {},
    async run(context) {
      runs.push("square");
      expect(Object.keys(context.inputs)).toEqual(["numbers"]);
      // Squares of absolute values: a sign change upstream leaves this output unchanged.
      return { artifacts: { squares: (context.inputs.numbers as number[]).map((v) => v * v) } };
    },
  };
  const render: Stage = {
    name: "render",
    summary: "writes a report",
    inputs: ["squares"],
    outputs: [],
    module: join(dir, "src", "render.ts"),
    defaults: { title: "sums" },
    async run(context) {
      runs.push("render");
      const squares = context.inputs.squares as number[];
      return { artifacts: {}, files: [{ path: "report/total.txt", content: `${(context.parameters as { title: string }).title}: ${squares.reduce((a, b) => a + b, 0)}\n` }] };
    },
  };
  return [parse, square, render];
}

function options(extra: Partial<RunStagesOptions> = {}): RunStagesOptions {
  return { out: join(dir, "out"), traces: [join(dir, "numbers.txt")], codeRoot: join(dir, "src"), projectRoot: dir, ...extra };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ckpt-runner-"));
  mkdirSync(join(dir, "src"));
  moduleFile("lib");
  moduleFile("parse", 'import { x } from "./lib";\nexport const y = x;\n');
  moduleFile("square");
  moduleFile("render");
  writeFileSync(join(dir, "numbers.txt"), "1 2 3\n");
  runs = [];
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("runStages", () => {
  it("runs every stage the first time, then skips them all and says why", async () => {
    const first = await runStages(stages(), options());
    expect(runs).toEqual(["parse", "square", "render"]);
    expect(first.outcomes.every((o) => o.ran && /no record of a previous run/.test(o.reasons[0]!))).toBe(true);
    expect(readFileSync(join(dir, "out", "report", "total.txt"), "utf8")).toBe("sums: 14\n");
    runs = [];
    const lines: string[] = [];
    const second = await runStages(stages(), options({ log: (l) => lines.push(l) }));
    expect(runs).toEqual([]);
    expect(second.outcomes.map((o) => o.ran)).toEqual([false, false, false]);
    expect(second.outcomes[0]!.reasons[0]).toMatch(/inputs, parameters and code unchanged/);
    expect(lines.filter((l) => /^\[\d\/3\] \w+: skipped in \d+\.\d s/.test(l))).toHaveLength(3);
  });

  it("reruns exactly the stages downstream of a changed input file, naming the file", async () => {
    await runStages(stages(), options());
    writeFileSync(join(dir, "numbers.txt"), "1 2 4\n");
    runs = [];
    const run = await runStages(stages(), options({ explain: true }));
    expect(runs).toEqual(["parse", "square", "render"]);
    expect(run.outcomes[0]!.reasons[0]).toBe(`input files changed: ${join(dir, "numbers.txt")} (modified)`);
    expect(run.outcomes[1]!.reasons[0]).toBe("input artifacts changed: numbers (modified)");
    expect(readFileSync(join(dir, "out", "report", "total.txt"), "utf8")).toBe("sums: 21\n");
  });

  it("ignores a touch that leaves the content unchanged", async () => {
    await runStages(stages(), options());
    writeFileSync(join(dir, "numbers.txt"), "1 2 3\n");
    runs = [];
    await runStages(stages(), options());
    expect(runs).toEqual([]);
  });

  it("stops a change where a stage's output comes out identical", async () => {
    await runStages(stages(), options());
    writeFileSync(join(dir, "numbers.txt"), "-1 -2 -3\n");
    runs = [];
    await runStages(stages(), options());
    expect(runs).toEqual(["parse", "square"]); // squares unchanged → render skipped
  });

  it("reruns a stage whose parameter changed, and what depends on its output", async () => {
    await runStages(stages(), options());
    runs = [];
    const run = await runStages(stages(), options({ parameterOverrides: { "render.title": "total" } }));
    expect(runs).toEqual(["render"]);
    expect(run.outcomes[2]!.reasons).toEqual(['parameters changed: title: "sums" → "total"']);
    await expect(runStages(stages(), options({ parameterOverrides: { "render.colour": "red" } }))).rejects.toThrow(
      /unknown parameter "render.colour"; parameters are parse.scale=1, render.title="sums"/,
    );
    await expect(runStages(stages(), options({ parameterOverrides: { "parse.scale": "two" } }))).rejects.toThrow(/expects a number/);
  });

  it("takes the words a stage declares for a parameter besides its default's type, and only those", async () => {
    const withWords = () => stages().map((stage) => (stage.name === "parse" ? { ...stage, parameterWords: { scale: ["two"] } } : stage));
    runs = [];
    await runStages(withWords(), options({ parameterOverrides: { "parse.scale": "two" } }));
    expect(runs).toContain("parse");
    await expect(runStages(withWords(), options({ parameterOverrides: { "parse.scale": "three" } }))).rejects.toThrow(
      /parameter "parse.scale" expects a number or one of "two" \(default 1\), got "three"/,
    );
  });

  it("reruns a stage whose code changed, including a module it imports", async () => {
    await runStages(stages(), options());
    moduleFile("lib", "export const x = 2;\n");
    runs = [];
    const run = await runStages(stages(), options());
    expect(runs).toEqual(["parse"]); // parse's output did not change, so the rest is skipped
    expect(run.outcomes[0]!.reasons).toEqual(["code changed: lib.ts (modified)"]);
  });

  it("reruns a stage whose output was deleted or edited, and with --force", async () => {
    await runStages(stages(), options());
    rmSync(join(dir, "out", "report", "total.txt"));
    runs = [];
    let run = await runStages(stages(), options());
    expect(runs).toEqual(["render"]);
    expect(run.outcomes[2]!.reasons).toEqual(["outputs missing: report/total.txt"]);
    writeFileSync(join(dir, "out", "artifacts", "squares.json"), "[]\n");
    runs = [];
    run = await runStages(stages(), options());
    expect(runs).toEqual(["square"]);
    expect(run.outcomes[1]!.reasons).toEqual(["outputs edited since the last run: artifacts/squares.json"]);
    runs = [];
    await runStages(stages(), options({ force: true }));
    expect(runs).toEqual(["parse", "square", "render"]);
  });

  it("neither waits for nor reruns on an input its parameters say it does not read", async () => {
    const unread = () => {
      const list = stages();
      list[2]!.inputsUsed = (parameters) => ((parameters as { title: string }).title === "fixed" ? [] : ["squares"]);
      list[2]!.run = async (context) => {
        runs.push("render");
        return { artifacts: {}, files: [{ path: "report/total.txt", content: `inputs: ${Object.keys(context.inputs).join(",")}\n` }] };
      };
      return list;
    };
    const fixed = { parameterOverrides: { "render.title": "fixed" } };
    await runStages(unread(), options(fixed));
    expect(readFileSync(join(dir, "out", "report", "total.txt"), "utf8")).toBe("inputs: \n");
    writeFileSync(join(dir, "numbers.txt"), "1 2 4\n");
    runs = [];
    await runStages(unread(), options(fixed));
    expect(runs).toEqual(["parse", "square"]);
    runs = [];
    await runStages(unread(), options());
    expect(runs).toEqual(["render"]);
    expect(readFileSync(join(dir, "out", "report", "total.txt"), "utf8")).toBe("inputs: squares\n");
  });

  it("keeps an output whose bytes a rerun reproduces (same file, not rewritten) and replaces one that changed", async () => {
    await runStages(stages(), options());
    const inode = (path: string) => statSync(join(dir, "out", path)).ino;
    const before = { numbers: inode("artifacts/numbers.json"), total: inode("report/total.txt") };
    await runStages(stages(), options({ force: true, parameterOverrides: { "render.title": "total" } }));
    expect(inode("artifacts/numbers.json")).toBe(before.numbers);
    expect(inode("report/total.txt")).not.toBe(before.total);
    expect(readFileSync(join(dir, "out", "report", "total.txt"), "utf8")).toBe("total: 14\n");
  });

  it("removes files a stage no longer produces, and writes a manifest without timestamps", async () => {
    await runStages(stages(), options());
    const renamed = stages();
    renamed[2]!.run = async () => ({ artifacts: {}, files: [{ path: "report/other.txt", content: "x\n" }] });
    renamed[2]!.defaults = { title: "changed" };
    await runStages(renamed, options());
    expect(existsSync(join(dir, "out", "report", "total.txt"))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(dir, "out", "manifest.json"), "utf8"));
    expect(manifest.outputs.map((o: { path: string }) => o.path)).toEqual(["artifacts/numbers.json", "artifacts/squares.json", "report/other.txt"]);
    expect(manifest.inputs).toEqual([{ path: join(dir, "numbers.txt"), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(manifest.stages[2].parameters).toEqual({ title: "changed" });
    expect(JSON.stringify(manifest)).not.toMatch(/20\d\d-\d\d-\d\d/);
  });

  it("names volatile outputs (measured durations) in the manifest without a hash, so the manifest stays identical", async () => {
    const timed = stages();
    timed[1]!.outputs = ["squares", "timings"];
    timed[1]!.volatileOutputs = ["timings"];
    const run = timed[1]!.run;
    let tick = 0;
    timed[1]!.run = async (context) => {
      const result = await run(context);
      tick += 1;
      return { artifacts: { ...result.artifacts, timings: { micros: tick } }, files: [{ path: "report/time.txt", content: `${tick}\n`, volatile: true }] };
    };
    await runStages(timed, options());
    const first = readFileSync(join(dir, "out", "manifest.json"), "utf8");
    await runStages(timed, options({ force: true }));
    expect(readFileSync(join(dir, "out", "manifest.json"), "utf8")).toBe(first);
    const manifest = JSON.parse(first);
    expect(manifest.outputs).toContainEqual({ path: "artifacts/timings.json", stage: "square", volatile: true });
    expect(manifest.outputs).toContainEqual({ path: "report/time.txt", stage: "square", volatile: true });
    expect(readFileSync(join(dir, "out", "report", "time.txt"), "utf8")).toBe("2\n");
  });

  it("refuses a wiring where an input has no producer upstream", async () => {
    const broken = stages();
    broken[1]!.inputs = ["numbers", "nowhere"];
    await expect(runStages(broken, options())).rejects.toThrow(/"square" reads "nowhere", which no stage produces/);
    await expect(runStages([stages()[1]!, stages()[0]!], options())).rejects.toThrow(/produced by a later stage/);
  });
});
