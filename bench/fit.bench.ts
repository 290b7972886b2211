/**
 * Fit of 100 k runs (target: < 50 ms median, issue 2), with what each step costs, and the
 * same least squares done naively (ml-regression-multivariate-linear on the raw 100 k-row
 * design) as the reference.
 */
import MultivariateLinearRegression from "ml-regression-multivariate-linear";
import { DEFAULT_FIT_OPTIONS, fitBandwidthModel } from "../pipeline/fit/fit-bandwidth-model";
import { selectFitPoints } from "../pipeline/fit/fit-points";
import { fitLeastSquares, termValue } from "../pipeline/fit/least-squares";
import { PAPER_TERMS } from "../pipeline/fit/model";
import { syntheticObservations } from "../test/fit/fixtures";
import { median, printTable, timeRuns } from "./harness";

export default async function fitBenchmark(): Promise<void> {
  // Table 4.1's 7 sizes × m = 1..30 × 477 repetitions ≈ 100 k runs around the published model.
  const observations = syntheticObservations({ seed: 1, repetitions: 477, mMax: 30, noiseMbPerS: 1 });
  const runs = observations.runs.length;
  const runsUpToPeak = selectFitPoints(observations, { points: "runs", upToPeak: true });
  const allRuns = selectFitPoints(observations, { points: "runs", upToPeak: false });
  const pointCount = (points: { m: ArrayLike<number> }) => points.m.length;
  console.log(`input: ${runs} runs, ${observations.series.length} size series, ${observations.series.reduce((n, s) => n + s.points.length, 0)} (m, v) cells`);

  const repeat = 15;
  const rows: (string | number)[][] = [];
  const time = async (label: string, points: number, fn: () => unknown) => {
    const ms = median(await timeRuns(fn, repeat, 2));
    rows.push([label, points, ms]);
    return ms;
  };
  const withoutCv = await time("fit --points runs --all-points --folds 0: selection, OLS + SE/CI, R², RMSE, MAE, E_global, residuals, peaks", pointCount(allRuns), () =>
    fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, points: "runs", allPoints: true, folds: 0 }),
  );
  await time("same + 5-fold CV (default)", pointCount(allRuns), () => fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, points: "runs", allPoints: true }));
  await time("fit --points runs (up to the peaks), 5-fold CV", pointCount(runsUpToPeak), () => fitBandwidthModel(observations, { ...DEFAULT_FIT_OPTIONS, points: "runs" }));
  await time("fit (defaults: means up to the peaks, 5-fold CV)", pointCount(selectFitPoints(observations)), () => fitBandwidthModel(observations));
  await time("  of which fitLeastSquares alone (runs, all points)", pointCount(allRuns), () => fitLeastSquares(allRuns, "paper"));
  await time("  of which fitLeastSquares alone, full form", pointCount(allRuns), () => fitLeastSquares(allRuns, "full"));
  const reference = await time("reference: ml-regression-multivariate-linear on the raw 100 k-row design", pointCount(allRuns), () =>
    new MultivariateLinearRegression(
      Array.from(allRuns.m, (m, i) => PAPER_TERMS.map((t) => termValue(t, m, allRuns.vGb[i]!))),
      Array.from(allRuns.bwMbPerS, (y) => [y]),
      { intercept: false },
    ),
  );
  printTable(`fit of ${pointCount(allRuns)} runs, median of ${repeat} (ms)`, ["what", "points", "median ms"], rows);
  console.log(`\nfit without CV: ${withoutCv.toFixed(1)} ms (target < 50 ms); naive library solve / ours: ${(reference / withoutCv).toFixed(1)}×`);
}
