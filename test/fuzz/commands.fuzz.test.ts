/**
 * The fuzz suite (issue #12): every command that reads user input, on random and mutated
 * inputs, keeps the properties of sandbox.ts — exit 0, 1 or 2, no stack trace, no NaN or
 * Infinity, nothing written outside --out — plus each command's own: row accounting for
 * traces, and no substituted value ever executed for sweeps. `ckpt ingest` has its own
 * hostile-trace suite (test/ingest/parser-properties.test.ts); here its output feeds fit.
 *
 * fit, place and schedule must also reach their success path: their generators mix valid
 * inputs (a campaign the paper form can be fitted on, a job and a law that can be placed,
 * applications that can be scheduled) with hostile ones, and a test asserts that at least
 * SUCCESS_SHARE of the runs exit 0 — where the success properties (schema, finite numbers,
 * every input row accounted for) are checked. Every CSV they read may carry a byte-order
 * mark, CRLF line ends and trailing blank lines; numeric options are passed as
 * `--deadline=-1`, so that a negative value is tested as a value, not read as a flag.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { bandwidthEvaluator, PAPER_MODEL } from "../../pipeline/fit/model";
import { validateModel } from "../../pipeline/fit/load-model";
import { traceText } from "../ingest/csv-arbitraries";
import { FUZZ_SCALE, fuzzCli, fuzzParameters } from "./sandbox";

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

/** How a CSV file is written: a byte-order mark or not, LF or CRLF, 0–2 trailing blank lines. */
const csvDialect = fc.record({ bom: fc.boolean(), eol: fc.constantFrom("\n", "\r\n"), blankLines: fc.integer({ min: 0, max: 2 }) });
type CsvDialect = { bom: boolean; eol: string; blankLines: number };

/** Lines (header first) as a file in the dialect: every line ended, then the blank lines. */
function csvFile(lines: string[], dialect: CsvDialect): string {
  return `${dialect.bom ? "\uFEFF" : ""}${lines.map((l) => `${l}${dialect.eol}`).join("")}${dialect.eol.repeat(dialect.blankLines)}`;
}

/** A text CSV (its lines split on LF) rewritten in the dialect: a BOM it had is kept, one the dialect asks for added. */
function inDialect(text: string, dialect: CsvDialect): string {
  const bom = text.startsWith("\uFEFF");
  const lines = (bom ? text.slice(1) : text).split("\n").map((l) => l.replace(/\r$/, ""));
  return csvFile(lines, { ...dialect, bom: bom || dialect.bom });
}

/** A CSV of the given header with rows mixing plausible values, edgy numbers and hostile text, a column maybe dropped. */
function hostileCsv(header: string[], plausible: fc.Arbitrary<string>[]): fc.Arbitrary<string> {
  const cell = (k: number) => fc.oneof({ weight: 6, arbitrary: plausible[k]! }, { weight: 2, arbitrary: edgyNumber }, { weight: 1, arbitrary: hostileText });
  const row = fc.tuple(...header.map((_, k) => cell(k))).map((cells) => cells.join(","));
  return fc
    .tuple(fc.array(row, { maxLength: 12 }), fc.boolean(), csvDialect)
    .map(([rows, dropColumn, dialect]) => csvFile([(dropColumn ? header.slice(1) : header).join(","), ...rows], dialect));
}

/** A CSV of the given header whose rows hold plausible values only (1–12 rows), in any dialect: an input the command can use. */
function validCsv(header: string[], plausible: fc.Arbitrary<string>[]): fc.Arbitrary<{ text: string; rows: string[][] }> {
  return fc
    .tuple(fc.array(fc.tuple(...plausible), { minLength: 1, maxLength: 12 }), csvDialect)
    .map(([rows, dialect]) => ({ text: csvFile([header.join(","), ...rows.map((r) => r.join(","))], dialect), rows }));
}

/** The least share of runs of fit, place and schedule that must exit 0 (their success path). */
const SUCCESS_SHARE = 0.3;

/** Count the runs that exit 0; after the property, print the share and assert it. */
function successCounter(command: string) {
  let runs = 0;
  let successes = 0;
  return {
    count(code: number): boolean {
      runs++;
      if (code === 0) successes++;
      return code === 0;
    },
    check(): void {
      console.log(`fuzz: ckpt ${command} exited 0 in ${successes} of ${runs} runs (${((100 * successes) / runs).toFixed(0)} %, at least ${100 * SUCCESS_SHARE} % required)`);
      expect(successes / runs, `ckpt ${command}: share of runs that reach the success path`).toBeGreaterThanOrEqual(SUCCESS_SHARE);
    },
  };
}

