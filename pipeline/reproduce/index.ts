/**
 * The reproduce stage's library: every published number of the papers the project can
 * recompute, ours next to it, and a verdict (reproduction.ts), row by row for the bandwidth
 * model, the transcribed tables, ScheduleCkpt's campaigns, Daly's periods, the [BKT] and
 * [DAS06] simulators and the investigations; `reproductionRows` makes them all from the
 * artifacts the pipeline produced. The report prints them (report/reproduction/).
 */
export * from "./reproduction";
export * from "./published-values";
export * from "./published-tables";
export * from "./reproduction-rows";
export * from "./model-reproduction-rows";
export * from "./schedule-reproduction-rows";
export * from "./published-table-rows";
export * from "./daly-rows";
export * from "./bkt-rows";
export * from "./das06-rows";
export * from "./investigation-rows";
export * from "./investigations";
export * from "./paper-campaign";
export * from "./size-series-curve";
