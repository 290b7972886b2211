/** The fit stage: the bw(m, V) model, least squares, error metrics, peaks. */
export * from "./model";
export * from "./load-model";
