/**
 * Issue #12.8: laws at the edges of the doubles. Each gives a correct answer, never a stack
 * trace, NaN or Infinity. A law under which the host cannot run even the first slice (its
 * survival is 0 in doubles) is refused: the job can never finish; one that leaves it a
 * tiny chance is placed with a warning that every objective is then ≈ 0 and meaningless.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { regularizedGammaP, regularizedGammaQ } from "../../pipeline/stats/incomplete-gamma";
import { runCli } from "../cli-io";

const dir = mkdtempSync(join(tmpdir(), "ckpt-extreme-laws-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const job = join(dir, "job.csv");
writeFileSync(job, "p,c\n3600,60\n3600,60\n3600,60\n");

describe("the incomplete gamma at x near the largest doubles", () => {
  it("is P = 1, Q = 0 where Q underflows (the continued fraction used to throw at x = 3.66e303)", () => {
    for (const x of [1e3, 1e10, 3.66e303, Number.MAX_VALUE]) {
      expect(regularizedGammaQ(2, x)).toBe(x === 1e3 ? regularizedGammaQ(2, x) : 0);
      expect(regularizedGammaP(2, x)).toBe(1);
    }
    // Still exact where it matters: Q(2, 700) = e^{-700}·701 (the exponential's tail).
    expect(regularizedGammaQ(2, 700) / (Math.exp(-700) * 701)).toBeCloseTo(1, 12);
  });
});

describe("ckpt place with extreme laws", () => {
  const cases: [string, boolean][] = [
    ["weibull:shape=0.5,scale=1e-300", true],
    ["exponential:rate=1e308", true],
    ["lognormal:mu=-700,sigma=1", true],
    ["hyperexp:p=0.5,0.5;mu=1e300,1e-300;param=rate", false],
    ["exp:rate=1e-300", false],
    ["weibull:shape=50,scale=1e300", false],
    // e^{-0.2·3600} = 2e-313: a chance, if a tiny one (a warning, not a refusal).
    ["exp:rate=0.2", false],
  ];
  it.each(cases.filter(([, never]) => !never))("%s: a finite, non-negative answer for every policy", async (law) => {
    const run = await runCli(["place", "--slices", job, "--law", law, "--policy", "all", "--simulate", "200", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).not.toMatch(/NaN|Infinity/);
    const placement = JSON.parse(run.stdout);
    for (const policy of placement.policies) {
      for (const value of Object.values(policy.expectedWaste) as number[]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(Object.is(value, -0)).toBe(false);
      }
    }
    expect(placement.warnings.some((w: string) => w.includes("almost no chance to run even the first slice"))).toBe(law === "exp:rate=0.2");
  });

  it.each(cases.filter(([, never]) => never))("%s: refused, the job can never finish (exit 1, no output)", async (law) => {
    const run = await runCli(["place", "--slices", job, "--law", law, "--policy", "all"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^ckpt place: the job can never finish under .*: the host fails before the end of the first slice \(3600 s\) with probability 1 /);
    expect(run.stderr).toContain("Check the law's parameters and its unit (unit=s|min|h|d)");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("gives an exponential law's valid range: rate < 745 / (the first slice, s)", async () => {
    const run = await runCli(["place", "--slices", job, "--law", "exponential:rate=1e308"]);
    expect(run.stderr).toContain("an exponential law leaves it a chance only for rate < 0.207/s (745 / 3600 s)");
    // Just inside the range the placement is made (with the warning); just outside, refused.
    expect((await runCli(["place", "--slices", job, "--law", "exp:rate=0.2065"])).code).toBe(0);
    expect((await runCli(["place", "--slices", job, "--law", "exp:rate=0.2075"])).code).toBe(1);
  });
});
