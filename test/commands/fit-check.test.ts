/**
 * `ckpt fit --check model.json new-trace`: whether new bursts fall within the model's
 * prediction intervals. A trace from the cluster the model was fitted on (new seed: runs the
 * fit never saw) is not stale; the same cluster 15 % slower is; a real log written by
 * `ckpt release` (against the Slurm stand-ins, whose jobs "checkpoint" in one poll) is read
 * and judged. Refusals: a level outside (0, 1), a model without the replicate variance, a
 * check trace with no run inside the model's domain.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel } from "../../pipeline/fit/fit-bandwidth-model";
import { predictionInterval } from "../../pipeline/fit/predictive-bandwidth";
import { binomialUpperTail } from "../../pipeline/fit/stale-check";
import type { Observations } from "../../pipeline/ingest/observations";
import { generatedObservations } from "../fit/predictive-generators";
import { recorded, useSlurmStandIns } from "../release/slurm-stand-ins";
import { runCli } from "../cli-io";

const stand = useSlurmStandIns();
// The saturating generated cluster (±7 % run-to-run noise): fitted on seed 4, checked against seed 11.
const model = fitBandwidthModel(generatedObservations({ shape: "saturating", seed: 4 }), DEFAULT_FIT_OPTIONS).model;
const fresh = generatedObservations({ shape: "saturating", seed: 11 });
const slower: Observations = { ...fresh, runs: fresh.runs.map((run) => ({ ...run, aggregatedBwMbPerS: run.aggregatedBwMbPerS * 0.85 })), series: [], validationRuns: [] };

const files = () => {
  const modelPath = join(stand.root, "model-check.json");
  writeFileSync(modelPath, JSON.stringify(model));
  const write = (name: string, observations: Observations) => {
    const path = join(stand.root, name);
    writeFileSync(path, JSON.stringify(observations));
    return path;
  };
  return { modelPath, freshPath: write("fresh.json", fresh), slowerPath: write("slower.json", slower), write };
};

type Check = { stale: boolean; checked: number; outside: number; below: number; above: number; pValue: number; expectedOutside: number; recommendation: string | null; level: number; significance: number };
const check = async (...argv: string[]) => {
  const result = await runCli(["fit", "--check", ...argv, "--json"]);
  const answer = JSON.parse(result.stdout) as Check;
  // 3 when stale, so that a cron job can act on it; 0 when the model holds.
  expect(result.code, result.stderr).toBe(answer.stale ? 3 : 0);
  return answer;
};

/** Bursts outside the interval, counted here from the library's interval (the command's count is checked against it). */
const outsideCount = (observations: Observations, level: number) =>
  observations.runs.filter((run) => {
    const { lower, upper } = predictionInterval(model, run.m, run.vGb, level);
    return run.aggregatedBwMbPerS < lower || run.aggregatedBwMbPerS > upper;
  }).length;

describe("binomialUpperTail", () => {
  it("equals the sum of the binomial probabilities, computed term by term", () => {
    for (const [n, p] of [[2, 0.05], [20, 0.05], [256, 0.05], [40, 0.3]] as const) {
      // pmf(j) = C(n, j) p^j (1 − p)^(n − j), by the ratio pmf(j + 1)/pmf(j) = (n − j)/(j + 1) · p/(1 − p).
      const pmf = [Math.pow(1 - p, n)];
      for (let j = 0; j < n; j++) pmf.push((pmf[j]! * (n - j) * p) / ((j + 1) * (1 - p)));
      for (const k of [0, 1, 2, Math.round(n * p), Math.round(n * p * 2), n]) {
        const tail = pmf.slice(k).reduce((a, b) => a + b, 0);
        expect(binomialUpperTail(k, n, p)).toBeCloseTo(tail, 12);
      }
    }
    expect(binomialUpperTail(2, 2, 0.05)).toBeCloseTo(0.0025, 15);
  });
});

