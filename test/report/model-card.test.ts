/**
 * The model card reads as a table for people: every quantity named in words with its value
 * and unit, none of the artifact's keys (`metrics.crossValidation.rmseMbPerS`) showing, and
 * a metric the card does not know yet still shown, named from its key.
 */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL, type BandwidthModel } from "../../pipeline/fit/model";
import { modelCard } from "../../pipeline/report/tables/model-card";
import { tableToCsv } from "../../pipeline/report/tables/table-to-csv";

/** A fitted model as the fit stage writes its artifact (the shape of reports/artifacts/model.json). */
const fitted: BandwidthModel = {
  ...PAPER_MODEL,
  name: "fitted paper form",
  metrics: {
    pointCount: 78,
    runCount: 1560,
    distinctPointCount: 78,
    parameterCount: 5,
    degreesOfFreedom: 73,
    rSquared: 0.9637259662081369,
    adjustedRSquared: 0.9617383479181718,
    rmseMbPerS: 2.021143881960596,
    maeMbPerS: 1.6184722651570975,
    residualStandardErrorMbPerS: 2.089214842830591,
    eGlobalPercent: 8.192124680932947,
    eGlobalPointCount: 78,
    crossValidation: { folds: 5, seed: 1, rmseMbPerS: 2.2367865551332664 },
    conditionNumber: 14.34694399832371,
    tQuantile: 1.9929971258898536,
    coefficients: [{ name: "a" }],
    covariance: [[1]],
    seriesPeaks: [],
    // Not known to the card: still shown, in words from its key, with the unit its suffix names.
    selectionScoreMbPerS: 3.5,
  },
  provenance: {
    tool: "ckpt fit",
    toolVersion: "0.1.0",
    inputs: [{ path: "data/traces/synthetic-azur.csv", sha256: "e0ed47869b0ccee41617d88544520c5fe3f9675f3a5553c5e61b2bde731538ff" }],
    options: { form: "paper", points: "means", allPoints: false, folds: 5, seed: 1 },
    fitPoints: "per-(m, v) means, up to each series' peak",
    method: "ordinary least squares on the column-scaled design",
  },
};

describe("model cards", () => {
  const rows = modelCard(fitted, "fitted-model", "azur-synthetic").properties.rows;
  const value = (quantity: string) => rows.find((r) => r.property === quantity)?.value;

  it("name each quantity in words and give its value with its unit", () => {
    expect(value("cluster")).toBe("azur-synthetic");
    expect(value("fitted domain (where it answers)")).toBe("m from 1 to 18; V from 0.015 to 3.42 GB");
    expect(value("fit points")).toBe("78 (per-(m, v) means, up to each series' peak), from 1560 runs");
    expect(value("R² (adjusted R²)")).toBe("0.964 (0.962)");
    expect(value("RMSE, root-mean-square error")).toBe("2.021 MB/s");
    expect(value("cross-validated RMSE (5-fold, seed 1)")).toBe("2.237 MB/s");
    expect(value("E_global, the papers' mean absolute percentage error up to the peaks")).toBe("8.19 % over 78 points");
    expect(value("fit options")).toBe("form paper; points means; all points no; folds 5; seed 1");
    expect(value("fitted from")).toBe("data/traces/synthetic-azur.csv (sha256 e0ed47869b0c…)");
    expect(value("selection score")).toBe("3.5 MB/s");
  });

  it("show none of the artifact's keys, nor its arrays", () => {
    const csv = tableToCsv(modelCard(fitted, "fitted-model").properties);
    expect(csv).not.toMatch(/metrics\.|provenance\.|crossValidation|rmseMbPerS|allPoints|covariance|seriesPeaks|tQuantile/);
    expect(csv.split("\n")[0]).toBe("quantity,value");
  });

  it("give the published model's source and domain in words", () => {
    const paper = modelCard(PAPER_MODEL, "paper-model").properties.rows;
    expect(paper.map((r) => r.property)).toEqual(["model", "form", "units", "fitted domain (where it answers)", "bandwidth cap b_max", "source", "fitted on"]);
    // The papers give no b_max: said as such, not "unknown".
    expect(paper.find((r) => r.property === "bandwidth cap b_max")?.value).toBe("none declared");
  });
});
