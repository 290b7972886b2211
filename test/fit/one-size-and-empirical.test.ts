/**
 * What IOR's and fio's usual results allow (docs/science.md §3.5.1–3.5.2): a fit on one size
 * per writer (the m-dependence alone, the domain limited to that size), the empirical form
 * that follows the measured cells (a device with a cliff), and one aggregated bandwidth per
 * model (§3.1.1). Data: the seeded generator of pipeline/ingest/synthetic-cluster.ts on
 * curves given here, each with its origin.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel } from "../../pipeline/fit/fit-bandwidth-model";
import { fitForm } from "../../pipeline/fit/fit-form";
import { validateModel } from "../../pipeline/fit/load-model";
import { bandwidthEvaluator, predict } from "../../pipeline/fit/model";
import { predictionInterval } from "../../pipeline/fit/predictive-bandwidth";
import { formOf } from "../../pipeline/fit/forms/registry";
import { memorySource } from "../../pipeline/ingest/byte-source";
import { ingestTraces } from "../../pipeline/ingest/ingest-files";
import { syntheticClusterCsv, type ClusterShape } from "../../pipeline/ingest/synthetic-cluster";
import { createBandwidthOracle } from "../../pipeline/schedule/bandwidth-oracle";
import { evaluationCoefficients } from "../../pipeline/fit/model";

async function observationsOf(csv: string) {
  const result = await ingestTraces([{ format: "canonical", open: async () => memorySource("trace.csv", csv) }], {});
  expect(result.counts.rejected).toBe(0);
  return result.observations;
}

// The issue's scaling study: 1 to 512 writers of 10 GiB each, a smooth saturating curve
// (here 9 GB/s · (1 − e^(−m/40)), a curve of that kind, not the study's numbers).
const SATURATING: ClusterShape = {
  name: "dfs",
  cluster: "dfs-synthetic",
  sizesMb: [10_737],
  mValues: [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 320, 384, 512],
  bandwidthMbPerS: (m) => 9000 * (1 - Math.exp(-m / 40)),
};

// The issue's Lustre shared-file run: rising to ~10 GB/s at 16 writers, ~1.4 GB/s at 24
// (lock contention). Means at each m constructed to that description, not measured.
const CLIFF_MEANS: Record<number, number> = { 1: 1400, 2: 2700, 4: 5200, 8: 8400, 12: 9600, 16: 10_000, 20: 4200, 24: 1400, 32: 1300 };
const CLIFF: ClusterShape = {
  name: "lustre",
  cluster: "lustre-synthetic",
  sizesMb: [1024],
  mValues: Object.keys(CLIFF_MEANS).map(Number),
  bandwidthMbPerS: (m) => CLIFF_MEANS[m]!,
};

describe("one size per writer", () => {
  it("fits the m-dependence of a saturating scaling study, chosen by cross-validation, on a domain limited to that size", async () => {
    const observations = await observationsOf(syntheticClusterCsv({ shape: SATURATING, seed: 2, repetitions: 3 }));
    const report = fitBandwidthModel(observations, DEFAULT_FIT_OPTIONS);
    const chosen = report.selection!.chosen;
    expect(chosen).not.toBe("empirical");
    // Every smooth form but the full one (one more power of m than the 16 points' folds allow is fine) is scored.
    for (const c of report.selection!.candidates) if (c.form !== "full") expect(c.cvRmseMbPerS, c.form).not.toBeNull();
    // Within 14 % of the generating curve from m = 8 on (the issue's bound); below that, the
    // least squares in MB/s give the few hundred MB/s of the smallest m little weight (the
    // chosen link-capacity form is 20 % low at m = 1 on this seed): within 25 % there.
    for (const m of SATURATING.mValues) {
      const vGb = (m * 10_737) / 1000;
      const error = Math.abs(predict(report.model, m, vGb).rawMbPerS / SATURATING.bandwidthMbPerS(m, 10_737) - 1);
      expect(error, `m = ${m}`).toBeLessThan(m >= 8 ? 0.14 : 0.25);
    }
    expect(report.model.domain).toMatchObject({ mMin: 1, mMax: 512, writerGbMin: 10.737, writerGbMax: 10.737 });
    // At the measured size inside the domain; at another size per writer, outside it.
    expect(predict(report.model, 100, 1073.7).inDomain).toBe(true);
    expect(predict(report.model, 100, 500).inDomain).toBe(false);
    expect(predict(report.model, 100, 500).warning).toMatch(/at V\/m = 10\.737 GB only/);
    expect(report.notes.join("\n")).toMatch(/one size per writer \(V\/m = 10737 MB\): the \S+ form's m-dependence alone is fitted/);
    // The artifact loads, predictive part included, and answers a prediction interval.
    const model = validateModel(JSON.parse(JSON.stringify(report.model)));
    const interval = predictionInterval(model, 64, 687.168, 0.95);
    expect(interval.lower).toBeLessThan(interval.mean);
    expect(interval.upper).toBeGreaterThan(interval.mean);
  });

  it("holds the paper form's V² and the project forms' size exponents at 0, and recovers an exact quartic in m", () => {
    // Noise-free: bw = a·m²V² + b·m² + d·m + e at V = m·0.5 GB, with a, b, d, e chosen here.
    const [a, b, d, e] = [-0.02, -0.5, 40, 10];
    const points = [1, 2, 3, 4, 6, 8, 10].map((m) => {
      const vGb = m * 0.5;
      return { m, vGb, bwMbPerS: a * m * m * vGb * vGb + b * m * m + d * m + e };
    });
    const paper = fitForm(points, "paper");
    expect(paper.oneSize).toEqual({ writerGb: 0.5, held: ["c"] });
    expect(paper.values.c).toBe(0);
    expect(paper.values.a).toBeCloseTo(a, 8);
    expect(paper.values.b).toBeCloseTo(b, 6);
    expect(paper.values.d).toBeCloseTo(d, 6);
    expect(paper.values.e).toBeCloseTo(e, 6);
    expect(fitForm(points, "full").oneSize!.held).toEqual(["a01", "a02", "a11", "a12"]);
    expect(fitForm(points, "usl").values.gamma).toBe(0);
    expect(fitForm(points.map((p) => ({ ...p, bwMbPerS: Math.min(60 * p.m, 300) })), "link-capacity").oneSize!.held).toEqual(["alpha", "beta"]);
  });

  it("ScheduleCkpt's oracle: more data per writer than measured is above the domain, infeasible under refuse", async () => {
    const observations = await observationsOf(syntheticClusterCsv({ shape: SATURATING, seed: 2, repetitions: 3 }));
    const model = fitBandwidthModel(observations, DEFAULT_FIT_OPTIONS).model;
    const oracle = createBandwidthOracle(model, "refuse");
    expect(oracle.bandwidthMbPerS(8, 8 * 10.737)).toBeGreaterThan(0);
    expect(oracle.bandwidthMbPerS(8, 8 * 20)).toBeNaN();
    expect(oracle.counts().aboveDomain).toBe(1);
    // Less per writer (the fluid estimate's remaining volume) is below it: used, and counted.
    expect(oracle.bandwidthMbPerS(8, 8)).toBeGreaterThan(0);
    expect(oracle.counts().belowDomain).toBe(1);
  });
});

describe("the empirical form", () => {
  it("is the one cross-validation keeps on a cliff, and the report says that only it follows the data", async () => {
    const observations = await observationsOf(syntheticClusterCsv({ shape: CLIFF, seed: 5, repetitions: 3 }));
    const report = fitBandwidthModel(observations, DEFAULT_FIT_OPTIONS);
    expect(report.selection!.chosen).toBe("empirical");
    expect(report.notes.join("\n")).toMatch(/only the empirical form follows the data: the best smooth form, \S+, has a CV RMSE of .* beyond one standard error/);
    const empirical = report.selection!.candidates.find((c) => c.form === "empirical")!;
    expect(empirical.parameterCount).toBe(9);
    // Plans where it was measured: each measured mean, and between cells the straight line.
    const bw = bandwidthEvaluator(report.model);
    for (const series of observations.series) {
      for (const point of series.points) expect(bw(point.m, point.vGb)).toBeCloseTo(point.meanBwMbPerS, 6);
    }
    const at16 = observations.series[0]!.points.find((p) => p.m === 16)!.meanBwMbPerS;
    const at20 = observations.series[0]!.points.find((p) => p.m === 20)!.meanBwMbPerS;
    expect(bw(18, 18 * 1.024)).toBeCloseTo((at16 + at20) / 2, 6);
    expect(predict(report.model, 18, 18 * 1.024).inDomain).toBe(true);
    expect(predict(report.model, 40, 40 * 1.024).inDomain).toBe(false);
    // Its uncertainty is the replicates' spread: SE = sd / √n of each cell's runs (computed here from the runs).
    const runsAt16 = observations.runs.filter((r) => r.m === 16).map((r) => r.aggregatedBwMbPerS);
    const mean = runsAt16.reduce((s, x) => s + x, 0) / runsAt16.length;
    const sd = Math.sqrt(runsAt16.reduce((s, x) => s + (x - mean) ** 2, 0) / (runsAt16.length - 1));
    const cell = report.coefficients.find((c) => c.term === "m = 16, V/m = 1024 MB")!;
    expect(cell.estimate).toBeCloseTo(mean, 6);
    expect(cell.standardError).toBeCloseTo(sd / Math.sqrt(3), 6);
    // t_{0.975, 2} = 4.302652729749464 (scipy.stats.t.ppf(0.975, 2)).
    expect(cell.ci95[1] - cell.estimate).toBeCloseTo(4.302652729749464 * cell.standardError, 6);
    // The artifact loads and answers ScheduleCkpt's reachability and the predictive distribution.
    const model = validateModel(JSON.parse(JSON.stringify(report.model)));
    const form = formOf(model.form);
    expect(form.maximumOverV(evaluationCoefficients(model), 16, 100, Infinity).bwMbPerS).toBeCloseTo(at16, 6);
    const interval = predictionInterval(model, 16, 16 * 1.024, 0.95);
    expect(interval.mean).toBeCloseTo(at16, 6);
    expect(interval.lower).toBeLessThan(at16);
  });

  it("finds a point's series by bisection as a scan of every cell does", () => {
    // The reference: the form's rule (forms/empirical-form.ts) read literally, every cell scanned.
    const cells = [
      [1, 0.016, 90], [2, 0.016, 180], [8, 0.016, 600], [3, 0.064, 250], [4, 0.064, 330], [16, 0.064, 700],
      [1, 0.256, 110], [1, 1.024, 120], [2, 1.024, 230], [32, 1.024, 810],
    ];
    const k = Float64Array.from([cells.length, ...cells.flatMap(([m, w, bw]) => [m!, w!, bw!, 1, 2])]);
    const inSeries = (w: number, m: number): number => {
      const series = cells.filter((c) => c[1] === w);
      if (m <= series[0]![0]!) return series[0]![2]!;
      for (let i = 1; i < series.length; i++) {
        const [m0, , b0] = series[i - 1]!;
        const [m1, , b1] = series[i]!;
        if (m <= m1!) return b0! + ((b1! - b0!) * (m - m0!)) / (m1! - m0!);
      }
      return series[series.length - 1]![2]!;
    };
    const scan = (m: number, v: number): number => {
      if (!(m > 0)) return 0;
      const w = v / m;
      const below = cells.filter((c) => c[1]! <= w).map((c) => c[1]!);
      const above = cells.filter((c) => c[1]! >= w).map((c) => c[1]!);
      const low = below.length > 0 ? Math.max(...below) : Math.min(...above);
      const high = above.length > 0 ? Math.min(...above) : low;
      if (low === high) return inSeries(low, m);
      return inSeries(low, m) + ((inSeries(high, m) - inSeries(low, m)) * (w - low)) / (high - low);
    };
    const evaluate = formOf("empirical").evaluate;
    for (const m of [0, 0.5, 1, 1.5, 2, 3, 5, 8, 12, 16, 20, 32, 40]) {
      for (const w of [0.001, 0.016, 0.03, 0.064, 0.1, 0.256, 0.5, 1.024, 4]) expect(evaluate(k, m, m * w)).toBe(scan(m, m * w));
    }
  });

  it("refuses a model file whose cells are out of order: its evaluation bisects them", async () => {
    const observations = await observationsOf(syntheticClusterCsv({ shape: CLIFF, seed: 5, repetitions: 3 }));
    const model = JSON.parse(JSON.stringify(fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "empirical" }).model));
    expect(validateModel(structuredClone(model)).form).toBe("empirical");
    [model.coefficients.m_1, model.coefficients.m_2] = [model.coefficients.m_2, model.coefficients.m_1];
    expect(() => validateModel(model)).toThrow(/cells must be sorted by size per writer, then by m.*cell 2 \(m_2 = 1, writerGb_2 = 1\.024\) follows cell 1 \(m_1 = 2/);
  });

  it("refuses cells without replicates: its uncertainty is their spread", async () => {
    const observations = await observationsOf(syntheticClusterCsv({ shape: CLIFF, seed: 5, repetitions: 1 }));
    expect(() => fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, form: "empirical" })).toThrow(/each of the 9 measured cells has one run/);
  });
});

describe("one model, one aggregated bandwidth", () => {
  const rows = (runId: string, m: number, definition: string | null) =>
    Array.from({ length: m }, (_, i) => `${runId},n${i},${m},100,100,0,${(1 + i * 0.1).toFixed(3)}${definition === null ? "" : `,${definition}`}`);

  it("records the definition and what it plans in the provenance, and refuses a mix of both", async () => {
    const header = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s,bandwidth_definition";
    const csv = (definitionAt4: string) =>
      [header, ...[1, 2, 3, 4, 5].flatMap((m) => [1, 2].flatMap((r) => rows(`r${m}-${r}`, m, m === 4 ? definitionAt4 : "bytes-over-wall-time")))].join("\n") + "\n";
    const wall = fitBandwidthModel(await observationsOf(csv("bytes-over-wall-time")), { ...DEFAULT_FIT_OPTIONS, form: "usl" });
    expect(wall.model.provenance.bandwidthDefinition).toBe("bytes-over-wall-time");
    expect(wall.model.provenance.bandwidthDefinitionMeaning).toMatch(/estimates the checkpoint's makespan, first start to last end, balanced or not/);
    const mixed = await observationsOf(csv("sum-of-writers"));
    expect(() => fitBandwidthModel(mixed, DEFAULT_FIT_OPTIONS)).toThrow(/the runs carry both aggregated bandwidths — 2 runs sum-of-writers \(trace\.csv\); 6 runs bytes-over-wall-time \(trace\.csv\) — and one model cannot mean both/);
  });
});
