import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";

const folder = mkdtempSync(join(tmpdir(), "ckpt-place-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};
const job = file("job.csv", "p,c\n3600,60\n7200,120\n1800,60\n3600,60\n5400,300\n");
const BKT_AVAILABILITY = "weibull:shape=0.431,scale=1.682,unit=h"; // [BKT] Table I

const run = (...argv: string[]) => runCli(["place", ...argv]);

describe("ckpt place", () => {
  it("prints the issue's JSON fields", async () => {
    const { code, stdout } = await run("--slices", job, "--law", BKT_AVAILABILITY, "--json");
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.policy).toBe("dp");
    expect(result.objective).toBe("paper");
    expect(result.checkpoints[result.checkpoints.length - 1]).toBe(5);
    expect(result.expectedWaste).toBeGreaterThan(0);
    expect(result.solverMicros).toBeGreaterThan(0);
    expect(result.policies[0].timeline.checkpoints.length).toBe(result.checkpoints.length);
  });

  it("compares every policy, simulates, and writes the same JSON to --out", async () => {
    const out = join(folder, "placement.json");
    const { code, stdout } = await run(
      "--slices", job, "--law", BKT_AVAILABILITY, "--policy", "all", "--objective", "complete",
      "--simulate", "2000", "--seed", "4", "--json", "--out", out,
    );
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.policies.map((p: { label: string }) => p.label)).toEqual(["dp", "young (cost)", "young (work)", "daly (cost)", "daly (work)", "none"]);
    expect(result.wasteTable).toHaveLength(18); // 6 policies × 3 objectives (paper, complete, bkt)
    expect(result.policies[0].monteCarlo.restart.runs).toBe(2000);
    const written = JSON.parse(readFileSync(out, "utf8"));
    expect({ ...written, solverMicros: 0, policies: written.policies.length }).toEqual({ ...result, solverMicros: 0, policies: result.policies.length });
  });

  it("reports a baseline with the mapping asked for", async () => {
    const { stdout } = await run("--slices", job, "--law", BKT_AVAILABILITY, "--policy", "daly", "--mapping", "work", "--json");
    const result = JSON.parse(stdout);
    expect(result.policy).toBe("daly");
    expect(result.mapping).toBe("work");
    expect(result.policies).toHaveLength(2);
  });

  it("prints a readable table", async () => {
    const { code, stdout } = await run("--slices", job, "--law", "exp:mean=4,unit=h", "--policy", "all");
    expect(code).toBe(0);
    expect(stdout).toMatch(/dp: checkpoint after slices? [\d, ]+\n/);
    expect(stdout).toMatch(/young \(cost\)/);
    // Why none has a checkpoint at all.
    expect(stdout).toMatch(/^none +1 +/m);
    expect(stdout).toMatch(/^none: its one checkpoint is the one after the last slice \(5\), which every schedule ends with: it saves the job's result \(docs\/science.md §5.1\)$/m);
  });

  it("says how to see the baselines when it shows the DP alone", async () => {
    const dp = await run("--slices", job, "--law", BKT_AVAILABILITY);
    expect(dp.code).toBe(0);
    expect(dp.stdout).toMatch(/^dp +\d+ /m);
    expect(dp.stdout.trimEnd().endsWith("to compare with the baselines young, daly and none: --policy all")).toBe(true);
    const young = await run("--slices", job, "--law", BKT_AVAILABILITY, "--policy", "young");
    expect(young.stdout.trimEnd().endsWith("to compare with the baselines daly and none: --policy all")).toBe(true);
    expect((await run("--slices", job, "--law", BKT_AVAILABILITY, "--policy", "all")).stdout).not.toContain("--policy all");
  });

  it("turns sizes into costs through the bandwidth model and reads empirical laws from files", async () => {
    const sizes = file("sizes.csv", "p,size_mb\n3600,100\n7200,250\n");
    const durations = file("avail.csv", "duration\n3600\n1200\n20000\n");
    const { code, stdout } = await run("--slices", sizes, "--law", `empirical:${durations}`, "--nodes", "8", "--latency", "2", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout).costs.costsSeconds.every((c: number) => c % 60 === 0)).toBe(true);
  });

  it("says how costs were rounded", async () => {
    const odd = file("odd.csv", "p,c\n100,61\n100,90\n");
    const { code, stderr } = await run("--slices", odd, "--law", "exp:rate=1e-3");
    expect(code).toBe(0);
    expect(stderr).toMatch(/2 checkpoint cost\(s\) are not multiples of the 60 s quantum; rounded to the nearest multiple/);
  });

  it("refuses bad input with exit 1 and usage errors with exit 2", async () => {
    const cases: [string[], number, RegExp][] = [
      [["--slices", file("empty.csv", ""), "--law", "exp:rate=1"], 1, /empty, the job has no slices/],
      [["--slices", file("zero.csv", "p,c\n0,1\n"), "--law", "exp:rate=1"], 1, /zero.csv:2: p = 0; slice durations must be > 0/],
      [["--slices", file("neg.csv", "p,c\n1,-1\n"), "--law", "exp:rate=1"], 1, /neg.csv:2: c = -1/],
      [["--slices", job, "--law", "exp:rate=1e-3", "--alpha", "1.5"], 1, /α \(--alpha\) must be in \(0, 1\]/],
      [["--slices", job, "--law", "weibull:shape=0,scale=3"], 1, /shape must be a finite number > 0, got 0/],
      [["--slices", job, "--law", "pareto:k=1"], 1, /unknown law "pareto"/],
      // Costs sum to 600 s = 600,000 quanta of 1 ms: 6 × 600,001 states × 45 B = 162,000,270 B = 154.5 MiB.
      [["--slices", job, "--law", "exp:rate=1e-3", "--quantum", "0.001", "--max-memory-mb", "10"], 1, /the DP would need 3,600,006 states × 45 bytes = 154 MiB, over the 10 MiB budget/],
      [["--slices", job, "--law", "empirical:missing.csv"], 1, /cannot read durations file "missing.csv"/],
      [["--slices", job], 2, /missing required option --law/],
      [["--slices", job, "--law", "exp:rate=1", "--objective", "best"], 2, /--objective must be one of paper, complete/],
      [["--slices", job, "--law", "exp:rate=1", "--nodes", "3"], 2, /--nodes applies only to checkpoint sizes/],
      [["--slices", job, "--law", "exp:rate=1", "--bogus"], 2, /Unknown option '--bogus'/],
    ];
    for (const [argv, expectedCode, message] of cases) {
      const { code, stderr } = await run(...argv);
      expect(stderr).toMatch(message);
      expect(code).toBe(expectedCode);
    }
  });

  it("has --help", async () => {
    const { code, stdout } = await run("--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/Usage:\n  ckpt place --slices <job.csv> --law <law>/);
  });
});
