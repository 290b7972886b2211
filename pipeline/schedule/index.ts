/**
 * The schedule stage (docs/science.md §4): ScheduleCkpt — index_bw_max, ks_bw, the static and fluid
 * time estimators, the fluid execution of the checkpoint device — the baselines, the CTNYS
 * upper bound, the exact simultaneous-start optimum, waves for several applications per
 * node, and the campaigns of the papers over seeds.
 */
export * from "./application";
export * from "./apps-csv";
export * from "./bandwidth-oracle";
export * from "./size-set";
export * from "./time-estimator";
export * from "./static-estimator";
export * from "./fluid-estimator";
export * from "./criterion-order";
export * from "./fluid-device";
export * from "./index-bw-max";
export * from "./ks-bw";
export * from "./schedule-options";
export * from "./strategy-outcome";
export * from "./schedule-ckpt";
export * from "./schedule-by-waves";
export * from "./sequential-greedy";
export * from "./sequential-at-rate";
export * from "./all-in-parallel";
export * from "./reachable-bandwidth";
export * from "./knapsack";
export * from "./upper-bound";
export * from "./exact-simultaneous";
export * from "./evaluate-schedule";
export * from "./confident-plan";
export * from "./predictive-quantile";
export * from "./play-timetable";
export * from "./replay";
export * from "./instance-families";
export * from "./published-values";
export * from "./campaign";
export * from "./model-applicability";
export * from "./model-example-instance";
export * from "./readings";
export * from "./plans-that-hold";