describe("ckpt fit --check", () => {
  it("a trace of the same cluster (runs the fit never saw) is not stale; the same cluster 15 % slower is, with a refit recommended", async () => {
    const { modelPath, freshPath, slowerPath } = files();
    const same = await check(modelPath, "--observations", freshPath);
    expect(same.checked).toBe(fresh.runs.length);
    expect(same.outside).toBe(outsideCount(fresh, 0.95));
    expect(same.expectedOutside).toBeCloseTo(0.05 * fresh.runs.length, 12);
    expect(same.pValue).toBeCloseTo(binomialUpperTail(same.outside, same.checked, 0.05), 12);
    expect(same).toMatchObject({ stale: false, recommendation: null, level: 0.95, significance: 0.05 });
    // Measured: 15 of 256 outside (9 below, 6 above), p = 0.30.
    expect(same.pValue).toBeGreaterThanOrEqual(0.05);

    const slow = await check(modelPath, "--observations", slowerPath);
    expect(slow.outside).toBe(outsideCount(slower, 0.95));
    expect(slow.stale).toBe(true);
    expect(slow.pValue).toBeLessThan(1e-6);
    // Slower: the bursts fall below the interval, not above.
    expect(slow.below).toBeGreaterThan(slow.checked / 2);
    expect(slow.above).toBe(0);
    expect(slow.recommendation).toMatch(/^refit: `ckpt fit --observations .*slower\.json --out model\.json`/);

    const text = await runCli(["fit", "--check", modelPath, "--observations", slowerPath]);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/outside the 95 % prediction interval: \d+ \(\d+ below, 0 above\); expected while the model holds: 12\.80 \(5 %\)$/m);
    expect(text.stdout).toMatch(/at significance 0\.05: STALE/);
    expect(text.stdout).toMatch(/the cluster's bursts are slower than the model says: refit the model/);
  });

  it("reads a real release log written by ckpt release, and judges its bursts", async () => {
    const { modelPath } = files();
    stand.cluster(recorded.jobs);
    const log = join(stand.root, "release-check.jsonl");
    const release = await runCli([...stand.base(), "--nodes", "n1", "--deadline", "600", "--poll-ms", "20", "--default-size-mb", "512", "--log", log]);
    expect(release.code, release.stderr).toBe(0);
    const result = await runCli(["fit", "--check", modelPath, log, "--json"]);
    expect(result.code, result.stderr).toBe(3);
    const answer = JSON.parse(result.stdout) as Check & { ingest: { read: number; accepted: number; rejected: number } };
    // Two waves of one 512 MB job each (m = 1, V = 0.512 GB, inside the domain); the stand-ins end a job within a poll,
    // so the bursts are far faster than the fitted cluster: both above the interval, P(2 of 2 | 5 %) = 0.0025.
    expect(answer).toMatchObject({ checked: 2, outside: 2, above: 2, below: 0, stale: true });
    expect(answer.pValue).toBeCloseTo(0.0025, 12);
    expect(answer.ingest.rejected).toBe(2);
    expect(answer.recommendation).toMatch(/release-check\.jsonl --out model\.json/);
  }, 30_000);

  it("refuses a level outside (0, 1), a model without replicate variance, and a trace with no run inside the domain", async () => {
    const { modelPath, freshPath, write } = files();
    for (const level of ["0", "1", "1.5"]) {
      const result = await runCli(["fit", "--check", modelPath, "--observations", freshPath, `--level=${level}`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/--level must be a number strictly between 0 and 1 \(e\.g\. 0\.95\), got/);
    }
    const significance = await runCli(["fit", "--check", modelPath, "--observations", freshPath, "--significance", "2"]);
    expect(significance.stderr).toMatch(/--significance must be a number strictly between 0 and 1/);
    const older = join(stand.root, "older.json");
    const { predictive: _dropped, ...withoutPredictive } = model;
    writeFileSync(older, JSON.stringify(withoutPredictive));
    const old = await runCli(["fit", "--check", older, "--observations", freshPath]);
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/has no run-to-run variance .*written before models carried it.*Refit it .*ckpt fit <traces> --out model\.json/);
    const far = write("far.json", { runs: [{ runId: "big", m: 40, vGb: 20.48, aggregatedBwMbPerS: 700, uniformSizeMb: 512 }], series: [], validationRuns: [] });
    const outside = await runCli(["fit", "--check", modelPath, "--observations", far]);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/none of the 1 run\(s\) of the check trace lies inside the model's fitted domain — the first, run "big": \(m = 40, V = 20\.48 GB\) is outside the fitted domain m ∈ \[1, 16\]/);
    const mixed = await runCli(["fit", "--check", modelPath, "--observations", freshPath, "--out", "x.json"]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--check checks a model, it does not fit one: drop --out/);
    const stray = await runCli(["fit", "--observations", freshPath, "--level", "0.9"]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/--level applies to --check <model\.json> only/);
  });

  it("has --help", async () => {
    const help = await runCli(["fit", "--help"]);
    expect(help.stdout).toMatch(/--check <model\.json>/);
    expect(help.stdout).toMatch(/--significance <a>/);
  });
});
