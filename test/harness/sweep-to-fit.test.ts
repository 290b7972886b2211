/**
 * Acceptance (issue 6): a tiny emulator sweep, end to end — the harness's traces (the
 * canonical CSV, and the same runs as host logs) are what the ingest stage reads, and
 * `ckpt fit` fits the model on them.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { loadModel } from "../../pipeline/fit/load-model";
import { ingestFiles } from "../../pipeline/ingest/ingest-files";
import { sha256OfFile } from "../../pipeline/shared/hash";
import { expectClose } from "../helpers";
import { temporaryFolder } from "./temp-dir";

const root = temporaryFolder("sweep-to-fit");
const out = join(root, "out");
const trace = join(out, "trace.csv");

const ckpt = (...argv: string[]) => runCli(argv);

describe("a tiny emulator sweep, end to end", () => {
  beforeAll(async () => {
    const sweepPath = join(root, "tiny.json");
    // 3 process counts × 3 sizes: 9 (m, v) cells, enough to identify the 5-term paper form;
    // and one mixed-size run, a validation point.
    writeFileSync(
      sweepPath,
      JSON.stringify({ backend: "emulate", dir: join(root, "target"), m: [1, 2, 3], sizeMb: [0.5, 1, 2], sizeSetsMb: [[0.5, 1, 2]], order: "grid" }),
    );
    const run = await ckpt("harness", "run", sweepPath, "--out", out, "--quiet", "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ total: 10, done: 10, traceRows: 21 });
  });

  it("is what ingest reads: every row accepted, the same runs from the CSV and from the host logs", async () => {
    const fromCsv = await ingestFiles([trace], { strict: true });
    const fromLogs = await ingestFiles([join(out, "host-logs")], { strict: true });
    for (const result of [fromCsv, fromLogs]) {
      expect(result.counts).toEqual({ read: 21, accepted: 21, rejected: 0 });
      expect(result.observations.series.map((s) => [s.sizeMb, s.points.map((p) => p.m)])).toEqual([
        [0.5, [1, 2, 3]],
        [1, [1, 2, 3]],
        [2, [1, 2, 3]],
      ]);
      expect(result.observations.validationRuns.map((r) => [r.m, r.vGb])).toEqual([[3, 0.0035]]);
    }
    // Same runs, same bandwidths up to rounding: both layouts keep microseconds (of the time
    // since the barrier in the CSV, of Unix time in the logs) and these images take ~1 ms.
    const bandwidths = (runs: { runId: string; aggregatedBwMbPerS: number }[]) => new Map(runs.map((r) => [r.runId, r.aggregatedBwMbPerS]));
    const csvRuns = bandwidths(fromCsv.observations.runs);
    const logRuns = bandwidths(fromLogs.observations.runs);
    expect([...logRuns.keys()].sort()).toEqual([...csvRuns.keys()].sort());
    for (const [runId, bw] of csvRuns) expectClose(logRuns.get(runId)!, bw, 0.02);
  });

  it("fits bw(m, V) with ckpt fit over the sweep's domain, from the CSV or the host logs", async () => {
    const modelPath = join(root, "model.json");
    // All points: on a noisy shared machine a series' peak may be at m = 1, and the papers'
    // "up to the peak" rule could leave too few points to identify the form.
    const fit = await ckpt("fit", trace, "--form", "paper", "--all-points", "--out", modelPath, "--json");
    expect(fit.code, fit.stderr).toBe(0);
    const model = loadModel(modelPath);
    expect(model.form).toBe("paper");
    expect(Object.keys(model.coefficients).sort()).toEqual(["a", "b", "c", "d", "e"]);
    expect(Object.values(model.coefficients).every(Number.isFinite)).toBe(true);
    // The fitted domain is the sweep's: m from 1 to 3, V from 1 × 0.5 MB to 3 × 2 MB.
    expect(model.domain).toEqual({ mMin: 1, mMax: 3, vGbMin: 0.0005, vGbMax: 0.006 });
    expect(model.provenance).toMatchObject({ inputs: [{ path: trace, sha256: sha256OfFile(trace) }] });
    const report = JSON.parse(fit.stdout) as { model: { coefficients: Record<string, number> }; residuals: { m: number[] } };
    expect(report.residuals.m).toHaveLength(9);

    // The same runs from the host logs give the same fit, up to the rounding above.
    const fromLogs = await ckpt("fit", join(out, "host-logs"), "--form", "paper", "--all-points", "--json");
    expect(fromLogs.code, fromLogs.stderr).toBe(0);
    const logged = (JSON.parse(fromLogs.stdout) as typeof report).model.coefficients;
    const scale = Math.max(...Object.values(report.model.coefficients).map(Math.abs));
    for (const [name, value] of Object.entries(report.model.coefficients)) expectClose(logged[name]!, value, 0.05, 0.01 * scale);
  });
});
