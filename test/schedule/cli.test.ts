/** `ckpt schedule` and `ckpt campaign` end to end through the CLI's main(). */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { familyInstance } from "../../pipeline/schedule";

const folder = mkdtempSync(join(tmpdir(), "ckpt-schedule-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}
const ckpt = (...argv: string[]) => runCli(argv);

const familyA = familyInstance("A", 3);
const appsCsv = file("family-a.csv", ["id,p,size_mb", ...familyA.map((a) => `${a.id},${a.pS},${a.sizeMb}`)].join("\n") + "\n");

describe("ckpt schedule", () => {
  it("prints --help and exits 0", async () => {
    const { code, stdout } = await ckpt("schedule", "--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/Usage:\n {2}ckpt schedule --model <file\|paper> --apps <csv> --deadline <s>/);
  });

  it("--json has the promised shape", async () => {
    const { code, stdout } = await ckpt("schedule", "--model", "paper", "--apps", appsCsv, "--deadline", "180", "--k0", "1", "--criterion", "density", "--json");
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.apps.map((a: { id: string }) => a.id)).toEqual(familyA.map((a) => a.id));
    const checkpointed = result.apps.filter((a: { checkpointed: boolean }) => a.checkpointed).map((a: { id: string }) => a.id);
    expect(result.checkpointed).toEqual(checkpointed);
    expect(checkpointed.length).toBeGreaterThan(0);
    for (const app of result.apps) {
      expect(Object.keys(app)).toEqual(expect.arrayContaining(["id", "checkpointed", "start", "finish"]));
      if (app.checkpointed) expect(app.finish).toBeLessThanOrEqual(180);
      else if (app.start === null) expect(app.finish).toBeNull();
    }
    expect(result.ctnys + result.rctnys).toBe(familyA.reduce((a, b) => a + b.pS, 0));
    expect(typeof result.schedulerMicros).toBe("number");
    expect(result.schedulerMicros).toBeGreaterThan(0);
    expect(result.inputs).toMatchObject({ k0: 1, criterion: "density", estimator: "static", domain: "refuse" });
    expect(result.upperBound.ctnys).toBeGreaterThanOrEqual(result.ctnys);
    expect(result.bandwidthSteps.length).toBeGreaterThan(0);
  });

  it("prints readable tables, with --exact and --bound, and writes --out", async () => {
    const out = join(folder, "result.json");
    const { code, stdout } = await ckpt("schedule", "--model", "paper", "--apps", appsCsv, "--deadline", "180", "--exact", "--bound", "--out", out);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^strategy +checkpointed +CTNYS s/m);
    // The papers' abbreviations spelled out, once (docs/science.md §4.1).
    expect(stdout.match(/^CTNYS: cumulative computation time not yet saved \(Σ p\) of the applications checkpointed; RCTNYS: that of the others, lost when the nodes are released at T$/gm)).toHaveLength(1);
    expect(stdout).toMatch(/^exact simultaneous start/m);
    expect(stdout).toMatch(/max bw over reachable states/);
    expect(JSON.parse(readFileSync(out, "utf8")).exact.result.provenOptimal).toBe(true);
  });

  it("schedules by waves when applications share a node", async () => {
    const csv = file("nodes.csv", "id,p,size_mb,node\na,500,200,n1\nb,400,200,n1\nc,300,100,n2\nd,200,100,n2\n");
    const { code, stdout } = await ckpt("schedule", "--model", "paper", "--apps", csv, "--deadline", "600", "--json");
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.waves.map((w: { appIds: string[] }) => w.appIds)).toEqual([["a", "c"], ["b", "d"]]);
    expect(result.waves[1].startS).toBeCloseTo(result.waves[0].endS, 9);
  });

  it("reports misses when the truth model is slower than the plan", async () => {
    const slow = file("slow.json", JSON.stringify({
      schema: "ckpt-lab/bandwidth-model@1", name: "slow", form: "paper",
      coefficients: { a: -0.0155 * 0.5, b: -0.169435 * 0.5, c: 0.0004 * 0.5, d: 5.027318 * 0.5, e: 3.753154 * 0.5 },
      units: { m: "count", V: "GB (MB / 1000)", bw: "MB/s" }, domain: { mMin: 1, mMax: 18, vGbMin: 0.015, vGbMax: 3.42 }, bandwidthCapMbPerS: null,
    }));
    const { code, stderr, stdout } = await ckpt("schedule", "--model", "paper", "--truth", slow, "--apps", appsCsv, "--deadline", "180", "--estimator", "fluid", "--json");
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.missed.length).toBeGreaterThan(0);
    expect(stderr).toMatch(/warning: \d+ checkpoint\(s\) started but did not complete by T = 180 s .* the truth model is slower than the plan/);
  });

  describe("--domain: refuse | extrapolate, with the older strict | warn as aliases", () => {
    // Eight 700 MB images: five of them already weigh 3.5 GB, above the paper model's fitted
    // V ≤ 3.42 GB, so that the policy decides the plan.
    const large = file("large.csv", ["id,p,size_mb", ...Array.from({ length: 8 }, (_, i) => `big${i},${1000 - i},700`)].join("\n") + "\n");
    const run = (...extra: string[]) => ckpt("schedule", "--model", "paper", "--apps", large, "--deadline", "600", "--k0", "1", ...extra);
    /** The output less the scheduler's measured times (the only part that differs between two runs). */
    const withoutTimes = (text: string) => text.replace(/[\d.]+ µs/g, "… µs");
    const jsonWithoutTimes = (text: string) => JSON.stringify(JSON.parse(text), (key, value) => (/micros$/i.test(key) ? undefined : value));

    it("strict is refuse and warn is extrapolate: the same output, word for word", async () => {
      for (const [alias, policy] of [["strict", "refuse"], ["warn", "extrapolate"]]) {
        const [byAlias, byPolicy] = [await run("--domain", alias!), await run("--domain", policy!)];
        expect([byAlias.code, byPolicy.code]).toEqual([0, 0]);
        expect(withoutTimes(byAlias.stdout)).toBe(withoutTimes(byPolicy.stdout));
        expect(byAlias.stderr).toBe(byPolicy.stderr);
        expect(byPolicy.stdout).toContain(`domain policy ${policy}`);
        const [jsonAlias, jsonPolicy] = [await run("--domain", alias!, "--json"), await run("--domain", policy!, "--json")];
        expect(jsonWithoutTimes(jsonAlias.stdout)).toBe(jsonWithoutTimes(jsonPolicy.stdout));
        expect(JSON.parse(jsonAlias.stdout).inputs.domain).toBe(policy); // recorded in the new words
      }
      // The policy matters here, so the comparison above could fail: refuse never runs more than 4 at once.
      const [refused, extrapolated] = [JSON.parse((await run("--json")).stdout), JSON.parse((await run("--domain", "extrapolate", "--json")).stdout)];
      expect(Math.max(...refused.bandwidthSteps.map((s: { m: number }) => s.m))).toBe(4);
      expect(Math.max(...extrapolated.bandwidthSteps.map((s: { m: number }) => s.m))).toBeGreaterThan(4);
      expect(refused.inputs.domain).toBe("refuse"); // the default
    });

    it("refuses another word, listing both vocabularies, and says so in --help", async () => {
      for (const command of [["schedule", "--model", "paper", "--apps", large, "--deadline", "600"], ["campaign", "--parts", "identical"], ["predict", "--model", "paper", "--m", "2", "--size-mb", "100"]]) {
        for (const word of ["clamp", "Strict"]) {
          const { code, stderr } = await ckpt(...command, "--domain", word);
          expect({ command: command[0], code }).toEqual({ command: command[0], code: 2 });
          expect(stderr).toContain(`--domain must be one of refuse (alias strict), extrapolate (alias warn); got "${word}"`);
        }
        const help = await ckpt(command[0]!, "--help");
        expect(help.stdout.replace(/\s+/g, " ")).toMatch(/--domain refuse\|extrapolate .*\(accepts refuse \(alias strict\) \| extrapolate \(alias warn\); default: refuse\)/);
      }
    });
  });

  it("refuses bad input with exit 1 and bad usage with exit 2", async () => {
    const duplicate = file("dup.csv", "id,p,size_mb\na,1,100\na,2,100\n");
    const cases: [string[], number, RegExp][] = [
      [["--apps", appsCsv, "--deadline", "0"], 1, /deadline T must be a finite number of seconds > 0, found 0/],
      [["--apps", appsCsv, "--deadline", "100", "--k0=-1"], 1, /k0 .* must be an integer ≥ 0, found -1/],
      [["--apps", duplicate, "--deadline", "100"], 1, /dup\.csv:3: duplicate id "a"/],
      [["--apps", join(folder, "missing.csv"), "--deadline", "100"], 1, /cannot read the applications CSV/],
      [["--apps", appsCsv, "--deadline", "soon"], 2, /--deadline expects a number, got "soon"/],
      [["--apps", appsCsv, "--deadline", "100", "--criterion", "size"], 2, /--criterion must be one of p, density/],
      [["--deadline", "100"], 2, /missing required option --apps/],
    ];
    for (const [argv, expected, message] of cases) {
      const { code, stderr } = await ckpt("schedule", "--model", "paper", ...argv);
      expect({ argv, code }).toEqual({ argv, code: expected });
      expect(stderr).toMatch(message);
    }
    const badModel = await ckpt("schedule", "--model", join(folder, "nope.json"), "--apps", appsCsv, "--deadline", "100");
    expect(badModel.code).toBe(1);
  });
});

