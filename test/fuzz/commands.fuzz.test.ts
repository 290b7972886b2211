/**
 * The fuzz suite (issue #12): every command that reads user input, on random and mutated
 * inputs, keeps the properties of sandbox.ts — exit 0, 1 or 2, no stack trace, no NaN or
 * Infinity, nothing written outside --out — plus each command's own: row accounting for
 * traces, and no substituted value ever executed for sweeps. `ckpt ingest` has its own
 * hostile-trace suite (test/ingest/parser-properties.test.ts); here its output feeds fit.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { traceText } from "../ingest/csv-arbitraries";
import { fuzzCli, fuzzParameters } from "./sandbox";

const canaryDir = mkdtempSync(join(tmpdir(), "ckpt-fuzz-canary-"));
const canary = join(canaryDir, "executed");
afterAll(() => rmSync(canaryDir, { recursive: true, force: true }));

/** Numbers at the edges: huge, tiny, negative, zero, malformed. */
const edgyNumber = fc.oneof(
  fc.constantFrom("0", "-0", "1", "-1", "1e308", "1e-308", "5e-324", "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "", " ", "1,5", "0x10", "1_000", "٣", "1e", "."),
  fc.double({ noNaN: false }).map(String),
  fc.integer({ min: -1e9, max: 1e9 }).map(String),
);

/** Text that goes where a name goes: separators, quotes, control characters, markup. */
const hostileText = fc.oneof(
  fc.constantFrom("a", "", " ", ",", '"', "'", "\\", "\t", "\u0000", "\u2028", "<script>alert(1)</script>", "=1+1", "é", "\uFEFF", "a\nb", "$(touch x)"),
  fc.string({ maxLength: 8 }),
);

/** A CSV of the given header with rows mixing plausible values, edgy numbers and hostile text. */
function csv(header: string[], plausible: fc.Arbitrary<string>[]): fc.Arbitrary<string> {
  const cell = (k: number) => fc.oneof({ weight: 6, arbitrary: plausible[k]! }, { weight: 2, arbitrary: edgyNumber }, { weight: 1, arbitrary: hostileText });
  const row = fc.tuple(...header.map((_, k) => cell(k))).map((cells) => cells.join(","));
  return fc
    .tuple(fc.array(row, { maxLength: 12 }), fc.constantFrom("\n", "\r\n"), fc.boolean(), fc.boolean())
    .map(([rows, eol, dropColumn, bom]) => `${bom ? "\uFEFF" : ""}${(dropColumn ? header.slice(1) : header).join(",")}${eol}${rows.join(eol)}`);
}

describe("fuzz: ckpt fit on mutated traces", () => {
  it("exits cleanly, and the model it writes has only finite numbers", async () => {
    await fc.assert(
      fc.asyncProperty(traceText, fc.constantFrom("paper", "full"), fc.constantFrom("means", "runs"), async (text, form, points) => {
        const run = await fuzzCli({ "t.csv": text }, (d) => ["fit", join(d, "t.csv"), "--form", form, "--points", points, "--folds", "2", "--out", join(d, "model.json"), "--json"], ["model.json"]);
        if (run.code === 0) expect(JSON.parse(run.stdout).schema ?? "model").toBeTruthy();
      }),
      fuzzParameters(40, 1201),
    );
  });
});

describe("fuzz: ckpt place on random laws and slices", () => {
  const lawName = fc.constantFrom("exp", "exponential", "weibull", "lognormal", "hyperexp", "empirical", "gamma", "");
  const parameter = fc.tuple(fc.constantFrom("rate", "mean", "shape", "scale", "mu", "sigma", "p", "unit", "param", "x"), edgyNumber).map(([k, v]) => `${k}=${v}`);
  const lawString = fc.oneof(
    fc.tuple(lawName, fc.array(parameter, { maxLength: 4 })).map(([name, ps]) => `${name}:${ps.join(",")}`),
    fc.constantFrom("weibull:shape=0.5,scale=1e-300", "exponential:rate=1e308", "hyperexp:p=0.5,0.5;mu=1e300,1e-300;param=rate", "hyperexp:p=1;mu=1;param=mean;unit=h", "exp:mean=2.7,unit=h"),
    hostileText,
  );
  const slices = csv(["p", "c"], [fc.integer({ min: 1, max: 7200 }).map(String), fc.integer({ min: 0, max: 600 }).map(String)]);

  it("exits cleanly with a finite placement or a refusal", async () => {
    await fc.assert(
      fc.asyncProperty(lawString, slices, fc.constantFrom("paper", "complete", "bkt"), async (law, job, objective) => {
        await fuzzCli({ "job.csv": job }, (d) => ["place", "--slices", join(d, "job.csv"), "--law", law, "--objective", objective, "--policy", "all", "--json"]);
      }),
      fuzzParameters(60, 1202),
    );
  });
});

describe("fuzz: ckpt schedule on random application sets", () => {
  const apps = csv(["id", "p", "size_mb"], [fc.stringMatching(/^[a-z][0-9]{0,3}$/), fc.integer({ min: 1, max: 100 }).map(String), fc.integer({ min: 1, max: 2000 }).map(String)]);

  it("exits cleanly with a finite schedule or a refusal", async () => {
    await fc.assert(
      fc.asyncProperty(apps, edgyNumber, fc.constantFrom("0", "1", "2", "3", "-1", "1.5", "40"), fc.constantFrom("static", "fluid"), async (text, deadline, k0, estimator) => {
        await fuzzCli({ "apps.csv": text }, (d) => ["schedule", "--model", "paper", "--apps", join(d, "apps.csv"), "--deadline", deadline, "--k0", k0, "--estimator", estimator, "--json"]);
      }),
      fuzzParameters(50, 1203),
    );
  });
});

describe("fuzz: ckpt harness on random sweep files", () => {
  const value = fc.oneof(edgyNumber.map((v) => (Number.isFinite(Number(v)) ? Number(v) : v)), hostileText, fc.array(fc.integer({ min: -2, max: 9 }), { maxLength: 3 }), fc.constant(null), fc.constant({}));
  const field = fc.constantFrom("backend", "dir", "m", "sizeMb", "repetitions", "sync", "order", "seed", "timeoutS", "pauseS", "command", "app", "launcher", "name", "exclude", "sweeps", "keepFiles", "bogus");
  const sweepText = fc.oneof(
    fc.dictionary(field, value, { maxKeys: 7 }).map((o) => JSON.stringify({ backend: "emulate", dir: "/tmp/ckpt-fuzz-target", m: [1], sizeMb: [1], ...o })),
    fc.string({ maxLength: 40 }),
  );

  it("plans or refuses every sweep file cleanly", async () => {
    await fc.assert(
      fc.asyncProperty(sweepText, async (text) => {
        await fuzzCli({ "sweep.json": text }, (d) => ["harness", "plan", join(d, "sweep.json"), "--json"]);
      }),
      fuzzParameters(80, 1204),
    );
  });

  it("never executes a substituted value: hostile target folders in command templates", async () => {
    const hostileDir = fc.constantFrom(`'; touch ${canary}; '`, `"; touch ${canary}; "`, `$(touch ${canary})`, `\`touch ${canary}\``, `x y/$(touch ${canary})`, `a\nb`);
    // (A template that hands a value to a second shell, sh -c "… {dir} …", evaluates it twice
    // by its own design: templates are code, docs/security.md.)
    const template = fc.constantFrom("test -d {dir} && echo ok > {dir}/image", "echo ok > '{dir}/image'", 'echo ok > "{dir}/image"', 'echo ok > "$(printf %s {dir})/image"');
    await fc.assert(
      fc.asyncProperty(hostileDir, template, async (dirName, command) => {
        await fuzzCli(
          {},
          (d) => {
            const sweep = { backend: "command", dir: join(d, "target", dirName), m: [1], sizeMb: [1], command, timeoutS: 20 };
            writeFileSync(join(d, "sweep.json"), JSON.stringify(sweep));
            return ["harness", "run", join(d, "sweep.json"), "--out", join(d, "out"), "--quiet", "--json"];
          },
          ["out", "target", "sweep.json"],
        );
        expect(existsSync(canary)).toBe(false);
      }),
      fuzzParameters(12, 1205),
    );
  }, 120_000);
});

describe("fuzz: ckpt simulate on mutated availability traces and scenarios", () => {
  const ftaLine = fc
    .tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom("0", "1", "2", "x"), edgyNumber, edgyNumber)
    .map(([event, node, type, start, stop]) => [event, 0, node, 0, `n${node}`, type, start, stop, 0].join("\t"));
  const fta = fc.array(fc.oneof({ weight: 5, arbitrary: ftaLine }, { weight: 1, arbitrary: hostileText }), { maxLength: 15 }).map(
    (lines) => `# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason\n${lines.join("\n")}\n`,
  );

  it("trace-stats reads or refuses any FTA trace, every line accounted for", async () => {
    await fc.assert(
      fc.asyncProperty(fta, async (text) => {
        const run = await fuzzCli({ "t.tab": text }, (d) => ["simulate", "trace-stats", join(d, "t.tab"), "--rejects", join(d, "rejects.csv"), "--json"], ["rejects.csv"]);
        if (run.code === 0) {
          const { counts } = JSON.parse(run.stdout);
          expect(counts.lines).toBe(counts.accepted + counts.rejected + counts.comments);
        }
      }),
      fuzzParameters(60, 1206),
    );
  });

  it("das06 and bkt refuse or run any scenario file", async () => {
    const scenario = fc.dictionary(
      fc.constantFrom("tasks", "taskCpuS", "machineSet", "checkpoints", "startTimes", "windowDays", "seed", "clients", "jobs", "slicesPerJob", "replications", "policies", "bogus"),
      fc.oneof(edgyNumber.map((v) => (Number.isFinite(Number(v)) ? Number(v) : v)), hostileText, fc.array(fc.integer({ min: -1, max: 3 }), { maxLength: 3 })),
      { maxKeys: 4 },
    );
    await fc.assert(
      fc.asyncProperty(scenario, fc.constantFrom("das06", "bkt"), async (fields, model) => {
        // Small enough to run in milliseconds when valid.
        const base = model === "das06" ? { tasks: 2, startTimes: [0, 3600], synthetic: { seed: 1, machines: 32, days: 9 } } : { clients: 20, jobs: 3, replications: 1, policies: ["none"] };
        const guarded = Object.fromEntries(Object.entries(fields).filter(([k, v]) => !(["tasks", "clients", "jobs", "replications"].includes(k) && typeof v === "number" && v > 50)));
        await fuzzCli({ "s.json": JSON.stringify({ ...base, ...guarded }) }, (d) => ["simulate", model, join(d, "s.json"), "--json", "--quiet"]);
      }),
      fuzzParameters(30, 1207),
    );
  }, 120_000);
});
