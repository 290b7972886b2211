/**
 * `ckpt place --cost-quantile q`: the DP plans with each checkpoint's cost at the q quantile
 * of one burst's predictive duration, so a higher q makes checkpoints dearer and places them
 * further apart. The reference is independent of the DP: every schedule of the job is
 * enumerated (2^(n−1) subsets, the last slice always checkpointed) and scored with the plain
 * evaluator expected-waste.ts, at the cost computed here from the model's bandwidth quantile
 * (duration q quantile = s·m / bw_{1−q}, a duration falls as the bandwidth rises).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel } from "../../pipeline/fit/fit-bandwidth-model";
import { predict } from "../../pipeline/fit/model";
import { bandwidthQuantile } from "../../pipeline/fit/predictive-bandwidth";
import { createLaw, expectedWaste, parseLawString } from "../../pipeline/place";
import { generatedObservations } from "../fit/predictive-generators";
import { runCli } from "../cli-io";

const folder = mkdtempSync(join(tmpdir(), "ckpt-place-quantile-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// A saturating cluster with run-to-run noise σ = 0.07 (test/fit/predictive-generators.ts).
const model = fitBandwidthModel(generatedObservations({ shape: "saturating", seed: 4 }), DEFAULT_FIT_OPTIONS).model;
const modelPath = join(folder, "model.json");
writeFileSync(modelPath, JSON.stringify(model));

// 14 slices of 60 s, each closing with a 2048 MB checkpoint written by 8 nodes together
// (V = 16.384 GB, inside the fitted domain m ≤ 16, V ≤ 32.768 GB): equal costs, so the DP is
// the constant-cost one and no quantum rounds them.
const SLICES = 14;
const SLICE_S = 60;
const NODES = 8;
const SIZE_MB = 2048;
const LAW = "exp:mean=900";
const slicesPath = join(folder, "job.csv");
writeFileSync(slicesPath, `p,size_mb\n${Array.from({ length: SLICES }, () => `${SLICE_S},${SIZE_MB}`).join("\n")}\n`);

/** The best schedule by enumeration of every subset (ties keep the one found first). */
function bruteForce(costSeconds: number): number[] {
  const job = { slicesSeconds: Array(SLICES).fill(SLICE_S), costsSeconds: Array(SLICES).fill(costSeconds) };
  const law = createLaw(parseLawString(LAW, () => []).spec);
  let best = { waste: Infinity, checkpoints: [] as number[] };
  for (let mask = 0; mask < 2 ** (SLICES - 1); mask++) {
    const checkpoints = [...Array.from({ length: SLICES - 1 }, (_, i) => i + 1).filter((j) => mask & (1 << (j - 1))), SLICES];
    const waste = expectedWaste(job, checkpoints, law, { alpha: 1, beta: 0 }).paper;
    if (waste < best.waste - 1e-9) best = { waste, checkpoints };
  }
  return best.checkpoints;
}

const vGb = (NODES * SIZE_MB) / 1000;
const place = async (...extra: string[]) => {
  const result = await runCli(["place", "--slices", slicesPath, "--law", LAW, "--model", modelPath, "--nodes", String(NODES), "--json", ...extra]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { checkpoints: number[]; costs: { costsSeconds: number[] }; costQuantile?: number };
};

describe("ckpt place --cost-quantile", () => {
  it("plans with the quantile's cost and places checkpoints further apart than the mean plan", async () => {
    const meanCost = SIZE_MB / (predict(model, NODES, vGb).bandwidthMbPerS! / NODES);
    const quantileCost = (SIZE_MB * NODES) / bandwidthQuantile(model, NODES, vGb, 1 - 0.99);
    const mean = await place();
    const confident = await place("--cost-quantile", "0.99");
    expect(confident.costQuantile).toBe(0.99);
    expect(mean.costs.costsSeconds[0]).toBeCloseTo(meanCost, 9);
    expect(confident.costs.costsSeconds[0]).toBeCloseTo(quantileCost, 9);
    expect(quantileCost).toBeGreaterThan(meanCost * 1.1);
    expect(mean.checkpoints).toEqual(bruteForce(meanCost));
    expect(confident.checkpoints).toEqual(bruteForce(quantileCost));
    // Further apart: fewer checkpoints, so a longer mean interval between them.
    expect(confident.checkpoints.length).toBeLessThan(mean.checkpoints.length);
  });

  it("refuses a quantile outside (0, 1), a model without replicate variance, and costs given in seconds", async () => {
    for (const q of ["0", "1", "1.2"]) {
      const result = await runCli(["place", "--slices", slicesPath, "--law", LAW, "--model", modelPath, "--nodes", "8", `--cost-quantile=${q}`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/--cost-quantile must be a number strictly between 0 and 1 \(e\.g\. 0\.95\), got/);
    }
    const paper = await runCli(["place", "--slices", slicesPath, "--law", LAW, "--model", "paper", "--nodes", "2", "--cost-quantile", "0.95"]);
    expect(paper.code).toBe(1);
    expect(paper.stderr).toMatch(/model "paper" has no run-to-run variance.*ckpt fit <traces> --out model\.json/);
    const seconds = join(folder, "seconds.csv");
    writeFileSync(seconds, "p,c\n60,5\n60,5\n");
    const given = await runCli(["place", "--slices", seconds, "--law", LAW, "--cost-quantile", "0.95"]);
    expect(given.code).toBe(2);
    expect(given.stderr).toMatch(/--cost-quantile applies only to checkpoint sizes/);
  });

  it("has --help", async () => {
    const help = await runCli(["place", "--help"]);
    expect(help.stdout).toMatch(/--cost-quantile Q/);
  });
});
