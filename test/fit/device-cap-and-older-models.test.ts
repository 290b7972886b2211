/**
 * The device cap b_max measured from the traces (`--cap-mb-per-s measured`, measured-cap.ts)
 * and recorded with its source, and model files saved before the project forms' upper size
 * references (V₁, v₁) existed: they load, evaluate as they were fitted, and say so.
 */
import { describe, expect, it } from "vitest";
import { fitBandwidthModel, DEFAULT_FIT_OPTIONS } from "../../pipeline/fit/fit-bandwidth-model";
import { validateModel } from "../../pipeline/fit/load-model";
import { measuredBandwidthCap } from "../../pipeline/fit/measured-cap";
import { bandwidthEvaluator, type BandwidthModel } from "../../pipeline/fit/model";
import type { RunObservation } from "../../pipeline/ingest/observations";
import { summariseRuns } from "../../pipeline/ingest/summarise-runs";
import { modelCard } from "../../pipeline/report/tables/model-card";
import { InputError } from "../../pipeline/shared/errors";
import { expectClose } from "../helpers";
import { syntheticObservations } from "./fixtures";

const run = (runId: string, m: number, sizeMb: number, bw: number): RunObservation => ({ runId, m, vGb: (m * sizeMb) / 1000, aggregatedBwMbPerS: bw, uniformSizeMb: sizeMb });

describe("the device cap measured from the traces", () => {
  it("is the largest per-(m, V) cell mean, not the largest run nor a mixed-size run (hand computation)", () => {
    const observations = summariseRuns([
      run("a1", 1, 100, 10), run("a2", 1, 100, 12), // mean 11
      run("b1", 2, 100, 18), run("b2", 2, 100, 21), run("b3", 2, 100, 24), // mean 21
      run("c1", 3, 100, 25), run("c2", 3, 100, 26), // mean 25.5: the largest cell mean
      run("d1", 4, 100, 30), run("d2", 4, 100, 10), // mean 20, though its 30 is the largest run
      run("e1", 2, 200, 22), run("e2", 2, 200, 23), // mean 22.5
      { runId: "mixed", m: 2, vGb: 0.3, aggregatedBwMbPerS: 40, uniformSizeMb: null }, // a validation run, no cell
    ]);
    expect(measuredBandwidthCap(observations)).toEqual({ capMbPerS: 25.5, m: 3, vGb: 0.3, runCount: 2 });
  });

  it("is recorded in the model with its source, the note says where it was measured, and the model never answers above it", () => {
    const observations = syntheticObservations({ seed: 3, repetitions: 3 });
    const cap = measuredBandwidthCap(observations).capMbPerS;
    const report = fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "usl", capMbPerS: "measured" });
    expect(report.model.bandwidthCapMbPerS).toBe(cap);
    expect(report.model.bandwidthCapSource).toBe("measured");
    expect(report.notes.join("\n")).toMatch(/device cap b_max = [\d.]+ MB\/s, measured \(--cap-mb-per-s measured\): the largest mean of a measured \(m, V\) cell, at m = \d+, V = [\d.]+ GB \(3 runs\)/);
    const bw = bandwidthEvaluator(report.model);
    for (let m = 1; m <= 40; m++) expect(bw(m, m * 0.3)).toBeLessThanOrEqual(cap);
    // The loaded model keeps both, and its card says which.
    const loaded = validateModel(JSON.parse(JSON.stringify(report.model)));
    expect(loaded.bandwidthCapSource).toBe("measured");
    const row = modelCard(loaded, "m").properties.rows.find((r) => r.property === "bandwidth cap b_max");
    expect(row?.value).toMatch(/^[\d.]+ MB\/s, measured: the largest mean of a measured \(m, V\) cell$/);
  });

  it("declared or none: the source says declared, or the note says that none is declared", () => {
    const observations = syntheticObservations({ seed: 3, repetitions: 2 });
    const declared = fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "usl", capMbPerS: 45 });
    expect(declared.model.bandwidthCapMbPerS).toBe(45);
    expect(declared.model.bandwidthCapSource).toBe("declared");
    expect(modelCard(declared.model, "d").properties.rows.find((r) => r.property === "bandwidth cap b_max")?.value).toBe("45 MB/s, declared");
    const none = fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "usl" });
    expect(none.model.bandwidthCapMbPerS).toBeNull();
    expect("bandwidthCapSource" in none.model).toBe(false);
    expect(none.notes.join("\n")).toMatch(/device cap b_max: none declared .*--cap-mb-per-s measured/);
    expect(modelCard(none.model, "n").properties.rows.find((r) => r.property === "bandwidth cap b_max")?.value).toBe("none declared");
  });

  it("refuses a cap that is not a bandwidth ≥ 0 nor \"measured\"", () => {
    const observations = syntheticObservations({ seed: 3, repetitions: 2 });
    for (const bad of [-5, Number.NaN, Infinity, "guessed"]) {
      expect(() => fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "usl", capMbPerS: bad as number })).toThrow(InputError);
      expect(() => fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "usl", capMbPerS: bad as number })).toThrow(/--cap-mb-per-s\) must be a bandwidth in MB\/s > 0, "measured"/);
    }
  });
});