/** Every number in a JSON value, wherever it is. */
function numbersIn(value: unknown): number[] {
  if (typeof value === "number") return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(numbersIn);
  return [];
}

/**
 * A checkpoint campaign the paper form can be fitted on: 3–5 sizes, m = 1…mMax, 1–2
 * repetitions, each run's processes writing at the published model's per-process rate times
 * a seeded noise of ±10 %; run ids r1, r2, … as many as there are runs (dozens to hundreds).
 * Returns the trace's lines (header first) and its number of data rows.
 */
const SIZES_MB = [15, 46, 76, 114, 152, 229, 305];
const campaignLines = fc
  .record({
    sizes: fc.shuffledSubarray(SIZES_MB, { minLength: 3, maxLength: 5 }),
    mMax: fc.integer({ min: 4, max: 8 }),
    repetitions: fc.integer({ min: 1, max: 2 }),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  })
  .map(({ sizes, mMax, repetitions, seed }) => {
    const bw = bandwidthEvaluator(PAPER_MODEL);
    let state = seed;
    // A small LCG: the noise is part of the generated input, reproduced from its seed.
    const noise = () => {
      state = (Math.imul(state, 48271) >>> 0) % 2147483647;
      return 0.9 + 0.2 * (state / 2147483647);
    };
    const lines = ["run_id,node,m,size_mb,ckpt_mb,start_s,end_s"];
    let run = 0;
    for (const size of sizes) {
      for (let m = 1; m <= mMax; m++) {
        for (let r = 0; r < repetitions; r++) {
          run++;
          const perProcessMbPerS = bw(m, (m * size) / 1000) / m;
          for (let node = 1; node <= m; node++) lines.push(`r${run},n${node},${m},${size},${size},0,${((size / perProcessMbPerS) * noise()).toFixed(3)}`);
        }
      }
    }
    return { lines, rows: lines.length - 1 };
  });

/** A fit input: a campaign (valid, or with a few of its lines replaced by hostile text), or a mutated trace. */
const fitTrace = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(campaignLines, csvDialect).map(([c, dialect]) => ({ text: csvFile(c.lines, dialect), rows: c.rows as number | null })) },
  {
    weight: 1,
    arbitrary: fc.tuple(campaignLines, fc.array(fc.tuple(fc.nat(), hostileText), { minLength: 1, maxLength: 3 }), csvDialect).map(([c, damage, dialect]) => {
      const lines = [...c.lines];
      for (const [at, text] of damage) lines[1 + (at % c.rows)] = text;
      return { text: csvFile(lines, dialect), rows: null };
    }),
  },
  { weight: 1, arbitrary: fc.tuple(traceText, csvDialect).map(([text, dialect]) => ({ text: inDialect(text, dialect), rows: null })) },
);

describe("fuzz: ckpt fit on campaigns and mutated traces", () => {
  it("exits cleanly; when it fits, the model is valid, finite, and every row is accounted for", async () => {
    const successes = successCounter("fit");
    let paperFits = 0;
    await fc.assert(
      fc.asyncProperty(fitTrace, fc.constantFrom("paper", "paper", "full"), fc.constantFrom("means", "runs"), async (trace, form, points) => {
        let written: string | null = null;
        const run = await fuzzCli(
          { "t.csv": trace.text },
          (d) => ["fit", join(d, "t.csv"), `--form=${form}`, `--points=${points}`, "--folds=2", "--out", join(d, "model.json"), "--json"],
          ["model.json"],
          (d) => {
            written = existsSync(join(d, "model.json")) ? readFileSync(join(d, "model.json"), "utf8") : null;
          },
        );
        // A clean campaign (BOM, CRLF and blank lines included) is fitted with the papers' form, never refused.
        if (trace.rows !== null && form === "paper") expect(run.code, `${JSON.stringify(trace.text.slice(0, 300))}\n${run.stderr}`).toBe(0);
        if (!successes.count(run.code)) return;
        const printed = JSON.parse(run.stdout) as { model: unknown; ingest: { read: number; accepted: number; rejected: number } };
        // The model printed and the one written are the same valid artifact, of the form asked for, with finite numbers only.
        expect(written, "model.json written").not.toBeNull();
        const model = validateModel(JSON.parse(written!), "model.json");
        expect(model.form).toBe(form);
        if (form === "paper") paperFits++;
        expect(JSON.parse(written!)).toEqual(printed.model);
        expect(numbersIn(printed).every(Number.isFinite)).toBe(true);
        // Every row read is accepted or rejected; a clean campaign is read whole and accepted whole.
        expect(printed.ingest.read).toBe(printed.ingest.accepted + printed.ingest.rejected);
        if (trace.rows !== null) expect(printed.ingest).toEqual({ read: trace.rows, accepted: trace.rows, rejected: 0 });
      }),
      fuzzParameters(40, 1201),
    );
    successes.check();
    // The papers' form is fitted, not only refused (it needs more than the three runs of a mutated trace).
    console.log(`fuzz: the paper form was fitted in ${paperFits} runs`);
    expect(paperFits).toBeGreaterThan(0);
  }, 120_000 * FUZZ_SCALE);
});

