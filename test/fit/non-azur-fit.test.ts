/**
 * Fitting clusters unlike Azur (issue: recalibration for a new cluster). Data come from the
 * seeded generators of pipeline/ingest/synthetic-cluster.ts, ingested by the ingest stage.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fitBandwidthModel, DEFAULT_FIT_OPTIONS } from "../../pipeline/fit/fit-bandwidth-model";
import { predict } from "../../pipeline/fit/model";
import { memorySource } from "../../pipeline/ingest/byte-source";
import { ingestTraces } from "../../pipeline/ingest/ingest-files";
import { syntheticClusterCsv, type ClusterShape, type SyntheticClusterOptions } from "../../pipeline/ingest/synthetic-cluster";
import { InputError } from "../../pipeline/shared/errors";
import { runCli } from "../cli-io";

async function observationsOf(options: SyntheticClusterOptions) {
  const csv = syntheticClusterCsv(options);
  const result = await ingestTraces([{ format: "canonical", open: async () => memorySource("trace.csv", csv) }], {});
  expect(result.counts.rejected).toBe(0);
  return result.observations;
}

describe("fitting a device that is fastest with one writer", () => {
  it("fits on all points when the peak rule leaves m = 1 only, and says so", async () => {
    const observations = await observationsOf({ shape: "collapse", seed: 1, repetitions: 5 });
    // Every series peaks at m = 1: the papers' rule would keep one m per size.
    expect(new Set(observations.series.map((s) => s.peak.m))).toEqual(new Set([1]));
    const report = fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "paper" });
    expect(report.model.provenance.fitPoints).toBe("per-(m, v) means, all points");
    expect(report.metrics.pointCount).toBe(30); // 5 sizes × 6 m
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toMatch(/peaks are at m ∈ \{1\}.*fitted on all 30 points/);
    expect(report.model.notes).toEqual(report.notes);
    // The fitted model follows the fall: bw(1, ·) above bw(6, ·) at every size.
    for (const sizeMb of [32, 512]) {
      expect(predict(report.model, 1, sizeMb / 1000).rawMbPerS).toBeGreaterThan(predict(report.model, 6, (6 * sizeMb) / 1000).rawMbPerS);
    }
    expect(report.model.domain).toEqual({ mMin: 1, mMax: 6, vGbMin: 0.032, vGbMax: 3.072 });
  });

  it("with --all-points asked for, adds no note", async () => {
    const observations = await observationsOf({ shape: "collapse", seed: 1, repetitions: 5 });
    expect(fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "paper", allPoints: true }).notes).toEqual([]);
  });
});

describe("fitting a saturating parallel file system", () => {
  it("keeps the papers' rule where it identifies the form, and the model's domain reaches m = 32 and V = 65.5 GB", async () => {
    const report = fitBandwidthModel(await observationsOf({ shape: "saturate", seed: 1, repetitions: 5 }), { ...DEFAULT_FIT_OPTIONS, form: "paper" });
    expect(report.model.provenance.fitPoints).toBe("per-(m, v) means, up to each series' peak");
    expect(report.model.domain.mMax).toBe(32);
    expect(report.model.domain.vGbMax).toBeCloseTo(65.536, 9); // 32 × 2048 MB
    expect(report.metrics.rSquared).toBeGreaterThan(0.95);
    expect(report.notes).toEqual([]);
  });
});

describe("warnings and refusals", () => {
  const flat: ClusterShape = {
    name: "flat",
    cluster: "flat-synthetic",
    sizesMb: [50, 100, 200],
    mValues: [1, 2, 3, 4, 5],
    // A step no quadratic follows: a poor fit, warned about, not refused.
    bandwidthMbPerS: (m) => (m % 2 === 0 ? 40 : 80),
  };

  it("warns about a poor fit with its numbers instead of refusing it", async () => {
    const report = fitBandwidthModel(await observationsOf({ shape: flat, seed: 2, repetitions: 4 }), { ...DEFAULT_FIT_OPTIONS, form: "paper", allPoints: true });
    const note = report.notes.find((n) => n.startsWith("poor fit"));
    expect(note).toBeDefined();
    expect(note).toContain(`R² = ${report.metrics.rSquared.toFixed(3)}`);
    expect(note).toContain(`E_global = ${report.metrics.eGlobalPercent.toFixed(1)} %`);
  });

  it("refuses identical bandwidths everywhere with what the data say", async () => {
    const constant: ClusterShape = { ...flat, bandwidthMbPerS: () => 50 };
    const csv = syntheticClusterCsv({ shape: constant, seed: 1, repetitions: 2 });
    // Remove the noise: every process takes exactly size/bw·m seconds.
    const exact = csv
      .split("\n")
      .map((line, i) => {
        if (i === 0 || line === "") return line;
        const f = line.split(",");
        const m = Number(f[2]);
        f[5] = "0.000";
        f[6] = ((Number(f[4]) * m) / 50).toFixed(6);
        return f.join(",");
      })
      .join("\n");
    const result = await ingestTraces([{ format: "canonical", open: async () => memorySource("t.csv", exact) }], {});
    expect(() => fitBandwidthModel(result.observations, { ...DEFAULT_FIT_OPTIONS, form: "paper" })).toThrow(InputError);
    expect(() => fitBandwidthModel(result.observations, { ...DEFAULT_FIT_OPTIONS, form: "paper" })).toThrow(/same aggregated bandwidth, 50 MB\/s/);
  });

  it("ckpt fit on infinite bandwidths (end = start everywhere): a refusal that says why, not a model", async () => {
    const csv = syntheticClusterCsv({ shape: flat, seed: 1, repetitions: 2 });
    const rows = csv.trim().split("\n").length - 1;
    const instant = csv
      .split("\n")
      .map((line, i) => {
        if (i === 0 || line === "") return line;
        const f = line.split(",");
        f[6] = f[5]!; // end_s = start_s
        return f.join(",");
      })
      .join("\n");
    const dir = mkdtempSync(join(tmpdir(), "ckpt-fit-instant-"));
    try {
      writeFileSync(join(dir, "instant.csv"), instant);
      const run = await runCli(["fit", join(dir, "instant.csv"), "--out", join(dir, "model.json")]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^ckpt fit: nothing to fit: all ${rows} rows were rejected\\. The reason, with the first row of each:\n  ${rows} × zero-duration: .*instant\\.csv:2: end_s equals start_s`));
      expect(run.stdout).not.toMatch(/Infinity|NaN/);
      expect(existsSync(join(dir, "model.json"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses bandwidths whose squares overflow (1e290 times too large) instead of writing a model without R² or SEs", async () => {
    const csv = syntheticClusterCsv({ shape: { ...flat, bandwidthMbPerS: (m) => 60 - 5 * m }, seed: 1, repetitions: 2 });
    const huge = csv
      .split("\n")
      .map((line, i) => {
        if (i === 0 || line === "") return line;
        const f = line.split(",");
        f[4] = String(Number(f[4]) * 1e290); // ckpt_mb
        return f.join(",");
      })
      .join("\n");
    const result = await ingestTraces([{ format: "canonical", open: async () => memorySource("t.csv", huge) }], {});
    expect(result.counts.rejected).toBe(0);
    expect(() => fitBandwidthModel(result.observations, { ...DEFAULT_FIT_OPTIONS, form: "paper", allPoints: true })).toThrow(/statistics overflow .* check the units of ckpt_mb/);
  });

  it("names --form paper only when the paper form does fit the same data", async () => {
    // Two sizes: the full form (3 sizes needed) cannot be identified, the paper form can.
    const twoSizes: ClusterShape = { ...flat, sizesMb: [50, 200], bandwidthMbPerS: (m, v) => 60 + 10 * m - m * m - v / 100 };
    const observations = await observationsOf({ shape: twoSizes, seed: 3, repetitions: 3 });
    expect(() => fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "full" })).toThrow(/On these data the paper form does fit: --form paper\./);
    expect(fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "paper" }).model.form).toBe("paper");
    // One size, 5 distinct m: the full form's five powers of m need 6, the paper form's four
    // fit (one-size-fit.ts), and the refusal names it because it does fit.
    const oneSize = await observationsOf({ shape: { ...twoSizes, sizesMb: [100] }, seed: 3, repetitions: 3 });
    let message = "";
    try {
      fitBandwidthModel(oneSize, { ...DEFAULT_FIT_OPTIONS, form: "full" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/one size per writer and 5 distinct numbers of processes; at one size the full form's 5 parameters in m need at least 6/);
    expect(message).toMatch(/On these data the paper form does fit: --form paper\./);
    expect(fitBandwidthModel(oneSize, { ...DEFAULT_FIT_OPTIONS, form: "paper", allPoints: true }).model.coefficients.c).toBe(0);
  });
});
