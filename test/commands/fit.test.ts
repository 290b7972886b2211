import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { FitReport } from "../../pipeline/fit/fit-bandwidth-model";
import { loadModel } from "../../pipeline/fit/load-model";
import type { Observations } from "../../pipeline/ingest/observations";
import { sha256OfFile } from "../../pipeline/shared/hash";
import { syntheticObservations } from "../fit/fixtures";
import { runCli } from "../cli-io";

const folder = mkdtempSync(join(tmpdir(), "ckpt-fit-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function observationsFile(name: string, observations: Observations | unknown): string {
  const path = join(folder, name);
  writeFileSync(path, JSON.stringify(observations));
  return path;
}

const campaign = observationsFile("campaign.json", syntheticObservations({ seed: 5, repetitions: 3, withValidationRuns: true }));

describe("ckpt fit --observations", () => {
  it("prints the coefficient table with SE and CI, the metrics and the peaks", async () => {
    const { code, stdout, stderr } = await runCli(["fit", "--observations", campaign, "--form", "paper"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^bw\(m, V\) = a·m²·V² \+ b·m² \+ c·V² \+ d·m \+ e +\(paper form; m a count, V in GB = MB\/1000, bw in MB\/s\)/);
    expect(stdout).toMatch(/coef +term +estimate +std\. error +t +95 % CI low +95 % CI high/);
    for (const name of ["a", "b", "c", "d", "e"]) expect(stdout).toMatch(new RegExp(`^${name} +\\S+ +-?\\d`, "m"));
    expect(stdout).toMatch(/^R² +0\.9\d+$/m);
    expect(stdout).toMatch(/^E_global \(%, \d+ means up to the peaks\) +\d+\.\d{3}$/m);
    expect(stdout).toMatch(/^5-fold CV RMSE \(MB\/s, seed 1\) +\d+\.\d{4}$/m);
    expect(stdout).toMatch(/size MB +measured ī +measured bw +predicted î +predicted bw +model at measured ī/);
    expect(stdout).toMatch(/^ *684 +\d+ +\d+\.\d\d +\d+ +\d+\.\d\d +\d+\.\d\d$/m);
    expect(stdout).toMatch(/validation \(11 mixed-size runs, not fitted\)/);
  });

  it("prints the full report with --json and writes the model with --out, byte-identical on rerun", async () => {
    const out = join(folder, "model.json");
    const first = await runCli(["fit", "--observations", campaign, "--form", "full", "--points", "runs", "--folds", "4", "--seed", "9", "--out", out, "--json"]);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as FitReport;
    expect(Object.keys(report)).toEqual(["model", "coefficients", "covariance", "metrics", "seriesPeaks", "residuals", "validation", "notes"]);
    expect(report.model.form).toBe("full");
    expect(report.metrics.crossValidation).toMatchObject({ folds: 4, seed: 9 });
    const residuals = report.residuals as unknown as Record<string, unknown[]>;
    for (const column of ["m", "vGb", "sizeMb", "runCount", "runId", "observedMbPerS", "predictedMbPerS", "residualMbPerS"]) {
      expect(residuals[column], column).toHaveLength(report.metrics.pointCount);
    }
    expect(typeof residuals.residualMbPerS![0]).toBe("number");
    const written = readFileSync(out, "utf8");
    expect(JSON.parse(written)).toEqual(report.model);
    expect(report.model.provenance).toMatchObject({
      inputs: [{ path: campaign, sha256: sha256OfFile(campaign) }],
      options: { form: "full", points: "runs", allPoints: false, folds: 4, seed: 9 },
    });
    expect(loadModel(out).coefficients).toEqual(report.model.coefficients);
    await runCli(["fit", "--observations", campaign, "--form", "full", "--points", "runs", "--folds", "4", "--seed", "9", "--out", out]);
    expect(readFileSync(out, "utf8")).toBe(written);
  });

  it("output of --json given as a model: a refusal that says what the file is and which command writes a model", async () => {
    const report = join(folder, "report.json");
    const printed = await runCli(["fit", "--observations", campaign, "--json"]);
    writeFileSync(report, printed.stdout); // ckpt fit --json > report.json
    const expected = "A model file is written by `ckpt fit <trace.csv> --out model.json` (or `ckpt fit --observations obs.json --out model.json`); --model paper takes the published model.";
    writeFileSync(join(folder, "apps.csv"), "id,p,size_mb\na,100,50\n");
    for (const command of [["peaks", "--sizes", "105,451"], ["schedule", "--apps", join(folder, "apps.csv"), "--deadline", "30"]]) {
      const run = await runCli([command[0]!, "--model", report, ...command.slice(1)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `${report}: this is what \`ckpt fit --json\` prints (the fit's report: the model is its "model" field, next to the fit's metrics and residuals), not a bandwidth model (a JSON file with "schema": "ckpt-lab/bandwidth-model@1"). ${expected}`,
      );
      expect(run.stderr).not.toContain("undefined");
    }
    // Another of the project's files is named by its schema; other JSON by its fields.
    writeFileSync(join(folder, "obs.json"), JSON.stringify({ schema: "ckpt-lab/observations@1", runs: [] }));
    expect((await runCli(["peaks", "--model", join(folder, "obs.json"), "--sizes", "1"])).stderr).toContain('this is an observations file ("schema": "ckpt-lab/observations@1"), not a bandwidth model');
    writeFileSync(join(folder, "coefficients.json"), JSON.stringify({ a: 1, b: 2, c: 3 }));
    expect((await runCli(["peaks", "--model", join(folder, "coefficients.json"), "--sizes", "1"])).stderr).toContain('this is a JSON object without a "schema" field (its fields: a, b, c), not a bandwidth model');
  });

  it("fits one size per writer on the m-dependence alone and says the model holds at that size only (exit 0)", async () => {
    const oneSize = observationsFile("one-size.json", syntheticObservations({ sizesMb: [271] }));
    const auto = await runCli(["fit", "--observations", oneSize]);
    expect(auto.code).toBe(0);
    expect(auto.stdout).toMatch(/note: one size per writer \(V\/m = 271 MB\)/);
    const paper = await runCli(["fit", "--observations", oneSize, "--form", "paper", "--json"]);
    expect(paper.code).toBe(0);
    const model = JSON.parse(paper.stdout).model ?? JSON.parse(paper.stdout);
    expect(JSON.stringify(model)).toMatch(/one size per writer/);
    expect(auto.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack
  });

  it("refuses a malformed observations file, naming the wrong value (exit 1)", async () => {
    const observations = syntheticObservations();
    (observations.series[2]!.points[3] as { count: unknown }).count = 0;
    const bad = observationsFile("bad.json", observations);
    const { code, stderr } = await runCli(["fit", "--observations", bad]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${bad}: series[2].points[3].count: expected an integer ≥ 1, found 0`);
    const notJson = join(folder, "not.json");
    writeFileSync(notJson, "{");
    expect((await runCli(["fit", "--observations", notJson])).stderr).toMatch(/not valid JSON/);
    expect((await runCli(["fit", "--observations", join(folder, "absent.json")])).code).toBe(1);
  });

  it("exits 2 on usage errors", async () => {
    for (const argv of [
      ["fit"],
      ["fit", "trace.csv", "--observations", campaign],
      ["fit", "--observations", campaign, "--form", "cubic"],
      ["fit", "--observations", campaign, "--points", "all"],
      ["fit", "--observations", campaign, "--folds", "1"],
      ["fit", "--observations", campaign, "--folds", "two"],
      ["fit", "--observations", campaign, "--seed", "1.5"],
      ["fit", "--observations", campaign, "--bogus"],
    ]) {
      const { code, stderr } = await runCli(argv);
      expect(code, argv.join(" ")).toBe(2);
      expect(stderr).toMatch(/Run "ckpt fit --help" for usage/);
    }
  });

  it("--cap-mb-per-s: a bandwidth > 0 or measured, recorded with its source; anything else refused with what was seen (exit 2)", async () => {
    const out = join(folder, "capped.json");
    const measured = await runCli(["fit", "--observations", campaign, "--form", "usl", "--cap-mb-per-s", "measured", "--out", out]);
    expect(measured.code).toBe(0);
    expect(measured.stdout).toMatch(/device cap b_max = [\d.]+ MB\/s, measured \(--cap-mb-per-s measured\): the largest mean of a measured \(m, V\) cell/);
    const model = loadModel(out);
    expect(model.bandwidthCapSource).toBe("measured");
    expect(model.bandwidthCapMbPerS).toBeGreaterThan(0);
    const declared = await runCli(["fit", "--observations", campaign, "--form", "usl", "--cap-mb-per-s", "35", "--out", out]);
    expect(declared.code).toBe(0);
    expect(loadModel(out)).toMatchObject({ bandwidthCapMbPerS: 35, bandwidthCapSource: "declared" });
    for (const bad of ["0", "-3", "NaN", "fast", ""]) {
      const { code, stderr } = await runCli(["fit", "--observations", campaign, "--form", "usl", `--cap-mb-per-s=${bad}`]);
      expect(code, bad).toBe(2);
      expect(stderr).toContain(`--cap-mb-per-s expects a bandwidth in MB/s > 0 (the device's rated bandwidth) or the word measured (the largest cell mean of the traces), got "${bad}"; leave it out to declare none`);
    }
    expect((await runCli(["fit", "--help"])).stdout).toMatch(/--cap-mb-per-s <MB\/s\|measured>[\s\S]*measured: the largest mean of a measured \(m, V\) cell/);
  });

  it("has --help", async () => {
    const { code, stdout } = await runCli(["fit", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/ckpt fit --observations <observations.json> \[options\]/);
    expect(stdout).toMatch(/--form auto\|paper\|full\|usl\|link-capacity/);
  });
});