describe("fuzz: ckpt place on random laws and slices", () => {
  const lawName = fc.constantFrom("exp", "exponential", "weibull", "lognormal", "hyperexp", "empirical", "gamma", "");
  const parameter = fc.tuple(fc.constantFrom("rate", "mean", "shape", "scale", "mu", "sigma", "p", "unit", "param", "x"), edgyNumber).map(([k, v]) => `${k}=${v}`);
  const lawString = fc.oneof(
    fc.tuple(lawName, fc.array(parameter, { maxLength: 4 })).map(([name, ps]) => `${name}:${ps.join(",")}`),
    fc.constantFrom("weibull:shape=0.5,scale=1e-300", "exponential:rate=1e308", "hyperexp:p=0.5,0.5;mu=1e300,1e-300;param=rate", "hyperexp:p=1;mu=1;param=mean;unit=h", "exp:mean=2.7,unit=h"),
    hostileText,
  );
  const validLaw = fc.constantFrom(
    "exp:mean=2.7,unit=h",
    "exp:rate=0.0001",
    "weibull:shape=0.7,scale=3,unit=h",
    "lognormal:mu=1,sigma=0.5,unit=h",
    "hyperexp:p=0.5,0.5;mu=1,3;param=mean;unit=h",
    "gamma:shape=2,scale=1,unit=h",
  );
  const plausibleSlice = [fc.integer({ min: 1, max: 7200 }).map(String), fc.integer({ min: 0, max: 600 }).map(String)];
  const slices = fc.oneof(
    { weight: 2, arbitrary: validCsv(["p", "c"], plausibleSlice).map((v) => ({ text: v.text, slices: v.rows.length as number | null })) },
    { weight: 1, arbitrary: hostileCsv(["p", "c"], plausibleSlice).map((text) => ({ text, slices: null })) },
  );

  it("exits cleanly with a finite placement or a refusal; a placement covers the job's slices", async () => {
    const successes = successCounter("place");
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 3, arbitrary: validLaw.map((law) => ({ law, valid: true })) }, { weight: 1, arbitrary: lawString.map((law) => ({ law, valid: false })) }),
        slices,
        fc.constantFrom("paper", "complete", "bkt"),
        async ({ law, valid }, job, objective) => {
          const run = await fuzzCli({ "job.csv": job.text }, (d) => ["place", `--slices=${join(d, "job.csv")}`, `--law=${law}`, `--objective=${objective}`, "--policy=all", "--json"]);
          // A valid job (BOM, CRLF and blank lines included) under a valid law is placed, never refused.
          if (valid && job.slices !== null) expect(run.code, `${law}\n${JSON.stringify(job.text)}\n${run.stderr}`).toBe(0);
          if (!successes.count(run.code)) return;
          const placement = JSON.parse(run.stdout) as { schema: string; job: { slices: number }; checkpoints: number[]; expectedWaste: number; policies: { checkpoints: number[] }[] };
          expect(placement.schema).toBe("ckpt-lab/placement@1");
          // Every slice row is a slice of the job; checkpoints are slice numbers in order, ending with the last.
          if (job.slices !== null) expect(placement.job.slices).toBe(job.slices);
          for (const checkpoints of [placement.checkpoints, ...placement.policies.map((p) => p.checkpoints)]) {
            expect(checkpoints.every((k, i) => Number.isInteger(k) && k >= 1 && k <= placement.job.slices && (i === 0 || k > checkpoints[i - 1]!))).toBe(true);
            expect(checkpoints[checkpoints.length - 1]).toBe(placement.job.slices);
          }
          expect(Number.isFinite(placement.expectedWaste) && placement.expectedWaste >= 0).toBe(true);
          expect(numbersIn(placement).every(Number.isFinite)).toBe(true);
        },
      ),
      fuzzParameters(60, 1202),
    );
    successes.check();
  }, 120_000 * FUZZ_SCALE);
});

