/**
 * The place stage: where to checkpoint a job made of slices under a failure law
 * ([BTW10], [BKT]; docs/science.md §5). Data flow:
 *
 *   slices (p, c or size → costs-from-sizes) + law (laws/) → placeJob → Placement
 *     placeJob: solveDp (variable- or constant-cost DP) and the Young / Daly / none
 *     baselines, each evaluated by expectedWaste under both objectives, optionally
 *     simulated (first-failure waste, restart makespan), with a time line for plots.
 *   solveBatch: the DP over many jobs on worker threads.
 */
export * from "./laws";
export * from "./job";
export * from "./objective";
export * from "./quantize-costs";
export * from "./costs-from-sizes";
export * from "./parse-slices-csv";
export * from "./expected-waste";
export * from "./dp-memory";
export * from "./variable-cost-dp";
export * from "./constant-cost-dp";
export * from "./solve-dp";
export * from "./checkpoint-periods";
export * from "./map-period-to-slices";
export * from "./simulate-first-failure";
export * from "./simulate-restarts";
export * from "./timeline";
export * from "./place-job";
export * from "./desktop-grid-workload";
export * from "./solve-batch";
