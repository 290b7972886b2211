/** `ckpt schedule --confidence` end to end: the confident plan and the mean plan, their miss probabilities, bad input. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";

const folder = mkdtempSync(join(tmpdir(), "ckpt-confidence-"));
const ckpt = (...argv: string[]) => runCli(argv);
const model = join(folder, "nfs.json");
// Eight jobs of 16–256 MB on the measured NFS cluster (at most 50 MB/s into its server): T = 12 s cuts into them.
const apps = join(folder, "apps.csv");
writeFileSync(apps, ["id,p,size_mb", "j1,437,32", "j2,574,64", "j3,711,128", "j4,848,256", "j5,985,16", "j6,1122,32", "j7,1259,64", "j8,1396,128"].join("\n") + "\n");
const base = ["schedule", "--model", model, "--apps", apps, "--deadline", "12", "--estimator", "fluid"];

beforeAll(async () => {
  const { code, stderr } = await ckpt("fit", "data/traces/nfs-8x100mbit.csv", "--out", model);
  expect(code, stderr).toBe(0);
});

describe("ckpt schedule --confidence", () => {
  it("plans on the quantile, and prints the miss probabilities of both plans and the work given up", async () => {
    const { code, stdout } = await ckpt(...base, "--confidence", "0.95", "--json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    const c = report.confidence;
    expect(c.confidence).toBe(0.95);
    expect(c.confident.missProbability).toBeLessThanOrEqual(0.05 + 1e-6);
    expect(c.mean.missProbability).toBeGreaterThan(c.confident.missProbability);
    expect(c.costS).toBeCloseTo(c.mean.plannedCtnysS - c.confident.plannedCtnysS, 9);
    // The report's own tables are the confident plan's.
    expect(report.plannedCtnys).toBe(c.confident.plannedCtnysS);
    const text = await ckpt(...base, "--confidence", "0.95");
    expect(text.stdout).toMatch(/confidence 0\.95, one factor per release, comonotone bursts: planned on the 5\.0 % quantile/);
    expect(text.stdout).toMatch(/the confidence gives up \d+ s of the mean plan's \d+ s/);
    expect(text.stdout).toMatch(/mean \(the papers'\)\s+mean\s+\d+\s+\d+\s+[\d.]+ %/);
  });

  it("--confidence mean is the papers' plan, byte for byte the output without the option", async () => {
    const without = await ckpt(...base, "--json");
    const mean = await ckpt(...base, "--confidence", "mean", "--json");
    expect(mean.code).toBe(0);
    const strip = (text: string) => text.replace(/"(schedulerMicros|micros)": [\d.e+-]+/g, "");
    expect(strip(mean.stdout)).toBe(strip(without.stdout));
    expect(JSON.parse(mean.stdout).confidence).toBeUndefined();
  });

  it("refuses a confidence outside (0, 1), saying what it found", async () => {
    for (const bad of ["0", "1", "1.5", "95", "high"]) {
      const { code, stderr } = await ckpt(...base, "--confidence", bad);
      expect(code).toBe(1);
      expect(stderr).toMatch(new RegExp(`--confidence must be a probability strictly between 0 and 1 \\(e\\.g\\. 0\\.95\\), or "mean".*found "${bad.replace(".", "\\.")}"`));
    }
  });

  it("a model without a predictive distribution: says how to refit", async () => {
    const { code, stderr } = await ckpt("schedule", "--model", "paper", "--apps", apps, "--deadline", "12", "--confidence", "0.9");
    expect(code).toBe(1);
    expect(stderr).toMatch(/--confidence 0\.9 needs the model's predictive distribution, and model "paper" has none.*`ckpt fit <traces> --out model\.json`.*--confidence mean/);
  });

  it("--exact with --confidence is a usage error", async () => {
    const { code, stderr } = await ckpt(...base, "--confidence", "0.95", "--exact");
    expect(code).toBe(2);
    expect(stderr).toMatch(/--exact solves the simultaneous start on the model's mean/);
  });
});
