/**
 * The fit stage: the bw(m, V) model, least squares with its statistics, error metrics,
 * peaks, and the model artifact (docs/science.md §3).
 *
 *   observations → selectFitPoints → fitForm (OLS for the papers' forms, Levenberg–Marquardt
 *                  for the project's; refusing what the data cannot identify)
 *                → parameters ± SE / CI, R², E_global, CV → BandwidthModel (+ report)
 *   --form auto: every form of forms/registry.ts on the same points and folds → chooseForm
 */
export * from "./model";
export * from "./load-model";
export * from "./fit-bandwidth-model";
export * from "./fit-points";
export * from "./least-squares";
export * from "./fit-form";
export * from "./fit-nonlinear";
export * from "./levenberg-marquardt";
export * from "./select-form";
export * from "./forms/bandwidth-form";
export * from "./design-identifiability";
export * from "./singular-values";
export * from "./goodness-of-fit";
export * from "./e-global";
export * from "./cross-validation";
export * from "./series-peaks";
export * from "./peak-curve";
export * from "./predictive-distribution";
export * from "./predictive-bandwidth";
export * from "./run-to-run-variance";
export * from "./prediction-band";
export * from "./burst-prediction";
export * from "./domain-distance";
export * from "./format-burst-prediction";
export * from "./turn-down-artefacts";
export * from "./read-observations";
export * from "./format-fit-report";
export * from "./format-peak-curve";
