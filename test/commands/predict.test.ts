/**
 * `ckpt predict`: one new burst's mean, prediction interval and duration quantiles from a
 * model written by `ckpt fit`, and its refusals (a model without replicate variance, a
 * point outside the domain unless --domain extrapolate, or its older alias warn, a level
 * outside (0, 1)).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel } from "../../pipeline/fit/fit-bandwidth-model";
import { predictionInterval } from "../../pipeline/fit/predictive-bandwidth";
import { generatedObservations } from "../fit/predictive-generators";
import { runCli } from "../cli-io";

const folder = mkdtempSync(join(tmpdir(), "ckpt-predict-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const model = fitBandwidthModel(generatedObservations({ shape: "saturating", seed: 4 }), DEFAULT_FIT_OPTIONS).model;
const modelPath = join(folder, "model.json");
writeFileSync(modelPath, JSON.stringify(model));

describe("ckpt predict", () => {
  it("prints the mean, the interval and the duration quantiles; --json carries level, mean, lower, upper in MB/s", async () => {
    const text = await runCli(["predict", "--model", modelPath, "--m", "8", "--size-mb", "512"]);
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/one checkpoint burst: m = 8 writers × 512 MB = 4\.096 GB/);
    expect(text.stdout).toMatch(/bandwidth \(MB\/s\): mean \d+\.\d\d; 95 % prediction interval \[\d+\.\d\d, \d+\.\d\d\]/);
    expect(text.stdout).toMatch(/duration \(s\): .*2\.5 %–97\.5 % quantiles \[\d+\.\d\d, \d+\.\d\d\]; done within \d+\.\d\d s with probability 0\.95/);
    const json = await runCli(["predict", "--model", modelPath, "--m", "8", "--size-mb", "512", "--level", "0.9", "--json"]);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout);
    // The library's interval at the same point (V = 8 × 512 MB = 4.096 GB).
    const expected = predictionInterval(model, 8, 4.096, 0.9);
    expect(answer).toMatchObject({ level: 0.9, mean: expected.mean, lower: expected.lower, upper: expected.upper, inDomain: true });
    expect(answer.lower).toBeLessThan(answer.mean);
    expect(answer.upper).toBeGreaterThan(answer.mean);
    // Duration = total MB / bandwidth: its bounds are the bandwidth's, swapped.
    expect(answer.durationS.upper).toBeCloseTo(4096 / answer.lower, 9);
    expect(answer.durationS.lower).toBeCloseTo(4096 / answer.upper, 9);
  });

  it("refuses a point outside the fitted domain, saying how far, and answers it with --domain extrapolate (or its older alias warn)", async () => {
    const refused = await runCli(["predict", "--model", modelPath, "--m", "40", "--size-mb", "512"]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/\(m = 40, V = 20\.48 GB\) is outside the fitted domain m ∈ \[1, 16\].*m = 40 is 24 above the largest fitted m \(16, ×2\.5\).*--domain extrapolate/);
    const extrapolated = await runCli(["predict", "--model", modelPath, "--m", "40", "--size-mb", "512", "--domain", "extrapolate", "--json"]);
    expect(extrapolated.code).toBe(0);
    expect(JSON.parse(extrapolated.stdout).inDomain).toBe(false);
    expect(extrapolated.stderr).toMatch(/warning: .*an extrapolation/);
    const warned = await runCli(["predict", "--model", modelPath, "--m", "40", "--size-mb", "512", "--domain", "warn", "--json"]);
    expect([warned.code, warned.stdout, warned.stderr]).toEqual([0, extrapolated.stdout, extrapolated.stderr]);
    const strict = await runCli(["predict", "--model", modelPath, "--m", "40", "--size-mb", "512", "--domain", "strict"]);
    expect([strict.code, strict.stderr]).toEqual([1, refused.stderr]);
  });

  it("refuses a level outside (0, 1) and a model without replicate variance (the published one), saying how to refit", async () => {
    for (const level of ["0", "1", "1.5", "-0.1"]) {
      const result = await runCli(["predict", "--model", modelPath, "--m", "8", "--size-mb", "512", `--level=${level}`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/level must be a number strictly between 0 and 1 \(e\.g\. 0\.95\), got/);
    }
    const paper = await runCli(["predict", "--model", "paper", "--m", "4", "--size-mb", "100"]);
    expect(paper.code).toBe(1);
    expect(paper.stderr).toMatch(/model "paper" has no run-to-run variance.*ckpt fit <traces> --out model\.json/);
    const older = join(folder, "older.json");
    const { predictive: _dropped, ...withoutPredictive } = model;
    writeFileSync(older, JSON.stringify(withoutPredictive));
    const old = await runCli(["predict", "--model", older, "--m", "4", "--size-mb", "100"]);
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/written before models carried it.*Refit/);
  });

  it("has --help", async () => {
    const help = await runCli(["predict", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--level/);
    expect(help.stdout).toMatch(/--domain refuse\|extrapolate/);
  });
});