describe("fuzz: ckpt schedule on random application sets", () => {
  const plausibleApp = [fc.stringMatching(/^[a-z][0-9]{0,3}$/), fc.integer({ min: 1, max: 100 }).map(String), fc.integer({ min: 1, max: 2000 }).map(String)];
  // Valid sets: unique ids, sizes small enough to fit the model's domain often.
  const validApps = fc
    .tuple(fc.array(fc.tuple(plausibleApp[1]!, fc.integer({ min: 1, max: 400 }).map(String)), { minLength: 1, maxLength: 12 }), csvDialect)
    .map(([rows, dialect]) => ({ text: csvFile(["id,p,size_mb", ...rows.map(([pS, size], i) => `a${i},${pS},${size}`)], dialect), apps: rows.length as number | null }));
  const apps = fc.oneof({ weight: 2, arbitrary: validApps }, { weight: 1, arbitrary: hostileCsv(["id", "p", "size_mb"], plausibleApp).map((text) => ({ text, apps: null })) });
  const deadline = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 10, max: 600 }).map((t) => ({ text: String(t), valid: true })) }, { weight: 1, arbitrary: edgyNumber.map((text) => ({ text, valid: false })) });
  const k0 = fc.oneof({ weight: 3, arbitrary: fc.constantFrom("0", "1", "2", "3").map((text) => ({ text, valid: true })) }, { weight: 1, arbitrary: fc.constantFrom("-1", "1.5", "40").map((text) => ({ text, valid: false })) });

  it("exits cleanly with a finite schedule or a refusal; a schedule accounts for every application", async () => {
    const successes = successCounter("schedule");
    await fc.assert(
      fc.asyncProperty(apps, deadline, k0, fc.constantFrom("static", "fluid"), async (input, deadlineS, k0, estimator) => {
        const run = await fuzzCli({ "apps.csv": input.text }, (d) => ["schedule", "--model=paper", `--apps=${join(d, "apps.csv")}`, `--deadline=${deadlineS.text}`, `--k0=${k0.text}`, `--estimator=${estimator}`, "--json"]);
        // A value is read as a value: never "argument is ambiguous" (a negative number taken for a flag).
        expect(run.stderr).not.toMatch(/ambiguous/);
        // Valid applications (BOM, CRLF and blank lines included) with a valid deadline and k0 are scheduled, never refused.
        if (input.apps !== null && deadlineS.valid && k0.valid) expect(run.code, `${JSON.stringify(input.text)}\n${run.stderr}`).toBe(0);
        if (!successes.count(run.code)) return;
        const schedule = JSON.parse(run.stdout) as { schema: string; apps: { id: string; pS: number; checkpointed: boolean; finish: number | null }[]; ctnys: number; rctnys: number; totalP: number; deadlineS: number };
        expect(schedule.schema).toBe("ckpt-lab/schedule@1");
        // Every application row is in the schedule once; CTNYS + RCTNYS = Σ p; a checkpointed one finished by T.
        if (input.apps !== null) expect(schedule.apps).toHaveLength(input.apps);
        expect(new Set(schedule.apps.map((a) => a.id)).size).toBe(schedule.apps.length);
        expect(schedule.ctnys + schedule.rctnys).toBeCloseTo(schedule.totalP, 6);
        expect(schedule.totalP).toBeCloseTo(schedule.apps.reduce((sum, a) => sum + a.pS, 0), 6);
        for (const a of schedule.apps) if (a.checkpointed) expect(a.finish! <= schedule.deadlineS * (1 + 1e-9)).toBe(true);
        expect(numbersIn(schedule).every(Number.isFinite)).toBe(true);
      }),
      fuzzParameters(50, 1203),
    );
    successes.check();
  }, 120_000 * FUZZ_SCALE);
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
    const successes = successCounter("simulate trace-stats");
    await fc.assert(
      fc.asyncProperty(fta, async (text) => {
        const run = await fuzzCli({ "t.tab": text }, (d) => ["simulate", "trace-stats", join(d, "t.tab"), "--rejects", join(d, "rejects.csv"), "--json"], ["rejects.csv"]);
        if (successes.count(run.code)) {
          const { counts } = JSON.parse(run.stdout);
          expect(counts.lines).toBe(counts.accepted + counts.rejected + counts.comments);
        }
      }),
      fuzzParameters(60, 1206),
    );
    // The accounting is checked only on traces it reads: they must be a fair share.
    successes.check();
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
