import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel, type FitReport } from "../../pipeline/fit/fit-bandwidth-model";
import { bandwidthEvaluator, PAPER_MODEL } from "../../pipeline/fit/model";
import type { RunObservation } from "../../pipeline/ingest/observations";
import { sha256OfFile } from "../../pipeline/shared/hash";
import { createRandom } from "../../pipeline/shared/random";
import { summariseRuns } from "../../pipeline/ingest/summarise-runs";
import { runCli } from "../cli-io";

/**
 * A small canonical trace (`run_id,node,m,size_mb,ckpt_mb,start_s,end_s`, one row per
 * process): 3 sizes × m = 1..8 × 2 repetitions, each process taking its equal share of
 * bw(m, V) from the published model plus noise. The expected runs are computed from the
 * very numbers written to the file.
 */
function canonicalTrace(clusters: string[] = ["azur"]): { csv: string; runs: RunObservation[] } {
  const random = createRandom(3);
  const bw = bandwidthEvaluator(PAPER_MODEL);
  const lines = ["run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster"];
  const runs: RunObservation[] = [];
  for (const [c, cluster] of clusters.entries()) for (const sizeMb of [46, 271, 684]) {
    for (let m = 1; m <= 8; m++) {
      for (let r = 0; r < 2; r++) {
        const runId = `${cluster}-v${sizeMb}-m${m}-r${r}`;
        let aggregated = 0;
        for (let node = 0; node < m; node++) {
          const ckptMb = Number((sizeMb * (0.97 + 0.02 * random.next())).toFixed(3));
          // The second cluster is 20 % slower, so its curves (and peaks) differ.
          const perProcess = ((bw(m, (m * sizeMb) / 1000) / m) * (1 + 0.03 * random.normal())) / (1 + 0.2 * c);
          const startS = Number((10 * r + 0.01 * node).toFixed(3));
          const endS = Number((startS + ckptMb / perProcess).toFixed(6));
          lines.push([runId, `node-${node}`, m, sizeMb, ckptMb, startS, endS, cluster].join(","));
          aggregated += ckptMb / (endS - startS);
        }
        runs.push({ runId, m, vGb: (m * sizeMb) / 1000, aggregatedBwMbPerS: aggregated, uniformSizeMb: sizeMb, attributes: { cluster } });
      }
    }
  }
  return { csv: `${lines.join("\n")}\n`, runs };
}

const folder = mkdtempSync(join(tmpdir(), "ckpt-fit-trace-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("ckpt fit <canonical CSV>, end to end through ingest", () => {
  it("fits what ingest aggregates, as the observations would", async () => {
    const path = join(folder, "trace.csv");
    const { csv, runs } = canonicalTrace();
    writeFileSync(path, csv);
    const { code, stdout, stderr } = await runCli(["fit", path, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as FitReport & { ingest: { read: number; accepted: number; rejected: number } };
    expect(report.ingest).toEqual({ read: csv.trim().split("\n").length - 1, accepted: csv.trim().split("\n").length - 1, rejected: 0 });
    const expected = fitBandwidthModel(summariseRuns(runs), DEFAULT_FIT_OPTIONS);
    for (const [name, value] of Object.entries(expected.model.coefficients)) {
      expect(Math.abs(report.model.coefficients[name]! - value)).toBeLessThanOrEqual(1e-9 * Math.abs(value));
    }
    expect(report.metrics.pointCount).toBe(expected.metrics.pointCount);
    expect(report.model.provenance.inputs).toEqual([{ path, sha256: sha256OfFile(path) }]);
  });

  it("gives the same model from the traces and from their ingested observations, tracing provenance back", async () => {
    const trace = join(folder, "same.csv");
    writeFileSync(trace, canonicalTrace().csv);
    const observations = join(folder, "same-observations.json");
    expect((await runCli(["ingest", trace, "--out", observations])).code).toBe(0);
    const direct = JSON.parse((await runCli(["fit", trace, "--json"])).stdout) as FitReport;
    const viaFile = JSON.parse((await runCli(["fit", "--observations", observations, "--json"])).stdout) as FitReport;
    expect(viaFile.model.coefficients).toEqual(direct.model.coefficients);
    expect(viaFile.model.provenance.inputs).toEqual([
      { path: observations, sha256: sha256OfFile(observations) },
      { path: trace, sha256: sha256OfFile(trace), via: observations },
    ]);
  });

  it("keeps each group's peak with --group-by, also when fitting runs", async () => {
    const trace = join(folder, "two-clusters.csv");
    const { csv, runs } = canonicalTrace(["azur", "sol"]);
    writeFileSync(trace, csv);
    const { code, stdout } = await runCli(["fit", trace, "--group-by", "cluster", "--points", "runs", "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as FitReport;
    expect(report.seriesPeaks.map((s) => `${s.group!.cluster} ${s.sizeMb}`)).toEqual(["azur 46", "azur 271", "azur 684", "sol 46", "sol 271", "sol 684"]);
    const expected = fitBandwidthModel(summariseRuns(runs, { groupBy: ["cluster"] }), { ...DEFAULT_FIT_OPTIONS, points: "runs" });
    expect(report.metrics.pointCount).toBe(expected.metrics.pointCount);
    for (const [name, value] of Object.entries(expected.model.coefficients)) {
      expect(Math.abs(report.model.coefficients[name]! - value)).toBeLessThanOrEqual(1e-9 * Math.abs(value));
    }
    const human = await runCli(["fit", trace, "--group-by", "cluster"]);
    expect(human.stdout).toMatch(/^group +size MB +measured ī/m);
    expect(human.stdout).toMatch(/^cluster=sol +684 /m);
  });

  it("refuses --strict and --group-by with --observations (exit 2)", async () => {
    const { code, stderr } = await runCli(["fit", "--observations", join(folder, "same-observations.json"), "--group-by", "cluster"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/apply to traces/);
  });
});
