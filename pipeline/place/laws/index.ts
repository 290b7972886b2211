/** Failure laws: specs (plain data), evaluation, the CLI's law strings. */
export * from "./failure-law";
export * from "./create-law";
export * from "./law-string";
export * from "./parse-durations-csv";
export { exponentialLaw } from "./exponential";
export { weibullLaw } from "./weibull";
export { hyperExponentialLaw } from "./hyper-exponential";
export { logNormalLaw } from "./log-normal";
export { gammaLaw } from "./gamma";
export { empiricalLaw } from "./empirical";
export { residualLaw } from "./residual";
export { competingLaw } from "./competing";
export { tabulateLaw } from "./tabulate-law";
export * from "./fitted-laws";