describe("ckpt campaign", () => {
  const strip = (result: { runs: { schedulerMicros: number }[] }) => result.runs.map(({ schedulerMicros: _t, ...rest }) => rest);

  it("runs a small campaign reproducibly, with the published values and progress on stderr", async () => {
    const argv = ["campaign", "--parts", "A,identical,waves", "--seeds", "2", "--k0", "0,1", "--exact", "--json"];
    const first = await ckpt(...argv);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/campaign: family A, seed 1\/2/);
    const result = JSON.parse(first.stdout);
    expect(result.families).toHaveLength(4); // 1 family × 2 criteria × 2 k0
    const row = result.families.find((r: { criterion: string; k0: number }) => r.criterion === "p" && r.k0 === 1);
    expect(row.published).toMatchObject({ ctnys: 6218, rctnys: 3996, schedulerMicros: 1834 }); // [Y11] Table 4
    expect(row.share.n).toBe(2);
    expect(row.share.low).toBeLessThanOrEqual(row.share.mean);
    expect(result.identicalSizes.map((r: { published: { checkpointed: number } }) => r.published.checkpointed)).toEqual([50, 50, 16, 8, 4]);
    expect(result.waves.map((w: { criterion: string }) => w.criterion)).toEqual(["p", "density"]);
    expect(result.familyBaselines[0].exactProvenCount).toBe(2);
    const second = JSON.parse((await ckpt(...argv)).stdout);
    expect(strip(second)).toEqual(strip(result));
  });

  it("prints tables, and refuses unknown parts", async () => {
    const { code, stdout } = await ckpt("campaign", "--parts", "B,scaling", "--seeds", "2", "--k0", "2", "--criteria", "density", "--scaling-n", "30,60", "--scaling-seeds", "2");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^B +density +2 /m);
    expect(stdout).toMatch(/Scheduler time against n and k0/);
    expect((await ckpt("campaign", "--parts", "D")).code).toBe(2);
  });
});
