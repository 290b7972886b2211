/**
 * The numbers a cluster's report shows of its plans' uncertainty (pipeline/schedule/plans-that-hold.ts),
 * on the measured NFS trace: the band is the model's prediction interval at each point; the
 * mean and confident plans are the ones `ckpt schedule --confidence 0.95` prints for the same
 * instance (the command is the reference); the replay holds each of the 3 repetitions out in
 * turn; the published model, without a predictive part, gives null; reruns are identical.
 */
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fitBandwidthModel } from "../../pipeline/fit/fit-bandwidth-model";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { predictionInterval } from "../../pipeline/fit/predictive-bandwidth";
import { ingestFiles } from "../../pipeline/ingest";
import { plansThatHold, resolveScheduleOptions } from "../../pipeline/schedule";
import { runCli } from "../cli-io";

const folder = mkdtempSync(join(tmpdir(), "ckpt-plans-that-hold-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Eight applications of 16–256 MB (one per NFS client), T = 10 s: the NFS replay test's instance k = 3.
const sizes = [16, 32, 64, 128, 256];
const apps = Array.from({ length: 8 }, (_, i) => ({ id: `j${i + 1}`, pS: 300 + ((i * 397 + 3 * 211) % 1500), sizeMb: sizes[(i + 3) % sizes.length]! }));
const DEADLINE_S = 10;

describe("plansThatHold", () => {
  it("on the NFS trace: the band, the two plans as ckpt schedule prints them, and the leave-one-repetition-out replay", async () => {
    const observations = (await ingestFiles(["data/traces/nfs-8x100mbit.csv"])).observations;
    const model = fitBandwidthModel(observations).model;
    const options = resolveScheduleOptions({ model, deadlineS: DEADLINE_S, estimator: "fluid", k0: 1, record: false });
    const result = plansThatHold({ model, observations, apps, options, confidence: 0.95 })!;
    expect(result).not.toBeNull();
    // The band: one curve per measured size, each point the model's 95 % interval.
    expect(result.band.map((b) => b.sizeMb)).toEqual([...new Set(observations.series.map((s) => s.sizeMb))].sort((a, b) => a - b));
    for (const { points } of result.band) {
      expect(points.length).toBeGreaterThan(0);
      for (const p of points) {
        const interval = predictionInterval(model, p.m, p.vGb, 0.95);
        expect([p.meanMbPerS, p.lowerMbPerS, p.upperMbPerS]).toEqual([interval.mean, interval.lower, interval.upper]);
        expect(p.lowerMbPerS).toBeLessThan(p.meanMbPerS);
        expect(p.upperMbPerS).toBeGreaterThan(p.meanMbPerS);
      }
    }
    // The plans: as `ckpt schedule --confidence 0.95` prints them for the same model and instance.
    const modelPath = join(folder, "nfs.json");
    writeFileSync(modelPath, JSON.stringify(model));
    const appsPath = join(folder, "apps.csv");
    writeFileSync(appsPath, `id,p,size_mb\n${apps.map((a) => `${a.id},${a.pS},${a.sizeMb}`).join("\n")}\n`);
    const cli = await runCli(["schedule", "--model", modelPath, "--apps", appsPath, "--deadline", String(DEADLINE_S), "--estimator", "fluid", "--k0", "1", "--confidence", "0.95", "--json"]);
    expect(cli.code, cli.stderr).toBe(0);
    const confidence = JSON.parse(cli.stdout).confidence;
    expect(result.plans.mean.missProbability).toBe(confidence.mean.missProbability);
    expect(result.plans.confident.missProbability).toBe(confidence.confident.missProbability);
    expect(result.plans.confident.started).toBe(confidence.confident.started.length);
    expect(result.plans.workGivenUpS).toBe(confidence.costS);
    expect(result.plans.confident.missProbability).toBeLessThanOrEqual(0.05 + 1e-6);
    // The replay: 3 repetitions, each held out once (one release, one instance per fold).
    if ("notApplicable" in result.replay) throw new Error(result.replay.notApplicable);
    expect(result.replay.folds).toBe(3);
    expect(result.replay.mean.replays).toBe(3);
    expect(result.replay.confident.misses).toBeLessThanOrEqual(result.replay.mean.misses);
    expect(result.replay.coverage).toBeGreaterThan(0.5);
    // Deterministic: a second computation is identical.
    expect(plansThatHold({ model, observations, apps, options, confidence: 0.95 })).toEqual(result);
  }, 60_000);

  it("is null for a model without a predictive part, and says when nothing can be replayed", async () => {
    const observations = (await ingestFiles(["data/traces/nfs-8x100mbit.csv"])).observations;
    const options = resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: DEADLINE_S, record: false });
    expect(plansThatHold({ model: PAPER_MODEL, observations, apps, options, confidence: 0.95 })).toBeNull();
    const once = { ...observations, runs: observations.runs.filter((run) => run.attributes?.repetition === undefined || run.runId.endsWith("1")) };
    const model = fitBandwidthModel(observations).model;
    const single = plansThatHold({ model, observations: { ...once, runs: once.runs.slice(0, 1) }, apps, options: { ...options, model, truthModel: model }, confidence: 0.95 })!;
    expect(single.replay).toEqual({ notApplicable: expect.stringMatching(/some \(m, v\) cell was measured once/) });
  }, 60_000);
});