describe("model files", () => {
  const observations = syntheticObservations({ seed: 4, repetitions: 2 });
  const saved = (form: "usl" | "link-capacity") => JSON.parse(JSON.stringify(fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form }).model)) as BandwidthModel;

  it("saved before the upper size references existed load, evaluate with the unbounded law they were fitted with, and say so", () => {
    const model = saved("link-capacity");
    const older = JSON.parse(JSON.stringify(model)) as BandwidthModel;
    delete older.coefficients.vMaxGb;
    delete older.coefficients.writerSizeMaxGb;
    const loaded = validateModel(older, "old.json");
    expect(loaded.notes?.at(-1)).toMatch(/^saved without V₁ \(vMaxGb, largest measured volume\) and v₁ \(writerSizeMaxGb, largest measured size per writer\), which its form gained later: evaluated as it was fitted, its size factors an unbounded power law above the smallest measured size/);
    // Past the largest measured sizes: the old, unbounded law, computed by hand from the coefficients.
    const c = model.coefficients;
    const m = 40;
    const vGb = 60;
    const links = m * c.rate! * (vGb / m / c.writerSizeRefGb!) ** c.alpha!;
    const server = c.capacity! * (vGb / c.vRefGb!) ** c.beta!;
    const k = c.sharpness!;
    expectClose(bandwidthEvaluator(loaded)(m, vGb), (links ** -k + server ** -k) ** (-1 / k), 1e-12);
    // The saved model holds both factors at the largest measured sizes instead.
    const heldLinks = m * c.rate! * (c.writerSizeMaxGb! / c.writerSizeRefGb!) ** c.alpha!;
    const heldServer = c.capacity! * (c.vMaxGb! / c.vRefGb!) ** c.beta!;
    expectClose(bandwidthEvaluator(validateModel(model))(m, vGb), (heldLinks ** -k + heldServer ** -k) ** (-1 / k), 1e-12);
    // Inside the measured sizes the two agree.
    expect(bandwidthEvaluator(loaded)(4, 4 * 0.114)).toBe(bandwidthEvaluator(validateModel(model))(4, 4 * 0.114));
    // A current model gets no such note.
    expect(validateModel(model).notes?.some((n) => n.startsWith("saved without"))).not.toBe(true);
  });

  it("refuse an upper size reference below the lower one, and a cap source that is not one or has no cap", () => {
    const model = saved("usl");
    const inverted = { ...model, coefficients: { ...model.coefficients, vMaxGb: model.coefficients.vRefGb! / 2 } };
    expect(() => validateModel(inverted, "m.json")).toThrow(/m\.json: coefficient "vMaxGb" \(largest measured volume \(fixed from the data\)\) must be at least "vRefGb"/);
    expect(() => validateModel({ ...model, coefficients: { ...model.coefficients, vMaxGb: "big" } })).toThrow(/coefficient "vMaxGb" must be a finite number, found "big"/);
    expect(() => validateModel({ ...model, bandwidthCapMbPerS: 40, bandwidthCapSource: "guessed" })).toThrow(/"bandwidthCapSource" must be "declared" or "measured", found "guessed"/);
    expect(() => validateModel({ ...model, bandwidthCapMbPerS: null, bandwidthCapSource: "measured" })).toThrow(/"bandwidthCapSource" says where a cap comes from, but "bandwidthCapMbPerS" is null/);
    // A cap from before the source existed was declared.
    const older = validateModel({ ...model, bandwidthCapMbPerS: 40 });
    expect(modelCard(older, "o").properties.rows.find((r) => r.property === "bandwidth cap b_max")?.value).toBe("40 MB/s, declared");
  });
});
